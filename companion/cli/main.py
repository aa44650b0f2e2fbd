"""The ``companion`` command's parser and its dispatch. The pure subcommands are this package's
modules (play, history, check, doctor, club); the app (``run``) and the hardware tools plug in through
the ``companion.commands`` entry point group, so this package never imports Kivy, gpiozero or
pyserial.

Exit status (status.py) 0 when the command did its work, 1 when ``replay --strict`` stops at a
refused line or ``check`` finds a problem it did not repair, 2 when a file, the database or a
game number cannot be used: then one line on standard error names the file, the line where
there is one, and what is wrong. Whatever a person can type or a disk can hold ends in such a
line, never in a traceback."""

from __future__ import annotations

import argparse
import os
import shlex
import sqlite3
import sys
from typing import Callable, Sequence

from companion import __version__
from companion.cli import doctor
from companion.cli.check import cmd_check
from companion.cli.files import database_name, file_label, one_line, say
from companion.cli.play import cmd_export, cmd_replay
from companion.cli.plugins import found, plug_in
from companion.cli.status import EXIT_DONE, EXIT_UNUSABLE, Unusable
from companion.games import all_games


#: The commands of companion/cli/history.py, by the name each has there.
HISTORY = {"history": "cmd_history", "stats": "stats", "backup": "backup", "restore": "restore",
           "import": "import_games"}


def _history(name: str) -> Callable[[argparse.Namespace], int]:
    """A command of companion/cli/history.py, imported when it runs (its work pulls in the
    history's modules, which replay and the app do not need)."""
    def run(args: argparse.Namespace) -> int:
        from companion.cli import history

        return getattr(history, name)(args)
    return run


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, Callable[[argparse.Namespace], int]]]:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="The table companion: keeps the books beside real cardboard board games "
                    f"({', '.join(r.title for r in all_games().values())}).")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {}

    p = sub.add_parser("replay", help="play a table script (JSON lines) and print the final state")
    p.add_argument("file", help="the script, or - for standard input")
    p.add_argument("--strict", action="store_true", help="stop at the first refused line (exit 1)")
    p.add_argument("--db", type=database_name, help="also store the game in this database")
    handlers["replay"] = cmd_replay

    p = sub.add_parser("export", help="write a stored game as a table script, or every game "
                                      "(--all) as csv, json or jsonl")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--log", type=int, metavar="GAME_ID", help="the game's number")
    which.add_argument("--all", action="store_true",
                       help="every finished game: players, scores, winners, length, setup")
    p.add_argument("--db", type=database_name, help="the database (default: the user data directory)")
    p.add_argument("-o", "--output", "--out", help="write to this file instead of standard output")
    p.add_argument("--force", action="store_true",
                   help="with -o: replace the file if it exists (with a whole new file)")
    p.add_argument("--raw", action="store_true",
                   help="the game's rows exactly as stored (also for a game that does not fold)")
    p.add_argument("--format", choices=("csv", "json", "jsonl"),
                   help="with --all: csv (a row per seat), json (a list) or jsonl (one game "
                        "a line, the default)")
    p.add_argument("--since", metavar="DATE",
                   help="with --all: games started on or after this local date (2026-11-01)")
    p.add_argument("--include-unfinished", action="store_true",
                   help="with --all: running and abandoned games too")
    handlers["export"] = cmd_export

    p = sub.add_parser("history", help="list stored games with their results")
    p.add_argument("--db", type=database_name, help="the database (default: the user data directory)")
    p.add_argument("--json", action="store_true", help="as JSON")

    p = sub.add_parser("stats", help="wins, win rate, scores, length and streaks per player "
                                     "and per game")
    p.add_argument("--player", metavar="NAME", help="only the games this player sat in")
    p.add_argument("--game", metavar="TITLE", help="only this game (its title or name)")
    p.add_argument("--db", type=database_name, help="the database (default: the user data directory)")
    p.add_argument("--json", action="store_true", help="as JSON")

    p = sub.add_parser("backup", help="copy the database to FILE (works while the app runs)")
    p.add_argument("file", metavar="FILE", help="the backup file to write")
    p.add_argument("--db", type=database_name, help="the database (default: the user data directory)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")

    p = sub.add_parser("restore", help="make a backup the game database (the current one is "
                                       "kept aside)")
    p.add_argument("file", metavar="FILE", help="a backup written by companion backup")
    p.add_argument("--db", type=database_name, help="the database (default: the user data directory)")

    p = sub.add_parser("import", help="merge games exported by another table (export --all, "
                                      "jsonl or json) by their uuids")
    p.add_argument("files", nargs="+", metavar="FILE", help="files written by export --all")
    p.add_argument("--db", type=database_name, help="the database (default: the user data directory)")

    for command, name in HISTORY.items():
        handlers[command] = _history(name)

    p = sub.add_parser("check", help="check the database and that every stored game plays")
    p.add_argument("--db", type=database_name, help="the database (default: the user data directory)")
    p.add_argument("--repair", action="store_true",
                   help="set aside the steps (or games) that cannot be played; nothing is deleted")
    handlers["check"] = cmd_check

    from companion.cli import club

    p = sub.add_parser("club", help=club.HELP)
    handlers.update(club.add_arguments(p))

    # companion doctor: the machine's lines (companion/cli/doctor.py), then the hardware plugin's
    plugins = found("companion.commands")
    hardware = plugins.pop("doctor").load() if "doctor" in plugins else None
    p = sub.add_parser("doctor", help=doctor.HELP)
    doctor.add_arguments(p, hardware)
    handlers["doctor"] = doctor.runner(hardware)

    handlers.update(plug_in(sub, plugins.values()))
    return parser, handlers


def as_run(text: str, argv: Sequence[str] | None) -> str:
    """A refusal that ends "run it as its owner: sudo -u pi companion ...": the command this
    process was given put in place of the dots, so the line can be run as it stands."""
    if not text.endswith(" companion ..."):
        return text
    given = list(sys.argv[1:] if argv is None else argv)
    return text[:-len("...")] + shlex.join(file_label(str(a)) for a in given)


def main(argv: Sequence[str] | None = None) -> int:
    parser, handlers = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_DONE
    try:
        return handlers[args.command](args)
    except Unusable as problem:
        say(f"companion {args.command}: {as_run(one_line(problem), argv)}", sys.stderr)
        return EXIT_UNUSABLE
    except sqlite3.DatabaseError as problem:
        # A page of a game's log damaged while the file rested (a clean start and a reader
        # check only the lists' tables): named in one line, as every unusable file is.
        say(f"companion {args.command}: the game database failed ({problem}); "
            "`companion check` names the damaged game", sys.stderr)
        return EXIT_UNUSABLE
    except BrokenPipeError:
        # The reader went away (`companion stats | head`): nothing of ours failed. Further
        # writes (and the interpreter's last flush) go nowhere instead of raising again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_DONE
