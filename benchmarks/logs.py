"""Games of a given length, for the undo, resume, replay and history figures.

A whole Witch's Brew game played by the seeded autoplay table of the tests
(tests/support/autoplay.py, imported, not copied) is a few hundred commands, so a log of N
steps is the longest such game up to the command before its end, then corrections by hand
(``adjust`` one counter -1, then +1, and again) until it holds N: a game that never ends, as a
long evening with many corrections would be. Every command is legal, so every one is a step.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from companion.core import Command, Session
from companion.games import get_rules

SETUP = {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Dora", "Emil"]}
SEED = 1
COUNTERS = ("gold", "vials", "red", "white", "green")


def _played(seed: int = SEED) -> list[Command]:
    from tests.support import autoplay

    return autoplay.play(dict(SETUP), seed=seed)[1]


_GAMES: dict[int, list[Command]] = {}


def played(seed: int = SEED) -> list[Command]:
    """The commands of one whole autoplayed game (cached: they are the same every time)."""
    if seed not in _GAMES:
        _GAMES[seed] = _played(seed)
    return _GAMES[seed]


def corrections(state: dict[str, Any], count: int) -> list[Command]:
    """``count`` corrections that leave the state as it was after each pair: a counter some
    seat holds taken down by one, then put back."""
    for player in state["players"]:
        for counter in COUNTERS:
            if player.get(counter, 0) >= 1:
                name = player["name"]
                return [Command("adjust", name, {"changes": {counter: -1 if i % 2 == 0 else 1}})
                        for i in range(count)]
    raise RuntimeError("benchmarks: no seat holds a counter to correct")


def commands(n: int) -> list[Command]:
    """N legal commands of one game that is not over after them."""
    real = played()[:min(n, len(played()) - 1)]
    if len(real) == n:
        return real
    session = Session(get_rules(SETUP["game"]), dict(SETUP))
    for command in real:
        session.execute(command)
    return real + corrections(session.state, n - len(real))


def composition(n: int) -> str:
    real = min(n, len(played()) - 1)
    return f"{real} autoplayed Witch's Brew commands + {n - real} corrections"


def undo_heavy(n: int) -> list[Command]:
    """About ``n`` commands where undo is frequent: after every command, in turn, an undo
    and a redo, an undo and the same command again (the redo branch dropped), or nothing."""
    out: list[Command] = []
    for i, command in enumerate(commands(n)):
        if len(out) >= n:
            break
        out.append(command)
        if i % 3 == 0:
            out += [Command("undo"), Command("redo")]
        elif i % 3 == 1:
            out += [Command("undo"), command]
    return out[:n]


def store_game(store: Any, n: int, finished: bool = False, seed: int = SEED) -> int:
    """A game of ``n`` steps (or, ``finished``, a whole autoplayed game) written through
    ``store.new_game`` and ``Session.execute``; returns its id."""
    session = store.new_game(get_rules(SETUP["game"]), dict(SETUP))
    for command in (played(seed) if finished else commands(n)):
        session.execute(command)
    return session.game_id


def copy_database(source: Path, target: Path) -> None:
    """A closed database (and its -wal, if any) to ``target``: built on tmpfs, timed on disk."""
    for suffix in ("", "-wal"):
        part = Path(str(source) + suffix)
        if part.exists():
            shutil.copyfile(part, str(target) + suffix)
