"""Smart dice in the app, end to end on the fake air, whose dice send the makers' recorded
bytes: a hardware.toml with a [ble] section starts the source, its rolls reach the session
on the main thread as the game's dice (by pairing, "any die" in landing order, face names for
stickered faces, a Pixels of the 2023-11-17 firmware read right), a roll nobody asked for is
ignored and counted, a die that is not six-sided is refused by name, and the strip says who
is connected, reconnecting or low, or in one line that there is no Bluetooth."""

from __future__ import annotations

import threading
from contextlib import contextmanager

import pytest

from companion.core.model import Command
from ui_helpers import both_sizes, frames, on_hardware, shot, wait_for

pytest.importorskip("godice", reason="the ble extra (godice) is not installed")

WAIT = 5.0
A, B, M1, M2, M3 = (f"C4:5E:11:22:33:0{n}" for n in range(1, 6))
QUEST_CONFIG = f"""\
[ble]
low_battery = 20

[ble.dice."{A}"]
make = "godice"
name = "GoDice_A"
die = "action_a"
face_names = ["bottle", "bottle", "bottle", "bottle", "hat", "hat"]

[ble.dice."{B}"]
make = "pixels"
name = "PixelB"
die = "action_b"
face_names = [2, 3, 3, 4, "spell", "spell"]

[ble.dice."{M1}"]
make = "pixels"
name = "Pixel1"

[ble.dice."{M2}"]
make = "godice"
name = "GoDice_2"

[ble.dice."{M3}"]
make = "pixels"
name = "Pixel3"

[buzzer]
pin = 12
"""


@contextmanager
def on_config(app, monkeypatch, path, text: str, transport):
    """The app without --demo on ``text`` as its hardware.toml and ``transport`` as the air;
    demo mode is restored afterwards."""
    app.devices.stop()
    monkeypatch.setattr(app, "demo", False)
    monkeypatch.setattr(app.devices, "ble_backoff", (0.05, 0.2))
    monkeypatch.setattr(app.devices.smart_dice, "transport", transport)
    path.write_text(text, encoding="utf-8")
    with on_hardware(app, path, home=False):
        yield app


@pytest.fixture
def table(app, tmp_path, monkeypatch):
    """(app, dice by address): the app without --demo on a config of five smart dice on the
    fake air, a buzzer on a mock pin (beeps in ``app.beeps``)."""
    import gpiozero
    from gpiozero.pins.mock import MockFactory

    from hardware.dice.ble_fake import FakeDie, FakeTransport

    makes = {A: "godice", B: "pixels", M1: "pixels", M2: "godice", M3: "pixels"}
    # Pixel3 runs the firmware of 2023-11-17, whose face indexes mean other faces
    dice = {a: FakeDie(a, m, battery=12 if a == M3 else 80,
                       era="2023-11-17" if a == M3 else "today") for a, m in makes.items()}
    monkeypatch.setattr(gpiozero.Device, "pin_factory", MockFactory())
    with on_config(app, monkeypatch, tmp_path / "hardware.toml", QUEST_CONFIG,
                   FakeTransport(list(dice.values()))):
        assert app.devices.smart_dice.source is not None, app.hardware_problem
        beeps: list[str] = []
        monkeypatch.setattr(app.devices.buzzer, "beep", beeps.append)
        monkeypatch.setattr(app, "beeps", beeps, raising=False)
        assert wait_for(lambda: app.dice_status.startswith("smart dice: 5 of 5 connected"),
                        WAIT), app.dice_status
        yield app, dice


def test_quest_takes_its_action_and_magic_dice_from_the_smart_dice(table):
    app, dice = table
    assert app.dice_status == "smart dice: 5 of 5 connected; Pixel3 battery 12 %"
    assert app.hardware_status == "No buttons configured: smart dice and touch."
    setup = {"game": "quest", "players": ["Anna", "Barb"],
             "needed": ["rotten_egg", "horned_toad", "bat_wing"]}
    assert app.start_game(setup) is None
    session = app.session
    threads: list[threading.Thread] = []
    session.add_listener(lambda s, step: threads.append(threading.current_thread()))

    dice[M1].roll(4)                                   # nobody asked for a magic die yet
    assert wait_for(lambda: "ignored" in app.dice_activity, WAIT)
    assert app.dice_activity == "Pixel1: 4 not asked (1 ignored)"
    assert app.devices.smart_dice.last_ignored == (
        "any die (Pixel1) showed 4: action_a, action_b have dice of their own")
    assert app.prompt["phase"] == "roll" and not app.refusal and app.beeps == []

    dice[A].roll(2)                                    # face 2 of A: bottle
    assert wait_for(lambda: app.dice_activity == "die action_a: bottle", WAIT)
    # A rolled again, twice, and landed each time before B did: each landing replaces the last
    # (each waited for: two dice's landings sent in one breath reach the table in whichever
    # order their links deliver them, as two real dice landing at once would)
    dice[A].roll(5)
    assert wait_for(lambda: app.dice_activity == "die action_a: hat", WAIT)
    dice[A].roll(1)
    assert wait_for(lambda: app.dice_activity == "die action_a: bottle", WAIT)
    dice[B].roll(5)                                    # face 5 of B: spell
    assert wait_for(lambda: app.prompt.get("phase") == "announce", WAIT), app.prompt
    roll = [s.command for s in session.steps if s.command.do == "action_roll"]
    assert roll[-1].args == {"a": "bottle", "b": "spell"}
    assert threads and all(t is threading.main_thread() for t in threads)
    assert app.send(Command("announce_spell", args={"spell": "omniscience"}))
    assert app.prompt["phase"] == "magic"

    assert dice[M3].roll(2) and dice[M1].roll(5)      # two "any" dice land at once
    assert wait_for(lambda: app.session.state["reading"] == {"magic1": 2, "magic2": 5}, WAIT)
    assert dice[M3].roll(3)                            # M3 again before the roll is complete:
    assert wait_for(lambda: app.session.state["reading"].get("magic1") == 3, WAIT)  # replaced
    assert dice[M2].roll(6)                            # the third die completes the roll
    assert wait_for(lambda: any(s.command.do == "magic_roll" for s in session.steps), WAIT)
    magic = [s.command for s in session.steps if s.command.do == "magic_roll"][-1]
    assert magic.args == {"dice": [3, 5, 6]}           # in the order they landed
    assert not app.refusal and app.beeps == []
    frames()
    shot("quest_smart_dice")


def to_turn_order(app, names=("Anna", "Barb", "Carl")):
    """A Cauldron game waiting for its turn order dice; returns its session."""
    from test_ui_cauldron_screens import deal, start

    s = start(app, players=[{"name": n} for n in names])
    deal(s, list(names))
    for command in (Command("begin"), Command("omen", args={"text": "calm"}),
                    Command("fill_board")):
        s.execute(command)
    frames()
    assert app.prompt["phase"] == "turn_order" and app.prompt["inputs"] == ["die"]
    return s


def test_cauldron_takes_its_turn_order_dice_from_the_smart_dice(table):
    app, dice = table
    s = to_turn_order(app)
    for n, (address, face) in enumerate(((M1, 6), (M2, 3), (B, 1))):   # whoever's die
        assert dice[address].roll(face)
        assert wait_for(lambda: len([e for e in s.steps if "turn_order" in e.command.do
                                     or e.command.do == "roll"]) > n, WAIT), app.dice_activity
    assert wait_for(lambda: app.prompt["phase"] == "turns", WAIT), app.prompt
    assert app.summary["turn_order"] == ["Anna", "Barb", "Carl"]   # 6, 3 and B's face 1 = 2
    rolls = [e.command.args for e in s.steps if e.command.do == "turn_order_roll"]
    assert rolls == [{"value": 6}, {"value": 3}, {"value": 2}]
    steps = len(s.steps)
    dice[M3].roll(4)                                   # no die asked now: ignored and counted
    assert wait_for(lambda: "ignored" in app.dice_activity, WAIT)
    assert app.dice_activity == "Pixel3: 4 not asked (1 ignored)"
    assert app.devices.smart_dice.last_ignored.endswith("the game asks for no die now")
    assert len(s.steps) == steps and not app.refusal and "refused" not in app.beeps
    frames()
    both_sizes("cauldron_smart_dice_strip")


def test_the_strip_says_a_die_dropped_and_came_back(table):
    app, dice = table
    dice[M2].reachable = False
    dice[M2].drop()
    assert wait_for(lambda: app.dice_status == "smart dice: 4 of 5 connected; GoDice_2 "
                    "reconnecting", WAIT), app.dice_status
    assert not app.dice_ok
    frames()
    shot("home_smart_dice_reconnecting")
    dice[M2].reachable = True
    assert wait_for(lambda: app.dice_status.startswith("smart dice: 5 of 5 connected"),
                    WAIT), app.dice_status


def test_without_bluetooth_one_line_and_touch_plays_on(app, tmp_path, monkeypatch):
    from hardware.dice.ble_fake import FakeTransport
    from hardware.dice.recorded import air

    with on_config(app, monkeypatch, tmp_path / "hardware.toml",
                   f'[ble.dice."{M1}"]\nmake = "pixels"\n[ble.dice."{M2}"]\nmake = "godice"\n',
                   FakeTransport(error=air.NO_SYSTEM_BUS)):
        assert wait_for(lambda: app.dice_status.startswith("Bluetooth is not"), WAIT)
        assert app.dice_status == ("Bluetooth is not available on this machine: no system bus "
                                   "(D-Bus is not running); enter dice by touch")
        assert app.start_game({"game": "quest", "players": ["Anna"],
                               "needed": ["rotten_egg", "horned_toad", "bat_wing"]}) is None
        assert app.send(Command("action_roll", args={"a": "bottle", "b": 3}))


def test_an_unpaired_die_is_never_played(table):
    from companion.core.model import InputEvent

    app, _dice = table
    s = to_turn_order(app)
    steps = len(s.steps)
    app.devices.inbox.put(InputEvent("die", "C4:5E:11:22:33:99", 6, source="ble"))
    frames()
    assert len(s.steps) == steps and not app.refusal
    app.devices.inbox.put(InputEvent("die", M1, 6, source="ble"))    # a paired one is
    assert wait_for(lambda: len(s.steps) == steps + 1, WAIT)


def test_a_demo_table_rolls_the_simulated_air_of_dicesim(app, tmp_path):
    """``companion run --demo --hardware FILE``: the demo's mock buttons and the [ble] of FILE,
    here dice served by ``companion dicesim --ble``'s AirServer on a socket."""
    from hardware.dice.ble_air import AirServer
    from hardware.dice.ble_fake import FakeDie

    dice = [FakeDie(M1, "pixels"), FakeDie(M2, "godice")]
    server = AirServer(dice, tmp_path / "air" / "air")
    config = tmp_path / "demo.toml"
    config.write_text(f'[ble]\nair = "{server.path}"\n[ble.dice."{M1}"]\nmake = "pixels"\n'
                      f'[ble.dice."{M2}"]\nmake = "godice"\n[buttons]\nundo = 5\n',
                      encoding="utf-8")
    assert app.demo
    app.devices.stop()
    app.hardware_path = str(config)
    try:
        app.devices.start()
        assert app.devices.config.buttons["undo"] == 4    # the demo table's, not the file's
        assert wait_for(lambda: app.dice_status == "smart dice: 2 of 2 connected", WAIT), \
            app.dice_status
        s = to_turn_order(app)
        dice[1].roll(5)
        assert wait_for(lambda: any(e.command.do == "turn_order_roll" for e in s.steps), WAIT)
    finally:
        app.devices.stop()
        app.hardware_path = None
        server.close()
        app.devices.start()
        frames()


NOT_SIX_SIDED = f"""\
[ble.dice."{M1}"]
make = "pixels"
name = "Pixel 03"

[ble.dice."{M2}"]
make = "godice"
name = "GoDice 5"
shell = "d20"
die = "magic1"

[ble.dice."{M3}"]
make = "pixels"
name = "Pixel 04"

[buzzer]
pin = 12
"""


@pytest.fixture
def odd_dice(app, tmp_path, monkeypatch):
    """A Pixels D20, a GoDice in its D20 shell and a Pixels D6 on the fake air."""
    import gpiozero
    from gpiozero.pins.mock import MockFactory

    from hardware.dice.ble_fake import FakeDie, FakeTransport

    dice = {M1: FakeDie(M1, "pixels", die_type="d20"), M2: FakeDie(M2, "godice", shell="d20"),
            M3: FakeDie(M3, "pixels")}
    monkeypatch.setattr(gpiozero.Device, "pin_factory", MockFactory())
    with on_config(app, monkeypatch, tmp_path / "hardware.toml", NOT_SIX_SIDED,
                   FakeTransport(list(dice.values()))):
        beeps: list[str] = []
        monkeypatch.setattr(app.devices.buzzer, "beep", beeps.append)
        monkeypatch.setattr(app, "beeps", beeps, raising=False)
        assert wait_for(lambda: app.dice_status.startswith("smart dice: 3 of 3 connected")
                        and len(app.devices.smart_dice.die_type) == 3, WAIT), app.dice_status
        yield app, dice


def test_cauldron_refuses_a_die_that_is_not_six_sided_by_name(odd_dice):
    app, dice = odd_dice
    s = to_turn_order(app)
    steps = len(s.steps)
    dice[M1].roll(4)                                   # the D20 lands on 4
    assert wait_for(lambda: app.refusal, WAIT)
    assert app.refusal == "Pixel 03 is a D20: Cauldron rolls six-sided dice"
    assert app.dice_activity == "Pixel 03: D20, not applied"
    assert len(s.steps) == steps and app.beeps == ["refused"]
    dice[M3].roll(4)                                   # a D6 plays on
    assert wait_for(lambda: len(s.steps) == steps + 1, WAIT)
    assert s.steps[-1].command.args == {"value": 4}


def test_quest_refuses_a_godice_in_its_d20_shell_and_fills_no_die(odd_dice):
    app, dice = odd_dice
    assert app.start_game({"game": "quest", "players": ["Anna", "Barb"],
                           "needed": ["rotten_egg", "horned_toad", "bat_wing"]}) is None
    assert app.send(Command("action_roll", args={"a": "bottle", "b": "spell"}))
    assert app.send(Command("announce_spell", args={"spell": "omniscience"}))
    assert app.prompt["phase"] == "magic"
    dice[M2].roll(17)                                  # 17 on the D20 shell: 5 if read as a D6
    assert wait_for(lambda: app.refusal, WAIT)
    assert app.refusal == "GoDice 5 is a D20: Cauldron Quest rolls six-sided dice"
    assert app.session.state["reading"] == {}
    assert dice[M3].roll(2)
    assert wait_for(lambda: app.session.state["reading"] == {"magic2": 2}, WAIT), \
        app.session.state["reading"]
