"""Fold one Witch's Brew event into the state. Trusts the event (``decide`` validated it)."""

from __future__ import annotations

from companion.core.model import Event, copy_plain
from companion.games.witchs_brew.hands import evolve_hand, keep_hands
from companion.games.witchs_brew.roles import ROLES
from companion.games.witchs_brew.state import State, shown_this_cycle


def _free(data: dict) -> bool:
    """Whether an applied effect is a gain the companion applies by itself (GAIN)."""
    role = ROLES[data["role"]]
    return (role.full if data["kind"] == "action" else role.favor).automatic


def _play_card(state: State, seat: int, role: str) -> None:
    player = state["players"][seat]
    player["cards_played"] += 1
    player["roles_played"].append(role)


def _apply_changes(state: State, changes: dict[str, dict[str, int]]) -> None:
    for seat, deltas in changes.items():
        player = state["players"][int(seat)]
        for counter, delta in deltas.items():
            player[counter] += delta


def evolve(state: State, event: Event) -> State:
    s = copy_plain(state)
    d = event.data
    kind = event.type
    if kind == "roles_excluded":
        s["shown"] = shown_this_cycle(s) + list(d["roles"])
        s["excluded"] = list(d["roles"])
    elif kind == "role_played":
        s["role"], s["round_starter"], s["holder"] = d["role"], d["seat"], d["seat"]
        s["answers"] = [{"seat": d["seat"], "answer": "start"}]
        s["free_gains"], s["short"] = [], []
        _play_card(s, d["seat"], d["role"])
    elif kind == "card_forfeited":
        _play_card(s, d["seat"], d["role"])
    elif kind == "answered":
        s["answers"].append({"seat": d["seat"], "answer": d["answer"]})
        if d["answer"] in ("claim", "so_be_it"):
            _play_card(s, d["seat"], s["role"])
        if d["answer"] == "claim":
            s["holder"] = d["seat"]
        elif d["answer"] == "so_be_it":
            s["pending"].append({"seat": d["seat"], "role": s["role"], "kind": "favor"})
    elif kind == "round_resolved":
        favors = [a["seat"] for a in s["answers"] if a["answer"] == "so_be_it"]
        s["last_round"] = {"role": s["role"], "holder": d["holder"], "favors": favors,
                           "set": s["set"], "round": s["round"]}
        s["pending"].append({"seat": d["holder"], "role": s["role"], "kind": "action"})
        s["lead"] = d["holder"]
        s["role"] = s["round_starter"] = s["holder"] = None
        s["answers"] = []
        s["round"] += 1
    elif kind in ("effect_applied", "effect_skipped", "effect_abstained"):
        s["pending"].pop(0)
        if d.get("short"):
            s.setdefault("short", []).append({k: copy_plain(d[k]) for k in
                                              ("seat", "role", "kind", "short")})
        if kind == "effect_applied":
            _apply_changes(s, d.get("changes", {}))
            if d.get("potion"):
                s["players"][d["seat"]]["potions"].append(dict(d["potion"]))
            if _free(d):
                s.setdefault("free_gains", []).append(
                    {"seat": d["seat"], "role": d["role"], "kind": d["kind"],
                     "changes": dict(d.get("changes", {}).get(str(d["seat"]), {}))})
    elif kind == "gain_declined":
        _apply_changes(s, d["changes"])
        gains = s["free_gains"]
        last = max(i for i, g in enumerate(gains) if g["seat"] == d["seat"])
        gains.pop(last)
    elif kind == "adjusted":
        _apply_changes(s, {str(d["seat"]): d.get("changes", {})})
        player = s["players"][d["seat"]]
        if d.get("remove_potion") is not None:
            player["potions"].pop(d["remove_potion"])
        if d.get("potion"):
            player["potions"].append(dict(d["potion"]))
    elif kind == "hand_chosen":
        evolve_hand(s, event)
    elif kind == "set_ended":
        keep_hands(s)
        s["set"] += 1
        s["round"] = 1
        for player in s["players"]:
            player["cards_played"] = 0
            player["roles_played"] = []
        s["excluded"] = None if s["variant"] else []
    elif kind == "game_over":
        keep_hands(s)
        s["over"] = True
    else:
        raise ValueError(f"witchs_brew: unknown event {kind!r}")
    return s
