"""The spell odds against an independent brute force: every ordered outcome and every subset of
dice to keep, in plain recursion over fractions (memoised only to stay fast)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from companion.games.quest import odds

SIX = range(1, 7)
TESTS = {
    "omniscience": lambda d: all(x % 2 == 0 for x in d),
    "exchange": lambda d: all(x % 2 == 1 for x in d),
    "great_sorcery": lambda d: sum(d) >= 12,
}


def brute(spell: str, dice: tuple[int, ...], left: int, memo: dict) -> tuple[Fraction, frozenset]:
    """Best chance from ``dice`` (ordered) with ``left`` rolls, and every best keep (index sets)."""
    key = (dice, left)
    if key in memo:
        return memo[key]
    if TESTS[spell](dice):
        out = (Fraction(1), frozenset())
    elif left == 0:
        out = (Fraction(0), frozenset())
    else:
        values = {}
        for mask in range(7):                      # keep bits 0b000 .. 0b110: never all three
            keep = tuple(i for i in range(3) if mask >> i & 1)
            rolled = [i for i in range(3) if i not in keep]
            total = Fraction(0)
            for faces in product(SIX, repeat=len(rolled)):
                new = list(dice)
                for i, f in zip(rolled, faces):
                    new[i] = f
                total += brute(spell, tuple(new), left - 1, memo)[0]
            values[keep] = total / 6 ** len(rolled)
        best = max(values.values())
        out = (best, frozenset(k for k, v in values.items() if v == best))
    memo[key] = out
    return out


def brute_start(spell: str, rolls: int, memo: dict) -> Fraction:
    return sum((brute(spell, d, rolls - 1, memo)[0] for d in product(SIX, repeat=3)),
               Fraction(0)) / 216


@pytest.mark.parametrize("spell", odds.SPELLS)
def test_every_state_matches_brute_force(spell):
    memo: dict = {}
    for dice in product(SIX, repeat=3):
        for left in (0, 1, 2):
            expected, keeps = brute(spell, dice, left, memo)
            assert odds.chance(spell, list(dice), left) == expected, (dice, left)
            p, keep = odds.best_keep(spell, list(dice), left)
            assert p == expected
            if keeps:
                assert tuple(keep) in keeps, (dice, left, keep, keeps)
    for rolls in (1, 2, 3):
        assert odds.chance(spell, None, rolls) == brute_start(spell, rolls, memo)


def test_known_values():
    assert odds.announce_odds() == {
        "omniscience": Fraction(7, 8) ** 3,             # each die gets three tries at an even face
        "exchange": Fraction(7, 8) ** 3,
        "great_sorcery": odds.chance("great_sorcery", None, 3),
    }
    assert odds.chance("great_sorcery", None, 1) == Fraction(81, 216)
    assert odds.chance("omniscience", [2, 5, 4], 2) == Fraction(3, 4)
    assert odds.best_keep("omniscience", [2, 5, 4], 2) == (Fraction(3, 4), [0, 2])
    assert odds.best_keep("exchange", [1, 3, 5], 0) == (Fraction(1), [0, 1, 2])
    assert odds.best_keep("exchange", [2, 3, 5], 0) == (Fraction(0), [0, 1, 2])
    assert odds.as_json(Fraction(3, 4)) == {"exact": "3/4", "chance": 0.75, "percent": 75}


def test_a_cast_spell_keeps_everything_and_a_hopeless_one_rerolls_all():
    assert odds.best_keep("great_sorcery", [6, 6, 1], 1) == (Fraction(1), [0, 1, 2])
    assert odds.best_keep("great_sorcery", [1, 5, 6], 1) == (Fraction(1), [0, 1, 2])
    assert odds.best_keep("exchange", [2, 2, 2], 2) == (Fraction(3, 4) ** 3, [])
