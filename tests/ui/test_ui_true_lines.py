"""The table screen's lines say what the state holds: the headline after a failed steal, the
dice panel before the die is rolled, one name for each Quest spell on the screen and in the log.
Each test here failed on the code before its fix."""

from __future__ import annotations

from companion.core.model import Command
from companion.games.quest.state import SPELL_TITLES
from test_ui_cauldron_flow import table as cauldron_table
from test_ui_cauldron_flow import to_the_first_turn
from test_ui_cauldron_screens import start as start_cauldron
from test_ui_quest_screens import start as start_quest
from ui_helpers import frames, texts


def _cauldron_steal(app, roll=None):
    s = start_cauldron(app, players=("Anna", "Barb", "Carl"))
    to_the_first_turn(app)
    s.execute(Command("adjust", "Barb", {"pool": {"frog_legs": 1}}))
    args = {"target": "Barb", "ingredient": "frog_legs"}
    if roll is not None:
        args["roll"] = roll
    s.execute(Command("steal", "Anna", args))
    frames()
    return s


def test_a_failed_steal_is_said_failed_in_the_headline(app):
    s = _cauldron_steal(app, roll=2)
    assert s.state["players"][1]["pool"] == {"frog_legs": 1}
    screen = cauldron_table(app)
    assert screen.ask.startswith("Steal failed"), screen.ask
    assert not [t for t in texts(app.root) if t.startswith("Stole")]


def test_before_the_die_the_steal_is_only_tried(app):
    _cauldron_steal(app)
    heading = cauldron_table(app).dice.heading
    assert heading == "Anna tries to steal Frog Legs from Barb", heading
    assert not [t for t in texts(app.root) if " steals " in t]


def test_each_quest_spell_has_one_name_on_the_screen_and_in_the_log(app):
    s = start_quest(app)
    s.execute(Command("action_roll", args={"a": "bottle", "b": "spell"}))
    frames()
    shown = "\n".join(texts(app.root))
    for title in SPELL_TITLES.values():   # offered by the rulebook's names (without "Spell of")
        assert title.removeprefix("Spell of ").removeprefix("Charm of ") in shown
    assert "Big move" not in shown and "See inside" not in shown
    s.execute(Command("announce_spell", args={"spell": "great_sorcery"}))
    frames()
    logged = app.log_all()[-1]
    assert "the Great Sorcery" in logged, logged
    assert "Great Sorcery" in app.screens.get_screen("quest").turn_name
