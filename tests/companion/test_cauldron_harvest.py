"""The Harvest Season: Omen, filling the board, turn order, one Action and Quick Actions,
gather / steal / brew, Spells, Cellars, and the close of the season."""

from __future__ import annotations

from companion.core import InputEvent
from tests.companion.cauldron_autoplay import (
    do, empty_board_but, give, magik, new, player, pool, refused, start,
)


# -- phases 1-3 ------------------------------------------------------------------------------
def test_omen_comes_first_then_the_board_is_filled_as_the_prompt_says():
    s = new(4)
    do(s, "begin")
    refused(s, "fill_board", match="Not the time to fill the board")
    do(s, "omen", text="Blight: one fewer Frog Legs, one more Dragon Egg",
       magik={"Barb": 3}, produce={"frog legs": -1, "Dragon Egg": 1})
    assert magik(s, "Barb") == 5
    assert s.prompt()["notes"][0].startswith("Omen: Blight")
    assert s.prompt()["text"] == ("Fill the board: 5 Spider Web, 4 Frog Legs, "
                                  "5 Poisonous Mushroom, 1 Dragon Egg")
    refused(s, "omen", match="Not the time to enter an Omen", text="again")
    do(s, "fill_board")
    assert s.state["ingredients_left"]["frog_legs"] == 4
    assert s.state["ingredients_left"]["dragon_egg"] == 1
    assert s.prompt()["phase"] == "turn_order"


def test_the_table_may_place_other_counts_but_never_an_empty_board():
    s = new(2)
    do(s, "begin")
    do(s, "omen", text="Drought", produce={"spider_web": -9, "frog_legs": -9,
                                          "poisonous_mushroom": -9})
    refused(s, "fill_board", match="at least one Ingredient")
    do(s, "fill_board", ingredients={"spider_web": 2})
    assert sum(s.state["ingredients_left"].values()) == 2


def test_omen_magik_stops_at_34():
    s = new(2)
    do(s, "begin")
    do(s, "adjust_magik", "Anna", delta=30)
    do(s, "omen", text="Windfall", magik={"Anna": 5, "Barb": -5})
    assert magik(s, "Anna") == 34 and magik(s, "Barb") == 0


def test_every_seat_rolls_highest_starts_and_only_tied_seats_reroll():
    s = new(4)
    do(s, "begin")
    do(s, "omen", text="-")
    do(s, "fill_board")
    do(s, "turn_order_roll", "Anna", value=6)
    refused(s, "turn_order_roll", "Anna", value=2, match="only tied seats re-roll")
    do(s, "turn_order_roll", "Barb", value=3)
    do(s, "turn_order_roll", "Carl", value=6)
    do(s, "turn_order_roll", "Dora", value=3)  # a tie below the top does not matter
    assert "tie at 6 between Anna and Carl" in s.prompt()["text"]
    refused(s, "turn_order_roll", "Barb", value=6, match="waiting for Anna and Carl")
    refused(s, "turn_order_roll", "Anna", value=7, match="1 to 6")
    do(s, "turn_order_roll", "Carl", value=5)
    do(s, "turn_order_roll", "Anna", value=2)
    assert s.prompt()["turn"] == "Carl"
    assert s.summary()["turn_order"] == ["Carl", "Dora", "Anna", "Barb"]


def test_a_die_goes_to_the_awaited_seat_and_an_unasked_roll_is_refused():
    s = new(2)
    do(s, "begin")
    refused(s, "roll", value=4, match="No die roll is expected now")
    do(s, "omen", text="-")
    do(s, "fill_board")
    assert s.prompt()["inputs"] == ["die"]
    s.handle_input(InputEvent("die", "d1", 2))
    s.handle_input(InputEvent("die", "d1", 5))
    assert s.prompt()["turn"] == "Barb"
    try:
        s.handle_input(InputEvent("die", "d1", 3))
    except ValueError as refusal:
        assert "No die roll is expected now" in str(refusal)
    else:  # pragma: no cover
        raise AssertionError("a roll nobody asked for was accepted")


def test_an_omen_may_name_who_starts():
    s = new(3)
    start(s, omen={"text": "The youngest starts", "first": "Carl"})
    assert s.prompt()["phase"] == "turns" and s.prompt()["turn"] == "Carl"


# -- phase 4: actions ----------------------------------------------------------------------
def test_one_action_per_turn_and_end_turn_is_explicit():
    s = start(new(3))
    refused(s, "end_turn", "Anna", match="must take one Action")
    refused(s, "gather", "Barb", ingredient="spider_web", match="It is Anna's turn")
    do(s, "gather", "Anna", ingredient="Spider Web")
    assert player(s, "Anna")["pool"] == {"spider_web": 1}
    assert s.state["ingredients_left"]["spider_web"] == 3
    refused(s, "gather", "Anna", ingredient="frog_legs", match="One Action per turn")
    refused(s, "steal", "Anna", target="Barb", ingredient="frog_legs", match="One Action per turn")
    do(s, "end_turn", "Anna")
    assert s.prompt()["turn"] == "Barb"


def test_a_turn_a_spell_forbids_ends_with_skip():
    s = start(new(2))
    do(s, "end_turn", "Anna", skip=True)
    assert s.prompt()["turn"] == "Barb"


def test_gather_only_what_the_board_holds():
    s = start(new(2))
    refused(s, "gather", "Anna", ingredient="dragon_egg", match="The board has no Dragon Egg left")
    refused(s, "gather", "Anna", ingredient="newt", match="ingredient: one of spider_web")


def test_only_the_witchs_little_helpers_gathers_two():
    s = start(new(3, witch="Barb"))
    refused(s, "gather", "Anna", ingredients=["spider_web", "frog_legs"],
            match="only the Witch's Little Helpers gathers two")
    do(s, "gather", "Anna", ingredient="spider_web")
    do(s, "end_turn", "Anna")
    do(s, "gather", "Barb", ingredients=["frog_legs", "frog_legs"])
    assert player(s, "Barb")["pool"] == {"frog_legs": 2}
    refused(s, "gather", "Barb", ingredient="spider_web", match="One Action per turn")


def test_little_helpers_once_per_season_when_the_card_says_so():
    s = new(2, players=[{"name": "Anna", "character": "witch", "once_per_season": True}, "Barb"])
    start(s)
    do(s, "gather", "Anna", ingredients=["frog_legs", "spider_web"])
    assert player(s, "Anna")["ability_used"]
    do(s, "end_turn", "Anna")
    do(s, "gather", "Barb", ingredient="spider_web")
    do(s, "end_turn", "Barb")
    refused(s, "gather", "Anna", ingredients=["frog_legs", "spider_web"],
            match="once per season and already used")
    do(s, "gather", "Anna", ingredient="frog_legs")


def test_steal_succeeds_on_four_or_more_and_never_from_a_cellar():
    s = start(new(3))
    pool(s, "Barb", frog_legs=1, spider_web=1)
    refused(s, "steal", "Anna", target="Anna", ingredient="frog_legs", match="not your own")
    refused(s, "steal", "Anna", target="Carl", ingredient="frog_legs", match="Carl has no Frog Legs")
    step = do(s, "steal", "Anna", target="Barb", ingredient="frog_legs", roll=4)
    assert not step.undoable
    assert player(s, "Anna")["pool"] == {"frog_legs": 1}
    assert player(s, "Barb")["pool"] == {"spider_web": 1}
    refused(s, "undo", match="Dice results cannot be undone")
    do(s, "end_turn", "Anna")
    do(s, "steal", "Barb", target="Anna", ingredient="frog_legs", roll=3)
    assert player(s, "Anna")["pool"] == {"frog_legs": 1}
    assert "Barb failed to steal from Anna (caught)" in s.prompt()["text"]


def test_cellar_ingredients_cannot_be_stolen():
    s = new(2, ["quick"])
    start(s, first="Barb")
    pool(s, "Anna", dragon_egg=1)
    do(s, "gather", "Barb", ingredient="spider_web")
    do(s, "end_turn", "Barb")
    do(s, "move_ingredient", "Anna", ingredient="dragon_egg", to="cellar")
    assert player(s, "Anna")["cellars"] == ["dragon_egg"]
    do(s, "gather", "Anna", ingredient="spider_web")
    do(s, "end_turn", "Anna")
    refused(s, "steal", "Barb", target="Anna", ingredient="dragon_egg",
            match="an Ingredient stored in a Cellar cannot be stolen")


def test_a_steal_may_wait_for_its_die_which_the_input_map_delivers():
    s = start(new(2))
    pool(s, "Barb", frog_legs=1)
    do(s, "steal", "Anna", target="Barb", ingredient="frog_legs")
    assert s.prompt()["inputs"] == ["die"] and "roll a die (4 or more" in s.prompt()["text"]
    refused(s, "end_turn", "Anna", match="roll the die first")
    refused(s, "gather", "Anna", ingredient="spider_web", match="roll the die first")
    refused(s, "steal", "Anna", target="Barb", ingredient="spider_web", match="already stealing")
    step = s.handle_input(InputEvent("die", "d1", 5))
    assert step.command.do == "steal" and not step.undoable
    assert player(s, "Anna")["pool"] == {"frog_legs": 1}


def test_a_misread_steal_die_is_corrected_explicitly():
    s = start(new(2))
    pool(s, "Barb", frog_legs=1)
    do(s, "steal", "Anna", target="Barb", ingredient="frog_legs", roll=2)
    assert player(s, "Anna")["pool"] == {}
    step = do(s, "correct_roll", "Anna", value=5)
    assert not step.undoable
    assert player(s, "Anna")["pool"] == {"frog_legs": 1} and player(s, "Barb")["pool"] == {}
    do(s, "correct_roll", "Anna", value=1)
    assert player(s, "Barb")["pool"] == {"frog_legs": 1}
    do(s, "end_turn", "Anna")
    refused(s, "correct_roll", "Anna", value=6, match="can be corrected now")


def test_a_non_quick_potion_waits_for_the_turn_after_its_last_ingredient():
    s = start(new(2))
    give(s, "Anna", "Draught", ["spider_web", "frog_legs", "frog_legs"], 5)
    pool(s, "Anna", frog_legs=2)
    do(s, "gather", "Anna", ingredient="spider_web")
    refused(s, "brew", "Anna", potion="Draught",
            match="cannot be brewed in the turn its last Ingredient was gathered")
    do(s, "end_turn", "Anna")
    do(s, "gather", "Barb", ingredient="spider_web")
    do(s, "end_turn", "Barb")
    do(s, "brew", "Anna", potion="draught")
    assert magik(s, "Anna") == 2 + 5 + 1  # Enthusiasm: 10 or less, Basic Potion
    assert player(s, "Anna")["pool"] == {}
    refused(s, "gather", "Anna", ingredient="spider_web", match="already brewed a Potion")


def test_a_quick_potion_is_a_quick_action_even_after_gathering():
    s = start(new(2))
    give(s, "Anna", "Oil of Earthquakes", ["spider_web"] * 3 + ["dragon_egg"], 6, quick=True)
    pool(s, "Anna", spider_web=3)
    do(s, "adjust", board={"dragon_egg": 1})
    do(s, "gather", "Anna", ingredient="dragon_egg")
    do(s, "brew", "Anna", potion="Oil of Earthquakes")
    assert magik(s, "Anna") == 2 + 6 + 1


def test_brew_needs_the_card_the_ingredients_in_the_pool_and_the_turn():
    s = start(new(2))
    refused(s, "brew", "Anna", potion="Nothing", match="has no potion named 'Nothing'")
    give(s, "Anna", "Draught", ["spider_web", "frog_legs"], 3)
    refused(s, "brew", "Anna", potion="Draught", match="lacks 1 Spider Web, 1 Frog Legs")
    give(s, "Barb", "Brew", ["spider_web"], 3, kind="easy")
    pool(s, "Barb", spider_web=1)
    refused(s, "brew", "Barb", potion="Brew", match="It is Anna's turn")


def test_any_spaces_are_paid_as_said_or_by_themselves():
    s = start(new(2))
    give(s, "Anna", "Mixture", ["spider_web", "any"], 3, quick=True)
    give(s, "Anna", "Mixture 2", ["any", "any"], 3, quick=True)
    pool(s, "Anna", spider_web=1, frog_legs=1, dragon_egg=1)
    refused(s, "brew", "Anna", potion="Mixture",
            match="Which Ingredients from Anna's pool pay for the 1 Any space of Mixture")
    refused(s, "brew", "Anna", potion="Mixture", any=["snake_skin"], match="no spare Snake Skin")
    do(s, "brew", "Anna", potion="Mixture", any=["dragon_egg"])
    assert player(s, "Anna")["pool"] == {"frog_legs": 1}
    refused(s, "brew", "Anna", potion="Mixture 2", match="1 more Ingredient(s) of any kind")


def test_enthusiasm_only_for_basic_potions_at_ten_or_less():
    s = start(new(2))
    give(s, "Anna", "Adv", ["spider_web", "frog_legs", "frog_legs"], 5, kind="advanced", quick=True)
    give(s, "Anna", "Bas", ["spider_web", "frog_legs", "frog_legs"], 5, quick=True)
    pool(s, "Anna", spider_web=2, frog_legs=4)
    do(s, "brew", "Anna", potion="Adv")
    assert magik(s, "Anna") == 7
    do(s, "adjust_magik", "Anna", delta=4)
    do(s, "brew", "Anna", potion="Bas")
    assert magik(s, "Anna") == 16  # at 11: no Enthusiasm


def test_advanced_alchemy_forbids_two_ingredient_potions_from_25():
    s = start(new(2))
    give(s, "Anna", "Pair", ["spider_web", "frog_legs"], 3, quick=True)
    give(s, "Anna", "Trio", ["spider_web", "frog_legs", "frog_legs"], 3, quick=True)
    pool(s, "Anna", spider_web=2, frog_legs=3)
    do(s, "adjust_magik", "Anna", delta=23)
    refused(s, "brew", "Anna", potion="Pair", match="Advanced Alchemy")
    do(s, "brew", "Anna", potion="Trio")
    assert magik(s, "Anna") == 28


def test_a_spell_potion_grants_a_basic_spell_and_three_is_the_limit_at_end_of_turn():
    s = start(new(2))
    give(s, "Anna", "Sparks", ["spider_web"], 2, quick=True, spell=True)
    pool(s, "Anna", spider_web=2)
    do(s, "gather", "Anna", ingredient="frog_legs")
    do(s, "brew", "Anna", potion="Sparks")
    do(s, "brew", "Anna", potion="Sparks")
    assert player(s, "Anna")["spells"] == ["basic"] * 4
    refused(s, "end_turn", "Anna", match="You can hold at most three Spells")
    do(s, "cast_spell", "Anna", name="Fizzle")
    do(s, "end_turn", "Anna")
    assert len(player(s, "Anna")["spells"]) == 3


def test_spells_on_your_own_turn_instant_ones_any_time_dome_stops_them():
    s = start(new(2))
    refused(s, "cast_spell", "Barb", match="Only an Instant Spell can be cast outside your own turn")
    do(s, "cast_spell", "Barb", instant=True, name="Hex")
    do(s, "cast_spell", "Anna")
    do(s, "cast_spell", "Anna", dome=True, name="Magik Dome")
    refused(s, "cast_spell", "Barb", instant=True, match="Magik Dome was cast")
    assert player(s, "Anna")["spells"] == [] and player(s, "Barb")["spells"] == ["basic"]


def test_spells_are_not_cast_in_the_market_nor_in_the_simple_game():
    s = new(2, ["simple"])
    start(s)
    refused(s, "cast_spell", "Anna", match="Simple Game: no Spells")
    s = start(new(2))
    empty_board_but(s, spider_web=1)
    do(s, "gather", "Anna", ingredient="spider_web")
    do(s, "end_turn", "Anna")
    assert s.prompt()["phase"] == "market"
    refused(s, "cast_spell", "Barb", instant=True,
            match="Spells can only be cast during the Harvest Season")


def test_cellars_on_your_own_turn_one_ingredient_each():
    s = new(2, ["quick"])
    start(s)
    pool(s, "Anna", spider_web=2)
    refused(s, "move_ingredient", "Barb", ingredient="spider_web", to="cellar",
            match="only on your own turn")
    refused(s, "move_ingredient", "Anna", ingredient="frog_legs", to="cellar",
            match="no Frog Legs in the pool")
    do(s, "move_ingredient", "Anna", ingredient="spider_web", to="cellar")
    refused(s, "move_ingredient", "Anna", ingredient="spider_web", to="cellar",
            match="Each Cellar holds a single Ingredient")
    refused(s, "move_ingredient", "Anna", ingredient="frog_legs", to="pool", match="in a Cellar")
    give(s, "Anna", "Pair", ["spider_web", "spider_web"], 3, quick=True)
    refused(s, "brew", "Anna", potion="Pair", match="in a Cellar: move it to the pool first")
    do(s, "move_ingredient", "Anna", ingredient="spider_web", to="pool")
    do(s, "brew", "Anna", potion="Pair")
    s2 = start(new(2))
    refused(s2, "move_ingredient", "Anna", ingredient="spider_web", to="cellar", match="has no Cellar")


# -- phase 5 ---------------------------------------------------------------------------------
def test_the_last_gatherer_may_take_quick_actions_then_the_season_closes():
    s = new(3, ["quick"])
    start(s, first="Barb")
    give(s, "Barb", "Flash", ["frog_legs", "spider_web"], 3, quick=True)
    give(s, "Barb", "Slow", ["spider_web", "spider_web"], 3)
    pool(s, "Barb", spider_web=2)
    pool(s, "Carl", dragon_egg=1)
    do(s, "use_ability", "Carl", note="as the card says")
    empty_board_but(s, frog_legs=1)
    do(s, "gather", "Barb", ingredient="frog_legs")
    p = s.prompt()
    assert p["phase"] == "closing" and p["turn"] == "Barb"
    assert "may take Quick Actions" in p["text"]
    refused(s, "brew", "Barb", potion="Slow", match="no more Actions this Harvest Season")
    refused(s, "steal", "Barb", target="Carl", ingredient="dragon_egg", match="no more Actions")
    do(s, "move_ingredient", "Barb", ingredient="spider_web", to="cellar")
    do(s, "brew", "Barb", potion="Flash", any=None)
    do(s, "end_turn", "Barb")
    # Pools spoil, cellars keep; the Market opens LEFT of the last gatherer.
    assert s.state["season"] == "market"
    assert player(s, "Barb")["pool"] == {} and player(s, "Barb")["cellars"] == ["spider_web"]
    assert player(s, "Carl")["pool"] == {}
    assert s.prompt()["turn"] == "Carl"


def test_once_per_season_abilities_reset_when_the_harvest_closes():
    s = new(2, players=["Anna", {"name": "Barb", "character": "druid", "ability": "Grow",
                                 "once_per_season": True}])
    start(s)
    do(s, "use_ability", "Barb", note="grow a field")
    refused(s, "use_ability", "Barb", match="once per season and already used")
    empty_board_but(s, spider_web=1)
    do(s, "gather", "Anna", ingredient="spider_web")
    do(s, "end_turn", "Anna")
    assert not player(s, "Barb")["ability_used"]


def test_the_quick_reference_market_order_is_a_setting():
    s = new(3, settings={"market_start": "right"})
    start(s, first="Barb")
    empty_board_but(s, spider_web=1)
    do(s, "gather", "Barb", ingredient="spider_web")
    do(s, "end_turn", "Barb")
    assert s.prompt()["turn"] == "Anna"
