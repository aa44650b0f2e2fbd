"""Each role's full action and favor, abstaining, and the table's corrections (adjust)."""

from __future__ import annotations

import copy

import pytest

from companion.core import Command, InputEvent, RuleViolation
from companion.games import get_rules

RULES = get_rules("witchs_brew")
START = {"red": 1, "white": 1, "green": 1, "gold": 2, "vials": 0}


def favor_then_full(wb, role, *, barb="so_be_it"):
    """Anna announces ``role``; Barb answers (favor by default); Carl passes later."""
    s = wb.new(["Anna", "Barb", "Carl"])
    wb.do(s, "play_role", "Anna", role=role)
    wb.do(s, barb, "Barb")
    return s


def to_anna_full_action(wb, s):
    """After Barb's favor is dealt with: Carl passes, Anna has the full action."""
    wb.do(s, "pass", "Carl")
    sm = s.summary()
    assert sm["pending"][0]["player"] == "Anna" and sm["pending"][0]["kind"] == "action"


# --------------------------------------------------------------------------------------------
# Gatherers: automatic
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("role,drop", [
    ("wolf_keeper", "red"), ("snake_hunter", "white"), ("herb_collector", "green")])
def test_gatherers_apply_by_themselves(wb, role, drop):
    s = favor_then_full(wb, role)
    # the favor is applied at once, automatically
    assert wb.counters(s, "Barb") == {**START, drop: 2}
    assert s.prompt()["phase"] == "answer" and s.prompt()["turn"] == "Carl"
    step = wb.do(s, "pass", "Carl")
    assert wb.counters(s, "Anna") == {**START, drop: 4}
    assert wb.counters(s, "Carl") == START
    applied = [e for e in step.events if e.type == "effect_applied"]
    assert len(applied) == 1 and applied[0].automatic
    assert applied[0].data["changes"] == {"0": {drop: 3}}
    assert s.prompt()["phase"] == "play" and s.prompt()["turn"] == "Anna"


# --------------------------------------------------------------------------------------------
# Alchemist: return one drop of your choice
# --------------------------------------------------------------------------------------------
def test_alchemist_favor_and_full_action_trade_a_chosen_drop(wb):
    s = favor_then_full(wb, "alchemist")
    p = s.prompt()
    assert (p["phase"], p["turn"]) == ("resolve", "Barb")
    assert p["text"] == "Barb: Alchemist favor: Return any 1 drop, take 2 gold"
    assert p["inputs"] == []  # not a PAY effect: the screen chooses the drop
    wb.refused(s, "resolve", "Barb",
               match="drop: which drop does Barb return? one of red, white, green")
    wb.refused(s, "resolve", "Barb", drop="gold", match="drop: one of red, white, green, not 'gold'")
    wb.refused(s, "resolve", "Carl", drop="red",
               match="It is Barb's turn to resolve an action or favor, not Carl's")
    wb.do(s, "resolve", "Barb", drop="green")
    assert wb.counters(s, "Barb") == {**START, "green": 0, "gold": 4}
    to_anna_full_action(wb, s)
    assert s.prompt()["text"] == "Anna: Alchemist full action: Return any 1 drop, take 5 gold"
    wb.do(s, "resolve", "Anna", drop="red")
    assert wb.counters(s, "Anna") == {**START, "red": 0, "gold": 7}
    assert s.prompt()["phase"] == "play"


def test_alchemist_refuses_a_drop_the_seat_does_not_have(wb):
    s = favor_then_full(wb, "alchemist")
    wb.do(s, "adjust", "Barb", changes={"white": -1})
    wb.refused(s, "resolve", "Barb", drop="white", match="Barb has no white drop to return")
    wb.do(s, "resolve", "Barb", drop="red")
    assert wb.counters(s, "Barb") == {"red": 0, "white": 0, "green": 1, "gold": 4, "vials": 0}


def test_alchemist_is_skipped_automatically_without_drops(wb):
    s = wb.new(["Anna", "Barb", "Carl"])
    wb.do(s, "adjust", "Barb", changes={"red": -1, "white": -1, "green": -1})
    wb.do(s, "play_role", "Anna", role="alchemist")
    step = wb.do(s, "so_be_it", "Barb")
    skipped = [e for e in step.events if e.type == "effect_skipped"]
    assert len(skipped) == 1 and skipped[0].automatic
    assert skipped[0].data == {"seat": 1, "role": "alchemist", "kind": "favor",
                               "reason": "Barb has no drop to return"}
    assert wb.counters(s, "Barb") == {"red": 0, "white": 0, "green": 0, "gold": 2, "vials": 0}
    assert wb.played(s, "Barb") == ["alchemist"]  # the card is played all the same
    assert s.prompt()["turn"] == "Carl" and s.prompt()["phase"] == "answer"


# --------------------------------------------------------------------------------------------
# Fortune teller: pay 1 gold (a choice: confirmed by resolve)
# --------------------------------------------------------------------------------------------
def test_fortune_teller_favor_and_full_action_are_confirmed_payments(wb):
    s = favor_then_full(wb, "fortune_teller")
    p = s.prompt()
    assert p["text"] == "Barb: Fortune teller favor: Pay 1 gold, take 1 vial"
    assert p["inputs"] == ["seat2.claim", "seat2.pass"]
    assert wb.counters(s, "Barb") == START  # nothing paid until confirmed
    wb.do(s, "resolve", "Barb")
    assert wb.counters(s, "Barb") == {**START, "gold": 1, "vials": 1}
    to_anna_full_action(wb, s)
    assert s.prompt()["text"] == "Anna: Fortune teller full action: Pay 1 gold, take 2 vials"
    wb.do(s, "resolve", "Anna")
    assert wb.counters(s, "Anna") == {**START, "gold": 1, "vials": 2}


def _played_without_gold(wb, role: str):
    """Anna plays ``role`` with her 2 gold taken away, unanswered: the session and the round's
    last step."""
    s = wb.new(["Anna", "Barb", "Carl"])
    wb.do(s, "adjust", "Anna", changes={"gold": -2})
    wb.do(s, "play_role", "Anna", role=role)
    wb.do(s, "pass", "Barb")
    return s, wb.do(s, "pass", "Carl")


def test_fortune_teller_is_skipped_automatically_without_gold(wb):
    s, step = _played_without_gold(wb, "fortune_teller")
    assert [e.type for e in step.events] == ["answered", "round_resolved", "effect_skipped"]
    assert step.events[-1].data["reason"] == "Anna has 0 gold, needs 1"
    assert wb.counters(s, "Anna") == {**START, "gold": 0}
    assert s.prompt()["phase"] == "play" and s.prompt()["turn"] == "Anna"


def test_fortune_teller_skipped_when_gold_is_corrected_away_while_waiting(wb):
    s = favor_then_full(wb, "fortune_teller")
    step = wb.do(s, "adjust", "Barb", changes={"gold": -2})
    assert [e.type for e in step.events] == ["adjusted", "effect_skipped"]
    assert s.prompt()["turn"] == "Carl"


def test_fortune_teller_resolve_without_gold_is_refused(wb):
    s = favor_then_full(wb, "fortune_teller")
    state = copy.deepcopy(s.state)
    state["players"][1]["gold"] = 0  # as if the flow had not run yet
    with pytest.raises(RuleViolation, match="^Barb has 0 gold, needs 1$"):
        RULES.decide(state, Command("resolve", "Barb"))


# --------------------------------------------------------------------------------------------
# Assistant: pay 1 gold, take any 3 drops
# --------------------------------------------------------------------------------------------
def test_assistant_full_action_takes_three_chosen_drops(wb):
    s = favor_then_full(wb, "assistant", barb="pass")
    to_anna_full_action(wb, s)
    assert s.prompt()["text"] == "Anna: Assistant full action: Pay 1 gold, take any 3 drops"
    for bad in ({"red": 2}, {"red": 4}, {"red": 1, "white": 1, "green": 2}, {}):
        wb.refused(s, "resolve", "Anna", drops=bad,
                   match="drops: the Assistant takes exactly 3 drops")
    wb.refused(s, "resolve", "Anna", drops={"red": 4, "white": -1},
               match="drops.white: a whole number from 0 to 200, not -1")
    wb.refused(s, "resolve", "Anna", drops={"gold": 3},
               match="drops.gold: not a key of the drops taken; it knows red, white, green")
    wb.refused(s, "resolve", "Anna", drops=["red", "red", "red"],
               match="drops: the drops taken as {red, white, green}, not a list of 3")
    wb.refused(s, "resolve", "Anna", drops={"red": 1.5, "white": 1.5},
               match="drops.red: a whole number from 0 to 200, not 1.5")
    wb.refused(s, "resolve", "Anna", match="drops: the Assistant takes exactly 3 drops")
    wb.refused(s, "resolve", "Anna", drop="red", match="\"drop\" (the drop returned) is not "
               "part of the Assistant full action (Pay 1 gold, take any 3 drops): it takes only "
               "the drops taken (\"drops\")")
    wb.do(s, "resolve", "Anna", drops={"red": 2, "green": 1})
    assert wb.counters(s, "Anna") == {"red": 3, "white": 1, "green": 2, "gold": 1, "vials": 0}


def test_assistant_full_action_is_skipped_without_gold(wb):
    _, step = _played_without_gold(wb, "assistant")
    assert step.events[-1].type == "effect_skipped"
    assert step.events[-1].data["reason"] == "Anna has 0 gold, needs 1"


def test_assistant_favor_is_read_from_the_card(wb):
    s = favor_then_full(wb, "assistant")
    assert s.prompt()["text"] == ("Barb: Assistant favor: Read your card "
                                  "(reported: 1 gold for 1 drop; your card decides)")
    wb.do(s, "resolve", "Barb", changes={"gold": -1, "white": 1})
    assert wb.counters(s, "Barb") == {**START, "gold": 1, "white": 2}


# --------------------------------------------------------------------------------------------
# Brewers: Witch, Druid, Wizard
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("role,title", [("witch", "Witch"), ("druid", "Druid"), ("wizard", "Wizard")])
@pytest.mark.parametrize("stack", ["copper", "silver", "iron"])
def test_brewers_brew_a_cauldron_potion_paying_its_drops(wb, role, title, stack):
    s = favor_then_full(wb, role, barb="pass")
    to_anna_full_action(wb, s)
    assert s.prompt()["text"] == (f"Anna: {title} full action: "
                                  "Brew the top potion of a cauldron stack: pay the drops printed on it")
    wb.do(s, "resolve", "Anna", potion={"stack": stack, "points": 3, "raven": True,
                                        "name": "Elixir"},
          pay={"red": 1, "white": 1})
    anna = wb.player(s, "Anna")
    assert anna["potions"] == [{"stack": stack, "points": 3, "raven": True, "name": "Elixir"}]
    assert anna["score"] == 3
    assert wb.counters(s, "Anna") == {"red": 0, "white": 0, "green": 1, "gold": 2, "vials": 0}
    assert s.summary()["ravens"] == 1
    assert s.summary()["stacks_left"][stack] == 6


def test_brew_refusals(wb):
    s = favor_then_full(wb, "witch", barb="pass")
    to_anna_full_action(wb, s)
    copper = {"stack": "copper", "points": 2}
    wb.refused(s, "resolve", "Anna", potion=copper, pay={"red": 2},
               match="Anna has 1 red drop: cannot give up 2")
    wb.refused(s, "resolve", "Anna", potion=copper, pay={"red": -1},
               match="pay.red: a whole number from 0 to 200, not -1")
    wb.refused(s, "resolve", "Anna", potion=copper, pay={"gold": 1},
               match="pay.gold: not a key of the drops paid; it knows red, white, green")
    wb.refused(s, "resolve", "Anna", potion={"stack": "gold_shelf", "points": 2}, pay={},
               match="potion.stack: a brewer brews from a cauldron stack (copper, silver, iron), "
                     "not the gold shelf")
    wb.refused(s, "resolve", "Anna", pay={"red": 1},
               match="potion: give the card brewed: its stack, points and raven")
    wb.refused(s, "resolve", "Anna", potion={"stack": "copper", "points": 100},
               match="potion.points: a whole number from 0 to 99, not 100")
    wb.refused(s, "resolve", "Anna", potion={"stack": "copper", "points": "3"},
               match="potion.points: a whole number from 0 to 99, not '3'")
    wb.refused(s, "resolve", "Anna", potion=copper, changes={"gold": 1},
               match="\"changes\" (what changed for the seat) is not part of the Witch full action")
    wb.refused(s, "resolve", "Anna", potion={"stack": "copper", "points": 3, "raven": "yes"},
               match="potion.raven: true or false")
    wb.do(s, "resolve", "Anna", potion=copper, pay={"red": 1})
    assert wb.player(s, "Anna")["potions"] == [{"stack": "copper", "points": 2, "raven": False}]


def test_brewing_from_an_empty_stack_is_refused_after_seven(wb):
    s = wb.new(["Anna", "Barb", "Carl"])
    for i in range(7):
        wb.do(s, "adjust", ["Barb", "Carl"][i % 2],
              potion={"stack": "copper", "points": i + 1, "raven": i in (2, 5)})
    assert s.summary()["stacks_left"]["copper"] == 0
    wb.do(s, "play_role", "Anna", role="druid")
    wb.do(s, "pass", "Barb")
    wb.do(s, "pass", "Carl")
    wb.refused(s, "resolve", "Anna", potion={"stack": "copper", "points": 8}, pay={"red": 1},
               match="The copper stack is empty: all 7 cards are taken")
    wb.refused(s, "adjust", "Anna", potion={"stack": "copper", "points": 8},
               match="The copper stack is empty")
    wb.do(s, "resolve", "Anna", potion={"stack": "silver", "points": 8}, pay={"red": 1})
    assert s.summary()["stacks_left"] == {"copper": 0, "silver": 6, "iron": 7,
                                          "ingredient_shelf": 5, "gold_shelf": 5}


def test_a_third_raven_from_one_stack_is_refused(wb):
    s = wb.new(["Anna", "Barb", "Carl"])
    wb.do(s, "adjust", "Barb", potion={"stack": "iron", "points": 1, "raven": True})
    wb.do(s, "adjust", "Carl", potion={"stack": "iron", "points": 2, "raven": True})
    wb.do(s, "play_role", "Anna", role="wizard")
    wb.do(s, "pass", "Barb")
    wb.do(s, "pass", "Carl")
    wb.refused(s, "resolve", "Anna", potion={"stack": "iron", "points": 3, "raven": True},
               pay={"green": 1},
               match="The iron stack has only 2 raven potions; both are taken")
    wb.do(s, "resolve", "Anna", potion={"stack": "iron", "points": 3, "raven": False},
          pay={"green": 1})
    assert s.summary()["ravens"] == 2
    assert s.summary()["stacks_left"]["iron"] == 4


@pytest.mark.parametrize("role", ["witch", "druid", "wizard"])
def test_brewer_favor_is_read_from_the_card_and_paid_in_gold(wb, role):
    s = favor_then_full(wb, role)
    text = s.prompt()["text"]
    assert text.endswith("favor: Read your card: the favor is paid in gold "
                         "(reported: paid in gold; details vary by card; your card decides)")
    wb.do(s, "resolve", "Barb", changes={"gold": -1, "vials": 1})
    assert wb.counters(s, "Barb") == {**START, "gold": 1, "vials": 1}


# --------------------------------------------------------------------------------------------
# Warlock, Cutpurse, Begging monk
# --------------------------------------------------------------------------------------------
def test_warlock_favor_is_one_gold_automatically(wb):
    s = favor_then_full(wb, "warlock")
    step = s.steps[-1]
    assert [(e.type, e.automatic) for e in step.events] == [
        ("answered", False), ("effect_applied", True)]
    assert step.events[1].data == {"seat": 1, "role": "warlock", "kind": "favor",
                                   "changes": {"1": {"gold": 1}}}
    assert wb.counters(s, "Barb") == {**START, "gold": 3}


def test_warlock_full_action_is_entered_by_the_table(wb):
    s = favor_then_full(wb, "warlock")
    to_anna_full_action(wb, s)
    wb.do(s, "resolve", "Anna", changes={"gold": 2, "red": -1},
          others={"Barb": {"gold": -1}, "carl": {"white": 1}},
          potion={"stack": "gold_shelf", "points": 4, "raven": True})
    assert wb.counters(s, "Anna") == {**START, "red": 0, "gold": 4}
    assert wb.counters(s, "Barb") == {**START, "gold": 2}
    assert wb.counters(s, "Carl") == {**START, "white": 2}
    assert wb.player(s, "Anna")["potions"] == [{"stack": "gold_shelf", "points": 4, "raven": True}]
    assert s.summary()["stacks_left"]["gold_shelf"] == 4
    assert s.summary()["ravens"] == 1


def test_table_action_refusals(wb):
    s = favor_then_full(wb, "warlock")
    to_anna_full_action(wb, s)
    wb.refused(s, "resolve", "Anna", changes={"gold": -3}, match="Anna has 2 gold: cannot give up 3")
    wb.refused(s, "resolve", "Anna", others={"Barb": {"gold": -4}},
               match="Barb has 3 gold: cannot give up 4")
    wb.refused(s, "resolve", "Anna", others={"Anna": {"gold": 1}},
               match="others: list only the other players; what changed for Anna goes in \"changes\"")
    wb.refused(s, "resolve", "Anna", others={"Zed": {"gold": 1}},
               match="others key: there is no player named 'Zed' at this table")
    wb.refused(s, "resolve", "Anna", others=["Barb"],
               match="others: a mapping of a player at this table")
    wb.refused(s, "resolve", "Anna", changes={"mana": 1},
               match="changes.mana: not a key of the seat's changes; "
                     "it knows red, white, green, gold, vials")
    wb.refused(s, "resolve", "Anna", changes={"gold": True},
               match="changes.gold: a whole number from -200 to 200, not True")
    wb.refused(s, "resolve", "Anna", others={"Barb": {"potions": 1}},
               match="others.Barb.potions: not a key of that player's changes")
    wb.refused(s, "resolve", "Anna", potion={"stack": "attic", "points": 1},
               match="potion.stack: one of copper, silver, iron, ingredient_shelf, gold_shelf, "
                     "not 'attic'")


def test_table_action_with_malformed_changes_is_refused_as_a_rule_violation(wb):
    """A malformed entry from a screen or a table script must be refused with a message (a
    RuleViolation), never crash the session with a Python TypeError."""
    s = favor_then_full(wb, "warlock")
    to_anna_full_action(wb, s)
    wb.refused(s, "resolve", "Anna", changes=5,
               match="changes: the seat's changes as {red, white, green, gold, vials}, not 5")


@pytest.mark.parametrize("role,title", [("cutpurse", "Cutpurse"), ("begging_monk", "Begging monk")])
def test_cutpurse_and_begging_monk_are_entered_by_the_table(wb, role, title):
    s = favor_then_full(wb, role)
    assert s.prompt()["text"] == (f"Barb: {title} favor: Read your card "
                                  "(reported: amount unsure; your card decides)")
    wb.do(s, "resolve", "Barb", changes={"gold": 1})
    to_anna_full_action(wb, s)
    assert s.prompt()["text"].startswith(f"Anna: {title} full action: Read your card: ")
    wb.do(s, "resolve", "Anna", changes={"gold": 2, "red": 1},
          others={"Barb": {"gold": -1}, "Carl": {"red": -1}})
    assert wb.counters(s, "Anna") == {**START, "gold": 4, "red": 2}
    assert wb.counters(s, "Barb") == {**START, "gold": 2}
    assert wb.counters(s, "Carl") == {**START, "red": 0}


# --------------------------------------------------------------------------------------------
# Abstaining
# --------------------------------------------------------------------------------------------
def test_abstain_from_favor_and_full_action(wb):
    s = favor_then_full(wb, "fortune_teller")
    step = wb.do(s, "abstain", "Barb")
    assert step.events[0].type == "effect_abstained"
    assert step.events[0].data == {"seat": 1, "role": "fortune_teller", "kind": "favor"}
    assert wb.counters(s, "Barb") == START
    wb.do(s, "pass", "Carl")
    wb.refused(s, "abstain", "Barb",
               match="It is Anna's turn to resolve an action or favor, not Barb's")
    wb.do(s, "abstain", "Anna")
    assert wb.counters(s, "Anna") == START
    assert s.prompt()["phase"] == "play" and s.prompt()["turn"] == "Anna"


def test_abstain_or_resolve_with_nothing_pending_is_refused(wb):
    s = wb.new(3)
    wb.refused(s, "abstain", "Anna",
               match="Anna has no action or favor to decline now: Anna: choose a role card")
    wb.refused(s, "resolve", "Anna", match="Not the time to resolve an action: Anna: choose")


def test_pay_buttons_confirm_and_pass(wb):
    s = favor_then_full(wb, "fortune_teller")
    step = s.handle_input(InputEvent("button", "seat2.claim"))
    assert step.command == Command("resolve", "Barb")
    assert wb.counters(s, "Barb")["vials"] == 1
    s.handle_input(InputEvent("button", "seat3.pass"))
    step = s.handle_input(InputEvent("button", "seat1.pass"))
    assert step.command == Command("abstain", "Anna")
    assert wb.counters(s, "Anna") == START


# --------------------------------------------------------------------------------------------
# Adjust: the table's corrections
# --------------------------------------------------------------------------------------------
def test_adjust_counters_any_time_but_never_below_zero(wb):
    s = wb.new(3)
    wb.do(s, "play_role", "Anna", role="alchemist")
    wb.do(s, "adjust", "Carl", changes={"gold": 3, "vials": 2, "red": -1})
    assert wb.counters(s, "Carl") == {"red": 0, "white": 1, "green": 1, "gold": 5, "vials": 2}
    assert wb.player(s, "Carl")["score"] == 2
    wb.refused(s, "adjust", "Carl", changes={"red": -1}, match="Carl has 0 red drops: cannot give up 1")
    wb.refused(s, "adjust", "Carl", changes={"vials": -3}, match="Carl has 2 vials: cannot give up 3")
    # adjusting does not disturb the round
    assert s.prompt()["turn"] == "Barb" and s.summary()["holder"] == "Anna"


def test_adjust_adds_and_removes_potions(wb):
    s = wb.new(3)
    wb.do(s, "adjust", "Barb", potion={"stack": "ingredient_shelf", "points": 5, "raven": True,
                                       "name": "Shelf draught"})
    wb.do(s, "adjust", "Barb", potion={"stack": "silver", "points": 2})
    assert [p["points"] for p in wb.player(s, "Barb")["potions"]] == [5, 2]
    assert wb.player(s, "Barb")["score"] == 7
    assert s.summary()["ravens"] == 1
    wb.refused(s, "adjust", "Barb", remove_potion=2, match="remove_potion: Barb has no potion number 2")
    wb.refused(s, "adjust", "Barb", remove_potion=-1,
               match="remove_potion: a whole number from 0 to 30, not -1")
    wb.refused(s, "adjust", "Carl", remove_potion=0, match="remove_potion: Carl has no potion number 0")
    wb.do(s, "adjust", "Barb", remove_potion=0)
    assert wb.player(s, "Barb")["potions"] == [{"stack": "silver", "points": 2, "raven": False}]
    assert s.summary()["ravens"] == 0
    assert s.summary()["stacks_left"]["ingredient_shelf"] == 5


def test_adjust_with_nothing_to_change_is_refused(wb):
    s = wb.new(3)
    wb.refused(s, "adjust", "Anna", match="Nothing to correct: give the changes, a potion card added or the one removed")
    wb.refused(s, "adjust", "Anna", changes={}, match="Nothing to correct: give the changes, a potion card added or the one removed")
    wb.refused(s, "adjust", "Anna", changes={"gold": 0}, match="Nothing to correct: give the changes, a potion card added or the one removed")
    wb.refused(s, "adjust", "Anna", changes={"gold": 1.0},
               match="changes.gold: a whole number from -200 to 200, not 1.0")
    wb.refused(s, "adjust", "Zed", changes={"gold": 1}, match="player: there is no player named 'Zed'")


def test_adjust_can_be_undone(wb):
    s = wb.new(3)
    wb.do(s, "adjust", "Anna", changes={"gold": 5})
    assert wb.counters(s, "Anna")["gold"] == 7
    s.undo()
    assert wb.counters(s, "Anna")["gold"] == 2
