"""An unfinished game is offered on the home screen and resumes exactly; game over leads to
the result, and from there to a new game or home."""

from __future__ import annotations

from companion.core.model import Command
from ui_helpers import button, find, frames, play_out, tap, tap_title, texts


def test_resume_an_unfinished_game_from_home(app, tmp_path):
    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    s = app.session
    s.execute(Command("play_role", "Anna", {"role": "herb_collector"}))
    s.execute(Command("claim", "Barb"))
    before = s.summary()
    # The app is closed (or the power goes); opening the same database offers the game.
    app.open_store(tmp_path / "companion.sqlite3")
    assert app.screens.current == "home" and app.session is None
    shown = texts(app.root)
    assert "Unfinished games" in shown
    assert "Witch's Brew  -  Set 1, round 1" in shown
    assert "Anna, Barb, Carl" in shown
    assert any(t.startswith("Last played\ntoday") for t in shown)
    tap_title("Resume")
    assert app.screens.current == "witchs_brew"
    assert app.session.summary() == before
    table = app.screens.get_screen("witchs_brew")
    assert table.role_title == "Herb collector" and table.turn_name == "Carl"
    assert app.can_undo


def test_abandon_asks_once_more(app):
    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    app.go_home()
    tap_title("Abandon")
    tap_title("Abandon it")          # asked where Resume was, never where the first tap landed
    assert app.store.unfinished() == []
    assert app.screens.get_screen("home").ids.resume_title.opacity == 0
    assert not find(lambda w: getattr(w, "title", "") == "Resume")


def test_game_over_then_history_and_new_game(app):
    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    s = app.session
    for name, stack in zip(["Anna", "Barb", "Carl", "Anna"], ["copper", "silver", "iron", "gold_shelf"]):
        s.execute(Command("adjust", name, {"potion": {"stack": stack, "points": 3, "raven": True}}))
    play_out(app)
    frames()
    assert app.screens.current == "result"
    assert "Anna wins with 6 points" in app.screens.get_screen("result").headline
    tap_title("Undo")                            # reopens the game
    assert app.screens.current == "witchs_brew" and not app.session.over
    tap(app.screens.get_screen("witchs_brew").ids.redo)
    assert app.screens.current == "result"
    tap_title("Home")
    assert "Anna 6 (won)" in " ".join(texts(app.root)).replace("[b]", "").replace(
        "[/b]", "").replace("[color=#FFC24B]", "").replace("[/color]", "").replace(
        "\u00a0", " ")                              # a name never parts from its score
    tap_title("Witch's Brew")
    assert app.screens.current == "setup"
    names = [row.ids.name.text for row in app.screens.get_screen("setup").rows[:3]]
    assert names == ["Anna", "Barb", "Carl"]    # the last table's names, ready to go again
    assert button("Start the game")
