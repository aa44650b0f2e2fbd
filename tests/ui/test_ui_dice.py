"""The dice tray in the app: a simulated tray on a pseudo-terminal, read by the app's own
DiceReader from a hardware.toml. The strip under every screen says whether the reader is
connected; dice reach the session on the main thread, are mapped by [dice.ids] and
[dice.face_names], and a die nobody asked for is shown, refused and beeped, never applied."""

from __future__ import annotations

import threading
import time

import pytest

from ui_helpers import both_sizes, frames, play_out, shot, wait_for

PLAYERS = ["Anna", "Barb", "Carl"]
CONFIG = """\
[dice]
url = "{url}"

[dice.ids]
d1 = "action_a"
d2 = "action_b"

[dice.face_names]
d1 = ["bottle", "bottle", "bottle", "bottle", "hat", "hat"]
d2 = [2, 3, 3, 4, "spell", "spell"]

[buzzer]
pin = 12
"""
WAIT = 5.0   # seconds; every wait ends as soon as its condition holds


def strip(app) -> tuple[str, str]:
    """What the strip under the screens shows: (reader status, last die)."""
    ids = app.root.ids
    assert ids.dice_strip.opacity == 1 and ids.dice_strip.height > 0, "the strip is hidden"
    return ids.dice_status.text, ids.dice_activity.text


@pytest.fixture
def tray(app, tmp_path, monkeypatch):
    """(app, simulator): the app started without --demo on a config with a dice tray (a pty
    behind a symlink, as udev's by-id link) and a buzzer on a mock pin. Its beeps are recorded
    in ``app.beeps``. Demo mode is restored afterwards."""
    import gpiozero
    from gpiozero.pins.mock import MockFactory

    from hardware.dice import DiceSimulator

    app.devices.stop()
    monkeypatch.setattr(app, "demo", False)
    monkeypatch.setattr(app.devices, "dice_backoff", (0.05, 0.2))
    monkeypatch.setattr(gpiozero.Device, "pin_factory", MockFactory())
    sim = DiceSimulator(link=tmp_path / "tray", name="dicetray", version="1.2")
    config = tmp_path / "hardware.toml"
    config.write_text(CONFIG.format(url=sim.link), encoding="utf-8")
    app.hardware_path = str(config)
    app.devices.start()
    assert app.devices.buzzer is not None and app.devices.dice_reader is not None, \
        app.hardware_problem
    beeps: list[str] = []
    monkeypatch.setattr(app.devices.buzzer, "beep", beeps.append)
    monkeypatch.setattr(app, "beeps", beeps, raising=False)
    assert wait_for(lambda: app.dice_ok and app.dice_status.endswith("dicetray 1.2"), WAIT), \
        app.dice_status
    try:
        yield app, sim
    finally:
        app.devices.stop()
        sim.close()
        app.hardware_path = None
        app.demo = True
        app.devices.start()
        frames()


def test_status_strip_after_connect_unplug_and_replug(tray):
    app, sim = tray
    frames()
    assert app.hardware_status == "No buttons configured: dice tray and touch."
    assert not app.hardware_problem
    assert strip(app)[0] == "dice reader connected: dicetray 1.2"
    bar = app.root.ids.dice_strip
    assert bar.height > 0 and bar.opacity == 1
    assert app.screens.y == bar.top          # the screens sit above the strip, not under it
    shot("home_dice_connected")

    sim.unplug()
    assert wait_for(lambda: app.dice_status.startswith(
        "dice reader disconnected: reconnecting in"), WAIT), app.dice_status
    frames()
    assert not app.dice_ok
    assert strip(app)[0].startswith("dice reader disconnected: reconnecting in")
    shot("home_dice_disconnected")
    assert app.start_game({"game": "witchs_brew", "players": PLAYERS}) is None  # still plays
    frames()
    assert strip(app)[0].startswith("dice reader disconnected")           # every screen

    sim.replug()
    assert wait_for(lambda: app.dice_status == "dice reader connected: dicetray 1.2", WAIT), \
        app.dice_status
    sim.die("d5", 3)                                  # the next roll is picked up
    assert wait_for(lambda: app.dice_activity == "die d5: 3, not applied", WAIT)
    assert "Die d5 showed 3" in app.refusal


def test_a_die_in_witchs_brew_is_shown_refused_and_changes_nothing(tray):
    app, sim = tray
    assert app.start_game({"game": "witchs_brew", "players": PLAYERS}) is None
    session = app.session
    steps, summary = len(session.steps), session.summary()

    sim.moving("d3")
    assert wait_for(lambda: app.dice_activity == "die d3 rolling...", WAIT)
    frames()
    assert not app.refusal and app.beeps == []        # a rolling die is not a result
    assert strip(app)[1] == "die d3 rolling..."

    sim.die("d3", 4)
    assert wait_for(lambda: app.refusal, WAIT)
    # the prompt shows on the table screen: the refusal does not say it again
    assert app.refusal == "Die d3 showed 4: That die means nothing now", app.refusal
    assert app.dice_activity == "die d3: 4, not applied"
    assert app.beeps == ["refused"]
    assert len(session.steps) == steps and session.summary() == summary
    assert app.session is session and app.screens.current == "witchs_brew"
    frames()
    assert strip(app) == ("dice reader connected: dicetray 1.2", "die d3: 4, not applied")
    both_sizes("witchs_brew_dice_refused")
    app.dismiss_refusal()
    both_sizes("witchs_brew_dice_strip")           # the table with the strip: nothing covered


def test_a_value_no_die_can_show_is_refused_with_the_readers_words(tray):
    app, sim = tray
    assert app.start_game({"game": "witchs_brew", "players": PLAYERS}) is None
    session = app.session
    steps = len(session.steps)
    sim.die("d1", 9)
    assert wait_for(lambda: app.refusal, WAIT)
    assert app.refusal == "Die d1 reported 9, which is not a face of it (1-6)"
    assert app.beeps == ["refused"]
    assert len(session.steps) == steps
    assert app.dice_ok                                # still connected


def test_buzzer_cues_turn_and_physical_refusals_only(tray):
    app, _sim = tray
    assert app.start_game({"game": "witchs_brew", "players": PLAYERS}) is None
    assert app.beeps == []                            # starting a game is not a turn change
    seat = app.prompt["seat"]
    play_out(app, until=lambda p: p["seat"] != seat)
    assert app.beeps and set(app.beeps) == {"turn"}
    app.beeps.clear()
    app.press("seat9.claim")                          # a touch refusal: shown, not beeped
    assert app.refusal and app.beeps == []


def test_the_time_cue_sounds_once_when_a_turn_reaches_the_tables_limit(tray, monkeypatch):
    import dataclasses

    app, _sim = tray
    monkeypatch.setattr(app.devices, "config",
                        dataclasses.replace(app.devices.config, turn_limit_s=90))
    assert app.start_game({"game": "witchs_brew", "players": PLAYERS}) is None
    for second in (30, 89, 90, 91, 150):              # the turn began ``second`` s ago
        app._turn_started = time.monotonic() - second - 0.5
        app._tick(1.0)
    assert app.turn_seconds == 150
    assert app.beeps == ["time"]                      # once, at 90 s, not every second after


def test_quest_action_dice_from_the_tray_advance_the_game(tray):
    from ui.games import GAMES

    if "quest" not in GAMES:
        pytest.skip("Cauldron Quest is not registered in ui/games.py yet")
    app, sim = tray
    setup = {"game": "quest", "players": ["Anna", "Barb"],
             "needed": ["rotten_egg", "horned_toad", "bat_wing"]}
    assert app.start_game(setup) is None
    session = app.session
    assert app.prompt["phase"] == "roll"
    threads: list[threading.Thread] = []
    session.add_listener(lambda s, step: threads.append(threading.current_thread()))

    sim.roll({"d1": 2, "d2": 3})                      # d1 face 2 = bottle, d2 face 3 = 3
    assert wait_for(lambda: app.prompt.get("phase") == "move", WAIT), app.prompt
    assert threads and all(t is threading.main_thread() for t in threads)
    played = [s.command for s in session.steps]
    assert played[-1].do == "action_roll" and played[-1].args == {"a": "bottle", "b": 3}
    assert app.dice_activity == "die action_b: 3"
    assert not app.refusal and app.beeps == []

    steps = len(session.steps)
    sim.die("d1", 5)                                  # nobody asked: shown, not applied
    assert wait_for(lambda: app.refusal, WAIT)
    assert app.refusal.startswith("Action die A showed hat: Nobody asked for the action dice")
    assert app.dice_activity == "die action_a: hat, not applied"
    assert app.beeps == ["refused"]
    assert len(session.steps) == steps and app.prompt["phase"] == "move"


def test_tray_buttons_go_the_same_way_as_gpio(tray):
    app, sim = tray
    assert app.start_game({"game": "witchs_brew", "players": PLAYERS}) is None
    steps = len(app.session.steps)
    sim.button("seat3.claim", hold=True)              # a hold alone is never a press
    sim.button("seat9.claim")                         # no ninth seat: refused and beeped
    assert wait_for(lambda: app.refusal, WAIT)
    assert app.beeps == ["refused"] and len(app.session.steps) == steps


def test_a_tray_alone_is_read_without_any_gpio(tray, tmp_path):
    app, sim = tray
    alone = tmp_path / "tray-only.toml"
    alone.write_text(f'[dice]\nurl = "{sim.link}"\n', encoding="utf-8")
    app.hardware_path = str(alone)
    app.devices.start()                              # config.is_empty: no GPIO at all
    assert app.devices.buttons is None and app.devices.buzzer is None \
        and app.devices.dice_reader is not None
    assert wait_for(lambda: app.dice_status == "dice reader connected: dicetray 1.2", WAIT)
    assert app.start_game({"game": "witchs_brew", "players": PLAYERS}) is None
    sim.die("d1", 2)                                  # no [dice.ids] now: d1 stays d1
    assert wait_for(lambda: app.dice_activity == "die d1: 2, not applied", WAIT)
    assert not app.hardware_problem


def test_a_bad_dice_key_is_named_and_touch_still_works(tray, tmp_path):
    app, _sim = tray
    bad = tmp_path / "bad.toml"
    bad.write_text('[dice]\nurl = "loop://"\n[dice.ids]\nd1 = "magic1"\nd2 = "magic1"\n',
                   encoding="utf-8")
    app.hardware_path = str(bad)
    app.devices.start()
    assert app.devices.dice_reader is None and app.dice_status == ""
    assert "dice.ids.d2: 'magic1' is already the game's id of d1" in app.hardware_problem
    assert app.hardware_problem.endswith("Touch still works.")


def test_stop_hardware_clears_the_strip_and_late_statuses_are_ignored(tray):
    from hardware.dice import DiceStatus

    app, _sim = tray
    app.devices.stop()
    frames()
    assert app.dice_status == "" and app.root.ids.dice_strip.height == 0
    assert app.screens.height == app.root.height
    app.devices._on_dice_status(0, DiceStatus(DiceStatus.READY, "dice reader connected: old"))
    assert app.dice_status == ""


# -- [dice.ids] and [dice.face_names] in the config -----------------------------------------
def test_dice_ids_and_face_names_map_tray_dice_to_the_games():
    from hardware.config import parse_config

    dice = parse_config({"dice": {
        "url": "loop://", "die_faces": {"d9": [0, 2]},
        "ids": {"d1": "action_a", "d4": "magic1", "d9": "coin"},
        "face_names": {"d1": ["bottle", "bottle", "bottle", "bottle", "hat", "hat"],
                       "d9": ["zero", "one", 2]}}}).dice
    assert dice.game_die("d1", 5) == ("action_a", "hat")
    assert dice.game_die("d4", 6) == ("magic1", 6)
    assert dice.game_die("d9", 0) == ("coin", "zero")
    assert dice.game_die("d9", 2) == ("coin", 2)
    assert dice.game_die("d2", 3) == ("d2", 3)                # not mapped: as the tray said
    assert dice.game_die("d1") == ("action_a", None)          # MOVING d1: no value


@pytest.mark.parametrize("dice, message", [
    ({"ids": {"d1": 7}}, "dice.ids.d1: the id the game knows this die by"),
    ({"ids": {"d1": "action a"}}, "dice.ids.d1: the id the game knows this die by"),
    ({"ids": {"1d": "action_a"}}, "dice.ids.1d: not a tray die id"),
    ({"ids": {"d1": "magic1", "d2": "magic1"}},
     "dice.ids.d2: 'magic1' is already the game's id of d1"),
    ({"ids": "d1"}, "dice.ids: expected a table"),
    ({"face_names": {"d1": ["bottle", "hat"]}},
     "dice.face_names.d1: must list what each of the die's 6 faces (1-6) means"),
    ({"face_names": {"d1": ["a", "b", "c", "d", "e", "f g"]}}, "dice.face_names.d1: must list"),
    ({"face_names": {"d1": [1, 2, 3, 4, 5, True]}}, "dice.face_names.d1: must list"),
    ({"die_faces": {"d8": [1, 8]}, "face_names": {"d8": [1, 2, 3, 4, 5, 6]}},
     "dice.face_names.d8: must list what each of the die's 8 faces (1-8) means"),
    ({"names": {}}, "dice.names: unknown key; allowed: url, baudrate, faces, die_faces, ids, "
                    "face_names"),
])
def test_dice_ids_and_face_names_errors_name_the_key(dice, message):
    from hardware.config import parse_config
    from hardware.errors import ConfigError

    with pytest.raises(ConfigError) as caught:
        parse_config({"dice": {"url": "loop://", **dice}})
    assert str(caught.value).startswith(message), str(caught.value)
