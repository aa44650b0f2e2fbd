"""What the box holds: two ravens in each stack, each stack sorted lowest value on top, and a
supply of vials, drops and gold that can run short. Each rule quotes the rulebook (or the box
contents in RULES-NOTES.md) it comes from."""

from __future__ import annotations

import pytest

from companion.core import SetupError
from companion.games import get_rules

RULES = get_rules("witchs_brew")
THREE = ["Anna", "Barb", "Carl"]
#: The table's setting for the box's own counts: 20 drops of each colour, 24 gold nuggets.
BOX = {"drops": 20, "gold": 24}
SIZES = {"copper": 7, "silver": 7, "iron": 7, "ingredient_shelf": 5, "gold_shelf": 5}


def brew_for_anna(wb, s, role="witch"):
    """Anna announces a brewer, the others pass: her full action waits for the card."""
    wb.do(s, "play_role", "Anna", role=role)
    wb.do(s, "pass", "Barb")
    wb.do(s, "pass", "Carl")
    assert s.prompt()["text"].startswith("Anna: ")


# --------------------------------------------------------------------------------------------
# "there are two ravens in each of the five stacks"
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("stack,size", SIZES.items())
def test_each_stack_holds_two_ravens_and_the_rest_plain(wb, stack, size):
    """Rulebook: "(there are two ravens in each of the five stacks)". A stack of 7 holds 5
    plain cards and 2 ravens, a shelf of 5 holds 3 and 2."""
    s = wb.new(THREE)
    for points in range(1, size - 1):
        wb.do(s, "adjust", "Barb", potion={"stack": stack, "points": points})
    label = stack.replace("_", " ")
    wb.refused(s, "adjust", "Barb", potion={"stack": stack, "points": size},
               match=f"Only raven potions are left in the {label} stack (there are two ravens in "
                     f"each stack, and its {size - 2} other cards are taken): this card shows a raven")
    wb.do(s, "adjust", "Carl", potion={"stack": stack, "points": size, "raven": True})
    wb.do(s, "adjust", "Carl", potion={"stack": stack, "points": size, "raven": True})
    assert s.summary()["stacks_left"][stack] == 0
    wb.refused(s, "adjust", "Carl", potion={"stack": stack, "points": size, "raven": True},
               match=f"The {label} stack is empty: all {size} cards are taken")


def test_a_third_raven_is_refused_while_plain_cards_remain(wb):
    """"two ravens in each of the five stacks": after both, only plain cards are left."""
    s = wb.new(THREE)
    wb.do(s, "adjust", "Barb", potion={"stack": "gold_shelf", "points": 2, "raven": True})
    wb.do(s, "adjust", "Carl", potion={"stack": "gold_shelf", "points": 3, "raven": True})
    wb.refused(s, "adjust", "Anna", potion={"stack": "gold_shelf", "points": 4, "raven": True},
               match="The gold shelf stack has only 2 raven potions; both are taken")
    wb.do(s, "adjust", "Anna", potion={"stack": "gold_shelf", "points": 4, "raven": False})


def test_a_brewer_too_takes_a_raven_when_only_ravens_are_left(wb):
    s = wb.new(THREE)
    for points in range(1, 6):
        wb.do(s, "adjust", "Barb", potion={"stack": "silver", "points": points})
    brew_for_anna(wb, s)
    wb.refused(s, "resolve", "Anna", potion={"stack": "silver", "points": 6}, pay={"red": 1},
               match="Only raven potions are left in the silver stack")
    wb.do(s, "resolve", "Anna", potion={"stack": "silver", "points": 6, "raven": True},
          pay={"red": 1})
    assert s.summary()["ravens"] == 1


# --------------------------------------------------------------------------------------------
# "sort them by value ... with the lowest on top and the highest on the bottom"
# --------------------------------------------------------------------------------------------
def test_a_later_card_from_a_stack_is_never_worth_less_than_an_earlier_one(wb):
    """Rulebook: "Within each group sort them by value (shown in the glass bulb in the right of
    the card) with the lowest on top and the highest on the bottom"."""
    s = wb.new(THREE)
    wb.do(s, "adjust", "Barb", potion={"stack": "copper", "points": 3})
    brew_for_anna(wb, s)
    wb.refused(s, "resolve", "Anna", potion={"stack": "copper", "points": 2}, pay={"red": 1},
               match="potion.points: the copper stack is sorted lowest value on top, and a card "
                     "worth 3 was already taken from it: the next one is worth 3 or more, not 2")
    wb.do(s, "resolve", "Anna", potion={"stack": "copper", "points": 3}, pay={"red": 1})
    # another stack has its own order
    wb.do(s, "adjust", "Carl", potion={"stack": "iron", "points": 1})
    wb.refused(s, "adjust", "Carl", potion={"stack": "copper", "points": 1},
               match="a card worth 3 was already taken from it")
    wb.do(s, "adjust", "Carl", potion={"stack": "copper", "points": 5})
    assert [p["points"] for p in wb.player(s, "Carl")["potions"]] == [1, 5]


def test_the_shelves_are_sorted_too(wb):
    """Rulebook: "As with the cauldrons, sort each group by value with lowest on the top"."""
    s = wb.new(THREE)
    wb.do(s, "play_role", "Anna", role="warlock")
    wb.do(s, "pass", "Barb")
    wb.do(s, "pass", "Carl")
    wb.do(s, "resolve", "Anna", potion={"stack": "ingredient_shelf", "points": 4})
    wb.refused(s, "adjust", "Barb", potion={"stack": "ingredient_shelf", "points": 3},
               match="the ingredient shelf stack is sorted lowest value on top")


def test_a_removed_card_goes_back_on_top_of_its_stack(wb):
    """A correction that removes a card puts it back: the order then counts only the cards the
    players still hold, and a replacement in the same correction sees the card back."""
    s = wb.new(THREE)
    for points in (2, 6):
        wb.do(s, "adjust", "Barb", potion={"stack": "gold_shelf", "points": points})
    wb.refused(s, "adjust", "Carl", potion={"stack": "gold_shelf", "points": 5},
               match="a card worth 6 was already taken")
    wb.do(s, "adjust", "Barb", remove_potion=1)
    wb.do(s, "adjust", "Carl", potion={"stack": "gold_shelf", "points": 5})
    wb.do(s, "adjust", "Carl", potion={"stack": "gold_shelf", "points": 7, "raven": True})
    wb.do(s, "adjust", "Carl", potion={"stack": "gold_shelf", "points": 8})
    wb.do(s, "adjust", "Carl", potion={"stack": "gold_shelf", "points": 9, "raven": True})
    assert s.summary()["stacks_left"]["gold_shelf"] == 0
    # an empty shelf: a wrong card is swapped for the right one in one correction
    wb.do(s, "adjust", "Carl", remove_potion=3,
          potion={"stack": "gold_shelf", "points": 10, "raven": True})
    assert [p["points"] for p in wb.player(s, "Carl")["potions"]] == [5, 7, 8, 10]


# --------------------------------------------------------------------------------------------
# The supply: "the 45 potion vials"; drops and gold "are not meant to run out" (RULES-NOTES.md)
# --------------------------------------------------------------------------------------------
def test_drops_and_gold_are_unlimited_unless_the_table_plays_with_the_box_counts(wb):
    """RULES-NOTES.md: "Drops and gold are not meant to run out." By default the companion
    never cuts a gain of drops or gold short; vials stay the box's 45."""
    s = wb.new(THREE)
    assert s.summary()["supply"] == {"red": None, "white": None, "green": None, "gold": None,
                                     "vials": 45}
    wb.do(s, "adjust", "Barb", changes={"red": 60, "gold": 90})
    wb.do(s, "play_role", "Anna", role="wolf_keeper")
    wb.do(s, "so_be_it", "Barb")
    step = wb.do(s, "pass", "Carl")
    assert [e.data["changes"] for e in step.events if e.type == "effect_applied"] == [
        {"0": {"red": 3}}]
    assert "short" not in s.words(step)[-1]
    assert wb.counters(s, "Barb")["red"] == 62
    wb.refused(s, "adjust", "Anna", changes={"gold": 201},
               match="changes.gold: a whole number from -200 to 200, not 201")
    wb.refused(s, "adjust", "Anna", changes={"vials": 46},
               match="changes.vials: a whole number from -45 to 45, not 46")


def test_the_fortune_teller_takes_what_is_left_of_the_45_vials(wb):
    """Rulebook: "Place the remaining drops, gold nuggets, and the 45 potion vials in separate
    supplies"; a favor or action takes what the supply still holds, says so in the log and on
    screen (the summary's ``supply_short``), and is skipped (the log says why) when it holds
    none."""
    s = wb.new(THREE)
    wb.do(s, "adjust", "Carl", changes={"vials": 43})
    assert s.summary()["supply"]["vials"] == 2
    wb.do(s, "play_role", "Anna", role="fortune_teller")
    wb.do(s, "so_be_it", "Barb")
    step = wb.do(s, "resolve", "Barb")
    assert s.words(step) == ["Barb's Fortune teller favor: -1 gold, +1 vial"]
    step = wb.do(s, "pass", "Carl")
    step = wb.do(s, "resolve", "Anna")
    assert step.events[0].data["changes"] == {"0": {"gold": -1, "vials": 1}}
    assert s.words(step) == ["Anna's Fortune teller: -1 gold, +1 vial (the supply was "
                             "short: 1 of the 2 vials on the card)"]
    assert s.summary()["supply_short"] == [
        {"player": "Anna", "role": "fortune_teller", "kind": "action",
         "short": [{"counter": "vials", "printed": 2, "got": 1}]}]
    assert s.summary()["supply"]["vials"] == 0
    # an empty supply: Barb's favor and Anna's full action come to nothing, the log says why
    s = wb.new(THREE)
    wb.do(s, "adjust", "Carl", changes={"vials": 45})
    wb.do(s, "play_role", "Anna", role="fortune_teller")
    step = wb.do(s, "so_be_it", "Barb")
    assert s.words(step)[-1] == ("Barb's Fortune teller favor comes to nothing: The supply has no "
                                 "vials left")
    step = wb.do(s, "pass", "Carl")
    skipped = [e for e in step.events if e.type == "effect_skipped"]
    assert skipped[0].data["reason"] == "The supply has no vials left"
    assert s.words(step)[-1] == ("Anna's Fortune teller comes to nothing: The supply has no "
                                 "vials left")
    assert wb.counters(s, "Anna")["vials"] == 0
    short = s.summary()["supply_short"]
    assert short[-1] == {"player": "Anna", "role": "fortune_teller", "kind": "action",
                         "short": [{"counter": "vials", "printed": 2, "got": 0}]}
    # the next role announced: what the screen said about the last round goes
    wb.do(s, "play_role", "Anna", role="witch")
    assert s.summary()["supply_short"] == []


def test_no_counter_can_exceed_what_the_box_holds(wb):
    s = wb.new(THREE, supply=BOX)
    wb.refused(s, "adjust", "Anna", changes={"vials": 46},
               match="changes.vials: a whole number from -45 to 45, not 46")
    wb.do(s, "adjust", "Anna", changes={"vials": 40})
    wb.refused(s, "adjust", "Barb", changes={"vials": 6},
               match="The supply has only 5 vials left (the table plays with 45 in all): "
                     "nobody can take 6 more")
    wb.refused(s, "adjust", "Barb", changes={"red": 18},
               match="The supply has only 17 red drops left (the table plays with 20 in all)")
    wb.refused(s, "adjust", "Barb", changes={"gold": 19},
               match="The supply has only 18 gold left (the table plays with 24 in all)")


def _wolf_keeper_after(wb, taken: int):
    """Anna's Wolf keeper (3 red drops) resolved once Barb took ``taken`` of the box's 20."""
    s = wb.new(THREE, supply=BOX)
    wb.do(s, "adjust", "Barb", changes={"red": taken})
    wb.do(s, "play_role", "Anna", role="wolf_keeper")
    wb.do(s, "pass", "Barb")
    return s, wb.do(s, "pass", "Carl")


def test_a_gatherer_takes_what_is_left_of_the_drops(wb):
    """RULES-NOTES.md, box: "60 drops (20 each red = wolf blood, white = snake venom, green =
    herb juice)": a table that plays with the box's counts sees a gain cut short, in the log
    and on screen, never silently."""
    s, step = _wolf_keeper_after(wb, 16)
    applied = [e for e in step.events if e.type == "effect_applied"]
    assert applied[0].data["changes"] == {"0": {"red": 1}}
    assert s.words(step)[-1] == ("Anna's Wolf keeper: +1 red drop (the supply was short: 1 of "
                                 "the 3 red drops on the card)")
    assert s.summary()["supply_short"] == [
        {"player": "Anna", "role": "wolf_keeper", "kind": "action",
         "short": [{"counter": "red", "printed": 3, "got": 1}]}]
    assert s.summary()["supply"]["red"] == 0
    _, step = _wolf_keeper_after(wb, 17)
    skipped = [e for e in step.events if e.type == "effect_skipped"]
    assert skipped[0].data["reason"] == "The supply has no red drops left"


def test_the_table_may_play_with_more_drops_and_gold(wb):
    s = wb.new(THREE, supply={"drops": 60, "gold": 100})
    wb.do(s, "adjust", "Barb", changes={"red": 50, "gold": 90})
    assert s.summary()["supply"] == {"red": 7, "white": 57, "green": 57, "gold": 4, "vials": 45}
    with pytest.raises(SetupError, match=r"supply.drops: a whole number from 3 to 200, not 2"):
        wb.new(THREE, supply={"drops": 2})
    with pytest.raises(SetupError, match=r"supply.gold: a whole number from 8 to 200, not 7"):
        wb.new(4, supply={"gold": 7})
    with pytest.raises(SetupError, match=r"supply.vials: not a key of the supply; "
                                         r"it knows drops, gold"):
        wb.new(THREE, supply={"vials": 90})


def test_the_alchemist_takes_what_is_left_of_the_gold(wb):
    """RULES-NOTES.md, box: "24 gold nuggets"."""
    s = wb.new(THREE, supply=BOX)
    wb.do(s, "adjust", "Barb", changes={"gold": 16})
    wb.do(s, "play_role", "Anna", role="alchemist")
    wb.do(s, "pass", "Barb")
    wb.do(s, "pass", "Carl")
    step = wb.do(s, "resolve", "Anna", drop="red")
    assert step.events[0].data["changes"] == {"0": {"red": -1, "gold": 2}}
    assert s.words(step) == ["Anna's Alchemist: -1 red drop, +2 gold (the supply was short: "
                             "2 of the 5 gold on the card)"]


def test_the_assistant_takes_all_the_drops_left_when_fewer_than_three(wb):
    s = wb.new(THREE, supply={"drops": 5})
    wb.do(s, "adjust", "Barb", changes={"red": 1, "white": 2, "green": 2})
    assert s.summary()["supply"] == {"red": 1, "white": 0, "green": 0, "gold": None, "vials": 45}
    wb.do(s, "play_role", "Anna", role="assistant")
    wb.do(s, "pass", "Barb")
    wb.do(s, "pass", "Carl")
    wb.refused(s, "resolve", "Anna", drops={"red": 2},
               match="drops: the Assistant takes exactly 1 drop (all the supply has left)")
    wb.refused(s, "resolve", "Anna", drops={"white": 1},
               match="The supply has only 0 white drops left")
    step = wb.do(s, "resolve", "Anna", drops={"red": 1})
    assert s.words(step)[0].endswith("(the supply was short: 1 of the 3 drops on the card)")
    assert s.summary()["supply"]["red"] == 0


def test_gold_taken_from_the_other_players_needs_nothing_from_the_supply(wb):
    """The Cutpurse's gold comes from the players: an empty supply does not stop it."""
    s = wb.new(THREE, supply=BOX)
    wb.do(s, "adjust", "Barb", changes={"gold": 18})
    assert s.summary()["supply"]["gold"] == 0
    wb.do(s, "play_role", "Anna", role="cutpurse")
    wb.do(s, "pass", "Barb")
    wb.do(s, "pass", "Carl")
    wb.do(s, "resolve", "Anna", changes={"gold": 3}, others={"Barb": {"gold": -2},
                                                            "Carl": {"gold": -1}})
    assert wb.counters(s, "Anna")["gold"] == 5
    assert s.summary()["supply"]["gold"] == 0
