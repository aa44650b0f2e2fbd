"""The table's words in Witch's Brew refusals: counts in the singular where there is one, no
command names, arguments named as keys and said in words, and the reason that applies (no
cards left, no such seat, no variant) rather than a general one."""

from __future__ import annotations

import pytest

from companion.core import InputEvent, RuleViolation
from companion.games import get_rules

RULES = get_rules("witchs_brew")


def test_one_of_a_counter_is_said_in_the_singular(wb):
    s = wb.new(3, supply={"drops": 20, "gold": 24})
    wb.do(s, "adjust", "Anna", changes={"vials": 44})
    wb.refused(s, "adjust", "Barb", changes={"vials": 2},
               match="The supply has only 1 vial left (the table plays with 45 in all): nobody "
                     "can take 2 more")
    wb.do(s, "adjust", "Barb", changes={"red": 16})
    wb.refused(s, "adjust", "Carl", changes={"red": 2},
               match="The supply has only 1 red drop left")
    wb.refused(s, "adjust", "Carl", changes={"vials": -1}, match="Carl has 0 vials: cannot give up 1")
    wb.refused(s, "adjust", "Anna", changes={"green": -2}, match="Anna has 1 green drop: cannot")


def test_spare_cards_are_counted_in_words_and_a_game_without_the_variant_says_so(wb):
    """Variant: "turn over the top 2 cards (with 3 players) or the top card (with 4 players)"."""
    s = wb.new(4, variants=["excluded_roles"])
    message = wb.refused(s, "reveal_excluded", None, roles=["witch", "wizard"],
                         match="roles: turn over exactly 1 role card this set")
    assert "(s)" not in message
    s = wb.new(3, variants=["excluded_roles"])
    wb.refused(s, "reveal_excluded", None, roles=["witch"],
               match="roles: turn over exactly 2 different role cards this set")
    s = wb.new(3)
    message = wb.refused(s, "reveal_excluded", None, roles=["witch", "wizard"],
                         match="This game is played without the variant: there are no spare "
                               "role cards to turn over")
    assert "excluded" not in message


def test_a_refusal_never_names_a_command_and_says_what_each_argument_means(wb):
    """An argument the waiting effect does not take is named as a key, in quotes, with what it
    means, and so is each one the effect does take."""
    s = wb.new(3)
    wb.do(s, "play_role", "Anna", role="alchemist")
    wb.do(s, "pass", "Barb")
    wb.do(s, "pass", "Carl")
    message = wb.refused(s, "resolve", "Anna", drop="red", changes={"gold": 5},
                         match="\"changes\" (what changed for the seat) is not part of the "
                               "Alchemist full action (Return any 1 drop, take 5 gold): it "
                               "takes only the drop returned (\"drop\")")
    assert "changes, others, potion" not in message
    wb.do(s, "resolve", "Anna", drop="red")
    wb.do(s, "play_role", "Anna", role="warlock")
    wb.do(s, "pass", "Barb")
    wb.do(s, "pass", "Carl")
    wb.refused(s, "resolve", "Anna", drop="red",
               match="it takes only what changed for the seat (\"changes\"), what changed for "
                     "the others (\"others\") and the potion card taken (\"potion\")")
    # the forgotten card needs no command of its own: announcing it says what happens
    wb.do(s, "abstain", "Anna")
    wb.do(s, "play_role", "Anna", role="witch")
    wb.do(s, "claim", "Barb")
    wb.do(s, "pass", "Carl")
    wb.do(s, "abstain", "Barb")
    step = wb.do(s, "play_role", "Barb", role="alchemist")
    assert "forfeit" not in " ".join(s.words(step))


def test_a_seat_without_cards_is_told_so_not_that_it_is_out_of_turn(wb):
    """"If the player who is to begin the new round has no cards left in his hand, the task of
    beginning the round passes to his left neighbor"."""
    s = wb.new(3)
    for role in ("alchemist", "assistant", "witch", "druid", "wizard"):
        wb.do(s, "play_role", "Anna", role=role)
        wb.do(s, "pass", "Barb")
        wb.do(s, "pass", "Carl")
        wb.do(s, "abstain", "Anna")
    message = wb.refused(s, "play_role", "Anna", role="warlock",
                         match="Anna has no cards left in hand this set: it is Barb's turn to "
                               "announce a role")
    assert "not Anna's" not in message


def test_a_button_of_a_seat_the_table_does_not_have_says_so(wb):
    s = wb.new(wb.FIVE)
    with pytest.raises(RuleViolation, match="^There is no seat 9 at this table: it has 5 seats$"):
        s.handle_input(InputEvent("button", "seat9.claim"))
    with pytest.raises(RuleViolation, match="^That button means nothing now"):
        s.handle_input(InputEvent("button", "seat2.dance"))
    assert RULES.map_input(s.state, InputEvent("button", "seat5.pass")).player == "Emma"


def test_after_the_game_the_refusal_says_what_is_left_in_players_words(wb):
    s = wb.new(3)
    for points, stack in ((1, "copper"), (2, "copper"), (1, "silver"), (2, "silver")):
        wb.do(s, "adjust", "Barb", potion={"stack": stack, "points": points, "raven": True})
    hand = ["alchemist", "assistant", "witch", "druid", "wizard"]
    wb.play_set(s, {"Anna": hand, "Barb": hand, "Carl": hand}, answer=lambda *_: "pass")
    assert s.over
    message = wb.refused(s, "play_role", "Anna", role="warlock",
                         match="The game is over: only corrections and undo are possible now")
    assert "adjust" not in message
