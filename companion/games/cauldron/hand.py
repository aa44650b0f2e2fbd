"""A seat's potion cards in hand, for its own phone: each card with whether the seat's pool can
brew it now and, if not, what is missing, and whether its Cellars hold the rest ("move it to the
pool first": a Quick Action). Cauldron's Potion cards are brewed from the pool alone ("a Potion
takes its Ingredients from the pool"); Advanced Alchemy refuses a two-Ingredient Potion from 25
Magik on. This is the rules' own reckoning (potions.lacks, potions.zone_problem), as counts a
page can show; the phone's choices still offer a brew only when the rules accept it now. Pure."""

from __future__ import annotations

from typing import Any

from companion.games.cauldron import data as d
from companion.games.cauldron.potions import lacks, needs_of, zone_problem
from companion.games.cauldron.state import in_cellars

State = dict[str, Any]


def missing(player: dict[str, Any], potion: dict[str, Any]) -> dict[str, Any]:
    """What the pool lacks for ``potion``: ``pool`` (kind -> tokens short, ``any`` for tokens
    of any kind), ``cellar`` (kind -> tokens short that the seat's Cellars hold)."""
    needs, any_n = needs_of(potion)
    pool = player["pool"]
    short = {k: n - pool.get(k, 0) for k, n in needs.items() if n > pool.get(k, 0)}
    rest = sum(pool.values()) - sum(min(n, pool.get(k, 0)) for k, n in needs.items())
    if any_n > rest:
        short[d.ANY] = any_n - rest
    cellar = {k: min(n, in_cellars(player, k)) for k, n in short.items()
              if k != d.ANY and in_cellars(player, k)}
    return {"pool": short, "cellar": cellar}


def card_now(player: dict[str, Any], potion: dict[str, Any]) -> dict[str, Any]:
    """One card as the seat's phone shows it."""
    gap = missing(player, potion)
    zone = zone_problem(player, potion)
    reason = zone or lacks(player, potion) or ""
    after_cellar = not zone and bool(gap["pool"]) and d.ANY not in gap["pool"] and all(
        gap["cellar"].get(k, 0) >= n for k, n in gap["pool"].items())
    return {"name": potion["name"], "kind": potion["kind"], "yield": potion["yield"],
            "ingredients": list(potion["ingredients"]),
            "recipe": ", ".join(d.label(k) for k in potion["ingredients"]),
            "quick": potion["quick"], "spell": potion["spell"],
            "can_brew": not reason, "missing": gap["pool"], "from_cellar": gap["cellar"],
            "after_cellar": after_cellar, "why_not": reason}


def seat_cards(state: State, seat: int) -> dict[str, Any]:
    """Seat ``seat``'s potion cards in hand and the kinds it is still to enter (dealt at setup or
    bought, not yet entered): for its own phone only."""
    player = state["players"][seat]
    return {"game": "cauldron", "cards": [card_now(player, p) for p in player["potions"]],
            "owed": list(player["owed"]),
            "count": len(player["potions"]) + len(player["owed"])}
