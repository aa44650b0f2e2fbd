"""``companion run`` is a plugin of the CLI that does not import Kivy until it runs."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_importing_the_command_does_not_import_kivy():
    code = "import sys, ui.command; from companion.cli import build_parser; build_parser(); " \
           "print('kivy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_run_arguments():
    import ui.command
    from companion.cli import build_parser

    parser, handlers = build_parser()
    args = parser.parse_args(["run", "--demo", "--db", "x.sqlite3", "--size", "1280x720",
                              "--hardware", "hw.toml", "--fullscreen"])
    assert handlers["run"] is ui.command.run
    assert (args.demo, args.db, args.size, args.hardware, args.fullscreen) == \
        (True, "x.sqlite3", (1280, 720), "hw.toml", True)
    defaults = parser.parse_args(["run"])
    assert (defaults.demo, defaults.db, defaults.size, defaults.fullscreen) == \
        (False, None, (800, 480), False)
    with pytest.raises(SystemExit):
        parser.parse_args(["run", "--size", "big"])
