"""Roll contests: turn order ("every seat rolls, highest starts, only tied seats re-roll") and
the roll-offs for the fewest or most Magik. A contest keeps every round's dice; who won is
derived from them, so correcting a misread die re-derives the outcome instead of patching it."""

from __future__ import annotations

from typing import Any

Contest = dict[str, Any]


def new(contenders: list[int], want: str, rule: str, first: int | None = None,
        magik: int | None = None) -> Contest:
    """``want`` "high" (highest roll wins) or "low"; ``first`` settles it without dice;
    ``magik``: the Magik the contenders were tied at (a roll-off for the fewest or most Magik
    belongs to that tie)."""
    return {"rule": rule, "contenders": list(contenders), "want": want, "rounds": [],
            "first": first, "magik": magik}


def settle(contest: Contest) -> tuple[int | None, list[int], int]:
    """(winner or None, seats still to roll, index of the round they roll in)."""
    if contest.get("first") is not None:
        return contest["first"], [], 0
    contenders = list(contest["contenders"])
    if len(contenders) == 1:
        return contenders[0], [], 0
    pick = max if contest["want"] == "high" else min
    for index, rolls in enumerate(contest["rounds"]):
        waiting = [s for s in contenders if str(s) not in rolls]
        if waiting:
            return None, waiting, index
        best = pick(rolls[str(s)] for s in contenders)
        tied = [s for s in contenders if rolls[str(s)] == best]
        if len(tied) == 1:
            return tied[0], [], index
        contenders = tied
    return None, contenders, len(contest["rounds"])


def tied_at(contest: Contest, index: int) -> tuple[list[int], int | None]:
    """Who is tied after round ``index`` and at what value (for the prompt)."""
    contenders = list(contest["contenders"])
    pick = max if contest["want"] == "high" else min
    best = None
    for rolls in contest["rounds"][: index + 1]:
        if any(str(s) not in rolls for s in contenders):
            break
        best = pick(rolls[str(s)] for s in contenders)
        contenders = [s for s in contenders if rolls[str(s)] == best]
    return contenders, best


def record(contest: Contest, seat: int, value: int) -> Contest:
    """The contest with one more die: in the round that seat is awaited in."""
    out = {**contest, "rounds": [dict(r) for r in contest["rounds"]]}
    _, _, index = settle(out)
    if index == len(out["rounds"]):
        out["rounds"].append({})
    out["rounds"][index][str(seat)] = value
    return out


def last_round_of(contest: Contest, seat: int) -> int | None:
    """The latest round in which ``seat`` rolled (what a correction changes by default)."""
    for index in range(len(contest["rounds"]) - 1, -1, -1):
        if str(seat) in contest["rounds"][index]:
            return index
    return None


def correct(contest: Contest, seat: int, index: int, value: int) -> Contest:
    """Replace one die, then drop every later die that no longer belongs: rolls by seats that
    are no longer tied, and every round after the one that now has a winner."""
    rounds = [dict(r) for r in contest["rounds"]]
    rounds[index][str(seat)] = value
    contenders = list(contest["contenders"])
    pick = max if contest["want"] == "high" else min
    kept: list[dict[str, int]] = []
    for rolls in rounds:
        rolls = {k: v for k, v in rolls.items() if int(k) in contenders}
        kept.append(rolls)
        if any(str(s) not in rolls for s in contenders):
            break
        best = pick(rolls[str(s)] for s in contenders)
        contenders = [s for s in contenders if rolls[str(s)] == best]
        if len(contenders) == 1:
            break
    while kept and not kept[-1]:
        kept.pop()
    return {**contest, "rounds": kept}
