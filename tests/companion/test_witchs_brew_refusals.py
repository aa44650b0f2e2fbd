"""Witch's Brew rounds: what is refused, when and in what words (out of turn, a role played
already this set, an answer before an announcement, unknown players and commands)."""

from __future__ import annotations

import copy

import pytest

from companion.core import Command, RuleViolation
from companion.games import get_rules

RULES = get_rules("witchs_brew")


# --------------------------------------------------------------------------------------------
# Refusals
# --------------------------------------------------------------------------------------------
def test_play_role_out_of_turn_is_refused(wb):
    s = wb.new(wb.FIVE)
    wb.refused(s, "play_role", "Barb", role="warlock",
               match="It is Anna's turn to announce a role, not Barb's")


def test_play_role_while_answers_are_awaited_is_refused(wb):
    s = wb.new(wb.FIVE)
    wb.do(s, "play_role", "Anna", role="warlock")
    wb.refused(s, "play_role", "Barb", role="alchemist",
               match='Not the time to announce a role: Barb: the Warlock is held by Anna.')


@pytest.mark.parametrize("bad", ["dragon", "", ["warlock"], 3])
def test_unknown_role_is_refused_with_the_list(wb, bad):
    s = wb.new(wb.FIVE)
    msg = wb.refused(s, "play_role", "Anna", role=bad, match="role: one of wolf_keeper, "
                     "snake_hunter, herb_collector, alchemist")
    assert "cutpurse, begging_monk, not " in msg


def test_a_missing_role_is_refused_naming_the_field(wb):
    s = wb.new(wb.FIVE)
    wb.refused(s, "play_role", "Anna", role=None, match="role: missing; give one of wolf_keeper")


@pytest.mark.parametrize("spelled", ["Warlock", "WARLOCK", "warlock"])
def test_a_role_is_matched_regardless_of_case_and_logged_by_its_key(wb, spelled):
    s = wb.new(wb.FIVE)
    step = wb.do(s, "play_role", "Anna", role=spelled)
    assert step.command.args == {"role": "warlock"}
    step = wb.do(s, "claim", "BARB")
    assert step.command.player == "Barb"


def test_a_role_may_be_named_by_the_title_on_its_card(wb):
    s = wb.new(wb.FIVE)
    assert wb.do(s, "play_role", "Anna", role="Wolf keeper").command.args == {"role": "wolf_keeper"}


def _warlock_played(wb):
    """Three seats; Anna's Warlock went unanswered and she abstained: her next turn."""
    s = wb.new(3)
    wb.do(s, "play_role", "Anna", role="warlock")
    wb.do(s, "pass", "Barb")
    wb.do(s, "pass", "Carl")
    wb.do(s, "abstain", "Anna")
    return s


def test_a_seat_may_not_announce_a_role_it_already_played_this_set(wb):
    s = _warlock_played(wb)
    wb.refused(s, "play_role", "Anna", role="warlock",
               match="Anna already played the Warlock this set: each role card is played once per set")


def test_announcing_a_role_already_played_this_set_lays_the_card_face_down(wb):
    """Rulebook, Further Important Rules: "If a player plays a role card that was played
    previously in this set (meaning he 'forgot' the play it earlier when required), he must
    immediately place it face down on his face down stack of cards and play another." Anna
    announced the Warlock in round 1, Barb and Carl passed; when Carl later announces the
    Warlock, the card goes face down (one card fewer in his hand) and he plays another."""
    s = _warlock_played(wb)
    wb.do(s, "play_role", "Anna", role="wolf_keeper")
    wb.do(s, "pass", "Barb")
    wb.do(s, "claim", "Carl")       # Carl holds and starts round 3
    assert s.prompt()["turn"] == "Carl"
    assert wb.player(s, "Carl")["cards_left"] == 4
    step = wb.do(s, "play_role", "Carl", role="warlock")
    assert [e.type for e in step.events] == ["card_forfeited"]
    assert wb.player(s, "Carl")["cards_left"] == 3
    assert wb.played(s, "Carl") == ["wolf_keeper", "warlock"]
    assert s.summary()["role"] is None and s.summary()["round"] == 3
    assert s.prompt()["phase"] == "play" and s.prompt()["turn"] == "Carl"
    assert s.words(step)[0] == (
        "Carl laid the Warlock face down: a forgotten card, played earlier this set")
    wb.refused(s, "play_role", "Carl", role="warlock",
               match="Carl already played the Warlock this set")
    wb.do(s, "play_role", "Carl", role="witch")
    assert s.summary()["holder"] == "Carl"
    # undo puts the card back in Carl's hand; redo lays it face down again
    s.undo()
    s.undo()
    assert wb.player(s, "Carl")["cards_left"] == 4 and s.prompt()["turn"] == "Carl"
    s.redo()
    assert wb.played(s, "Carl") == ["wolf_keeper", "warlock"]


def test_a_forgotten_last_card_passes_the_start_to_the_left(wb):
    """"If the player who is to begin the new round has no cards left in his hand, the task of
    beginning the round passes to his left neighbor": a forgotten card that was the seat's last
    one leaves the start to the next seat with cards, and the log says so."""
    s = wb.new(3)
    hand = ["alchemist", "assistant", "witch", "druid"]
    for role in hand:
        wb.do(s, "play_role", "Anna", role=role)
        wb.do(s, "pass", "Barb")
        wb.do(s, "pass", "Carl")
        if s.prompt()["phase"] == "resolve":
            wb.do(s, "abstain", "Anna")
    wb.do(s, "play_role", "Anna", role="wizard")
    wb.do(s, "claim", "Barb")
    wb.do(s, "pass", "Carl")
    wb.do(s, "abstain", "Barb")       # Barb begins round 6 with 4 cards
    for role in ("alchemist", "assistant", "witch", "druid"):  # all four forgotten
        step = wb.do(s, "play_role", "Barb", role=role)
    assert wb.player(s, "Barb")["cards_left"] == 0
    assert s.prompt()["turn"] == "Carl"
    assert s.words(step)[0] == ("Barb laid the Druid face down: a forgotten card, played "
                                "earlier this set; Carl begins")


def test_a_forgotten_card_is_forfeited_face_down_and_counts_as_played(wb):
    s = _warlock_played(wb)
    wb.refused(s, "forfeit", "Anna", role="warlock", match="Anna already played the Warlock")
    wb.refused(s, "forfeit", "Anna", role="witch", match="has not been played this set")
    wb.do(s, "play_role", "Anna", role="witch")
    wb.do(s, "claim", "Barb")
    wb.do(s, "pass", "Carl")
    wb.do(s, "resolve", "Barb", potion={"stack": "iron", "points": 2, "raven": False}, pay={})
    wb.refused(s, "forfeit", "Carl", role="warlock", match="It is Barb's turn")
    wb.do(s, "forfeit", "Barb", role="warlock")
    assert wb.played(s, "Barb") == ["witch", "warlock"]
    assert s.summary()["players"][1]["cards_left"] == 3
    assert s.prompt()["turn"] == "Barb"  # still Barb's turn: she announces another role


def test_the_starter_may_not_say_so_be_it(wb):
    s = wb.new(wb.FIVE)
    wb.do(s, "play_role", "Anna", role="warlock")
    wb.refused(s, "so_be_it", "Anna",
               match='Anna announced the Warlock: the player who begins a round may not say "So be it!"')
    # still refused later in the round, after her role was taken
    wb.do(s, "claim", "Barb")
    wb.refused(s, "so_be_it", "Anna", match="may not say \"So be it!\"")


def test_answer_out_of_turn_is_refused_naming_whose_turn_it_is(wb):
    s = wb.new(wb.FIVE)
    wb.do(s, "play_role", "Anna", role="warlock")
    wb.refused(s, "claim", "Carl", match="It is Barb's turn to answer, not Carl's")
    wb.refused(s, "pass", "Emma", match="It is Barb's turn to answer, not Emma's")
    wb.refused(s, "claim", "Anna", match="It is Barb's turn to answer, not Anna's")


def test_answer_before_any_role_is_announced_is_refused(wb):
    s = wb.new(wb.FIVE)
    wb.refused(s, "claim", "Barb",
               match='Not the time to say "I am the ...!": Anna: choose a role card')
    wb.refused(s, "pass", "Barb", match="Not the time to pass: Anna: choose a role card")
    wb.refused(s, "so_be_it", "Barb", match='Not the time to say "So be it!"')


def test_answer_while_a_favor_waits_is_refused(wb):
    s = wb.new(wb.FIVE)
    wb.do(s, "play_role", "Anna", role="alchemist")
    wb.do(s, "so_be_it", "Barb")
    assert s.prompt()["phase"] == "resolve" and s.prompt()["turn"] == "Barb"
    wb.refused(s, "pass", "Carl", match="Not the time to pass: Barb: Alchemist favor")


def test_claim_or_so_be_it_of_a_role_the_seat_already_played_this_set_is_refused(wb):
    s = wb.new(wb.FIVE)
    wb.do(s, "play_role", "Anna", role="warlock")
    # Barb's Warlock is already face down this set (a table correction put it there)
    state = copy.deepcopy(s.state)
    state["players"][1]["roles_played"].append("warlock")
    state["players"][1]["cards_played"] += 1
    for answer in ("claim", "so_be_it"):
        with pytest.raises(RuleViolation, match="Barb already played the Warlock this set and "
                                                "cannot hold it again: pass"):
            RULES.play(state, Command(answer, "Barb"))
    events, after = RULES.play(state, Command("pass", "Barb"))
    assert [e.type for e in events] == ["answered"]
    assert after["players"][1]["cards_played"] == 1


def test_commands_for_unknown_players_and_unknown_commands_are_refused(wb):
    s = wb.new(wb.FIVE)
    wb.refused(s, "play_role", "Zed", role="warlock",
               match="player: there is no player named 'Zed' at this table")
    wb.refused(s, "play_role", None, role="warlock",
               match='play_role: say which player ("player": a name at this table: Anna, ')
    msg = wb.refused(s, "fly", "Anna", match="Witch's Brew has no command 'fly'; it knows ")
    assert "abstain, adjust, choose_hand, claim, forfeit, pass, play_role, redo, resolve, reveal_excluded, so_be_it, undo" in msg


def test_player_names_are_matched_regardless_of_case(wb):
    s = wb.new(wb.FIVE)
    wb.do(s, "play_role", " anna ", role="warlock")
    assert s.summary()["holder"] == "Anna"
