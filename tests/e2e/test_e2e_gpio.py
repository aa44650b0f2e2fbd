"""End to end: a GPIO button press on a background thread -> SeatButtons -> Inbox -> the Kivy
main thread -> the game's input map -> the rules -> SQLite; a new Store on the same file then
sees the step. The app runs in a child process (gpio_child.py) with a Kivy window of its own,
real gpiozero Buttons on the MockFactory and the config from a hardware.toml."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from companion.core.model import Command
from companion.store import Store
from tests.support.wiring import seat

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("gpio_child.py")
HARDWARE = "".join([
    "[buttons]\nundo = 5\n", seat(1, led=True), seat(2, (24, 25, 8)), seat(3),
    "[buzzer]\npin = 12\n"])


def test_a_gpio_press_from_another_thread_is_stored(tmp_path):
    db = tmp_path / "companion.sqlite3"
    hardware = tmp_path / "hardware.toml"
    hardware.write_text(HARDWARE, encoding="utf-8")
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", GPIOZERO_PIN_FACTORY="mock",
               KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1",
               KIVY_HOME=str(tmp_path / "kivy"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                        os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, str(CHILD), str(db), str(hardware)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])

    assert report["hardware_problem"] == ""
    assert "seat2.pass" in report["buttons"]
    assert report["pressed"] and not report["refusal"]
    assert report["steps"] == 2                                    # play_role, then the press
    assert report["command"] == {"do": "pass", "player": report["awaited"]}
    assert report["listener_threads"] == [report["main_thread"]]  # applied on the main thread

    with Store(db) as store:                                       # what a power cut keeps
        (game,) = store.unfinished()
        assert game.id == report["game_id"]
        steps = list(store.steps(game.id))
    assert [s.command.do for s in steps] == ["play_role", "pass"]
    assert steps[-1].command == Command("pass", report["awaited"])
