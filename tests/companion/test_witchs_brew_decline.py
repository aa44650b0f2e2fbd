"""Declining what the companion applied by itself: a gatherer's drops, the Warlock's gold.

Rulebook: "If he is unable or unwilling to execute this action, he merely says so and does not do
it" (the favor) and "A player may always choose to abstain from taking the action he is
allowed". The companion applies a free gain at once, so a seat may still say "No thanks"
(``abstain``) until the next role is announced: exactly that gain goes back to the supply."""

from __future__ import annotations

from companion.core import Session
from companion.games import get_rules
from tests.support.fuzz import assert_export_replays

START = {"red": 1, "white": 1, "green": 1, "gold": 2, "vials": 0}


def anna_announces(wb, players, role, *answers: str):
    """A table where Anna announces ``role`` and the next seats answer in turn."""
    s = wb.new(players)
    wb.do(s, "play_role", "Anna", role=role)
    for who, answer in zip(wb.FIVE[1:], answers):
        wb.do(s, answer, who)
    return s


def test_a_favor_applied_at_once_may_be_declined_while_the_round_goes_on(wb):
    """"If he is unable or unwilling to execute this action, he merely says so and does not do
    it." Barb says "So be it!" to the Wolf keeper: her drop is applied at once; while Carl is
    still to answer she declines it, and the round goes on with Carl."""
    s = anna_announces(wb, wb.FIVE, "wolf_keeper", "so_be_it")
    assert wb.counters(s, "Barb")["red"] == 2
    assert s.summary()["free_gains"] == [
        {"player": "Barb", "role": "wolf_keeper", "kind": "favor", "changes": {"red": 1}}]
    step = wb.do(s, "abstain", "Barb")
    assert [e.type for e in step.events] == ["gain_declined"]
    assert s.words(step) == ["Barb declined the favor of the Wolf keeper: 1 red drop back to "
                             "the supply"]
    assert wb.counters(s, "Barb") == START
    assert s.summary()["free_gains"] == []
    assert s.prompt()["phase"] == "answer" and s.prompt()["turn"] == "Carl"
    assert s.summary()["favors"] == ["Barb"]          # she did say "So be it!"
    wb.refused(s, "abstain", "Barb", match="Barb has no action or favor to decline now: Carl: ")


def test_the_holder_who_declines_the_full_action_still_begins_the_next_round(wb):
    """"The player, who "won" the right to the full action of the role in the previous round,
    must begin the new round, even if he chose not to execute the action." Carl holds the Herb
    collector; its 3 green drops are applied at once, he declines them, and still begins."""
    s = anna_announces(wb, 3, "herb_collector", "pass", "claim")
    assert wb.counters(s, "Carl")["green"] == 4
    assert s.prompt()["phase"] == "play" and s.prompt()["turn"] == "Carl"
    step = wb.do(s, "abstain", "Carl")
    assert s.words(step) == ["Carl declined the full action of the Herb collector: 3 green "
                             "drops back to the supply"]
    assert wb.counters(s, "Carl") == START
    assert s.prompt()["turn"] == "Carl"
    assert s.summary()["last_round"]["holder"] == "Carl"
    wb.refused(s, "play_role", "Anna", role="witch",
               match="It is Carl's turn to announce a role, not Anna's")
    wb.do(s, "play_role", "Carl", role="witch")


def test_the_warlock_favor_is_declined_like_the_drops(wb):
    """The rulebook's own example favor: "she takes one gold nugget from the supply"."""
    s = anna_announces(wb, wb.FIVE, "warlock", "so_be_it", "so_be_it")
    step = wb.do(s, "abstain", "Barb")
    assert s.words(step) == ["Barb declined the favor of the Warlock: 1 gold back to the supply"]
    assert wb.counters(s, "Barb")["gold"] == 2 and wb.counters(s, "Carl")["gold"] == 3
    assert s.prompt()["turn"] == "Daniel"


def test_exactly_that_gain_goes_back_and_only_until_the_next_role_is_announced(wb):
    """A decline takes back the gain and nothing else (not drops the seat had before, not a
    paid favor), and only until the next role is announced."""
    s = wb.new(3)
    wb.do(s, "adjust", "Barb", changes={"red": 2})
    wb.do(s, "play_role", "Anna", role="wolf_keeper")
    wb.do(s, "so_be_it", "Barb")
    wb.do(s, "pass", "Carl")
    assert wb.counters(s, "Barb")["red"] == 4 and wb.counters(s, "Anna")["red"] == 4
    wb.do(s, "abstain", "Barb")
    assert wb.counters(s, "Barb")["red"] == 3
    wb.refused(s, "abstain", "Barb", match="Barb has no action or favor to decline now")
    wb.do(s, "play_role", "Anna", role="fortune_teller")   # the next role: Anna's gain stands
    wb.refused(s, "abstain", "Anna", match="Anna has no action or favor to decline now")
    assert wb.counters(s, "Anna")["red"] == 4
    # a paid favor is confirmed or declined before it is applied, never taken back
    wb.do(s, "so_be_it", "Barb")
    wb.do(s, "resolve", "Barb")
    wb.refused(s, "abstain", "Barb", match="Barb has no action or favor to decline now")


def test_a_gain_given_away_since_cannot_be_declined(wb):
    """Nobody gives back what they no longer have: the refusal says what the seat has."""
    s = anna_announces(wb, 3, "warlock", "so_be_it", "pass")
    wb.do(s, "resolve", "Anna", changes={"gold": 3}, others={"Barb": {"gold": -3}})
    wb.refused(s, "abstain", "Barb", match="Barb has 0 gold: cannot give up 1")


def test_a_decline_is_undone_and_redone_and_replays_as_played(wb):
    s = anna_announces(wb, wb.FIVE, "snake_hunter", "so_be_it")
    wb.do(s, "abstain", "Barb")
    assert wb.counters(s, "Barb")["white"] == 1
    step = s.undo()
    assert wb.counters(s, "Barb")["white"] == 2
    assert s.summary()["free_gains"][0]["player"] == "Barb"
    s.redo()
    assert wb.counters(s, "Barb")["white"] == 1 and s.summary()["free_gains"] == []
    assert step.command.do == "abstain"
    assert_export_replays(s)
    again = Session(get_rules("witchs_brew"), s.setup, s.steps)
    assert again.state == s.state


def test_the_last_gain_of_the_game_may_be_declined_after_the_end(wb):
    """The game's last full action is applied as the game ends; no role is announced after it,
    so it may still be declined, and the result follows (the tie-break counts drops)."""
    s = wb.new(3)
    for points, stack in ((1, "copper"), (2, "copper"), (1, "silver"), (2, "silver")):
        wb.do(s, "adjust", "Barb", potion={"stack": stack, "points": points, "raven": True})
    hand = ["wolf_keeper", "snake_hunter", "alchemist", "witch", "herb_collector"]
    wb.play_set(s, {"Anna": hand, "Barb": hand, "Carl": hand},
                answer=lambda *_: "pass")
    assert s.over
    last = s.summary()["last_round"]
    holder = last["holder"]
    before = wb.counters(s, holder)
    step = wb.do(s, "abstain", holder)
    assert step.events[0].type == "gain_declined"
    assert wb.counters(s, holder)["green"] == before["green"] - 3
    wb.refused(s, "abstain", holder, match="The game is over: only corrections and undo are "
                                           "possible now")
