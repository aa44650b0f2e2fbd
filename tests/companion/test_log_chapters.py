"""The log's headings (``GameRules.chapter``): each game's rounds or turns,
said in its own words, checked against the state the rules fold before each step: Witch's Brew
by set and round, Cauldron by season, its Harvest or Market, and whose turn, Cauldron Quest by
turn and whose it is. A heading opens where the round does, never in the middle of one."""

from __future__ import annotations

import random

import pytest

from companion.core.engine import Session
from companion.core.model import Event
from companion.games import get_rules
from companion.games.cauldron.log import TURN
from companion.games.quest import state as quest_state
from tests.support.history import random_setup, random_step


def played(game: str, seed: int) -> Session:
    rng = random.Random(seed)
    session = Session(get_rules(game), random_setup(game, rng))
    for _ in range(4000):
        if session.over:
            break
        random_step(session, game, rng)
    assert session.over
    return session


def headed(session: Session):
    """Each done step with the state before it and the heading it opens (or None)."""
    rules, names, memo = session.rules, session.names, {}
    _, state = rules.start(session.setup)
    for step in session.done_steps():
        yield step, state, rules.chapter(step.events, names, memo)
        state = rules.fold(state, list(step.events))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_witchs_brew_heads_each_round_with_its_set_and_round(seed):
    session = played("witchs_brew", seed)
    seen = []
    for step, before, heading in headed(session):
        types = {e.type for e in step.events}
        if heading is None:
            assert not ({"role_played", "roles_excluded"} & types) or (
                before["set"], before["round"]) == seen[-1]
            continue
        assert heading.startswith(f"Set {before['set']}, round {before['round']}")
        assert seen == [] or "role_played" in types or "roles_excluded" in types
        played_by = [e.data["seat"] for e in step.events if e.type == "role_played"]
        if played_by:
            assert heading.endswith(f": {session.names[played_by[0]]} leads")
        seen.append((before["set"], before["round"]))
    rounds = sum(1 for step in session.done_steps() for e in step.events
                 if e.type == "round_resolved")
    assert len(seen) == len(set(seen)) == rounds     # one heading a round, each said once
    for (s1, r1), (s2, r2) in zip(seen, seen[1:]):   # rounds in order, a new set from round 1
        assert (s2, r2) in ((s1, r1 + 1), (s1 + 1, 1))
    assert seen[0] == (1, 1) and seen[-1][0] > 1


@pytest.mark.parametrize("seed", [1, 2])
def test_cauldron_heads_each_season_and_turn(seed):
    session = played("cauldron", seed)
    last = None
    for step, before, heading in headed(session):
        first = next((e for e in step.events if e.type in TURN), None)
        if last is None:
            assert heading == "Setting up"
        elif heading is not None and heading != "Setting up":
            part = before["season"].capitalize()
            assert heading.startswith(f"Season {before['season_number']} {part}")
            if heading.endswith("'s turn"):
                assert first is not None
                assert heading.endswith(f": {session.names[first.data['seat']]}'s turn")
        if heading is not None:
            last = heading
    headings = [h for _, _, h in headed(session) if h]
    assert all(a != b for a, b in zip(headings, headings[1:]))   # never one heading twice over
    assert any(h.startswith("Season 2 Harvest") for h in headings)
    assert any(h.startswith("Season 1 Market: ") for h in headings)


@pytest.mark.parametrize("seed", [1, 2])
def test_quest_heads_each_turn_with_whose_it_is(seed):
    session = played("quest", seed)
    turns = []
    for step, before, heading in headed(session):
        if heading is not None:
            assert heading == f"Turn {before['turn_no']}: {quest_state.player(before)}"
            turns.append(before["turn_no"])
        else:
            assert turns[-1] == before["turn_no"]
    assert turns == list(range(1, session.state["turn_no"] + 1))


def test_each_game_heads_its_own_log_and_a_game_without_rounds_has_none():
    from companion.core.engine import GameRules, no_chapters

    assert GameRules.__dataclass_fields__["chapter"].default is no_chapters
    assert no_chapters([Event("turn_ended", {})], ["A"], {}) is None
    for game in ("witchs_brew", "cauldron", "quest"):
        assert get_rules(game).chapter is not no_chapters
