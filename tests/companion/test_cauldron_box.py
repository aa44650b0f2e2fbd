"""What the box holds limits the game: Ingredient tokens, Fields, Cellar cards.

RULES-NOTES (Cauldron): "Box: 7 characters, 46 omens, 12 cellars, 35 basic potions, 22 advanced
potions, 50 basic and 37 advanced spells, 44 field pieces, 132 ingredient tokens, 5 dice";
"How many fields of each type: *unsure*". The rulebook: "If all Fields of a certain type are
already on the board, Fields of that type can no longer be bought." and "Unless otherwise
specified, you can own a maximum of two Cellars." The counts are settings (``box_ingredients``,
``box_fields``, ``box_cellars``), defaulting to the box, for a table with other pieces.
"""

from __future__ import annotations

import pytest

from companion.core import Session, SetupError
from companion.games.cauldron import RULES
from companion.games.cauldron import data as d
from companion.games.cauldron import state as st
from tests.companion.cauldron_autoplay import (
    MILESTONES, do, magik, new, player, refused, set_magik, start, to_market,
)


def test_the_box_defaults_are_the_published_counts():
    s = new(3)
    settings = s.state["settings"]
    assert (settings["box_ingredients"], settings["box_fields"], settings["box_cellars"]) == (
        132, 44, 12)
    assert (d.BOX_INGREDIENTS, d.BOX_FIELDS, d.BOX_CELLARS) == (132, 44, 12)


def test_no_more_ingredient_tokens_than_the_box_holds():
    s = new(3, settings={"box_ingredients": 20})
    do(s, "begin")
    # Twelve Fields, and this Omen would have them produce 22 tokens: more than the box.
    refused(s, "omen", match="The box holds 20 Ingredient tokens and 0 are already out",
            text="Bounty", produce={"spider_web": 10})
    do(s, "omen", text="Bounty", produce={"spider_web": 2})
    refused(s, "fill_board", ingredients={"spider_web": 15, "frog_legs": 6},
            match="filling the board needs 21, only 20 are left")
    do(s, "fill_board")                      # 14 tokens: one per Field and the Omen's two
    assert st.tokens_in_play(s.state) == 14
    refused(s, "adjust", "Anna", pool={"dragon_egg": 7},
            match="this correction needs 7, only 6 are left")
    do(s, "adjust", "Anna", pool={"dragon_egg": 6})
    refused(s, "adjust", board={"frog_legs": 1}, match="only 0 are left")


def test_filling_the_board_first_returns_what_it_held():
    s = new(3, settings={"box_ingredients": 20})
    do(s, "begin")
    do(s, "adjust", board={"dragon_egg": 8})  # a correction before the Omen: 8 on the board
    do(s, "omen", text="Quiet")
    do(s, "fill_board")                       # 12 Fields: the 8 go back, 12 come out
    assert st.tokens_in_play(s.state) == 12


def test_a_fields_ingredient_token_comes_only_while_the_supply_has_one():
    s = to_market(new(2, settings={"box_ingredients": 9}), gatherer="Barb")
    set_magik(s, "Anna", 10)
    do(s, "adjust", board={"spider_web": 9})  # every token out of the box
    offer = {o["item"]: o for o in s.summary()["market"]["offers"]}["field"]
    assert offer["bonus_ingredient"] is False
    do(s, "buy", "Anna", item="field", field="dragon_egg")
    assert player(s, "Anna")["pool"] == {} and s.state["fields"]["dragon_egg"] == 1


def test_no_more_fields_than_the_box_holds():
    s = to_market(new(2, settings={"box_fields": 10}), gatherer="Barb")  # 9 on the board
    set_magik(s, "Anna", 20)
    set_magik(s, "Barb", 20)
    do(s, "buy", "Anna", item="field", field="dragon_egg")
    assert sum(s.state["fields"].values()) == 10
    refused(s, "buy", "Barb", item="field", field="snake_skin",
            match="All 10 Fields of the box are on the board")
    refused(s, "adjust", fields={"snake_skin": 1}, match="The box holds 10 Fields")
    do(s, "adjust", fields={"spider_web": -1, "snake_skin": 1})


def test_fields_of_a_type_as_counted_by_the_table():
    s = to_market(new(2, settings={"field_supply": {"dragon_egg": 1}}), gatherer="Barb")
    set_magik(s, "Anna", 20)
    do(s, "buy", "Anna", item="field", field="dragon_egg")
    refused(s, "adjust", fields={"dragon_egg": 1}, match="The box holds 1 Dragon Egg Fields")
    with pytest.raises(SetupError, match="the starting board needs 4 Spider Web Fields, the box holds 3"):
        new(3, settings={"field_supply": {"spider_web": 3}})
    with pytest.raises(SetupError, match="the starting board needs 12 Fields, not 11"):
        new(3, settings={"box_fields": 11})
    # Every type counted: that is the whole box.
    counted = {k: 5 for k in d.INGREDIENTS}
    assert new(2, settings={"field_supply": counted}).state["settings"]["box_fields"] == 35


def test_no_more_cellars_than_the_box_holds_nor_than_a_seat_may_own():
    s = to_market(new(3, ["quick", "advanced"], settings={"box_cellars": 4}), gatherer="Carl")
    set_magik(s, "Anna", 30)
    do(s, "buy", "Anna", item="cellar")      # her second: 4 cards of the box are out
    assert magik(s, "Anna") == 26
    refused(s, "buy", "Anna", item="cellar", match="You can own at most 2 Cellars")
    do(s, "pass", "Anna")
    set_magik(s, "Barb", 30)
    refused(s, "buy", "Barb", item="cellar", match="All 4 Cellar cards of the box are taken")
    with pytest.raises(SetupError, match="players\\[0\\].max_cellars: the Quick Game deals each"):
        Session(RULES, {"players": [{"name": "A", "max_cellars": 0}, "B"], "variants": ["quick"]})
    with pytest.raises(SetupError, match="the Quick Game deals each player a Cellar; the box holds 2"):
        Session(RULES, {"players": ["A", "B", "C"], "variants": ["quick"],
                        "milestones": MILESTONES, "settings": {"box_cellars": 2}})


def test_box_settings_are_whole_numbers_in_range():
    for bad in ({"box_ingredients": 0}, {"box_fields": 2.0}, {"box_cellars": "12"},
                {"box_cellars": True}):
        with pytest.raises(SetupError, match="settings.box_"):
            new(2, settings=bad)

