"""What Witch's Brew does by itself after each command: free gains, effects nobody can pay,
the end of a round, of a set, of the game. Every event returned here is logged as automatic."""

from __future__ import annotations

from companion.core.model import Event
from companion.games.witchs_brew.hands import auto_pass
from companion.games.witchs_brew.roles import (
    CHOOSE_DROPS, DROPS, PAY, ROLES, TRADE_DROP, Effect, amount, counter_words,
)
from companion.games.witchs_brew.state import (
    State, can_give, cards_left, left_in_supply, name, next_answerer, ravens, winners,
)


def effect_of(pending: dict) -> Effect:
    role = ROLES[pending["role"]]
    return role.full if pending["kind"] == "action" else role.favor


def gain_now(state: State, effect: Effect) -> dict[str, int]:
    """What the effect gives now: as printed, or what is left when the supply runs short (the
    box holds 45 vials; drops and gold only when the table plays with a counted supply)."""
    left = left_in_supply(state)
    given = {c: can_give(left[c], n) for c, n in effect.gain.items()}
    return {c: n for c, n in given.items() if n > 0}


def drops_to_take(state: State, effect: Effect) -> int:
    """How many drops the Assistant takes: 3, or all the supply has left if fewer."""
    left = left_in_supply(state)
    if any(left[d] is None for d in DROPS):
        return effect.count
    return min(effect.count, sum(left[d] for d in DROPS))


def shortfalls(state: State, effect: Effect) -> list[dict]:
    """What the supply cuts short of the effect's gain: each counter (``drops`` for the
    Assistant's choice) with what the card gives and what the supply still has; never silent."""
    out = []
    given = gain_now(state, effect)
    for counter, printed in effect.gain.items():
        if given.get(counter, 0) < printed:
            out.append({"counter": counter, "printed": printed, "got": given.get(counter, 0)})
    if effect.kind == CHOOSE_DROPS and drops_to_take(state, effect) < effect.count:
        out.append({"counter": "drops", "printed": effect.count,
                    "got": drops_to_take(state, effect)})
    return out


def seat_cannot_pay(state: State, seat: int, effect: Effect) -> str | None:
    """Why the seat itself cannot carry out the effect (nothing to pay with), or None."""
    player = state["players"][seat]
    if effect.kind in (PAY, CHOOSE_DROPS):
        for counter, cost in effect.cost.items():
            if player[counter] < cost:
                return f"{player['name']} has {amount(player[counter], counter)}, needs {cost}"
    if effect.kind == TRADE_DROP and not any(player[d] for d in DROPS):
        return f"{player['name']} has no drop to return"
    return None


def supply_cannot_give(state: State, effect: Effect) -> str | None:
    """Why the supply can give nothing of the effect's gain, or None."""
    if effect.gain and not gain_now(state, effect):
        return f"The supply has no {' or '.join(map(counter_words, effect.gain))} left"
    if effect.kind == CHOOSE_DROPS and not drops_to_take(state, effect):
        return "The supply has no drops left"
    return None


def cannot_pay(state: State, seat: int, effect: Effect) -> str | None:
    """Why the seat cannot carry out the effect at all, or None if it can."""
    return seat_cannot_pay(state, seat, effect) or supply_cannot_give(state, effect)


def flow(state: State) -> list[Event]:
    if state["over"]:
        return []
    if state["pending"]:
        front = state["pending"][0]
        effect = effect_of(front)
        base = {"seat": front["seat"], "role": front["role"], "kind": front["kind"]}
        reason = seat_cannot_pay(state, front["seat"], effect)
        if reason:
            return [Event("effect_skipped", {**base, "reason": reason})]
        short = shortfalls(state, effect)
        if short:
            base["short"] = short
        reason = supply_cannot_give(state, effect)
        if reason:
            return [Event("effect_skipped", {**base, "reason": reason})]
        if effect.automatic:
            changes = {str(front["seat"]): gain_now(state, effect)}
            return [Event("effect_applied", {**base, "changes": changes})]
        return []
    if state["role"] is not None:
        seat = next_answerer(state)
        if seat is None:
            return [Event("round_resolved", {"holder": state["holder"], "role": state["role"]})]
        return auto_pass(state, seat)
    if state["excluded"] is not None and not any(
        cards_left(state, seat) for seat in range(len(state["players"]))
    ):
        if ravens(state) >= state["ravens_needed"]:
            won = winners(state)
            return [Event("game_over", {"winners": [name(state, s) for s in won]})]
        return [Event("set_ended", {"set": state["set"]})]
    return []
