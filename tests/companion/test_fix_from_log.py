"""A misread die is fixed from its log entry where the rules allow it: each game's
``fixable(state, step events, later events)`` must agree with ``correct_roll`` itself.

Generated games (Hypothesis draws the seed; the tables also misread, fix, start roll-offs) are
checked after every step, entry by entry: whenever ``fixable`` says an entry's roll can be fixed,
a ``correct_roll`` of that roll is accepted and changes that die; whenever it says no, the
correction is refused, or the entry's die is no longer the one a correction would change (a
later roll or fix of it, a new turn order or roll-off, the turn over) and the reason says so.
"""

from __future__ import annotations

import random
from typing import Iterator

from hypothesis import given, settings
from hypothesis import strategies as hs

from companion.core import Command, InputEvent, RuleViolation, Session
from companion.games.cauldron import dice as cauldron_dice
from companion.games.cauldron import state as cst
from companion.games.quest import RULES as QUEST
from companion.games.quest import dice as quest_dice
from tests.companion import cauldron_autoplay as cauldron
from tests.companion.quest_autoplay import legal_commands, new, random_command
from tests.support.fuzz import try_step


def entries(session: Session, die_step) -> Iterator[tuple[int, tuple, Iterator]]:
    """(index, events, the later events lazily) of every die step done, newest first."""
    done = session.done_steps()
    for i in range(len(done) - 1, -1, -1):
        if die_step(done[i].events):
            later = (e for j in range(i + 1, len(done)) for e in done[j].events)
            yield i, done[i].events, later


def accepted(session: Session, command: Command) -> list | None:
    """The events ``command`` would cause now, or None when the rules refuse it."""
    try:
        return session.rules.accept(session.state, command)[1]
    except RuleViolation:
        return None


# -- Cauldron Quest -------------------------------------------------------------------------
def quest_fix_of(events) -> Command:
    """A correction of the roll in ``events``: the same kind of roll, other faces."""
    roll = [e for e in events if e.type in quest_dice.ROLL_EVENTS][-1].data
    if "dice" in roll:
        return Command("correct_roll", args={"dice": [(v % 6) + 1 for v in roll["dice"]]})
    return Command("correct_roll", args={"a": roll["a"], "b": roll["b"]})


def check_quest(session: Session) -> int:
    state, latest, fixed = session.state, True, 0
    for _, events, later in entries(session, quest_dice.die_step):
        reason = quest_dice.fixable(state, events, later)
        whole = any(e.type in quest_dice.ROLL_EVENTS for e in events)
        if not whole:
            assert reason and "one die of a roll" in reason
            continue
        if latest:   # correct_roll fixes the latest roll: fixable must say the same of it
            answer = accepted(session, quest_fix_of(events))
            assert (reason is None) == (answer is not None), (reason, answer)
            fixed += reason is None
            latest = False
        else:
            assert reason and "rolled again since" in reason
    return fixed


@settings(max_examples=25, deadline=None)
@given(seed=hs.integers(0, 10**6), players=hs.integers(1, 4))
def test_quest_fixable_says_what_correct_roll_does(seed: int, players: int) -> None:
    rng = random.Random(seed)
    session = new(players=["Ann", "Bob", "Cat", "Dan"][:players])
    for _ in range(120):
        if session.over:
            break
        options = legal_commands(session.state, rng)
        if rng.random() < 0.3 and options:
            item: Command | InputEvent = rng.choice(options)   # single dice, fixes, keeps
        else:
            item = random_command(session.state, rng)
        try_step(session, item)
        check_quest(session)


def test_quest_an_older_roll_is_refused_in_words_and_the_latest_is_fixable() -> None:
    session = new()
    session.execute(Command("action_roll", "Ann", {"a": "bottle", "b": 3}))
    (_, events, later), = entries(session, quest_dice.die_step)
    assert quest_dice.fixable(session.state, events, later) is None
    session.execute(Command("correct_roll", args={"a": "bottle", "b": 2}))
    newest, older = list(entries(session, quest_dice.die_step))
    assert quest_dice.fixable(session.state, newest[1], newest[2]) is None
    assert quest_dice.fixable(session.state, older[1], older[2]) == (
        "Only the latest roll can be fixed, before the team acts on it: the dice have been "
        "rolled again since")


# -- Cauldron -------------------------------------------------------------------------------
def cauldron_fix(session: Session, kind: str, seat: int) -> list | None:
    """The events of the first correction of that die (to any face) the rules accept now, or
    None: a face may be refused on its own (a stolen Ingredient already spent), not every one."""
    who = cst.name(session.state, seat)
    for value in range(1, 7):
        answer = accepted(session, Command("correct_roll", who, {"roll": kind, "value": value}))
        if answer is not None:
            return answer
    return None


def check_cauldron(session: Session) -> int:
    state, fixed = session.state, 0
    for _, events, later in entries(session, cauldron_dice.die_step):
        later = list(later)
        kind, seat, face = cauldron_dice.step_die(events)
        reason = cauldron_dice.fixable(state, events, later)
        superseded = any(e.type == cauldron_dice.CLOSED_BY[kind][0]
                         or (cauldron_dice.step_die((e,)) or ())[:2] == (kind, seat)
                         for e in later)
        if superseded:      # a later die of that seat's, a new roll: not this entry's to fix
            assert reason is not None
            continue
        answer = cauldron_fix(session, kind, seat)
        if reason is None:
            assert answer is not None, f"fixable said yes to {kind} of seat {seat}; refused"
            assert answer[0].data["old"] == face        # it changes that entry's die
            fixed += 1
        else:
            assert answer is None or (answer[0].data["old"] != face
                                      and "no longer counts" in reason), reason
    return fixed


@settings(max_examples=12, deadline=None)
@given(seed=hs.integers(0, 10**6), players=hs.integers(2, 5))
def test_cauldron_fixable_says_what_correct_roll_does(seed: int, players: int) -> None:
    rng = random.Random(seed)
    session = Session(cauldron.RULES, cauldron.setup_for(players))
    names = [p["name"] for p in session.state["players"]]
    fixed = 0
    for _ in range(160):
        if session.over:
            break
        roll = rng.random()
        if roll < 0.15:       # a misread die put right (the rules may say it is too late)
            item = Command("correct_roll", rng.choice(names),
                           {"roll": rng.choice(["turn_order", "steal", "rolloff"]),
                            "value": rng.randint(1, 6)})
        elif roll < 0.25:     # a roll-off for the fewest or most Magik
            item = Command("rolloff", args={"kind": rng.choice(["lsp", "hsp"])})
        else:
            item = cauldron.next_command(session, rng)
        try_step(session, item)
        fixed += check_cauldron(session)


def cauldron_reasons(session: Session) -> list[str | None]:
    """Each die entry's answer, oldest first."""
    found = [cauldron_dice.fixable(session.state, events, later)
             for _, events, later in entries(session, cauldron_dice.die_step)]
    return found[::-1]


def test_cauldron_a_steal_die_is_fixed_from_its_entry_during_the_turn_only() -> None:
    s = cauldron.start(cauldron.new(2))               # Anna 6, Barb 1: Anna starts
    cauldron.pool(s, "Barb", frog_legs=1)
    assert cauldron_reasons(s) == [None, None]        # turn order: the first turn has not begun
    cauldron.do(s, "steal", "Anna", target="Barb", ingredient="frog_legs", roll=2)
    order = ("No turn order roll of {}'s can be corrected now: a turn order roll until the first "
             "turn begins, a steal roll during that turn, a roll-off roll until the next roll-off")
    assert cauldron_reasons(s) == [order.format("Anna"), order.format("Barb"), None]
    cauldron.do(s, "correct_roll", "Anna", value=5)
    assert cauldron_reasons(s)[2:] == [
        "Only the latest steal die of Anna's can be fixed: it was rolled again or fixed since "
        "(fix it from that entry)", None]
    cauldron.do(s, "end_turn", "Anna")
    assert cauldron_reasons(s)[3] == ("That turn is over: a steal's die can be fixed only "
                                      "during the turn")
    cauldron.refused(s, "correct_roll", "Anna", value=6, match="can be corrected now")
