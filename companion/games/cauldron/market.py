"""The Market's price list for one seat: each purchase's cost and, when it cannot be bought, the
rule that forbids it. The screen shows this list and ``buy`` refuses with the same words."""

from __future__ import annotations

from typing import Any

from companion.games.cauldron import data as d
from companion.games.cauldron import state as st
from companion.games.cauldron.state import State


def cost(state: State, seat: int, item: str) -> int:
    player = state["players"][seat]
    if item == "field":
        return d.FIELD_COST
    if item == "basic_spell":
        return d.BASIC_SPELL_COST
    if item == "advanced_spell":
        return d.ADVANCED_SPELL_COST
    if item == "basic_potion":
        return st.potions_owned(player, d.BASIC_KINDS)
    if item == "advanced_potion":
        return st.potions_owned(player) + d.ADVANCED_POTION_EXTRA
    owned = len(player["cellars"])
    return d.CELLAR_COSTS[min(owned, len(d.CELLAR_COSTS) - 1)]


def rule_against(state: State, seat: int, item: str) -> str | None:
    """Why ``item`` is not for sale to this seat at all (money aside), or None."""
    player = state["players"][seat]
    if item in ("basic_spell", "advanced_spell") and not st.spells_allowed(state):
        return "Simple Game: no Spells are used"
    if item == "advanced_spell" and not st.unlocked(state):
        return "Advanced Spells can be bought only after Rituals of Power"
    if item == "advanced_potion" and not st.unlocked(state):
        return "Advanced Potions can be bought only after Rituals of Power"
    if item == "cellar" and len(player["cellars"]) >= player["max_cellars"]:
        return f"You can own at most {player['max_cellars']} Cellars"
    if item == "cellar" and st.cellars_taken(state) >= state["settings"]["box_cellars"]:
        return f"All {state['settings']['box_cellars']} Cellar cards of the box are taken"
    box = state["settings"]["box_fields"]
    if item == "field" and sum(state["fields"].values()) >= box:
        return f"All {box} Fields of the box are on the board: no Field is left to buy"
    if item == "field" and not any(st.field_left(state, k) for k in d.INGREDIENTS):
        return "No Field is left in the box: every type has run out"
    return None


def bonus_ingredient(state: State, seat: int) -> bool:
    """A Field's buyer takes its Ingredient token, unless at 25 Magik or more (Advanced Alchemy,
    judged before paying) or the box has no token left."""
    return state["players"][seat]["magik"] < d.ADVANCED_ALCHEMY and st.tokens_left(state) > 0


def field_problem(state: State, kind: str) -> str | None:
    if not st.field_left(state, kind):
        return (f"No {d.label(kind)} Field is left in the box: that type can no longer be bought")
    return None


def afford_problem(state: State, seat: int, item: str, price: int) -> str | None:
    player = state["players"][seat]
    if player["magik"] < price:
        return (f"{player['name']} has {player['magik']} Magik: {d.ITEM_TEXT[item]} costs {price} "
                "(the cost is paid in Magik)")
    return None


def offers(state: State, seat: int) -> list[dict[str, Any]]:
    """Every purchase with its price for this seat and why it is unavailable (None: buyable)."""
    player = state["players"][seat]
    out = []
    for item in d.ITEMS:
        price = cost(state, seat, item)
        reason = rule_against(state, seat, item) or afford_problem(state, seat, item, price)
        entry: dict[str, Any] = {"item": item, "cost": price, "reason": reason}
        if item.endswith("_spell"):
            entry["discard_first"] = len(player["spells"]) >= d.MAX_SPELLS
        if item == "field":
            entry["fields"] = {k: field_problem(state, k) for k in d.INGREDIENTS}
            entry["bonus_ingredient"] = bonus_ingredient(state, seat)
        out.append(entry)
    return out
