"""Potion cards and brewing. The rulebook prints no cards, so each card a seat gains is entered
once (name, kind, yield, ingredients with "any", quick, spell) and then brewed by name."""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleViolation
from companion.games.cauldron import data as d
from companion.games.cauldron.commands import POTION_CARD
from companion.games.cauldron.state import in_cellars

Potion = dict[str, Any]


def card(raw: Any) -> Potion:
    """A potion card with every field filled in (kind "basic", not Quick, no Spell unless
    said). Checked like any input, so a card read back from an older stored game is too."""
    clean = POTION_CARD.check(raw, "potion", {})
    return {"name": clean["name"], "kind": clean.get("kind", "basic"), "yield": clean["yield"],
            "ingredients": clean["ingredients"], "quick": clean.get("quick", False),
            "spell": clean.get("spell", False)}


def needs_of(potion: Potion) -> tuple[dict[str, int], int]:
    """The named Ingredients a potion needs (kind -> count) and how many Any spaces it has."""
    needs: dict[str, int] = {}
    for part in potion["ingredients"]:
        if part != d.ANY:
            needs[part] = needs.get(part, 0) + 1
    return needs, potion["ingredients"].count(d.ANY)


def zone_problem(player: dict[str, Any], potion: Potion) -> str | None:
    """Advanced Alchemy: from 25 Magik on, a potion of only two ingredients cannot be brewed."""
    if player["magik"] >= d.ADVANCED_ALCHEMY and len(potion["ingredients"]) == 2:
        return (f"Advanced Alchemy: with {player['magik']} Magik (25 or more) {player['name']} "
                f"can no longer brew a Potion that needs only two Ingredients ({potion['name']})")
    return None


def lacks(player: dict[str, Any], potion: Potion) -> str | None:
    """What the pool is missing for this potion (cellar ingredients must be moved out first)."""
    needs, any_n = needs_of(potion)
    pool = player["pool"]
    missing = []
    for kind, n in needs.items():
        short = n - pool.get(kind, 0)
        if short > 0:
            note = " (in a Cellar: move it to the pool first)" if in_cellars(player, kind) else ""
            missing.append(f"{short} {d.label(kind)}{note}")
    rest = sum(pool.values()) - sum(min(n, pool.get(k, 0)) for k, n in needs.items())
    if not missing and rest < any_n:
        missing.append(f"{any_n - rest} more Ingredient(s) of any kind")
    if missing:
        return (f"{player['name']} lacks {', '.join(missing)} in the pool to brew "
                f"{potion['name']} (a Potion takes its Ingredients from the pool)")
    return None


#: How a brew refused only for want of the seat's choice of Any payment begins: the screen
#: then asks which Ingredients pay (``asks_for_any``).
ANY_QUESTION = "Which Ingredient"


def asks_for_any(reason: str | None) -> bool:
    return bool(reason) and reason.startswith(ANY_QUESTION)


def pay(player: dict[str, Any], potion: Potion, any_pay: list[str] | None = None) -> dict[str, int]:
    """The ingredients a brew returns to the supply; "any" spaces are paid as the seat says, or
    by itself when there is no choice (exactly enough tokens left, or only one kind)."""
    problem = lacks(player, potion)
    if problem:
        raise RuleViolation(problem)
    needs, any_n = needs_of(potion)
    rest = {k: v - needs.get(k, 0) for k, v in player["pool"].items() if v - needs.get(k, 0) > 0}
    used = dict(needs)
    spaces = f"{any_n} Any space{'s' if any_n > 1 else ''}"
    if any_n == 0:
        if any_pay:
            raise RuleViolation(f"{potion['name']} has no Any space: its Ingredients are "
                                "named on the card")
        return used
    if any_pay is None:
        if sum(rest.values()) == any_n or len(rest) == 1:
            chosen = [k for k, v in rest.items() for _ in range(v)][:any_n]
        else:
            raise RuleViolation(f"{ANY_QUESTION}s from {player['name']}'s pool pay for the "
                                f"{spaces} of {potion['name']}? Choose {any_n}")
    else:
        chosen = list(any_pay)
        if len(chosen) != any_n:
            raise RuleViolation(f"{potion['name']} has {spaces}: choose {any_n} Ingredient"
                                f"{'s' if any_n > 1 else ''} to pay, not {len(chosen)}")
        for kind in set(chosen):
            if chosen.count(kind) > rest.get(kind, 0):
                raise RuleViolation(f"{player['name']} has no spare {d.label(kind)} in the pool "
                                    "for the Any space")
    for kind in chosen:
        used[kind] = used.get(kind, 0) + 1
    return used


def gain(player: dict[str, Any], potion: Potion) -> tuple[int, bool]:
    """Magik a brew yields; Enthusiasm (10 or less) adds 1 for Basic Potions, Easy included."""
    bonus = potion["kind"] in d.BASIC_KINDS and player["magik"] <= d.ENTHUSIASM_MAX
    return potion["yield"] + (1 if bonus else 0), bonus


def catalogue(state: dict[str, Any]) -> list[Potion]:
    """Every potion card entered in this game, once each, for the app to offer in later games."""
    seen: dict[str, Potion] = {}
    for player in state["players"]:
        for potion in player["potions"]:
            seen.setdefault(potion["name"].casefold(), dict(potion))
    return sorted(seen.values(), key=lambda p: p["name"].casefold())
