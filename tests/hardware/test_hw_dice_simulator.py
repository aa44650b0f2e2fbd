"""``companion dicesim`` and the simulator's script: driven in-process, read by a DiceReader."""

import argparse
import os
import threading

import pytest

from companion.core.model import InputEvent
from hardware.commands import default_link, dicesim
from hardware.dice import DiceReader, DiceSimulator, DiceStatus
from hardware.dice.simulator import run_script


def parse(*argv):
    parser = argparse.ArgumentParser(prog="companion dicesim")
    dicesim.add_arguments(parser)
    return parser.parse_args(list(argv))


class Events:
    def __init__(self):
        self.cond = threading.Condition()
        self.items = []

    def put(self, item):
        with self.cond:
            self.items.append(item)
            self.cond.notify_all()

    def wait_len(self, n, timeout=5.0):
        with self.cond:
            return self.cond.wait_for(lambda: len(self.items) >= n, timeout)


def test_random_rolls_print_the_port_and_remove_the_link(tmp_path, capsys):
    link = tmp_path / "tray"
    code = dicesim.run(parse("--link", str(link), "--count", "3", "--interval", "0.01",
                             "--moving", "-1", "--seed", "4", "--dice", "a,b"))
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0].startswith("dicesim: dice tray on /dev/")
    assert str(link) in out[1]
    rolls = [line for line in out if line.startswith("-> ")]
    assert len(rolls) == 3
    assert not os.path.lexists(link)


def test_script_with_unplug_reaches_a_reader(tmp_path):
    link = tmp_path / "tray"
    script = tmp_path / "game.txt"
    script.write_text("# a quest turn\nMOVING m1\nROLL m1=2 m2=4 m3=6\n@unplug\n@wait 0.05\n"
                      "@replug\n@wait 0.3\nDIE d1 5\nBTN seat1.claim\n", encoding="utf-8")
    events, statuses = Events(), Events()
    result = {}

    def run():
        result["code"] = dicesim.run(parse("--link", str(link), "--script", str(script),
                                           "--interval", "0.01", "--wait-host", "5", "-q"))

    runner = threading.Thread(target=run)
    runner.start()
    # The link appears as the simulator starts; the reader then connects and says HELLO?,
    # which starts the script (--wait-host).
    appeared = threading.Event()
    for _ in range(500):
        if os.path.lexists(link):
            appeared.set()
            break
        appeared.wait(0.01)
    assert appeared.is_set()
    with DiceReader(str(link), events.put, on_status=statuses.put, backoff=(0.02, 0.05)):
        assert events.wait_len(6), "\n".join(map(str, events.items + statuses.items))
    runner.join(5)
    assert result["code"] == 0
    assert events.items == [
        InputEvent("die_moving", "m1", source="serial"),
        InputEvent("die", "m1", 2, source="serial"), InputEvent("die", "m2", 4, source="serial"),
        InputEvent("die", "m3", 6, source="serial"),
        InputEvent("die", "d1", 5, source="serial"),
        InputEvent("button", "seat1.claim", source="serial"),
    ]
    states = [s.state for s in statuses.items]
    assert DiceStatus.DISCONNECTED in states
    assert states.count(DiceStatus.READY) >= 2


def test_disconnect_every_n_rolls(tmp_path, capsys):
    code = dicesim.run(parse("--link", str(tmp_path / "tray"), "--count", "4", "--interval",
                             "0.01", "--moving", "-1", "--disconnect-every", "2", "--down",
                             "0.01"))
    out = capsys.readouterr().out
    assert code == 0
    assert out.count("unplugged for") == 1 and "plugged in again at /dev/" in out


def test_bad_script_directive_and_bad_dice(tmp_path, capsys):
    script = tmp_path / "bad.txt"
    script.write_text("@explode\n", encoding="utf-8")
    assert dicesim.run(parse("--link", str(tmp_path / "t"), "--script", str(script))) == 2
    assert "unknown directive" in capsys.readouterr().err
    assert dicesim.run(parse("--link", str(tmp_path / "t"), "--dice", "1x")) == 2


def test_faces_argument():
    assert parse("--faces", "0-5").faces == (0, 5)
    with pytest.raises(SystemExit):
        parse("--faces", "6-1")


def test_run_script_counts_lines_and_stops(tmp_path):
    with DiceSimulator(link=tmp_path / "t") as sim:
        stop = threading.Event()
        assert run_script(sim, ["DIE d1 1", "", "DIE d1 2"], interval=0, stop=stop) == 2
        stop.set()
        assert run_script(sim, ["DIE d1 3"], interval=0, stop=stop) == 0
        assert sim.sent[-1] == b"DIE d1 2\n"


def test_default_link_is_per_user():
    assert str(os.getuid()) in default_link().name or default_link().name == "dicesim"
