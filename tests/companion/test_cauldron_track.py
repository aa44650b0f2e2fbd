"""The Magik track: the 34 cap, 35 only by brewing, milestones once for the first seat, LSP and
HSP with roll-offs, Less Luck turn order, corrected dice, the input map, the podium."""

from __future__ import annotations

import pytest

from companion.core import InputEvent, RuleViolation
from companion.games.cauldron import RULES
from tests.companion.cauldron_autoplay import (
    do, empty_board_but, give, magik, new, player, pool, refused, set_magik, start, to_market,
)


def test_spells_and_omens_stop_at_34_and_never_below_0():
    s = start(new(2))
    do(s, "adjust_magik", "Anna", delta=35, source="spell")
    assert magik(s, "Anna") == 34
    do(s, "adjust_magik", "Anna", delta=1, source="milestone")
    assert magik(s, "Anna") == 34
    refused(s, "adjust_magik", "Anna", delta=40, match="from -35 to 35")
    do(s, "adjust_magik", "Barb", delta=-5, source="omen")
    assert magik(s, "Barb") == 0
    refused(s, "adjust_magik", "Anna", delta=0, match="changes nothing")
    refused(s, "adjust_magik", "Anna", delta=1, source="luck", match="source: one of")


def test_35_is_reached_by_brewing_and_crowns_the_grand_infuser():
    s = start(new(3))
    give(s, "Anna", "Elixir", ["spider_web", "frog_legs", "frog_legs"], 2, quick=True)
    pool(s, "Anna", spider_web=1, frog_legs=2)
    set_magik(s, "Anna", 34)
    step = do(s, "brew", "Anna", potion="Elixir")
    assert step.events[-1].type == "game_over" and step.events[-1].automatic
    assert s.over and magik(s, "Anna") == 36
    assert s.prompt()["text"] == "Anna is the Grand Infuser with 36 Magik!"
    refused(s, "end_turn", "Anna", match="The game is over: Anna is the Grand Infuser")
    refused(s, "adjust_magik", "Barb", delta=1, match="The game is over")
    set_results = RULES.results(s.state)
    assert [r["winner"] for r in set_results] == [True, False, False]
    assert set_results[0]["score"] == 36 and set_results[1]["place"] == 2
    assert set_results[2]["place"] == 2  # tied on 2 Magik: a shared place
    assert s.summary()["podium"][0]["name"] == "Anna"
    s.undo()
    assert not s.over and magik(s, "Anna") == 34


def test_milestones_trigger_once_for_the_first_seat_to_reach_them():
    s = start(new(2))
    give(s, "Anna", "Big", ["spider_web"], 10, kind="advanced", quick=True)
    pool(s, "Anna", spider_web=2)
    step = do(s, "brew", "Anna", potion="Big")
    reached = [e for e in step.events if e.type == "milestone_reached"]
    assert [e.data["milestone"] for e in reached] == ["magik_overflow"]
    assert reached[0].automatic
    assert s.summary()["milestones"]["magik_overflow"]["by"] == "Anna"
    assert "Magik Overflow triggered by Anna" in " ".join(s.prompt()["notes"])
    do(s, "adjust_magik", "Anna", delta=-10)
    do(s, "brew", "Anna", potion="Big")
    assert s.state["milestones"]["magik_overflow"]["by"] == 0
    set_magik(s, "Barb", 13)
    assert s.state["milestones"]["magik_overflow"]["by"] == 0  # once only
    refused(s, "set_milestones", milestones={"magik_overflow": 14}, match="already been triggered")
    do(s, "set_milestones", milestones={"the_breaking": 30})
    assert s.state["milestones"]["the_breaking"]["position"] == 30


def test_when_two_seats_pass_a_milestone_at_once_the_higher_one_takes_it():
    s = new(3)
    do(s, "begin")
    do(s, "omen", text="Surge", magik={"Barb": 11, "Carl": 12})
    assert s.state["milestones"]["magik_overflow"]["by"] == 2


def test_rituals_of_power_in_the_simple_game_notes_that_spell_effects_are_ignored():
    s = start(new(2, ["simple"]))
    set_magik(s, "Anna", 19)
    assert "ignore what refers to Spells" in " ".join(s.prompt()["notes"])
    # "do not use Spells": only the Advanced Potions go on sale
    assert "; Advanced Potions are now for sale" in " ".join(s.prompt()["notes"])
    assert "Spells are now for sale" not in " ".join(s.prompt()["notes"])


def test_lsp_and_hsp_with_roll_offs_for_ties():
    s = start(new(3))
    set_magik(s, "Anna", 9)
    assert s.summary()["hsp"] == "Anna" and s.summary()["lsp"] is None
    refused(s, "rolloff", kind="hsp", match="No roll-off needed: Anna alone has the most Magik")
    do(s, "rolloff", kind="lsp")
    assert "Fewest-Magik roll-off (lowest roll): waiting for Barb and Carl" in s.prompt()["text"]
    assert s.prompt()["inputs"] == ["die"]
    refused(s, "rolloff", kind="lsp", match="Finish the fewest-Magik roll-off first")
    step = s.handle_input(InputEvent("die", "d1", 2))
    assert step.command.do == "rolloff_roll" and step.command.player == "Barb"
    refused(s, "undo", match="Dice results cannot be undone")
    refused(s, "rolloff_roll", "Barb", value=3, match="only the tied seats roll")
    do(s, "rolloff_roll", "Carl", value=2)
    assert s.summary()["rolloff"]["waiting"] == ["Barb", "Carl"]
    do(s, "rolloff_roll", "Barb", value=4)
    do(s, "rolloff_roll", "Carl", value=1)
    assert s.summary()["lsp"] == "Carl"
    do(s, "correct_roll", "Carl", value=6)  # misread: Barb had the lowest after all
    assert s.summary()["lsp"] == "Barb"
    set_magik(s, "Carl", 3)
    assert s.summary()["lsp"] == "Barb"


def test_less_luck_lowest_score_starts_ties_roll_and_the_lowest_roll_starts():
    s = new(3, ["less_luck"])
    do(s, "begin")
    do(s, "omen", text="-", magik={"Anna": 1})
    do(s, "fill_board")
    assert "Less Luck" in s.prompt()["text"] and "Barb and Carl" in s.prompt()["text"]
    refused(s, "turn_order_roll", "Anna", value=1, match="waiting for Barb and Carl")
    do(s, "turn_order_roll", "Barb", value=2)
    do(s, "turn_order_roll", "Carl", value=5)
    assert s.prompt()["turn"] == "Barb"
    s = new(3, ["less_luck"])
    do(s, "begin")
    do(s, "omen", text="-", magik={"Anna": 1, "Carl": 1})
    do(s, "fill_board")
    assert s.prompt()["turn"] == "Barb" and s.prompt()["phase"] == "turns"


def test_a_misread_turn_order_die_is_corrected_until_the_first_turn_begins():
    s = new(3)
    do(s, "begin")
    do(s, "omen", text="-")
    do(s, "fill_board")
    do(s, "turn_order_roll", "Anna", value=5)
    do(s, "turn_order_roll", "Barb", value=5)
    do(s, "turn_order_roll", "Carl", value=2)
    do(s, "turn_order_roll", "Anna", value=3)
    refused(s, "correct_roll", "Carl", value=5, round=2, match="no roll of Carl's in round 2")
    do(s, "correct_roll", "Carl", value=6, round=1)  # Carl had a 6: he starts, the re-roll goes
    assert s.prompt()["turn"] == "Carl"
    assert s.state["harvest"]["order"]["rounds"] == [{"0": 5, "1": 5, "2": 6}]
    do(s, "correct_roll", "Carl", value=1)  # back to a tie: Anna and Barb roll again
    assert s.prompt()["phase"] == "turn_order"
    do(s, "turn_order_roll", "Anna", value=3)
    do(s, "turn_order_roll", "Barb", value=4)
    do(s, "correct_roll", "Anna", value=6)
    assert s.prompt()["turn"] == "Anna"
    do(s, "gather", "Anna", ingredient="spider_web")
    refused(s, "correct_roll", "Anna", value=1, match="can be corrected now")
    refused(s, "correct_roll", "Anna", value=1, roll="dice", match="roll: one of turn_order, steal, rolloff")


def test_buttons_map_to_begin_fill_end_turn_and_pass():
    s = new(2, witch="Anna")
    assert s.handle_input(InputEvent("button", "next")).command.do == "begin"
    do(s, "omen", text="-")
    assert s.handle_input(InputEvent("button", "next")).command.do == "fill_board"
    s.handle_input(InputEvent("die", "d1", 6))
    s.handle_input(InputEvent("die", "d1", 3))
    assert s.prompt()["inputs"] == ["seat1.pass", "next"]
    with pytest.raises(RuleViolation, match="must take one Action"):
        s.handle_input(InputEvent("button", "seat1.pass"))
    with pytest.raises(RuleViolation, match="It is Anna's turn"):
        s.handle_input(InputEvent("button", "seat2.pass"))
    with pytest.raises(RuleViolation, match="means nothing now"):
        s.handle_input(InputEvent("button", "seat1.claim"))
    with pytest.raises(RuleViolation, match="means nothing now"):
        s.handle_input(InputEvent("button", "seat9.pass"))
    empty_board_but(s, frog_legs=1)
    do(s, "gather", "Anna", ingredient="frog_legs")
    assert s.handle_input(InputEvent("button", "next")).command.do == "end_turn"
    step = s.handle_input(InputEvent("button", "seat2.pass"))
    assert step.command.do == "pass" and s.prompt()["turn"] == "Anna"


def test_ordinary_commands_undo_and_redo():
    s = start(new(2))
    do(s, "gather", "Anna", ingredient="frog_legs")
    s.undo()
    assert player(s, "Anna")["pool"] == {} and s.state["ingredients_left"]["frog_legs"] == 3
    s.redo()
    assert player(s, "Anna")["pool"] == {"frog_legs": 1}


def test_turn_order_dice_cannot_be_undone():
    s = new(2)
    do(s, "begin")
    do(s, "omen", text="-")
    do(s, "fill_board")
    step = do(s, "turn_order_roll", "Anna", value=4)
    assert not step.undoable and not s.can_undo
    refused(s, "undo", match="Dice results cannot be undone; correct a misread die instead")


def test_unknown_commands_and_players_are_refused():
    s = new(2)
    refused(s, "fly", "Anna", match="Cauldron has no command 'fly'")
    refused(s, "gather", None, match="say which player")
    refused(s, "gather", "Zed", match="no player named 'Zed'")


def test_market_summary_lists_prices_and_reasons_for_the_current_seat():
    s = to_market(new(2), gatherer="Barb")
    offers = s.summary()["market"]["offers"]
    assert [o["item"] for o in offers] == ["field", "cellar", "basic_spell", "advanced_spell",
                                           "basic_potion", "advanced_potion"]
    assert all(("reason" in o and "cost" in o) for o in offers)


def test_the_summary_says_what_the_seat_may_still_do():
    s = start(new(2))
    give(s, "Anna", "Flash", ["spider_web", "any"], 3, quick=True)
    give(s, "Anna", "Slow", ["frog_legs"], 3, kind="easy")
    pool(s, "Anna", spider_web=1, frog_legs=1, dragon_egg=1)
    pool(s, "Barb", frog_legs=1)
    options = s.summary()["options"]
    assert options["player"] == "Anna" and options["action_free"]
    assert options["brew"] == ["Flash", "Slow"] and options["steal_from"] == ["Barb"]
    assert "must take one Action" in options["end_turn"]
    do(s, "gather", "Anna", ingredient="spider_web")
    options = s.summary()["options"]
    assert options["brew"] == ["Flash"] and options["steal_from"] == []
    assert options["end_turn"] is None
    assert to_market(new(2), gatherer="Barb").summary()["options"] is None
