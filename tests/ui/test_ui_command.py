"""``companion run`` is a plugin of the CLI that does not import Kivy until it runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def test_importing_the_command_does_not_import_kivy():
    code = "import sys, ui.kiosk.command; from companion.cli.main import build_parser; " \
           "build_parser(); print('kivy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_run_arguments():
    import ui.kiosk.command
    from companion.cli.main import build_parser

    parser, handlers = build_parser()
    args = parser.parse_args(["run", "--demo", "--db", "x.sqlite3", "--size", "1280x720",
                              "--hardware", "hw.toml", "--fullscreen"])
    assert handlers["run"] is ui.kiosk.command.run
    assert (args.demo, args.db, args.size, args.hardware, args.fullscreen) == \
        (True, "x.sqlite3", (1280, 720), "hw.toml", True)
    defaults = parser.parse_args(["run"])
    assert (defaults.demo, defaults.db, defaults.size, defaults.fullscreen) == \
        (False, None, (800, 480), False)
    with pytest.raises(SystemExit):
        parser.parse_args(["run", "--size", "big"])


def _start_logs(tmp_path, import_line: str) -> str:
    """What a fresh Python logs when ``companion run``'s Kivy settings are in place and then
    ``import_line`` runs (console log on, its own KIVY_HOME, a minimal PATH)."""
    code = ("from ui.kiosk.command import configure_kivy\n"
            f"configure_kivy((800, 480), False)\n{import_line}\n")
    env = {k: v for k, v in os.environ.items() if k != "KIVY_NO_CONSOLELOG"}
    env.update(SDL_VIDEODRIVER="offscreen", KIVY_HOME=str(tmp_path), PATH="/usr/bin:/bin",
               PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=120)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    return said


def test_a_start_without_a_cut_buffer_logs_no_error(tmp_path):
    """No xclip or xsel (a kiosk has no X11): one INFO line, no CRITICAL and no traceback."""
    said = _start_logs(tmp_path, "from kivy.core.clipboard import CutBuffer")
    if "Cutbuffer: Provider" in said:      # xclip or xsel found on this machine: nothing to say
        return
    assert "none (no xclip or xsel: copy and paste stay within the app)" in said
    assert "CRITICAL" not in said and "Traceback" not in said and "FileNotFoundError" not in said


def test_a_start_without_libmtdev_logs_one_line_and_no_traceback(tmp_path):
    """Kivy's input providers are imported at start; without libmtdev (any PC, a Pi before
    apt-get install libmtdev1) that is one INFO line saying what it means, no ERROR."""
    said = _start_logs(tmp_path, "import kivy.input")
    assert "ERROR" not in said and "CRITICAL" not in said and "Traceback" not in said, said
    import ctypes

    try:
        ctypes.CDLL("libmtdev.so.1")
    except OSError:
        assert said.count("libmtdev not installed") == 1, said
        assert "touch panels are read by the window system" in said
    else:                                  # installed on this machine: nothing to say
        assert "libmtdev not installed" not in said


def _mtdev_record(problem: Exception):
    import logging

    try:
        raise problem
    except Exception:
        return logging.LogRecord("kivy", logging.ERROR, __file__, 1,
                                 "Input: MTDev is not supported by your version of linux", (),
                                 sys.exc_info())


@pytest.mark.parametrize("driver, level, words", [
    ("offscreen", "INFO", "touch panels are read by the window system"),
    ("x11", "INFO", "touch panels are read by the window system"),
    ("kmsdrm", "WARNING", "the touch panel is not read; install it: sudo apt-get install "
                          "libmtdev1"),
])
def test_a_missing_libmtdev_is_one_line_the_kiosk_s_a_warning(monkeypatch, driver, level, words):
    """On the kiosk mtdev is what reads the panel: without it no finger is seen, so the line
    is a warning there; elsewhere the window system reads touch and it is only information."""
    from ui.kiosk.command import KioskLog

    monkeypatch.setenv("SDL_VIDEODRIVER", driver)
    record = _mtdev_record(OSError("libmtdev.so.1: cannot open shared object file: No such "
                                   "file or directory"))
    assert KioskLog().filter(record)
    assert (record.levelname, record.exc_info) == (level, None)
    assert record.getMessage().startswith("mtdev: libmtdev not installed") and \
        words in record.getMessage() and "\n" not in record.getMessage()


def test_another_mtdev_failure_keeps_its_error_and_traceback():
    """Only the missing library is explained away: a broken mtdev module stays an ERROR."""
    from ui.kiosk.command import KioskLog

    record = _mtdev_record(AttributeError("module 'kivy.lib.mtdev' has no attribute 'Device'"))
    assert KioskLog().filter(record)
    assert record.levelname == "ERROR" and record.exc_info is not None
    assert record.getMessage().startswith("Input: MTDev is not supported")


@pytest.mark.parametrize("argv, expected", [
    (["run", "--demo"], "{data}/companion.demo.sqlite3"),
    (["run"], None),                                     # the app's default: the real database
    (["run", "--demo", "--db", "mine.sqlite3"], "mine.sqlite3"),
])
def test_demo_mode_keeps_its_own_database(monkeypatch, tmp_path, argv, expected):
    """Games played to try the app never reach the table's history: --demo without --db opens
    companion.demo.sqlite3 beside the real database."""
    import ui.app
    import ui.kiosk.command
    from companion.cli.main import build_parser

    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "companion.sqlite3"))
    opened = []

    class Recorder:
        def __init__(self, db_path=None, demo=False, hardware_path=None):
            opened.append(db_path)

        def run(self):
            pass

    monkeypatch.setattr(ui.kiosk.command, "configure_kivy", lambda *_: None)
    monkeypatch.setattr(ui.app, "CompanionApp", Recorder)
    monkeypatch.setattr("ui.kiosk.service.stop_on_sigterm", lambda app: None)
    parser, handlers = build_parser()
    assert handlers["run"](parser.parse_args(argv)) == 0
    assert opened == [expected.format(data=tmp_path) if expected else None]


def test_a_first_start_says_nothing_of_kivy_s_configuration(tmp_path):
    """A newcomer's first start once printed "Older configuration version detected", that
    it was upgrading, and a DEBUG line; Kivy's config.ini is not used, so none of that."""
    said = _start_logs(tmp_path, "import kivy.core.window")
    assert "Older configuration" not in said and "Upgrading" not in said, said
    assert "DEBUG" not in said, said
    assert not (tmp_path / "config.ini").exists()


def test_no_sound_device_is_one_line_not_a_critical():
    import logging

    from ui.kiosk.command import KioskLog

    record = logging.LogRecord("kivy", logging.CRITICAL, __file__, 1,
                               "AudioSDL2: Unable to open mixer: No such audio device", (), None)
    assert KioskLog().filter(record)
    assert record.levelname == "INFO"
    assert record.getMessage() == "Sound: no sound device: sounds off"


def test_the_keyboard_argument_and_where_auto_docks_kivy_s_keyboard(tmp_path, monkeypatch):
    """Demo mode on a touch-only screen once had no on-screen keyboard (it docked only
    full screen). ``--keyboard auto`` (the default) docks Kivy's VKeyboard full screen and
    wherever Linux lists no keyboard among its input devices; dock and system choose."""
    from companion.cli.main import build_parser
    from ui.kiosk.command import keyboard_mode, plugged_keyboard

    parser, _handlers = build_parser()
    assert parser.parse_args(["run"]).keyboard == "auto"
    assert parser.parse_args(["run", "--demo", "--keyboard", "dock"]).keyboard == "dock"
    with pytest.raises(SystemExit):
        parser.parse_args(["run", "--keyboard", "qwerty"])
    devices = tmp_path / "input"
    assert plugged_keyboard(devices) is None                  # nothing to read: cannot tell
    (devices / "by-path").mkdir(parents=True)
    (devices / "by-path" / "platform-fe205000.i2c-event").touch()   # the touch panel
    assert plugged_keyboard(devices) is False
    (devices / "by-id").mkdir()
    (devices / "by-id" / "usb-Logitech_USB_Keyboard-event-kbd").touch()
    assert plugged_keyboard(devices) is True
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    assert keyboard_mode("auto", False, False) == "systemanddock"   # the touch-only demo
    assert keyboard_mode("auto", True, True) == "systemanddock"     # the kiosk
    assert keyboard_mode("auto", False, True) == "system"           # a desktop
    assert keyboard_mode("auto", False, None) == "system"
    assert keyboard_mode("dock", False, True) == "systemanddock"
    assert keyboard_mode("system", True, False) == "system"
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")              # headless: nobody types
    assert keyboard_mode("auto", False, False) == "system"


def test_run_sets_kivy_s_keyboard_mode_before_the_window(tmp_path):
    code = ("from ui.kiosk.command import configure_kivy\n"
            "configure_kivy((800, 480), False, 'dock')\n"
            "from kivy.config import Config\n"
            "print(Config.get('kivy', 'keyboard_mode'))\n")
    env = {**os.environ, "KIVY_HOME": str(tmp_path), "KIVY_NO_CONSOLELOG": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "systemanddock"
