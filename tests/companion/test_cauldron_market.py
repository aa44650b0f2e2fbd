"""The Market Season: order, one purchase each (two in the Advanced Game) or pass, the costs,
Rituals of Power, Cellars, Fields and their bonus Ingredient, a full hand of Spells."""

from __future__ import annotations

import pytest

from tests.companion.cauldron_autoplay import (
    do, give, magik, new, player, potion, refused, set_magik, to_market,
)


def offers(s, who=None):
    return {o["item"]: o for o in s.summary()["market"]["offers"]}


def test_market_opens_left_of_the_last_gatherer_and_goes_clockwise():
    s = to_market(new(4), gatherer="Dora")
    assert s.prompt()["turn"] == "Anna"
    refused(s, "pass", "Barb", match="It is Anna's turn")
    do(s, "pass", "Anna")
    assert s.prompt()["turn"] == "Barb"
    for who in ("Barb", "Carl", "Dora"):
        do(s, "pass", who)
    assert s.prompt()["phase"] == "omen" and s.state["season_number"] == 2


def test_purchases_only_in_the_market():
    s = new(2)
    do(s, "begin")
    refused(s, "buy", "Anna", item="basic_spell", match="made in the Market Season")
    do(s, "omen", text="-")
    do(s, "fill_board")
    do(s, "turn_order_roll", "Anna", value=6)
    do(s, "turn_order_roll", "Barb", value=1)
    refused(s, "buy", "Anna", item="basic_spell", match="made in the Market Season")
    refused(s, "pass", "Anna", match="a turn ends with End turn")


def test_one_purchase_each_then_the_next_seat():
    s = to_market(new(3), gatherer="Carl")
    set_magik(s, "Anna", 10)
    do(s, "buy", "Anna", item="basic_spell", discard="basic")
    assert magik(s, "Anna") == 9
    assert s.prompt()["turn"] == "Barb"
    refused(s, "buy", "Anna", item="cellar", match="It is Barb's turn")


def test_advanced_game_allows_two_purchases():
    s = to_market(new(2, ["advanced"]), gatherer="Barb")
    set_magik(s, "Anna", 12)
    do(s, "buy", "Anna", item="cellar")
    assert s.prompt()["turn"] == "Anna" and s.summary()["market"]["purchases_left"] == 1
    do(s, "buy", "Anna", item="cellar")
    assert player(s, "Anna")["cellars"] == [None, None] and magik(s, "Anna") == 12 - 3 - 4
    assert s.prompt()["turn"] == "Barb"


def test_advanced_game_may_stop_after_one_purchase():
    s = to_market(new(2, ["advanced"]), gatherer="Barb")
    set_magik(s, "Anna", 12)
    do(s, "buy", "Anna", item="field", field="dragon_egg")
    do(s, "end_turn", "Anna")  # end_turn in the Market is a pass
    assert s.prompt()["turn"] == "Barb"


def test_costs_follow_the_rulebook():
    s = to_market(new(2), gatherer="Barb")
    set_magik(s, "Anna", 20)
    o = offers(s)
    assert o["field"]["cost"] == 3 and o["basic_spell"]["cost"] == 1
    assert o["advanced_spell"]["cost"] == 3 and o["cellar"]["cost"] == 3
    assert o["basic_potion"]["cost"] == 2          # Easy + Basic owned
    assert o["advanced_potion"]["cost"] == 2 + 2   # all potions + 2
    give(s, "Anna", "Extra", ["spider_web"], 3, kind="advanced")
    assert offers(s)["basic_potion"]["cost"] == 2
    assert offers(s)["advanced_potion"]["cost"] == 5


def test_discarding_potions_lowers_the_price():
    s = to_market(new(2), gatherer="Barb")
    set_magik(s, "Anna", 20)
    give(s, "Anna", "Easy", ["spider_web"], 2, kind="easy")
    give(s, "Anna", "Basic", ["spider_web"], 3, kind="basic")
    do(s, "discard_potion", "Anna", potion="Easy")
    refused(s, "discard_potion", "Anna", potion="Easy", match="no potion named 'Easy'")
    assert offers(s)["basic_potion"]["cost"] == 1
    do(s, "buy", "Anna", item="basic_potion",
       potion=potion("New", ["frog_legs", "frog_legs", "spider_web"], 5))
    assert magik(s, "Anna") == 19
    assert [p["name"] for p in player(s, "Anna")["potions"]] == ["Basic", "New"]


def test_a_bought_potion_card_may_be_entered_later_and_counts_meanwhile():
    s = to_market(new(2, ["advanced"]), gatherer="Barb")
    set_magik(s, "Anna", 20)
    do(s, "buy", "Anna", item="basic_potion")
    assert player(s, "Anna")["owed"] == ["easy", "basic", "basic"]
    assert offers(s)["basic_potion"]["cost"] == 3
    refused(s, "buy", "Anna", item="basic_potion",
            match="The card bought is Basic Potion, not Advanced Potion",
            potion=potion("Wrong", ["spider_web"], 3, kind="advanced"))


def test_advanced_purchases_wait_for_rituals_of_power():
    s = to_market(new(2), gatherer="Barb")
    set_magik(s, "Anna", 17)
    refused(s, "buy", "Anna", item="advanced_potion",
            match="Advanced Potions can be bought only after Rituals of Power")
    refused(s, "buy", "Anna", item="advanced_spell",
            match="Advanced Spells can be bought only after Rituals of Power")
    assert offers(s)["advanced_potion"]["reason"] == ("Advanced Potions can be bought only "
                                                      "after Rituals of Power")


def test_rituals_of_power_unlocks_them():
    s = new(2)
    set_magik(s, "Anna", 18)  # before play: nothing triggers yet
    assert not s.state["milestones"]["rituals_of_power"]["reached"]
    to_market(s, gatherer="Barb")
    assert s.state["milestones"]["rituals_of_power"]["by"] == 0
    do(s, "buy", "Anna", item="advanced_spell", discard="basic")
    assert sorted(player(s, "Anna")["spells"]) == ["advanced", "basic"]


def test_cannot_spend_more_magik_than_held():
    s = to_market(new(2), gatherer="Barb")
    set_magik(s, "Anna", 2)
    refused(s, "buy", "Anna", item="field", field="dragon_egg",
            match="Anna has 2 Magik: a Field costs 3")
    assert offers(s)["field"]["reason"].startswith("Anna has 2 Magik")
    do(s, "buy", "Anna", item="basic_spell", discard="basic")


def test_a_character_discount_lowers_the_cost():
    s = to_market(new(2), gatherer="Barb")
    set_magik(s, "Anna", 2)
    do(s, "buy", "Anna", item="cellar", discount=1)
    assert magik(s, "Anna") == 0
    refused(s, "buy", "Barb", item="cellar", discount=4,
            match="A discount of 4 is more than the price of a Cellar (3)")


def test_at_most_two_cellars_first_costs_3_second_4():
    s = to_market(new(2, ["quick"]), gatherer="Barb")
    assert offers(s)["cellar"]["cost"] == 4
    do(s, "buy", "Anna", item="cellar")
    assert magik(s, "Anna") == 11
    do(s, "pass", "Barb")
    do(s, "omen", text="-")
    do(s, "fill_board")
    do(s, "turn_order_roll", "Anna", value=1)
    do(s, "turn_order_roll", "Barb", value=6)
    do(s, "adjust", board={k: -v for k, v in s.state["ingredients_left"].items() if v}
       | {"spider_web": 1 - s.state["ingredients_left"]["spider_web"]})
    do(s, "gather", "Barb", ingredient="spider_web")
    do(s, "end_turn", "Barb")
    refused(s, "buy", "Anna", item="cellar", match="You can own at most 2 Cellars")


def test_a_field_brings_its_ingredient_except_from_25():
    s = to_market(new(2, ["advanced"]), gatherer="Barb")
    set_magik(s, "Anna", 27)
    do(s, "buy", "Anna", item="field", field="Mandrake Root")
    assert s.state["fields"]["mandrake_root"] == 1
    assert player(s, "Anna")["pool"] == {}  # Advanced Alchemy: no bonus ingredient
    do(s, "pass", "Anna")
    set_magik(s, "Barb", 5)
    assert offers(s)["field"]["bonus_ingredient"]
    do(s, "buy", "Barb", item="field", field="mandrake_root")
    assert player(s, "Barb")["pool"] == {"mandrake_root": 1}
    assert s.state["fields"]["mandrake_root"] == 2


def test_a_field_type_that_ran_out_can_no_longer_be_bought():
    s = to_market(new(2), gatherer="Barb")
    set_magik(s, "Anna", 10)
    do(s, "fields_exhausted", ingredient="dragon_egg")
    refused(s, "fields_exhausted", ingredient="dragon_egg", match="already marked")
    refused(s, "buy", "Anna", item="field", field="dragon_egg",
            match="No Dragon Egg Field is left in the box")
    do(s, "buy", "Anna", item="field", field="snake_skin")


def test_a_known_field_supply_is_counted():
    s = to_market(new(2, settings={"field_supply": {"spider_web": 3}}), gatherer="Barb")
    set_magik(s, "Anna", 10)
    refused(s, "buy", "Anna", item="field", field="spider_web", match="No Spider Web Field is left in the box")


def test_a_full_spell_hand_discards_before_buying():
    s = to_market(new(2), gatherer="Barb")
    set_magik(s, "Anna", 10)
    do(s, "adjust", "Anna", spells={"basic": 1})
    assert offers(s)["basic_spell"]["discard_first"]
    refused(s, "buy", "Anna", item="basic_spell", match="discard one of your choice before buying")
    refused(s, "buy", "Anna", item="basic_spell", discard="advanced", match="no Advanced Spell")
    do(s, "buy", "Anna", item="basic_spell", discard="basic")
    assert player(s, "Anna")["spells"] == ["basic"] * 3


def test_simple_game_sells_no_spells():
    s = to_market(new(2, ["simple"]), gatherer="Barb")
    set_magik(s, "Anna", 10)
    refused(s, "buy", "Anna", item="basic_spell", match="Simple Game: no Spells are used")


@pytest.mark.parametrize("item", ["potion", "spell"])
def test_unknown_items_are_refused(item):
    s = to_market(new(2), gatherer="Barb")
    refused(s, "buy", "Anna", item=item, match="item: one of field, cellar")
