"""``companion run``: start the app (placeholder until the app lands)."""
HELP = "start the touchscreen app"


def add_arguments(parser):
    parser.add_argument("--demo", action="store_true")


def run(args):
    from ui.app import main

    return main(args)
