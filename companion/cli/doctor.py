"""``companion doctor``: is this machine ready to be the table's companion? One line each, ok,
WARN or FAIL, for what a Pi owner cannot see from the table: the Python, the game database, the
display driver; then the hardware's own sections (the pin factory, the config, every button,
LED and the buzzer, the serial ports, the dice tray, the groups) from the ``doctor`` plugin of
the ``companion.commands`` entry points (:mod:`hardware.commands`), and with ``--display`` the
GL renderer the app would get, probed by that plugin in a child process: a window is opened only
when asked (on the kiosk the app holds the screen; stop it first).

The machine's part lives here and stays pure (no Kivy, no gpiozero): the checks read files and
the environment and never open a window, so they run in the tests and over SSH. The database
is only read (``mode=ro``): the doctor works while the app plays and never creates, moves or
changes a file. Exit status 0 when nothing FAILed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, TextIO

from companion.cli.files import database_name

OK, WARN, FAIL = "ok", "WARN", "FAIL"     # as the hardware sections write them
#: The Pythons the companion runs on: pyproject's ``requires-python`` (Kivy has wheels for
#: 3.11-3.13 on aarch64); tests/test_doctor.py holds the two equal.
PYTHONS = ((3, 11), (3, 14))              # from, up to (not included)
HELP = ("check this machine for the table: Python, the game database, the display driver, "
        "then the hardware (pins, buttons, LEDs, serial, dice tray; --display: GL)")


@dataclass(frozen=True)
class Line:
    status: str
    text: str


def on_raspberry_pi(model: Path = Path("/proc/device-tree/model")) -> bool:
    """A missing display driver only matters on the Pi the table runs on."""
    try:
        return "Raspberry Pi" in model.read_text(errors="replace")
    except OSError:
        return False


def check_python(version: tuple[int, ...] = tuple(sys.version_info[:3])) -> Line:
    shown = ".".join(map(str, version))
    low, high = PYTHONS
    supported = f"{low[0]}.{low[1]} to {high[0]}.{high[1] - 1}"
    if low <= tuple(version[:2]) < high:
        return Line(OK, f"Python {shown} (the companion runs on {supported})")
    return Line(FAIL, f"Python {shown}: the companion runs on Python {supported} (pyproject's "
                      "requires-python); install one of those and the app again")


def check_database(path: str | os.PathLike[str]) -> Line:
    """The game database, opened read-only: its schema version and how many games it holds."""
    from companion.core.errors import StoreError
    from companion.store.opening import connect_reader
    from companion.store.schema import SCHEMA_VERSION

    path = str(path)
    if not os.path.lexists(path):
        return Line(WARN, f"no game database at {path} yet (the app makes it at its first "
                          "start; another path: --db or $COMPANION_DB)")
    if not os.access(path, os.R_OK):
        return Line(FAIL, f"the game database {path} cannot be read by this user (run the "
                          "doctor as the app's user: sudo -u companion companion doctor)")
    try:
        conn = connect_reader(path)
    except StoreError as problem:
        return Line(FAIL, str(problem))
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    except Exception as problem:  # sqlite3.Error: a file that passed the check, then failed
        return Line(FAIL, f"the game database {path} cannot be read ({problem})")
    finally:
        conn.close()
    count = f"{games} game{'' if games == 1 else 's'}"
    if version < SCHEMA_VERSION:
        return Line(OK, f"{path}: schema {version}, {count} (brought up to schema "
                        f"{SCHEMA_VERSION} when the app next opens it)")
    return Line(OK, f"{path}: schema {version}, {count}")


def check_video_driver(environ: Mapping[str, str], on_pi: bool) -> Line:
    """SDL_VIDEODRIVER: the kiosk unit sets kmsdrm (the console, no desktop)."""
    driver = environ.get("SDL_VIDEODRIVER", "").strip()
    if driver == "kmsdrm":
        return Line(OK, "SDL_VIDEODRIVER=kmsdrm: the console, as the kiosk unit draws")
    if driver in ("offscreen", "dummy"):
        return Line(WARN, f"SDL_VIDEODRIVER={driver}: the app would draw nowhere anyone sees "
                          "(a test setting)")
    if not on_pi:
        said = f"SDL_VIDEODRIVER={driver}" if driver else "SDL_VIDEODRIVER not set"
        return Line(OK, f"{said}: SDL uses the desktop's window system")
    said = f"SDL_VIDEODRIVER={driver}" if driver else "SDL_VIDEODRIVER is not set here"
    return Line(WARN, f"{said}: the kiosk unit sets kmsdrm; to check as the kiosk runs: sudo "
                      "systemctl stop table-companion, then sudo -u companion env "
                      "SDL_VIDEODRIVER=kmsdrm companion doctor --display")


def machine_lines(db: str | None, environ: Mapping[str, str] = os.environ,
                  on_pi: bool | None = None) -> list[Line]:
    from companion.store import default_path

    on_pi = on_raspberry_pi() if on_pi is None else on_pi
    return [check_python(), check_database(db or default_path()),
            check_video_driver(environ, on_pi)]


def report(lines: list[Line], out: TextIO) -> int:
    """Print the lines as the hardware sections do; the number that FAILed."""
    print("companion doctor: this machine", file=out, flush=True)
    for line in lines:
        print(f"  {line.status:<5} {line.text}", file=out, flush=True)
    failed, warned = (sum(line.status == status for line in lines) for status in (FAIL, WARN))
    print(f"  this machine: {failed} failed, {warned} warning{'' if warned == 1 else 's'}",
          file=out, flush=True)
    return failed


# -- the command -----------------------------------------------------------------------------
def add_arguments(parser: argparse.ArgumentParser, hardware: Any = None) -> None:
    """The machine's options, and the hardware plugin's (``--hardware``, ``--demo``, ...)."""
    mine = ("One line each (ok, WARN, FAIL): the Python, the game database (read only), the "
            "display driver; then the table's hardware. Exit status 1 if anything FAILed.")
    parser.description = mine
    parser.add_argument("--db", type=database_name, metavar="PATH",
                        help="the game database (default: the user data directory, or "
                             "$COMPANION_DB)")
    parser.add_argument("--display", action="store_true",
                        help="also open a tiny window to read the GL renderer the app would "
                             "get (llvmpipe: no graphics chip); stop the kiosk first")
    if hardware is not None:
        hardware.add_arguments(parser)
        parser.description = f"{mine} The hardware: {parser.description or ''}"


def runner(hardware: Any = None, out: TextIO | None = None) -> Callable[[argparse.Namespace], int]:
    """``run(args)`` for the CLI: the machine's lines, then the hardware plugin's sections (its
    GL renderer probe only with ``--display``)."""
    def run(args: argparse.Namespace) -> int:
        stream = out or sys.stdout
        failed = report(machine_lines(args.db), stream)
        if hardware is None:
            print(f"  {WARN:<5} the hardware checks are not installed (the companion's "
                  "hardware package is missing)", file=stream, flush=True)
            return 1 if failed else 0
        print(file=stream, flush=True)
        args.gl = bool(getattr(args, "gl", True) and args.display)
        return 1 if hardware.run(args) or failed else 0
    return run
