"""What the table sees and presses: the prompt, the state summary, results, the input map."""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleViolation
from companion.core.model import Command, InputEvent
from companion.games.witchs_brew import hands, state as st
from companion.games.witchs_brew.flow import effect_of
from companion.games.witchs_brew.roles import COUNTERS, PAY, ROLES, TABLE
from companion.games.witchs_brew.state import State

ANSWERS = ("claim", "so_be_it", "pass")


def _seat_inputs(seat: int, actions: tuple[str, ...]) -> list[str]:
    return [f"seat{seat + 1}.{a}" for a in actions]


def prompt(state: State) -> dict[str, Any]:
    """What happens now, whose answer is awaited, and which inputs count."""
    current = st.phase(state)
    seat = st.turn(state)
    who = st.name(state, seat)
    inputs: list[str] = []
    if current == "over":
        won = [st.name(state, s) for s in st.winners(state)]
        best = st.score(state["players"][st.winners(state)[0]])
        verb = "wins" if len(won) == 1 else "share the victory"
        text = f"Game over: {' and '.join(won)} {verb} with {best} points"
    elif current == "reveal":
        k = st.excluded_per_set(state)
        cards, them = ("cards", "them") if k > 1 else ("card", "it")
        text = f"Set {state['set']}: turn over {k} spare role {cards}; nobody may choose {them} this set"
    elif current == "choose":
        waiting = [st.name(state, s) for s in st.waiting_for(state)]
        text = (f"Set {state['set']}: {', '.join(waiting)} "
                f"{'chooses its' if len(waiting) == 1 else 'choose their'} 5 role cards "
                "(on the phone or the Pi's hidden entry)")
    elif current == "play":
        text = f"{who}: choose a role card and announce \"I am the ...!\""
    elif current == "answer":
        role = ROLES[state["role"]]
        holder = st.name(state, state["holder"])
        text = (f"{who}: the {role.title} is held by {holder}. "
                f"\"{role.call}\", \"So be it!\" or pass?")
        inputs = _seat_inputs(seat, ANSWERS)
    elif current == "resolve":
        front = state["pending"][0]
        effect = effect_of(front)
        role = ROLES[front["role"]]
        part = "full action" if front["kind"] == "action" else "favor"
        text = f"{who}: {role.title} {part}: {effect.text}"
        if effect.kind == TABLE and effect.reported:
            text += f" (reported: {effect.reported}; your card decides)"
        if effect.kind == PAY:
            inputs = _seat_inputs(seat, ("claim", "pass"))
    else:
        text = "Resolving the round"
    return {"phase": current, "turn": who, "seat": seat, "text": text, "inputs": inputs}


def map_input(state: State, event: InputEvent) -> Command | None:
    """Seat buttons: claim / so_be_it / pass while answering; while a seat's effect waits, its
    pass button abstains and its claim button confirms a paid effect (the others need a choice
    on screen). The rules still judge the command (out of turn is refused, explained)."""
    if event.kind != "button" or not event.id.startswith("seat") or "." not in event.id:
        return None
    seat_part, action = event.id.split(".", 1)
    try:
        seat = int(seat_part[4:]) - 1
    except ValueError:
        return None
    if action not in ANSWERS:
        return None
    if not 0 <= seat < len(state["players"]):
        raise RuleViolation(f"There is no seat {seat + 1} at this table: it has "
                            f"{len(state['players'])} seats")
    player = state["players"][seat]["name"]
    if st.phase(state) == "resolve" and st.turn(state) == seat:
        if action == "pass":
            return Command("abstain", player)
        if action == "claim" and effect_of(state["pending"][0]).kind == PAY:
            return Command("resolve", player)
    return Command(action, player)


def results(state: State) -> list[dict[str, Any]]:
    """Final standings for history: seat, name, score, tie-break, winner."""
    won = set(st.winners(state))
    return [
        {"seat": i, "name": p["name"], "score": st.score(p), "tiebreak": st.leftovers(p),
         "winner": i in won}
        for i, p in enumerate(state["players"])
    ]


def summary(state: State) -> dict[str, Any]:
    """The state as a table script's result: stable keys, names instead of seat numbers."""
    current = prompt(state)
    last = state["last_round"]
    favors = [st.name(state, a["seat"]) for a in state["answers"] if a["answer"] == "so_be_it"]
    return {
        "game": "witchs_brew",
        "players": [
            {"name": p["name"], "score": st.score(p), **{c: p[c] for c in COUNTERS},
             "potions": list(p["potions"]), "cards_left": st.cards_left(state, i),
             "roles_played": list(p["roles_played"])}
            for i, p in enumerate(state["players"])
        ],
        "phase": current["phase"],
        "turn": current["turn"],
        "prompt": current["text"],
        "over": state["over"],
        "winners": [st.name(state, s) for s in st.winners(state)] if state["over"] else [],
        "set": state["set"],
        "round": state["round"],
        "role": state["role"],
        "holder": st.name(state, state["holder"]),
        "favors": favors,
        "answers": [{"player": st.name(state, a["seat"]), "answer": a["answer"]}
                    for a in state["answers"]],
        "pending": [{"player": st.name(state, p["seat"]), "role": p["role"], "kind": p["kind"]}
                    for p in state["pending"]],
        "last_round": None if last is None else {
            "role": last["role"], "holder": st.name(state, last["holder"]),
            "favors": [st.name(state, s) for s in last["favors"]],
            "set": last["set"], "round": last["round"],
        },
        "ravens": st.ravens(state),
        "ravens_needed": state["ravens_needed"],
        "stacks_left": st.stacks_left(state),
        "supply": st.left_in_supply(state),
        "excluded": state["excluded"] or [],
        "free_gains": [{"player": st.name(state, g["seat"]), "role": g["role"],
                        "kind": g["kind"], "changes": dict(g["changes"])}
                       for g in state.get("free_gains", [])],
        "supply_short": [{"player": st.name(state, s["seat"]), "role": s["role"],
                          "kind": s["kind"], "short": [dict(x) for x in s["short"]]}
                         for s in state.get("short", [])],
        # who has chosen a hand this set and who plays with one: never which cards
        "hands_chosen": hands.chosen(state),
        "hands_on": [st.name(state, s) for s in state.get("hands_on", [])],
        # the record: every set's hands, once the game is over (None while it is played)
        "hands": hands.record(state),
    }
