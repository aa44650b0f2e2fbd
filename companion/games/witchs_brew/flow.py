"""What Witch's Brew does by itself after each command: free gains, effects nobody can pay,
the end of a round, of a set, of the game. Every event returned here is logged as automatic."""

from __future__ import annotations

from companion.core.model import Event
from companion.games.witchs_brew.roles import CHOOSE_DROPS, DROPS, PAY, ROLES, TRADE_DROP, Effect
from companion.games.witchs_brew.state import (
    State, cards_left, name, next_answerer, ravens, winners,
)


def effect_of(pending: dict) -> Effect:
    role = ROLES[pending["role"]]
    return role.full if pending["kind"] == "action" else role.favor


def cannot_pay(state: State, seat: int, effect: Effect) -> str | None:
    """Why the seat cannot carry out the effect at all, or None if it can."""
    player = state["players"][seat]
    if effect.kind in (PAY, CHOOSE_DROPS):
        for counter, amount in effect.cost.items():
            if player[counter] < amount:
                return f"{player['name']} has {player[counter]} {counter}, needs {amount}"
    if effect.kind == TRADE_DROP and not any(player[d] for d in DROPS):
        return f"{player['name']} has no drop to return"
    return None


def flow(state: State) -> list[Event]:
    if state["over"]:
        return []
    if state["pending"]:
        front = state["pending"][0]
        effect = effect_of(front)
        base = {"seat": front["seat"], "role": front["role"], "kind": front["kind"]}
        if effect.automatic:
            return [Event("effect_applied", {**base, "changes": {str(front["seat"]): effect.gain}})]
        reason = cannot_pay(state, front["seat"], effect)
        if reason:
            return [Event("effect_skipped", {**base, "reason": reason})]
        return []
    if state["role"] is not None:
        if next_answerer(state) is None:
            return [Event("round_resolved", {"holder": state["holder"], "role": state["role"]})]
        return []
    if state["excluded"] is not None and not any(
        cards_left(state, seat) for seat in range(len(state["players"]))
    ):
        if ravens(state) >= state["ravens_needed"]:
            won = winners(state)
            return [Event("game_over", {"winners": [name(state, s) for s in won]})]
        return [Event("set_ended", {"set": state["set"]})]
    return []
