"""Exact odds for the magic dice: beyond the box, so the team can choose a spell and which dice
to keep. Exact means fractions over every outcome (6^k re-rolls, every keep), never sampling.

``chance(spell, dice, rolls_left)`` is the best a team can do from showing ``dice`` with
``rolls_left`` rolls still allowed; a re-roll keeps 0, 1 or 2 dice (keeping all three is not a
roll). Before the first roll nothing is kept.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from typing import Any

SPELLS = ("omniscience", "exchange", "great_sorcery")
ROLLS = 3
GREAT_SORCERY_TOTAL = 12
FACES = (1, 2, 3, 4, 5, 6)
MAGIC_DICE = ("magic1", "magic2", "magic3")


def works(spell: str, dice: list[int] | tuple[int, ...]) -> bool:
    """Is the spell cast by these three faces? (all even; all odd; total 12 or more)"""
    if spell == "omniscience":
        return all(d % 2 == 0 for d in dice)
    if spell == "exchange":
        return all(d % 2 == 1 for d in dice)
    return sum(dice) >= GREAT_SORCERY_TOTAL


def _keeps(n: int = 3) -> list[tuple[int, ...]]:
    """Index sets a re-roll may keep: every subset with at least one die left to roll."""
    return [keep for size in range(n) for keep in combinations(range(n), size)]


@lru_cache(maxsize=None)
def _after(spell: str, kept: tuple[int, ...], rolls_left: int) -> Fraction:
    """Chance of success when ``kept`` faces stay and the others are rolled, ``rolls_left``
    rolls (this one included) allowed."""
    free = 3 - len(kept)
    total = Fraction(0)
    for faces in product(FACES, repeat=free):
        total += _chance(spell, tuple(sorted(kept + faces)), rolls_left - 1)
    return total / 6 ** free


@lru_cache(maxsize=None)
def _chance(spell: str, dice: tuple[int, ...], rolls_left: int) -> Fraction:
    if works(spell, dice):
        return Fraction(1)
    if rolls_left == 0:
        return Fraction(0)
    return max(_after(spell, tuple(dice[i] for i in keep), rolls_left) for keep in _keeps())


def chance(spell: str, dice: list[int] | None, rolls_left: int) -> Fraction:
    """Success chance from here, playing best. ``dice`` None: before the first roll."""
    if dice is None:
        return _after(spell, (), rolls_left) if rolls_left > 0 else Fraction(0)
    return _chance(spell, tuple(sorted(dice)), rolls_left)


def best_keep(spell: str, dice: list[int], rolls_left: int) -> tuple[Fraction, list[int]]:
    """The keep (die positions, 0-based) that maximises the chance; ties keep more dice, then
    the earlier dice. A cast spell keeps everything; no rolls left: nothing to choose."""
    if works(spell, dice):
        return Fraction(1), [0, 1, 2]
    if rolls_left <= 0:
        return Fraction(0), [0, 1, 2]
    options = [(_after(spell, tuple(sorted(dice[i] for i in keep)), rolls_left), len(keep),
                [-i for i in keep], list(keep)) for keep in _keeps()]
    best = max(options, key=lambda o: (o[0], o[1], o[2]))
    return best[0], best[3]


def kept_chance(spell: str, dice: list[int], keep: list[int], rolls_left: int) -> Fraction:
    """The chance when the dice at positions ``keep`` stay and the others are rolled now,
    playing best after that (the team's own choice, which may not be the best)."""
    if works(spell, dice):
        return Fraction(1)
    if rolls_left <= 0:
        return Fraction(0)
    return _after(spell, tuple(sorted(dice[i] for i in keep)), rolls_left)


def as_json(p: Fraction) -> dict[str, Any]:
    """A chance as the summary shows it: exact fraction, rounded float, whole percent."""
    return {"exact": f"{p.numerator}/{p.denominator}", "chance": round(float(p), 6),
            "percent": round(float(p) * 100)}


def announce_odds(rolls: int = ROLLS) -> dict[str, Fraction]:
    """Each spell's chance over a whole attempt, before the first roll."""
    return {spell: chance(spell, None, rolls) for spell in SPELLS}
