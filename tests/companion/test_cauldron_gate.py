"""Cauldron behind the one gate: the documented setup key ``characters`` works (and is checked),
each command takes only the keys docs/cauldron.md documents, and what is stored is the clean command
(canonical spellings, the name as typed at setup)."""

from __future__ import annotations

import pytest

from companion.core import Command, Session, SetupError
from companion.games.cauldron import RULES
from tests.companion.cauldron_autoplay import MILESTONES, do, new, player, refused, start


def table(**config) -> Session:
    return Session(RULES, {"players": ["Anna", "Barb", "Carl"], "milestones": MILESTONES,
                           **config})


def test_characters_maps_each_player_to_a_character_as_the_readme_says():
    s = table(characters={"anna": "The Witch", "Carl": "druid"})
    assert [p["character"] for p in s.state["players"]] == ["witch", None, "druid"]
    assert "Little Helpers" in player(s, "Anna")["ability"]
    # The Witch chosen this way gathers two, like one chosen in her seat's record.
    start(s, first="Anna")
    do(s, "gather", "Anna", ingredients=["spider_web", "frog_legs"])
    assert player(s, "Anna")["pool"] == {"spider_web": 1, "frog_legs": 1}


@pytest.mark.parametrize(("characters", "match"), [
    ({"Dora": "witch"}, "characters key: there is no player named 'Dora' at this table"),
    ({"Anna": "necromancer"}, "characters.Anna: one of alchemist"),
    ({"Anna": "witch", "Barb": "Witch"}, "the Witch is chosen twice"),
    ({"Anna": "witch", "ANNA": "druid"}, "characters: 'Anna' is given twice"),
    (["witch"], "characters: a mapping of a player at this table"),
    ({"Anna": ["witch"]}, "characters.Anna: one of alchemist"),
])
def test_characters_are_known_chosen_once_and_given_to_players_at_this_table(characters, match):
    with pytest.raises(SetupError, match=match):
        table(characters=characters)


def test_characters_and_the_seats_records_agree():
    players = [{"name": "Anna", "character": "witch"}, "Barb", "Carl"]
    s = Session(RULES, {"players": players, "characters": {"Anna": "witch", "Barb": "shaman"},
                        "milestones": MILESTONES})
    assert [p["character"] for p in s.state["players"]] == ["witch", "shaman", None]
    with pytest.raises(SetupError, match="Anna plays the Witch in players\\[0\\], not the Druid"):
        Session(RULES, {"players": players, "characters": {"Anna": "druid"}})
    with pytest.raises(SetupError, match="the Witch is chosen twice"):
        Session(RULES, {"players": players, "characters": {"Barb": "witch"}})
    with pytest.raises(SetupError, match="Simple Game does not use the Wizard"):
        table(characters={"Carl": "wizard"}, variants=["simple"])


@pytest.mark.parametrize(("do_", "args", "match"), [
    ("gather", {"field": "spider_web"},
     "field: not a key of gather; it knows ingredient, ingredients"),
    ("fields_exhausted", {"field": "dragon_egg"},
     "field: not a key of fields_exhausted; it knows ingredient"),
    ("set_milestones", {"magik_overflow": 12},
     "magik_overflow: not a key of set_milestones; it knows milestones"),
    ("set_milestones", {"positions": {"magik_overflow": 12}}, "it knows milestones"),
    ("buy", {"item": "field", "ingredient": "spider_web"},
     "ingredient: not a key of buy; it knows item, field"),
    ("omen", {"text": "x", "magic": {"Anna": 1}},
     "magic: not a key of omen; it knows text, magik, produce, first"),
])
def test_only_the_documented_keys_are_taken(do_, args, match):
    s = table()
    refused(s, do_, None if do_ in ("fields_exhausted", "set_milestones", "omen") else "Anna",
            match=match, **args)


def test_the_log_keeps_the_clean_command():
    s = new(3)
    do(s, "begin")
    step = do(s, "omen", text="  Storm  ", magik={"barb": 2}, produce={"Dragon Eggs": 1},
              first="CARL")
    assert step.command == Command("omen", None, {"text": "Storm", "magik": {"Barb": 2},
                                                  "produce": {"dragon_egg": 1}, "first": "Carl"})
    step = do(s, "adjust", "anna", pool={"Spider Web": 1}, note="by hand")
    assert step.command.player == "Anna" and step.command.args["pool"] == {"spider_web": 1}


def test_names_differing_only_in_case_or_normal_form_are_the_same_player():
    with pytest.raises(SetupError, match="two seats have the same name"):
        Session(RULES, {"players": ["Zoe\u0308", "ZOË"]})
    s = Session(RULES, {"players": ["Zoë", "Anna"], "milestones": MILESTONES})
    step = do(s, "set_character", "ZOE\u0308", character="druid")
    assert step.command.player == "Zoë"
