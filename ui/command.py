"""``companion run``: start the touchscreen app.

Plugged into the ``companion`` CLI through the ``companion.commands`` entry point. Kivy is
imported only inside :func:`run`: ``companion --help`` and the pure subcommands must work on a
machine without a display, and Kivy reads its settings when it is first imported.
"""

from __future__ import annotations

import argparse
import logging
import os

HELP = "start the touchscreen app (--demo: mock buttons, keyboard keys stand in for them)"


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size: give WIDTHxHEIGHT like 800x480, not {text!r}")
    if width < 320 or height < 240:
        raise argparse.ArgumentTypeError(f"size: {text} is too small (at least 320x240)")
    return width, height


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--demo", action="store_true",
                        help="mock GPIO buttons; keyboard keys (printed on screen) press them")
    parser.add_argument("--db", metavar="PATH",
                        help="the game database (default: the user data directory; with --demo "
                             "its own file beside it, companion.demo.sqlite3)")
    parser.add_argument("--hardware", metavar="TOML",
                        help="the hardware config (default: hardware.toml in the user config "
                             "directory, ~/.config/table-companion/ on Linux, if present; the "
                             "app's Hardware screen edits it)")
    parser.add_argument("--size", type=_size, default=(800, 480), metavar="WxH",
                        help="window size (default 800x480, the Pi 7\" display)")
    parser.add_argument("--fullscreen", action="store_true",
                        help="fill the screen (the kiosk on the Pi)")


class KioskLog(logging.Filter):
    """A normal start logs no error: on a kiosk without X11 Kivy finds no cut buffer (xclip or
    xsel) and says so as CRITICAL with two tracebacks. Text fields copy and paste within the
    app (SDL's clipboard) and nothing else needs one, so that record becomes one INFO line."""

    NO_CUT_BUFFER = "Cutbuffer: Unable to find any valuable Cutbuffer provider"

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith(self.NO_CUT_BUFFER):
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg, record.args, record.exc_info = (
                "Cutbuffer: none (no xclip or xsel: copy and paste stay within the app)", (),
                None)
        return True


def configure_kivy(size: tuple[int, int], fullscreen: bool) -> None:
    """Kivy settings that must be in place before Kivy's window module is imported."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.config import Config
    from kivy.logger import Logger

    Logger.addFilter(KioskLog())

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "maxfps", "30")          # a board game needs no 60 frames a second
    Config.set("kivy", "exit_on_escape", "0")       # a kiosk is not closed by a stray key
    Config.set("input", "mouse", "mouse,disable_multitouch")  # no red dots on right click
    if fullscreen:
        Config.set("graphics", "show_cursor", "0")
        Config.set("kivy", "keyboard_mode", "systemanddock")  # names typed on the touchscreen


def run(args: argparse.Namespace) -> int:
    configure_kivy(args.size, args.fullscreen)
    from ui.app import CompanionApp
    from ui.service import stop_on_sigterm

    from companion.store import demo_path

    db = args.db or (str(demo_path()) if args.demo else None)  # demo games stay out of history
    app = CompanionApp(db_path=db, demo=args.demo, hardware_path=args.hardware)
    stop_on_sigterm(app)  # systemctl stop: on_stop closes the store, the game resumes
    app.run()
    return 0
