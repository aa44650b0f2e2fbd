"""The log in words kept step by step (companion.core.narrator): after any mix of new steps,
undos and redos it says what a telling from the start says, and it tells at most a memo
interval of steps again, whatever the game's length."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.core import Session
from companion.core.narrator import MEMO_EVERY, Narrator
from tests.companion.test_log_words import GAMES


def _counting(session: Session) -> list[int]:
    """Count the rules' describe calls of this session from now on."""
    told = [0]
    describe = session.rules.describe

    def counted(*args):
        told[0] += 1
        return describe(*args)

    session.rules = replace(session.rules, describe=counted)
    return told


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_words_agree_with_a_telling_from_the_start_through_undo_and_redo(game):
    whole = GAMES[game](3)
    session = Session(whole.rules, whole.setup)
    narrator = Narrator(session)
    rng = random.Random(7)
    shown: list[tuple[int, list[str]]] = []
    def check() -> None:
        kept, added = narrator.sync()
        del shown[kept:]
        shown.extend((s.n, lines) for s, lines in added)
        if rng.random() < 0.2 or session.over:   # a telling from the start costs the game's length
            assert shown == [(s.n, lines) for s, lines in session.log()]

    for step in whole.done_steps():
        session.execute(step.command)
        if rng.random() < 0.1 and session.can_undo:   # played again: the undone step dropped
            session.undo()
            check()
            session.execute(step.command)
        elif rng.random() < 0.3:
            for _ in range(rng.randint(1, 40)):
                if not session.can_undo:
                    break
                undone = session.undo()
                assert narrator.words(undone) == session.words(undone)
            check()
            while session.can_redo:
                session.redo()
                if rng.random() < 0.3:
                    check()
        check()


def test_an_undo_late_in_a_long_game_tells_few_steps_again():
    whole = GAMES["witchs_brew"](1)
    session = Session(whole.rules, whole.setup, list(whole.steps))
    narrator = Narrator(session)
    narrator.sync()
    told = _counting(session)
    costs = []
    for _ in range(3 * MEMO_EVERY):
        if not session.can_undo:
            break
        told[0] = 0
        session.undo()
        narrator.sync()
        costs.append(told[0])
    assert len(costs) > MEMO_EVERY and max(costs) <= MEMO_EVERY
    told[0] = 0
    session.redo()
    narrator.sync()
    assert told[0] == 1
