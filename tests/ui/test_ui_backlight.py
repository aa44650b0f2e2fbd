"""The Pi's display when nobody plays, and when it draws without its graphics chip.

Backlight and blanking (ui/kiosk/dimmer.py): after ``off_minutes`` the screen goes black and the
backlight off (``bl_power`` and ``brightness`` in a fake /sys/class/backlight tree in tmp_path;
a fully black sheet where there is no backlight), any input turns it on again as it was, and
the settings refuse an "off" that would come before the dimming, naming the field.

The software renderer (ui/kiosk/renderer.py): this machine draws with llvmpipe, so the notice is
asked for (``COMPANION_RENDERER_NOTICE=1`` or the kiosk's kmsdrm) or told off; it sits on the
home screen, one WARNING line goes to the log, and Dismiss takes it away.
"""

from __future__ import annotations

import json
import logging

import pytest
from kivy.core.window import Window
from ui_helpers import both_sizes, button, dialogs, frames, shot, tap, tap_title, texts

from companion.core.model import InputEvent
from ui.kiosk import renderer
from ui.table import settings as table
from ui.kiosk.dimmer import Backlight, Dimmer
from ui.table.settings import TableSettings, load_settings


def backlight_tree(root, bl_power: bool = True):
    """/sys/class/backlight/<panel> as the Pi's official display driver makes it."""
    panel = root / "10-0045"
    panel.mkdir(parents=True)
    (panel / "brightness").write_text("200\n")
    (panel / "max_brightness").write_text("255\n")
    if bl_power:
        (panel / "bl_power").write_text("0\n")
    return panel


@pytest.fixture
def dimmer(app, tmp_path):
    """A dimmer of its own on a fake backlight; the app's own one stays as it is."""
    panel = backlight_tree(tmp_path / "backlight")
    made = Dimmer(Backlight(tmp_path / "backlight"))
    yield made, panel
    made.set_minutes(0, 0)
    Window.unbind(on_touch_down=made._on_touch_down, on_touch_move=made._on_touch_move,
                  on_touch_up=made._on_touch_up, on_key_down=made._on_key)


def read(panel) -> tuple[str, str]:
    return (panel / "brightness").read_text().strip(), (panel / "bl_power").read_text().strip()


def test_the_screen_dims_then_goes_off_and_any_input_turns_it_on(dimmer):
    dim, panel = dimmer
    dim.set_minutes(2, 10)
    assert dim._asleep.timeout == 120 and dim._dark.timeout == 600
    assert dim._asleep.is_triggered and dim._dark.is_triggered
    dim.dim()                                         # two minutes without input
    assert read(panel) == ("25", "0") and dim.dimmed and not dim.is_off
    assert dim._dark.is_triggered                     # the wait for "off" goes on while dim
    dim.switch_off()                                  # ten minutes without input
    assert read(panel) == ("0", "4") and dim.is_off and dim.sheet.black
    assert not dim._asleep.is_triggered and not dim._dark.is_triggered   # nothing runs
    assert dim.stir() is True                         # any input: on, as it was
    assert read(panel) == ("200", "0") and not dim.dimmed and dim.sheet is None
    assert dim._asleep.is_triggered and dim._dark.is_triggered


def test_off_without_dimming_first_and_without_a_backlight(dimmer, tmp_path):
    dim, panel = dimmer
    dim.set_minutes(0, 10)
    assert not dim._asleep.is_triggered and dim._dark.is_triggered
    dim.switch_off()
    assert read(panel) == ("0", "4") and dim.sheet.black
    dim.wake()
    assert read(panel) == ("200", "0")
    # a desktop, or a panel without a backlight we may write: the black sheet alone
    dim.backlight = Backlight(tmp_path / "no-such-folder")
    dim.switch_off()
    assert dim.is_off and dim.sheet in Window.children and dim.sheet.black
    dim.wake()
    assert dim.sheet is None


def test_a_backlight_without_bl_power_goes_to_brightness_zero(tmp_path):
    panel = backlight_tree(tmp_path, bl_power=False)
    light = Backlight(tmp_path)
    light.dim()
    assert light.off() is True
    assert (panel / "brightness").read_text() == "0"
    light.restore()
    assert (panel / "brightness").read_text() == "200"      # as before the dimming, not 25
    assert not (panel / "bl_power").exists()
    assert Backlight(tmp_path / "none").off() is False


def test_the_touch_that_turns_the_screen_on_presses_nothing(app, tmp_path, monkeypatch):
    monkeypatch.setattr(app.dimmer, "backlight", Backlight(tmp_path))
    backlight_tree(tmp_path)
    app.dimmer.set_minutes(0, 10)
    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    frames()
    revision = app.revision
    app.dimmer.switch_off()
    shot("screen_off")                                # black, nothing of the game shows
    choose = button("Choose the role card", app.screens.get_screen("witchs_brew"))
    tap(choose)
    assert not app.dimmer.dimmed and app.revision == revision and not dialogs()
    # a later touch, not the same finger's second (those within 0.4 s are not taken)
    monkeypatch.setattr(app.root.second_tap, "settle", 0)
    tap(choose)                                       # on: now it opens the cards
    tap_title("Warlock", dialogs()[0])
    assert app.revision == revision + 1
    app.dimmer.switch_off()
    app.handle(InputEvent("button", "seat2.pass", source="gpio"))   # a seat button: played
    assert not app.dimmer.dimmed and app.revision == revision + 2
    app.dimmer.set_minutes(0, 0)
    app.go_home()


# -- the setting ---------------------------------------------------------------------------
@pytest.mark.parametrize("dim, off, good", [
    (0, 0, True), (0, 10, True), (5, 10, True), (20, 30, True),
    (10, 10, False), (20, 10, False),
])
def test_off_must_come_after_dim_or_never(tmp_path, dim, off, good):
    path = tmp_path / "settings.json"
    path.write_text(f'{{"dim_minutes": {dim}, "off_minutes": {off}}}')
    settings, problem = load_settings(path)
    assert settings.dim_minutes == dim
    if good:
        assert settings.off_minutes == off and problem == ""
    else:
        assert settings.off_minutes == 0
        assert f"off_minutes must be more than dim_minutes ({dim}) or 0 (never)" in problem


@pytest.mark.parametrize("bad", [7, -10, "10", 10.0, None, True])
def test_a_bad_off_minutes_is_named(tmp_path, bad):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"off_minutes": bad}))
    settings, problem = load_settings(path)
    assert settings.off_minutes == 0 and "off_minutes must be one of 0, 10, 20, 30, 60" in problem


@pytest.fixture
def settings_screen(app, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "settings.json"))
    app.load_table_settings()
    app.open_table_settings()
    frames()
    yield app.screens.get_screen("table_settings")
    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "none.json"))
    app.load_table_settings()
    app.go_home()


def test_the_settings_screen_sets_off_and_refuses_it_before_the_dimming(app, settings_screen):
    screen = settings_screen
    tap(button("10 min", screen.ids.dim))
    tap(button("30 min", screen.ids.off))
    assert app.table_settings == TableSettings(dim_minutes=10, off_minutes=30)
    assert app.dimmer.minutes == 10 and app.dimmer.off_minutes == 30
    assert table.load_settings()[0] == app.table_settings                # saved
    both_sizes("table_settings_off")
    tap(button("10 min", screen.ids.off))                               # not after the dimming
    assert app.table_settings.off_minutes == 30 and app.dimmer.off_minutes == 30
    assert screen.tone == "bad" and screen.message == (
        "Not changed: Off after must be longer than Dim after (10 min), or Never; not 10 min.")
    shot("table_settings_off_refused")
    tap(button("20 min", screen.ids.dim))
    assert app.table_settings.dim_minutes == 20                          # 20 < 30: fine
    tap(button("Never", screen.ids.off))
    assert app.table_settings.off_minutes == 0 and "never goes off" in screen.message


# -- the software renderer ---------------------------------------------------------------
@pytest.mark.parametrize("environ, looks", [
    ({}, False),                                               # a PC, demo or not: nothing
    ({"SDL_VIDEODRIVER": "kmsdrm"}, True),                     # the kiosk
    ({"SDL_VIDEODRIVER": "kmsdrm", "COMPANION_RENDERER_NOTICE": "0"}, False),
    ({"SDL_VIDEODRIVER": "x11", "COMPANION_RENDERER_NOTICE": "1"}, True),
])
def test_when_the_renderer_is_looked_at(environ, looks):
    assert renderer.wanted(environ) is looks


@pytest.mark.parametrize("name, software", [
    ("llvmpipe (LLVM 15.0.6, 128 bits)", True), ("softpipe", True),
    ("Software Rasterizer", True), ("V3D 7.1", False), ("VC4 V3D 2.1", False),
])
def test_software_renderers(name, software):
    assert renderer.is_software(name) is software


def test_this_machine_draws_in_software_and_the_notice_says_so(app, caplog):
    """This CI machine has no GPU: its real GL_RENDERER is a software one."""
    home = app.screens.get_screen("home")
    assert renderer.check(home, environ={}) is None          # not asked: nothing
    assert renderer.check(home, renderer="V3D 7.1", environ={"SDL_VIDEODRIVER": "kmsdrm"}) \
        is None                                              # the graphics chip: nothing
    assert renderer.is_software(renderer.gl_renderer())
    with caplog.at_level(logging.WARNING, logger="ui.kiosk.renderer"):
        notice = renderer.check(home, environ={"COMPANION_RENDERER_NOTICE": "1"})
    assert notice is not None and notice.parent is not None
    try:
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 1 and "not the graphics chip" in warnings[0].getMessage()
        assert renderer.NOTICE in texts(home)
        both_sizes("home_software_renderer")
        tap(notice.dismiss_button)
        assert notice.parent is None and renderer.NOTICE not in texts(home)
    finally:
        notice.dismiss()                                     # the next test's home is clean
