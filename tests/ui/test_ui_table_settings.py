"""The Settings screen: each control changes the setting at once and it survives a restart
(the file read again); the far-side flip turns the window and the touches with it (a quarter
turn: test_ui_rotation.py); dimming covers the screen, and the touch that wakes it presses
nothing; the screen's sound follows the setting."""

from __future__ import annotations

import json

import pytest
from kivy.core.window import Window
from ui_helpers import both_sizes, button, dialogs, frames, shot, tap, tap_title, texts

from ui.table.settings import DEFAULTS, PHONES_PORT, TableSettings


@pytest.fixture
def table(app, tmp_path, monkeypatch):
    """The settings screen on its own settings file; everything put back afterwards."""
    path = tmp_path / "settings.json"
    monkeypatch.setenv("COMPANION_SETTINGS", str(path))
    monkeypatch.delenv("COMPANION_SOUND", raising=False)
    app.load_table_settings()
    app.open_table_settings()
    frames()
    yield path
    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "none.json"))
    app.load_table_settings()
    from ui.table.sound import CUES

    app.sound.broken, app.sound.folder, app.sound.cues = "", None, dict(CUES)
    app.sound._sounds.clear()
    assert Window.rotation == 0 and not app.dimmer.dimmed


def row_button(app, row: str, title: str):
    return button(title, app.screens.get_screen("table_settings").ids[row])


def restart(app) -> None:
    """What a restart reads: the file, applied, and the screen shown again."""
    app.table_settings = DEFAULTS
    app.load_table_settings()
    app.go_home()
    app.open_table_settings()
    frames()


def test_each_control_changes_the_setting_and_it_survives_a_restart(app, table):
    screen = app.screens.get_screen("table_settings")
    assert app.screens.current == "table_settings" and screen.message == ""
    tap(row_button(app, "volume", "50%"))
    tap(row_button(app, "dim", "5 min"))
    tap(row_button(app, "sound", "Off"))
    assert row_button(app, "volume", "25%").disabled        # no volume without sound
    assert app.table_settings == TableSettings(sound=False, volume=50, dim_minutes=5)
    assert json.loads(table.read_text()) == {"sound": False, "volume": 50, "rotation": 0,
                                             "dim_minutes": 5, "text_size": "normal",
                                             "off_minutes": 0, "phones": False,
                                             "phones_port": PHONES_PORT, "hands": False}
    restart(app)
    assert app.table_settings == TableSettings(sound=False, volume=50, dim_minutes=5)
    assert row_button(app, "volume", "50%").chosen and row_button(app, "dim", "5 min").chosen
    assert row_button(app, "sound", "Off").chosen and not row_button(app, "sound", "On").chosen
    assert app.dimmer.minutes == 5
    tap(row_button(app, "dim", "Never"))
    assert app.dimmer.minutes == 0
    tap(row_button(app, "hands", "On phones"))            # hands on the phones
    assert app.table_settings.hands and json.loads(table.read_text())["hands"] is True
    restart(app)
    assert row_button(app, "hands", "On phones").chosen
    tap(button("Back"))
    assert app.screens.current == "home"


def test_the_turn_limit_is_the_hardware_config_s(app, table, tmp_path):
    """Demo: this run only. A real table: written to hardware.toml, where the Hardware
    screen reads it, and taken by the running app at once."""
    tap(row_button(app, "turn_limit", "2 min"))
    assert app.turn_limit == 120 and "until the app closes" in \
        app.screens.get_screen("table_settings").message
    tap(row_button(app, "turn_limit", "Never"))
    assert app.turn_limit == 0
    hardware = tmp_path / "hardware.toml"
    hardware.write_text("[buzzer]\npin = 12\n")
    app.demo, app.hardware_path = False, str(hardware)
    try:
        app.devices.stop()
        app.devices.start()
        restart(app)
        tap(row_button(app, "turn_limit", "90 s"))
        from hardware.config import load_config

        assert load_config(hardware).turn_limit_s == 90 and app.turn_limit == 90
        app.screens.get_screen("hardware_settings").load()      # the other screen agrees
        assert app.screens.get_screen("hardware_settings").ids.turn_limit.value == 90
        hardware.write_text("")                # no buzzer: the screen sounds the limit
        app.devices.stop()
        app.devices.start()
        restart(app)
        tap(row_button(app, "turn_limit", "1 min"))
        assert load_config(hardware).turn_limit_s == 60 and app.turn_limit == 60
        assert load_config(hardware).buzzer is None
        both_sizes("table_settings_no_buzzer")
    finally:
        app.demo, app.hardware_path = True, None
        app.devices.stop()
        app.devices.start()


def test_a_bad_file_is_named_on_the_screen_and_home_and_kept_until_a_change(app, table,
                                                                          monkeypatch):
    table.write_text('{"volume": "loud", "dim_minutes": 10, "colour": 1}')
    restart(app)
    screen = app.screens.get_screen("table_settings")
    assert app.table_settings == TableSettings(dim_minutes=10)
    assert "volume must be a whole number from 0 to 100" in screen.message
    assert "1 unknown setting ignored" in screen.message and screen.tone == "bad"
    monkeypatch.setattr(app.devices, "start", lambda: None)
    app.on_start()     # the home notice at start names it too
    assert "volume must be" in app.notice
    assert table.read_text() == '{"volume": "loud", "dim_minutes": 10, "colour": 1}'
    app.open_table_settings()
    both_sizes("table_settings_bad_file")
    tap(row_button(app, "dim", "Never"))                       # a change rewrites it whole
    assert json.loads(table.read_text())["volume"] == 75 and app.settings_problem == ""


def test_the_flip_turns_the_window_and_the_touches_with_it(app, table):
    upright = row_button(app, "rotation", "Upright")
    tap(row_button(app, "rotation", "Upside down"))
    assert Window.rotation == 180 and app.table_settings.rotation == 180
    assert app.screens.get_screen("table_settings").message == \
        "Upside down, for the far side of the table."
    frames(4)
    shot("table_settings_flipped")
    # A finger on the spot where "Upright" now shows (the mirror of its laid-out place)
    from kivy.tests.common import UnitTestTouch

    x, y = upright.to_window(*upright.center)
    touch = UnitTestTouch(Window.width - x, Window.height - y)
    touch.touch_down()
    touch.touch_up()
    frames(2)
    assert Window.rotation == 0 and app.table_settings.rotation == 0
    assert app.flip() == "" and Window.rotation == 180
    restart(app)
    assert Window.rotation == 180                               # survives a restart
    assert row_button(app, "rotation", "Upside down").chosen
    assert app.flip() == "" and Window.rotation == 0


def test_the_settings_screen_at_both_sizes(app, table):
    tap(row_button(app, "volume", "100%"))
    both_sizes("table_settings")
    assert "Table settings" in texts()


def test_a_dim_screen_wakes_on_a_touch_that_presses_nothing(app, table, monkeypatch):
    tap(row_button(app, "dim", "2 min"))
    assert app.dimmer._asleep.is_triggered and app.dimmer._asleep.timeout == 120
    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    frames()
    witchs_brew = app.screens.get_screen("witchs_brew")
    revision, state = app.revision, app.session.summary()
    app.dimmer.dim()                                   # two minutes without input
    frames()
    assert app.dimmer.dimmed and app.dimmer.sheet in Window.children
    assert not app.dimmer._asleep.is_triggered         # nothing runs for the dimmer while dim
    choose = button("Choose the role card", witchs_brew)
    tap(choose)                                        # the waking touch, on a role button
    assert not app.dimmer.dimmed and app.dimmer.sheet is None and not dialogs()
    assert app.revision == revision and app.session.summary() == state
    assert app.dimmer._asleep.is_triggered             # the wait starts again
    # a later touch, not the same finger's second (those within 0.4 s are not taken)
    monkeypatch.setattr(app.root.second_tap, "settle", 0)
    tap(choose)                                        # awake: now it opens the cards
    tap_title("Warlock", dialogs()[0])
    assert app.revision == revision + 1
    app.dimmer.dim()
    from companion.core.model import InputEvent

    app.handle(InputEvent("button", "seat2.pass", source="gpio"))   # a seat button wakes it
    assert not app.dimmer.dimmed and app.revision == revision + 2   # ... and is played
    app.go_home()


def test_the_backlight_dims_where_there_is_one_and_is_restored(tmp_path):
    from ui.kiosk.dimmer import Backlight

    panel = tmp_path / "rpi_backlight"
    panel.mkdir()
    (panel / "brightness").write_text("200\n")
    (panel / "max_brightness").write_text("255\n")
    light = Backlight(tmp_path)
    light.dim()
    assert (panel / "brightness").read_text() == "25"
    light.restore()
    assert (panel / "brightness").read_text() == "200"
    nowhere = Backlight(tmp_path / "no-such-folder")    # off the Pi: nothing, silently
    nowhere.dim()
    nowhere.restore()


class FakeSound:
    def __init__(self, length=0.4):
        self.played, self.volume, self.length = 0, None, length

    def play(self):
        self.played += 1

    def stop(self):
        pass


@pytest.fixture
def heard(app, table, tmp_path, monkeypatch):
    """The app's sounds loaded into one FakeSound (the paths loaded listed), with sound Off."""
    from kivy.core.audio import SoundLoader

    loaded: list[str] = []
    sound = FakeSound()
    monkeypatch.setattr(SoundLoader, "load", lambda path: loaded.append(path) or sound)
    app.sound._sounds.clear()
    app.sound.folder = tmp_path / "sounds"
    with_a_card(app, tmp_path, monkeypatch)
    tap(row_button(app, "sound", "Off"))
    return loaded, sound


def with_a_card(app, tmp_path, monkeypatch) -> None:
    """The kernel's list of sound cards as a Pi with its own two writes it (this machine has
    none, and the app asks the list before any audio library opens)."""
    from test_sound import PI

    cards = tmp_path / "asound-cards"
    cards.write_text(PI)
    monkeypatch.setattr(app.sound, "cards", cards)


def test_a_cue_sounds_only_with_sound_on_at_the_chosen_volume(app, heard):
    loaded, sound = heard
    for kind in ("turn", "refused", "time", "over"):
        app.cue(kind)
    assert loaded == [] and sound.played == 0
    tap(row_button(app, "sound", "On"))                 # turning it on plays the turn cue
    tap(row_button(app, "volume", "25%"))
    assert sound.played == 2 and sound.volume == 0.25
    for kind in ("refused", "time", "over"):
        app.cue(kind)
    assert sorted(p.rsplit("/", 1)[1].split("-")[0] for p in loaded) == \
        ["over", "refused", "time", "turn"]
    assert all((app.sound.folder / p.rsplit("/", 1)[1]).stat().st_size > 1000 for p in loaded)
    from ui.games.quest import sound as quest_sound

    app.sound.add_cues(quest_sound.CUES)                 # a game's own cues, the same way
    app.cue("wizard")
    assert loaded[-1].rsplit("/", 1)[1].startswith("wizard-") and sound.played == 6
    app.sound._sounds.clear()


def test_no_sound_device_is_quiet(app, table, monkeypatch, caplog, tmp_path):
    from kivy.core.audio import SoundLoader

    loads: list[str] = []
    monkeypatch.setattr(SoundLoader, "load", lambda path: loads.append(path))
    app.sound._sounds.clear()
    with_a_card(app, tmp_path, monkeypatch)
    with caplog.at_level("WARNING"):
        for kind in ("turn", "refused", "time", "over", "turn"):
            app.cue(kind)
    assert app.sound.broken and not [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(loads) == 1                               # found out once, then quiet
    app.sound.broken = ""                                # a provider that loads nothing
    monkeypatch.setattr(SoundLoader, "load", lambda path: loads.append(path) or FakeSound(0))
    app.cue("refused")
    app.cue("time")
    assert app.sound.broken == "the audio device did not open" and len(loads) == 2
    tap(button("Test sound"))
    assert "No sound from this screen" in app.screens.get_screen("table_settings").message


def test_the_game_over_is_cued_once_when_it_ends(app, table, monkeypatch):
    from ui_helpers import play_out

    cues: list[str] = []
    monkeypatch.setattr(app, "cue", cues.append)
    from companion.core.model import Command

    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    for name, stack in zip(["Anna", "Barb", "Carl", "Anna"],
                           ["copper", "silver", "iron", "gold_shelf"]):   # the end in sight
        app.session.execute(Command("adjust", name, {"potion": {"stack": stack, "points": 3,
                                                                 "raven": True}}))
    play_out(app)
    assert app.session.over and cues.count("over") == 1 and "turn" in cues
    game = app.session.game_id
    app.go_home()
    app.resume(game)                                   # a finished game opened: no cue
    assert cues.count("over") == 1
    app.go_home()


def test_quest_s_cues_follow_the_sound_setting(app, heard):
    """The wizard moving sounds Quest's own cue, through the table's setting: nothing at all
    with sound off, at the chosen volume with it on."""
    from companion.core.model import Command

    loaded, sound = heard
    assert app.start_game({"game": "quest", "players": ["Mia", "Leo"],
                           "needed": ["rotten_egg", "newt_eye", "bat_wing"]}) is None
    frames()
    assert app.send(Command("action_roll", args={"a": "hat", "b": 2}))
    frames()
    assert app.session.steps[-1].events[-1].type == "wizard_moved"
    assert loaded == [] and sound.played == 0           # sound off: Quest is quiet too
    app.go_home()
    app.open_table_settings()
    frames()
    tap(row_button(app, "sound", "On"))
    tap(row_button(app, "volume", "50%"))
    played = sound.played
    assert app.start_game({"game": "quest", "players": ["Mia", "Leo"],
                           "needed": ["rotten_egg", "newt_eye", "bat_wing"]}) is None
    frames()
    assert app.send(Command("action_roll", args={"a": "hat", "b": 2}))
    frames()
    assert loaded[-1].rsplit("/", 1)[1].startswith("wizard-")
    assert sound.played == played + 1 and sound.volume == 0.5
    app.go_home()
