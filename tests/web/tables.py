"""Real sessions of the three games for the phones' tests, and their snapshots."""

from __future__ import annotations

import random
from functools import lru_cache

from companion.core import Command, Session
from companion.core.narrator import Narrator
from companion.view.snapshot import table_view
from tests.companion import cauldron_autoplay, quest_autoplay
from tests.support import autoplay

WB_SETUP = {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Dora"]}


@lru_cache(maxsize=None)
def brew_commands() -> tuple[Command, ...]:
    return tuple(autoplay.play(dict(WB_SETUP), seed=2)[1])


@lru_cache(maxsize=None)
def cauldron_commands() -> tuple[Command, ...]:
    return tuple(cauldron_autoplay.play(cauldron_autoplay.setup_for(3))[1])


def brew(steps: int) -> Session:
    """Witch's Brew after ``steps`` commands of the seeded game."""
    session = Session(autoplay.get_rules("witchs_brew"), dict(WB_SETUP))
    for command in brew_commands()[:steps]:
        session.execute(command)
    return session


@lru_cache(maxsize=None)
def anna_answers_the_witch() -> int:
    """How many commands of the seeded game come before Anna answers Dora's Witch: found, not
    counted by hand, so a change of the rules or of the autoplay that moves it moves this too."""
    session = Session(autoplay.get_rules("witchs_brew"), dict(WB_SETUP))
    for n, command in enumerate(brew_commands()):
        state = session.state
        if (state.get("role") == "witch" and state.get("holder") == 3 and command.player == "Anna"
                and command.do in ("claim", "so_be_it", "pass")):
            return n
        session.execute(command)
    raise AssertionError("the seeded game has no moment where Anna answers Dora's Witch")


def brew_answering() -> Session:
    """Witch's Brew as Anna answers Dora's Witch."""
    return brew(anna_answers_the_witch())


def cauldron(steps: int) -> Session:
    from companion.games.cauldron import RULES

    session = Session(RULES, cauldron_autoplay.setup_for(3))
    for command in cauldron_commands()[:steps]:
        session.execute(command)
    return session


@lru_cache(maxsize=None)
def _first_market() -> int:
    from companion.games.cauldron import RULES

    session = Session(RULES, cauldron_autoplay.setup_for(3))
    for n, command in enumerate(cauldron_commands()):
        if session.prompt()["phase"] == "market":
            return n
        session.execute(command)
    raise AssertionError("the seeded game has no Market Season")


def cauldron_market() -> Session:
    """Cauldron at the seeded game's first Market turn (the buyer is the prompt's seat)."""
    return cauldron(_first_market())


def quest(steps: int, seed: int = 3) -> Session:
    session, rng = quest_autoplay.new(), random.Random(seed)
    for _ in range(steps):
        if session.over:
            break
        item = quest_autoplay.random_command(session.state, rng)
        session.execute(item) if isinstance(item, Command) else session.handle_input(item)
    return session


def snapshot(session: Session, number: int = 1, **extra) -> dict:
    return table_view(session, number, Narrator(session), **extra)
