"""Large text: the table's text size setting draws the text of the shared widgets (Txt,
FlatButton, Chip, Stepper) 15% larger wherever the words still fit their box, the normal size
where they would not, so the layouts keep their sizes; it is saved per device and survives a
restart, and the main screens of all three games, the home screen and the settings screen pass
the layout check with it at both sizes."""

from __future__ import annotations

import json

import pytest
from ui_helpers import both_sizes, button, find, frames, tap

from ui.table.settings import TEXT_SIZES
from ui.widgets.common import FlatButton, Txt


@pytest.fixture
def large(app, tmp_path, monkeypatch):
    """Large text on its own settings file; normal text again afterwards."""
    path = tmp_path / "settings.json"
    monkeypatch.setenv("COMPANION_SETTINGS", str(path))
    app.load_table_settings()
    assert app.change_table_settings(text_size="large") == ""
    frames()
    yield path
    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "none.json"))
    app.load_table_settings()
    frames()
    assert app.fu == app.u


def test_large_text_from_the_settings_screen_survives_a_restart(app, tmp_path, monkeypatch):
    path = tmp_path / "settings.json"
    monkeypatch.setenv("COMPANION_SETTINGS", str(path))
    app.load_table_settings()
    app.open_table_settings()
    frames()
    screen = app.screens.get_screen("table_settings")
    title = next(t for t in find(lambda w: isinstance(w, Txt) and w.text == "Table settings"))
    normal = title.font_size
    tap(button("Large", screen.ids.text_size))
    frames()
    assert app.fu == pytest.approx(app.u * TEXT_SIZES["large"])
    assert title.font_size == pytest.approx(normal * TEXT_SIZES["large"])
    assert json.loads(path.read_text())["text_size"] == "large"
    assert screen.message.startswith("Large text")
    both_sizes("settings_large_text")
    app.table_settings = type(app.table_settings)()       # what a restart reads: the file
    app.load_table_settings()
    assert app.table_settings.text_size == "large" and app.fu > app.u
    tap(button("Normal", screen.ids.text_size))
    assert app.fu == app.u and json.loads(path.read_text())["text_size"] == "normal"
    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "none.json"))
    app.load_table_settings()


def test_home_with_large_text(app, large):
    app.go_home()
    frames()
    buttons = {b.title: b for b in find(lambda w: isinstance(w, FlatButton)) if b.title}
    large = TEXT_SIZES["large"]
    for title in ("Hardware", "Settings"):                  # room enough: larger
        assert buttons[title].font_size == pytest.approx(app.u * buttons[title].fs * large)
    for b in buttons.values():                              # else the size that fits
        assert b.font_size in (pytest.approx(app.u * b.fs), pytest.approx(app.u * b.fs * large))
    both_sizes("home_large_text")


def test_witchs_brew_table_with_large_text(app, large):
    assert app.start_game({"game": "witchs_brew",
                           "players": ["Anna", "Barbara", "Carl", "Daniel", "Emma"]}) is None
    frames()
    both_sizes("witchs_brew_table_large_text")


def test_cauldron_table_with_large_text(app, large):
    assert app.start_game({"game": "cauldron", "players": ["Anna", "Barbara", "Carl", "Dana"],
                           "colours": ["Black", "White", "Reddish purple", "Yellow"]}) is None
    frames()
    both_sizes("cauldron_table_large_text")


def test_quest_table_with_large_text(app, large):
    assert app.start_game({"game": "quest", "players": ["Mia", "Leo", "Ida"],
                           "needed": ["rotten_egg", "newt_eye", "bat_wing"]}) is None
    frames()
    both_sizes("quest_table_large_text")


def test_the_setup_screens_with_large_text(app, large):
    app.new_game("witchs_brew")
    frames()
    both_sizes("witchs_brew_setup_large_text")
    app.new_game("cauldron")
    frames()
    both_sizes("cauldron_setup_large_text")
    app.new_game("quest")
    frames()
    both_sizes("quest_setup_large_text")
