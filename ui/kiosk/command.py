"""``companion run``: start the touchscreen app.

Plugged into the ``companion`` CLI through the ``companion.commands`` entry point. Kivy is
imported only inside :func:`run`: ``companion --help`` and the pure subcommands must work on a
machine without a display, and Kivy reads its settings when it is first imported.
"""

from __future__ import annotations

import argparse
import logging
import os
from pathlib import Path

from companion.cli.files import database_name

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
    parser.add_argument("--db", type=database_name, metavar="PATH",
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
    parser.add_argument("--keyboard", choices=KEYBOARDS, default="auto",
                        help="the on-screen keyboard: dock (docked at the bottom while a field "
                             "is typed in), system (none: a real keyboard), auto (default: "
                             "docked full screen or where no keyboard is plugged in)")


#: ``--keyboard``'s choices (auto: :func:`keyboard_mode` decides)
KEYBOARDS = ("auto", "dock", "system")


def plugged_keyboard(devices: Path = Path("/dev/input")) -> bool | None:
    """Whether a keyboard is plugged in, as Linux names its event devices (a USB or built-in
    keyboard is ``by-id/*-event-kbd`` or ``by-path/*-event-kbd``; a touch panel never is);
    None where there is no such folder to read (not Linux): then nobody can tell."""
    try:
        names = [p.name for folder in ("by-id", "by-path") if (devices / folder).is_dir()
                 for p in (devices / folder).iterdir()]
    except OSError:
        return None
    if not names and not devices.is_dir():
        return None
    return any(name.endswith("-event-kbd") for name in names)


def keyboard_mode(choice: str, fullscreen: bool, plugged: bool | None) -> str:
    """Kivy's ``keyboard_mode`` for ``--keyboard``: "systemanddock" (Kivy's VKeyboard docked
    at the bottom while a field has the focus, keys still typed too) for dock; "system" for
    system. auto docks it in the kiosk (full screen) and wherever no keyboard is plugged in
    (else demo mode on a touch-only screen has no way to type a name); a headless window
    (the tests' offscreen driver) has nobody to type, so it is never docked by auto."""
    if choice == "dock":
        return "systemanddock"
    if choice == "system":
        return "system"
    if os.environ.get("SDL_VIDEODRIVER") in ("offscreen", "dummy"):
        return "system"
    return "systemanddock" if fullscreen or plugged is False else "system"


class KioskLog(logging.Filter):
    """A normal start logs no error. Two of Kivy's records look like a crash and are not:

    - On a kiosk without X11 Kivy finds no cut buffer (xclip or xsel) and says so as CRITICAL
      with two tracebacks. Text fields copy and paste within the app (SDL's clipboard) and
      nothing else needs one, so that record becomes one INFO line.
    - Without libmtdev (any PC, or a Pi before ``apt-get install libmtdev1``) Kivy's input
      providers log "MTDev is not supported" as ERROR with the failed ``dlopen``'s traceback.
      On a desktop the window system hands touch over as the mouse
      (``ui.kiosk.touch.touch_inputs``), so that is one INFO line. On the console (kmsdrm, the
      kiosk) mtdev is what reads the panel, so the same line is a WARNING there: the screen
      will not answer a finger until the package is installed. Any other failure of that
      import keeps its error and traceback.
    - A machine without a sound device: SDL's audio says "Unable to open mixer" as CRITICAL.
      The cues are only cues (ui/table/sound.py): one INFO line, "no sound device: sounds
      off"."""

    NO_CUT_BUFFER = "Cutbuffer: Unable to find any valuable Cutbuffer provider"
    NO_MIXER = "Unable to open mixer"
    CONFIG_UPGRADE = "Config: Upgrading from"
    NO_MTDEV = "Input: MTDev is not supported"
    MTDEV_LIBRARY = "libmtdev.so"

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith(self.CONFIG_UPGRADE):
            return False          # Kivy's own config.ini is not used (configure_kivy)
        if str(record.msg).startswith(self.NO_CUT_BUFFER):
            self._one_line(record, logging.INFO,
                           "Cutbuffer: none (no xclip or xsel: copy and paste stay within the app)")
        elif self.NO_MIXER in str(record.msg):
            self._one_line(record, logging.INFO, "Sound: no sound device: sounds off")
        elif str(record.msg).startswith(self.NO_MTDEV) and self._no_library(record):
            if os.environ.get("SDL_VIDEODRIVER") == "kmsdrm":
                self._one_line(record, logging.WARNING,
                               "mtdev: libmtdev not installed, so the touch panel is not read; "
                               "install it: sudo apt-get install libmtdev1")
            else:
                self._one_line(record, logging.INFO,
                               "mtdev: libmtdev not installed; touch panels are read by the "
                               "window system, as the mouse (the kiosk needs it: install "
                               "libmtdev1)")
        return True

    def _no_library(self, record: logging.LogRecord) -> bool:
        """Whether the record's exception is the library missing, not some other failure."""
        problem = record.exc_info[1] if record.exc_info else None
        return isinstance(problem, OSError) and self.MTDEV_LIBRARY in str(problem)

    @staticmethod
    def _one_line(record: logging.LogRecord, level: int, text: str) -> None:
        record.levelno, record.levelname = level, logging.getLevelName(level)
        record.msg, record.args, record.exc_info, record.exc_text = text, (), None, None


def configure_kivy(size: tuple[int, int], fullscreen: bool, keyboard: str = "auto") -> None:
    """Kivy settings that must be in place before Kivy's window module is imported. Kivy's
    own config.ini is neither read nor written (every setting the app needs is set here): a
    first start says nothing about "Older configuration version" and upgrading it."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONFIG", "1")
    # Kivy's Logger is logging's "kivy": filtered before the first import of kivy logs
    kivy_log = logging.getLogger("kivy")
    if not any(isinstance(f, KioskLog) for f in kivy_log.filters):
        kivy_log.addFilter(KioskLog())
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "maxfps", "30")          # a board game needs no 60 frames a second
    Config.set("kivy", "exit_on_escape", "0")       # a kiosk is not closed by a stray key
    Config.set("input", "mouse", "mouse,disable_multitouch")  # no red dots on right click
    if fullscreen:
        Config.set("graphics", "show_cursor", "0")
    # names typed on the touchscreen where there is no keyboard (keyboard_mode)
    Config.set("kivy", "keyboard_mode", keyboard_mode(keyboard, fullscreen, plugged_keyboard()))


def run(args: argparse.Namespace) -> int:
    configure_kivy(args.size, args.fullscreen, getattr(args, "keyboard", "auto"))
    from ui.app import CompanionApp
    from ui.kiosk.service import stop_on_sigterm

    from companion.store import demo_path

    db = args.db or (str(demo_path()) if args.demo else None)  # demo games stay out of history
    app = CompanionApp(db_path=db, demo=args.demo, hardware_path=args.hardware)
    stop_on_sigterm(app)  # systemctl stop: on_stop closes the store, the game resumes
    app.run()
    return 0
