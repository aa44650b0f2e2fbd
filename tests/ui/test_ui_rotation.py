"""The panel's rotation: the official 7" display (800x480) stood on its side.

A quarter turn (90: the panel turned right, 270: turned left) makes the window 480x800: the
app's unit is measured again (0.94 pixels: the portrait layouts are sized for the 720x1280 Touch
Display 2, 480x853 units, so what fits there fits here) and ``app.portrait`` holds, so the
screens take the arrangements test_ui_portrait.py shoots at 720x1280; a finger on the
panel lands on the button drawn under it. 0 and 180 keep the landscape window. The window is
shot as the player reads it, upright (``tall_shot``: drawn at the window's own size), and the
layout check runs on it as on every shot.
"""

from __future__ import annotations

import json

import pytest
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch
from ui_helpers import button, close_dialogs, draw, frames, resize, tall_shot

from ui import theme
from ui.table import settings as table

PANEL = (800, 480)
CAULDRON = [{"name": "Anna", "character": "witch"}, {"name": "Barb", "character": "druid"},
            {"name": "Carl", "character": "trickster"}, {"name": "Daniel"}]


@pytest.fixture
def turned(app, tmp_path, monkeypatch):
    """The shared app on its own settings file, upright at 800x480 afterwards, also when a
    test fails half turned."""
    path = tmp_path / "settings.json"
    monkeypatch.setenv("COMPANION_SETTINGS", str(path))
    app.load_table_settings()
    yield path
    close_dialogs()
    app.go_home()
    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "none.json"))
    app.load_table_settings()
    frames()
    resize(*PANEL)
    assert Window.rotation == 0 and tuple(Window.size) == PANEL and not app.portrait


@pytest.mark.parametrize("rotation, size, portrait", [
    (0, (800, 480), False), (90, (480, 800), True), (180, (800, 480), False),
    (270, (480, 800), True),
])
def test_each_rotation_gives_the_window_and_the_arrangement(app, turned, rotation, size,
                                                            portrait):
    assert app.change_table_settings(rotation=rotation) == ""
    frames()
    assert Window.rotation == rotation and tuple(Window.size) == size
    assert app.portrait is portrait
    assert app.u == pytest.approx(800 / 853 if portrait else 1.0)
    assert tuple(app.root.size) == size                      # the screens laid out again
    assert json.loads(turned.read_text())["rotation"] == rotation


def test_a_quarter_turn_of_the_larger_window_lays_it_again(app, turned):
    """1280x720 on its side is the portrait 720x1280 of test_ui_portrait.py (1.5 a unit);
    turned back, the landscape unit of the larger panel (ui/theme.py: about 1.22)."""
    resize(1280, 720)
    assert app.change_table_settings(rotation=270) == ""
    frames()
    assert tuple(Window.size) == (720, 1280) and app.portrait
    assert app.u == pytest.approx(1.5)
    assert app.change_table_settings(rotation=0) == ""
    frames()
    assert not app.portrait and app.u == pytest.approx(theme.unit(1280, 720)) and app.u < 1.5


@pytest.mark.parametrize("bad", [45, -90, 360, "90", 90.0, True, None])
def test_a_rotation_the_panel_cannot_take_is_refused_by_name(app, turned, bad):
    before = app.table_settings
    problem = app.change_table_settings(rotation=bad)
    assert problem.startswith("Not changed: rotation must be 0, 90, 180 or 270, not ")
    assert app.table_settings == before and Window.rotation == 0 and not turned.exists()


@pytest.mark.parametrize("start, flipped", [(0, 180), (180, 0), (90, 270), (270, 90)])
def test_the_flip_turns_the_picture_for_the_far_side(app, turned, start, flipped):
    assert app.change_table_settings(rotation=start) == ""
    assert app.flip() == "" and Window.rotation == flipped
    assert table.load_settings()[0].rotation == flipped


@pytest.mark.parametrize("rotation, portrait", [(0, False), (180, False), (90, True),
                                               (270, True)])
def test_a_file_loads_turned_one_from_before_portrait_panels_too(app, turned, rotation,
                                                                 portrait):
    """0 and 180 in a file written before quarter turns (no off_minutes yet) read as then."""
    turned.write_text(json.dumps({"sound": True, "volume": 75, "rotation": rotation,
                                  "dim_minutes": 0, "text_size": "normal"}))
    app.load_table_settings()
    assert app.settings_problem == "" and app.table_settings.rotation == rotation
    assert Window.rotation == rotation and app.portrait is portrait


#: rotation -> where the panel has a point (x, y) of the window, in its own pixels (800x480, y
#: up): Kivy draws the picture turned counter-clockwise by the rotation, so turned right (90)
#: the window's top left corner is the panel's bottom left
ON_PANEL = {
    0: lambda x, y: (x, y),
    90: lambda x, y: (PANEL[0] - 1 - y, x),
    180: lambda x, y: (PANEL[0] - 1 - x, PANEL[1] - 1 - y),
    270: lambda x, y: (y, PANEL[1] - 1 - x),
}


def finger(widget, inset: float = 0.5) -> tuple[float, float]:
    """The panel's pixel under ``widget``: at its centre (``inset`` 0.5), or ``inset`` of its
    width in from its left edge, half way up."""
    x, y = widget.to_window(widget.x + widget.width * inset, widget.center_y)
    return ON_PANEL[Window.rotation](x, y)


def press_panel(x: float, y: float) -> None:
    """A finger down and up at (x, y) in the panel's own pixels, as a touch panel reports it
    (a fraction of its width and height), before Kivy turns it with the picture."""
    width, height = PANEL
    touch = UnitTestTouch(0, 0)
    touch.sx = touch.osx = touch.psx = x / (width - 1)
    touch.sy = touch.osy = touch.psy = y / (height - 1)
    touch.touch_down()
    touch.touch_up()
    frames(2)


def drawn_at(x: float, y: float) -> tuple[int, int, int]:
    """The colour the panel shows at its pixel (x, y)."""
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    draw()
    return tuple(glReadPixels(int(x), int(y), 1, 1, GL_RGB, GL_UNSIGNED_BYTE))


@pytest.mark.parametrize("rotation", [90, 270, 180])
def test_a_finger_on_the_turned_panel_presses_the_button_drawn_there(app, turned, rotation):
    """The button's fill, as drawn upright, is at the panel's pixel the mapping names, and a
    finger there presses it: what the players see and what they touch agree."""
    app.go_home()
    frames()
    settings = button("Settings", app.screens.get_screen("home"))
    fill = drawn_at(*finger(settings, 0.08))
    background = tuple(round(c * 255) for c in theme.BG[:3])
    assert max(abs(a - b) for a, b in zip(fill, background)) > 8     # the button, not the page
    assert app.change_table_settings(rotation=rotation) == ""
    frames()
    assert drawn_at(*finger(settings, 0.08)) == fill == drawn_at(*finger(settings, 0.92))
    press_panel(*finger(settings))
    assert app.screens.current == "table_settings"
    screen = app.screens.get_screen("table_settings")
    assert screen.ids.rotation.value == rotation
    upright = button("Upright", screen.ids.rotation)
    press_panel(*finger(upright))
    assert Window.rotation == 0 and tuple(Window.size) == PANEL and not app.portrait
    assert screen.message == "Upright." and screen.tone == "good"


def test_the_settings_screen_turned_keeps_each_label_above_its_choices(app, turned):
    """Turned left this very screen is portrait: the rows' labels over their buttons."""
    app.open_table_settings()
    frames()
    screen = app.screens.get_screen("table_settings")
    assert [b.title for b in reversed(screen.ids.rotation.ids.buttons.children)] == \
        ["Upright", "Turned right", "Upside down", "Turned left"]
    press_panel(*finger(button("Turned left", screen.ids.rotation)))
    assert Window.rotation == 270 and tuple(Window.size) == (480, 800) and app.portrait
    assert "turned a quarter to the left" in screen.message
    label, buttons = screen.ids.rotation.children[-1], screen.ids.rotation.ids.buttons
    assert label.y >= buttons.top and buttons.width > 0.9 * Window.width - 40


def test_home_the_settings_and_a_game_table_turned(app, turned):
    assert app.change_table_settings(rotation=90) == ""
    app.go_home()
    frames()
    tall_shot("turned_home")
    app.open_table_settings()
    frames()
    tall_shot("turned_table_settings")
    assert app.start_game({"game": "cauldron", "players": CAULDRON,
                           "milestones": {"magik_overflow": 12, "rituals_of_power": 18,
                                          "the_breaking": 27}}) is None
    frames()
    assert app.portrait
    tall_shot("turned_cauldron")
    app.go_home()
    assert app.change_table_settings(rotation=270) == ""
    assert app.start_game({"game": "quest", "players": ["Mia", "Leo", "Dad"],
                           "needed": ["rotten_egg", "newt_eye", "bat_wing"]}) is None
    frames()
    tall_shot("turned_left_quest")
    app.go_home()
    for names in (["Anna", "Barb", "Carl"], ["Anna", "Barb", "Carl", "Dora", "Emil", "Fay"]):
        assert app.start_game({"game": "witchs_brew", "players": names,
                               "starter": "Anna"}) is None
        frames()
        tall_shot(f"turned_left_witchs_brew_{len(names)}_seats")
        app.go_home()
