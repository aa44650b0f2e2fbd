"""Undo, redo and resume never refold the game from its start: checkpoints in the session and
in the journal. Counted in folded events, not timed: the cost must not grow with the game."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as hs

from companion.core import Command, Session
from companion.core.engine import CHECKPOINT_EVERY, DONE, KEEP_RECENT
from tests.companion.tiny_game import TINY, add


def counting():
    """The tiny game, with a counter of the events its ``evolve`` folds."""
    folded = [0]

    def evolve(state, event):
        folded[0] += 1
        return TINY.evolve(state, event)

    return replace(TINY, evolve=evolve), folded


def full_fold(session: Session) -> dict:
    state = session.initial
    for step in session.steps:
        if step.status == DONE:
            state = TINY.fold(state, list(step.events))
    return state


class Recorder:
    """A journal that keeps what a store would: the steps' statuses and the checkpoints."""

    def __init__(self) -> None:
        self.checkpoints: dict[int, dict] = {}
        self.standings: list = []

    def append(self, step, dropped, standing) -> None:
        self._keep(standing)

    def set_status(self, n, status, standing) -> None:
        self._keep(standing)

    def _keep(self, standing) -> None:
        self.standings.append(standing)
        if standing.checkpoint is not None:
            n, state = standing.checkpoint
            self.checkpoints[n] = state


def test_undo_deep_in_a_long_game_folds_at_most_a_checkpoint_interval():
    rules, folded = counting()
    s = Session(rules, {})
    for _ in range(10_000):
        s.execute(Command("add", None, {"n": 1}))
    costs = []
    for _ in range(3 * CHECKPOINT_EVERY):   # undo far past the recent states kept
        folded[0] = 0
        s.undo()
        costs.append(folded[0])
    assert max(costs) <= CHECKPOINT_EVERY
    assert s.state == full_fold(s)
    folded[0] = 0
    s.redo()
    assert folded[0] <= 2 and s.state == full_fold(s)


def test_the_latest_undos_fold_nothing():
    rules, folded = counting()
    s = Session(rules, {})
    for _ in range(100):
        s.execute(Command("add", None, {"n": 1}))
    folded[0] = 0
    for _ in range(KEEP_RECENT - 1):
        s.undo()
    assert folded[0] == 0


def test_the_journal_gets_a_checkpoint_every_interval_and_a_summary_every_time():
    journal = Recorder()
    s = Session(TINY, {}, journal=journal)
    for _ in range(3 * CHECKPOINT_EVERY + 5):
        add(s)
    done = s.done_steps()
    assert sorted(journal.checkpoints) == [done[i * CHECKPOINT_EVERY - 1].n for i in (1, 2, 3)]
    assert all(st.summary["total"] >= 0 for st in journal.standings)
    assert journal.standings[-1].summary == TINY.summary(s.state)


def test_a_resume_from_a_checkpoint_folds_only_the_steps_after_it():
    journal = Recorder()
    s = Session(TINY, {}, journal=journal)
    for _ in range(5 * CHECKPOINT_EVERY + 7):
        add(s)
    n = max(journal.checkpoints)
    rules, folded = counting()
    again = Session(rules, {}, list(s.steps), checkpoint=(n, journal.checkpoints[n]))
    assert again.state == s.state
    assert folded[0] == 7
    folded[0] = 0
    for _ in range(CHECKPOINT_EVERY + 3):
        again.undo()
    assert again.state == full_fold(again)


def test_a_checkpoint_of_a_step_no_longer_done_is_not_used():
    journal = Recorder()
    s = Session(TINY, {}, journal=journal)
    for _ in range(CHECKPOINT_EVERY):
        add(s)
    n = max(journal.checkpoints)
    s.undo()
    add(s, 5)                      # the checkpointed step is dropped now
    again = Session(TINY, {}, list(s.steps), checkpoint=(n, journal.checkpoints[n]))
    assert again.state == s.state == full_fold(s)


#: A game as the table plays it: adds, dice, undos and redos in any order.
MOVES = hs.lists(hs.one_of(hs.tuples(hs.just("add"), hs.integers(1, 3)),
                           hs.tuples(hs.just("roll"), hs.integers(1, 6)),
                           hs.tuples(hs.just("undo"), hs.integers(1, 40)),
                           hs.tuples(hs.just("redo"), hs.integers(1, 40))),
                 max_size=60)


@settings(max_examples=150, deadline=None)
@given(MOVES)
def test_any_play_agrees_with_a_full_fold_and_with_every_resume(moves):
    journal = Recorder()
    s = Session(TINY, {}, journal=journal)
    for move, k in moves:
        if move == "add":
            add(s, k)
        elif move == "roll":
            s.execute(Command("roll", None, {"value": k}))
        else:
            for _ in range(k):
                if not (s.can_undo if move == "undo" else s.can_redo):
                    break
                s.undo() if move == "undo" else s.redo()
        assert s.state == full_fold(s)
    done = {st.n for st in s.done_steps()}
    for n, state in journal.checkpoints.items():
        again = Session(TINY, {}, list(s.steps), checkpoint=(n, state))
        assert again.state == s.state
        assert again.can_undo == s.can_undo and again.can_redo == s.can_redo
        if n in done and again.can_redo:
            again.redo()
            s2 = Session(TINY, {}, list(again.steps))
            assert again.state == s2.state


def test_a_resume_with_the_earlier_checkpoints_undoes_past_the_latest_cheaply():
    journal = Recorder()
    s = Session(TINY, {}, journal=journal)
    for _ in range(10 * CHECKPOINT_EVERY + 5):
        add(s)
    latest_two = sorted(journal.checkpoints.items())[-2:]
    rules, folded = counting()
    again = Session(rules, {}, list(s.steps), checkpoint=latest_two)
    assert again.state == s.state and folded[0] == 5
    costs = []
    for _ in range(5 + CHECKPOINT_EVERY - 1):    # past the latest checkpoint, not the other
        folded[0] = 0
        again.undo()
        costs.append(folded[0])
    assert max(costs) <= CHECKPOINT_EVERY and again.state == full_fold(again)
