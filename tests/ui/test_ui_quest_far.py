"""The Cauldron Quest table read from a chair: at 800x480 at least half of its texts
are 24 units or more in each phase, the ingredients needed are pictures that give up their
names before they would be cut, and Home shows a new table its games first."""

from __future__ import annotations

from layout_check import READ_FAR
from layout_reading import text_sizes

from companion.core.model import Command
from ui import theme
from ui.games.quest.icons import IngredientTile
from ui_helpers import button, frames, resize, shot, texts

NEEDED = ["rotten_egg", "newt_eye", "bat_wing"]


def far_share(app) -> float:
    sizes = text_sizes(app.u)
    return sum(s >= READ_FAR for s in sizes) / len(sizes)


def test_each_quest_phase_reads_from_a_chair_at_800x480(app):
    resize(800, 480)
    assert app.start_game({"game": "quest", "players": ["Mia", "Leo"],
                           "needed": NEEDED}) is None
    frames()
    shares = {"roll": far_share(app)}
    s = app.session
    s.execute(Command("action_roll", args={"a": "bottle", "b": 3}))
    frames()
    shares["move"] = far_share(app)
    s.execute(Command("move_bottle", args={"bottle": 1, "to": "p1.3"}))
    s.execute(Command("action_roll", args={"a": "bottle", "b": "spell"}))
    frames()
    shares["announce"] = far_share(app)
    s.execute(Command("announce_spell", args={"spell": "omniscience"}))
    s.execute(Command("magic_roll", args={"dice": [2, 5, 4]}))
    frames()
    shares["magic"] = far_share(app)
    shot("quest_far_magic")
    assert all(share >= 0.5 for share in shares.values()), shares


def test_a_needed_ingredient_is_named_only_where_its_name_fits():
    u = 1.0
    assert IngredientTile.words(200, 50, u, "newt_eye", False) == "Newt eye"
    assert IngredientTile.words(40, 50, u, "newt_eye", False) == ""         # picture alone
    assert IngredientTile.words(200, 50, u, "newt_eye", True) == ""         # IN! says it
    two = IngredientTile.words(70, 64, u, "rotten_egg", False)
    assert two in ("Rotten\negg", "")                                       # never cut
    assert IngredientTile.words(70, 30, u, "rotten_egg", False) == ""       # one line only


def test_a_new_table_sees_its_games_first(app):
    app.go_home()
    frames()
    home = app.screens.get_screen("home")
    tiles = [button(t) for t in ("Witch's Brew", "Cauldron", "Cauldron Quest")]
    assert len({tuple(t.fill) for t in tiles}) == 3
    assert [tuple(t.fill) for t in tiles] == [theme.rgba(theme.GAME_COLOURS[t.game]) for t in tiles]
    assert not home.finished and "No finished games yet." in texts(app.root)
    width = app.root.width
    assert all(t.height >= 150 * app.u for t in tiles)                      # the main thing
    assert sum(t.width for t in tiles) > 0.9 * width                        # no empty pane
