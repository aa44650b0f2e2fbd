"""Shared helpers for the companion tests (exposed as the ``wb`` fixture), and the history
the statistics, export, browse and import tests share (``history``).

Kept in a fixture rather than an importable module, so the tests work under any pytest
import mode and never collide with the real ``companion`` package.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any, Callable

import pytest

from companion.core import Session
from companion.games import get_rules
from tests.support.commands import do, refused

FIVE = ["Anna", "Barb", "Carl", "Daniel", "Emma"]
SIX = FIVE + ["Fiona"]


def names(n: int) -> list[str]:
    return SIX[:n]


def new(players: list[str] | int = 5, **config: Any) -> Session:
    """A fresh Witch's Brew session. ``players`` may be a count (first n of SIX)."""
    if isinstance(players, int):
        players = names(players)
    return Session(get_rules("witchs_brew"), {"players": list(players), **config})




def player(s: Session, who: str) -> dict[str, Any]:
    for p in s.summary()["players"]:
        if p["name"] == who:
            return p
    raise KeyError(who)


def counters(s: Session, who: str) -> dict[str, int]:
    p = player(s, who)
    return {k: p[k] for k in ("red", "white", "green", "gold", "vials")}


def played(s: Session, who: str) -> list[str]:
    return player(s, who)["roles_played"]


def abstain_all(s: Session, who: str, pending: dict[str, Any]) -> None:
    do(s, "abstain", who)


def so_be_it(s: Session, who: str, role: str) -> str:
    return "so_be_it"


def play_set(
    s: Session,
    hands: dict[str, list[str]],
    *,
    answer: Callable[[Session, str, str], str] = so_be_it,
    resolve: Callable[[Session, str, dict[str, Any]], None] = abstain_all,
    on_round: Callable[[Session], None] | None = None,
    limit: int = 400,
) -> None:
    """Play one whole set as the table would.

    ``hands``: each player's 5 role cards for the set. The starter announces the first card of
    its hand it has not played; a seat holding the announced role answers with ``answer`` (claim
    or so_be_it), any other seat passes; pending effects go to ``resolve``. Stops when the set
    number changes or the game is over. ``on_round`` is called after every command.
    """
    for who, hand in hands.items():
        assert len(hand) == 5 and len(set(hand)) == 5, f"{who}: 5 different cards"
    assert s.prompt()["phase"] != "reveal", "reveal the excluded roles before play_set"
    start = s.state["set"]
    for _ in range(limit):
        if s.over or s.state["set"] != start:
            return
        p = s.prompt()
        who = p["turn"]
        if p["phase"] == "play":
            left = [r for r in hands[who] if r not in played(s, who)]
            do(s, "play_role", who, role=left[0])
        elif p["phase"] == "answer":
            role = s.state["role"]
            if role in hands[who] and role not in played(s, who):
                do(s, answer(s, who, role), who)
            else:
                do(s, "pass", who)
        elif p["phase"] == "resolve":
            resolve(s, who, s.summary()["pending"][0])
        else:  # pragma: no cover - would be an engine bug
            raise AssertionError(f"unexpected phase {p}")
        if on_round is not None:
            on_round(s)
    raise AssertionError("the set did not end")


def same_hands(s: Session, hand: list[str]) -> dict[str, list[str]]:
    return {p["name"]: list(hand) for p in s.state["players"]}


@pytest.fixture
def wb() -> SimpleNamespace:
    return SimpleNamespace(
        FIVE=FIVE, SIX=SIX, names=names, new=new, do=do, refused=refused, player=player,
        counters=counters, played=played, play_set=play_set, same_hands=same_hands,
        abstain_all=abstain_all, so_be_it=so_be_it, re=re,
    )


@pytest.fixture(scope="module")
def history(histories):
    """The 200 finished games (and a few unfinished) that the statistics, export, browse and
    import tests share: (the path of the module's own copy of the file, the games as played)."""
    from tests.support.history import COUNTS, UNFINISHED

    return histories.get(COUNTS, UNFINISHED)


@pytest.fixture(scope="module")
def small(histories):
    """Seven games whose tables also undid, redid and corrected (undone and dropped steps), and
    their export, for the import and file tests: (the module's own copy of the file, the
    export's lines)."""
    from tests.companion.exported import export

    db, _ = histories.get({"witchs_brew": 2, "quest": 2, "cauldron": 1}, 2, seed=7, mess=0.1)
    return db, export(db, db.parent / "small.jsonl")
