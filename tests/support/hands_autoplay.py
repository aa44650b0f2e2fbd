"""Witch's Brew autoplay with hands on the phones: the seats in ``with_hands`` choose 5 random
role cards at the start of every set and play them as the rulebook says (announce one of their
own, claim or "So be it!" when they hold the role); the others play as tests/support/autoplay.py
does. Used by the hands' fuzz, the privacy property test and the round-length benchmark."""

from __future__ import annotations

import random
from typing import Any, Iterable

from companion.core import Command, Session
from companion.games import get_rules
from companion.games.witchs_brew import hands as hd
from companion.games.witchs_brew.roles import ROLES
from tests.support.autoplay import next_command


def hand_command(session: Session, rng: random.Random, with_hands: Iterable[int]) -> Command:
    """The next legal command of a table where the seats ``with_hands`` play with a hand."""
    state = session.state
    names = session.names
    for seat in sorted(with_hands):
        if hd.cannot_choose(state, seat) is None:
            pool = [r for r in ROLES if r not in (state["excluded"] or [])]
            return Command("choose_hand", names[seat], {"roles": rng.sample(pool, 5)})
    return next_command(session, rng)     # it plays a known hand as the rulebook says


def play_with_hands(setup: dict[str, Any], with_hands: Iterable[int], seed: int = 1,
                    limit: int = 5000) -> tuple[Session, list[Command]]:
    """A whole game; returns the finished session and the commands played."""
    rng = random.Random(seed)
    session = Session(get_rules("witchs_brew"), setup)
    commands: list[Command] = []
    seats = set(with_hands)
    while not session.over:
        if len(commands) >= limit:
            raise AssertionError("hands autoplay: the game did not end")
        command = hand_command(session, rng, seats)
        session.execute(command)
        commands.append(command)
    return session, commands
