"""Witch's Brew state: its setup, and the questions every other module asks of it.

The state is plain JSON data. What can be derived (phase, whose turn, who starts, scores,
ravens taken) is derived here and never stored, so it cannot disagree with the log.
"""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleViolation, SetupError
from companion.core import gate
from companion.games.witchs_brew.roles import (
    COUNTERS, DROPS, DROPS_IN_BOX, GOLD_IN_BOX, ROLES, STACK_SIZES, START, VIALS_IN_BOX,
)

State = dict[str, Any]

CARDS_PER_SET = 5
VARIANT = "excluded_roles"
#: Colour-blind-safe seat colours (Okabe-Ito), in seat order.
SEAT_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00")
COLOUR_NAMES = ("orange", "sky blue", "green", "yellow", "blue", "vermilion")


#: The table's ``supply`` setting for the box's own counts of drops and gold.
BOX_SUPPLY = {"drops": DROPS_IN_BOX, "gold": GOLD_IN_BOX}


def box_supply(settings: dict[str, Any] | None = None) -> dict[str, int | None]:
    """What the supply holds in all (players' play areas included): the box's 45 vials, and
    drops and gold as the table's ``supply`` setting says. Drops and gold "are not meant to run
    out", so what the setting leaves out is unlimited (None)."""
    settings = settings or {}
    drops = settings.get("drops")
    return {**{d: drops for d in DROPS}, "gold": settings.get("gold"), "vials": VIALS_IN_BOX}


def setup(config: dict[str, Any]) -> State:
    """The state before the first command, from a setup the gate has checked (names clean and
    different, ``starter`` one of them, lists are lists); only the game's own rules are left."""
    names = list(config["players"])
    starter = config.get("starter", names[0])
    variants = list(config.get("variants", []))
    if variants and len(names) not in (3, 4):
        raise SetupError("variants: the excluded-roles variant is for 3 or 4 players")
    colours = list(config.get("colours") or SEAT_COLOURS[: len(names)])
    if len(colours) != len(names):
        raise SetupError(f"colours: give one colour per player ({len(names)}), not {len(colours)}")
    return {
        "game": "witchs_brew",
        "players": [
            {
                "name": name, "colour": colour, **START, "potions": [],
                "cards_played": 0, "roles_played": [],
            }
            for name, colour in zip(names, colours)
        ],
        "supply": box_supply(config.get("supply")),
        "set": 1,
        "round": 1,
        "lead": names.index(starter),
        "role": None,
        "round_starter": None,
        "holder": None,
        # gains the companion applied by itself since the last role was announced: a seat may
        # still decline one ("A player may always choose to abstain")
        "free_gains": [],
        # gains since then that the supply cut short, so the screen says so as the log does
        "short": [],
        "answers": [],
        "pending": [],
        "last_round": None,
        "variant": bool(variants),
        "excluded": None if variants else [],
        "shown": [],
        "ravens_needed": 6 if len(names) == 6 else 4,
        # the seats' chosen hands this set (private: see hands.py), the seats that play with
        # one, and the hands of the sets played (the record, once the game is over)
        "hands": {},
        "hands_on": [],
        "hands_kept": [],
        "over": False,
    }


def seat_names(state: State) -> list[str]:
    """The players' names as typed at setup, in seat order (the gate matches names to them)."""
    return [p["name"] for p in state["players"]]


def seat_of(state: State, who: str) -> int:
    """The seat of a named player (NFC and case do not matter), or a refusal naming them."""
    seat = gate.seat_of([p["name"] for p in state["players"]], who)
    if seat is None:
        raise RuleViolation(f"There is no player named {gate.shown(who)} at this table")
    return seat


def left_in_supply(state: State) -> dict[str, int | None]:
    """What the supply in the middle of the table still holds of each counter (None: unlimited)."""
    return {c: None if state["supply"][c] is None
            else state["supply"][c] - sum(p[c] for p in state["players"]) for c in COUNTERS}


def can_give(left: int | None, wanted: int) -> int:
    """How much of ``wanted`` a supply holding ``left`` (None: unlimited) can hand out."""
    return wanted if left is None else max(0, min(wanted, left))


def name(state: State, seat: int | None) -> str | None:
    return None if seat is None else state["players"][seat]["name"]


def cards_left(state: State, seat: int) -> int:
    return CARDS_PER_SET - state["players"][seat]["cards_played"]


def starter(state: State) -> int | None:
    """Who begins the next round: the last holder, or the next seat to the left with cards."""
    n = len(state["players"])
    for k in range(n):
        seat = (state["lead"] + k) % n
        if cards_left(state, seat) > 0:
            return seat
    return None


def next_answerer(state: State) -> int | None:
    """The next seat clockwise that still owes an answer to the announced role."""
    if state["role"] is None:
        return None
    n = len(state["players"])
    answered = {a["seat"] for a in state["answers"]}
    for k in range(1, n):
        seat = (state["round_starter"] + k) % n
        if seat not in answered and cards_left(state, seat) > 0:
            return seat
    return None


def hand(state: State, seat: int) -> list[str] | None:
    """The seat's chosen role cards this set, or None when it chose none."""
    return state.get("hands", {}).get(str(seat))


def holds(state: State, seat: int, role: str) -> bool | None:
    """Whether the seat still holds ``role`` in hand (None: its hand is not known)."""
    cards = hand(state, seat)
    if cards is None:
        return None
    return role in cards and role not in state["players"][seat]["roles_played"]


def set_started(state: State) -> bool:
    """No role has been announced and no card played yet this set: hands are chosen now."""
    return (state["round"] == 1 and state["role"] is None
            and not any(p["cards_played"] for p in state["players"]))


def waiting_for(state: State) -> list[int]:
    """The seats that chose a hand in an earlier set and have not chosen this set's yet, in
    seat order from the set's starter: the set's first announcement waits for them."""
    if not set_started(state) or state["excluded"] is None:
        return []
    n = len(state["players"])
    lead = state["lead"]
    seats = [(lead + k) % n for k in range(n)]
    return [s for s in seats if s in state.get("hands_on", []) and hand(state, s) is None]


def excluded_per_set(state: State) -> int:
    return {3: 2, 4: 1}.get(len(state["players"]), 0) if state["variant"] else 0


def shown_this_cycle(state: State) -> list[str]:
    """Spare role cards already turned over since the last reshuffle (all 12: reshuffle)."""
    shown = state["shown"]
    return [] if len(shown) + excluded_per_set(state) > len(ROLES) else list(shown)


def phase(state: State) -> str:
    if state["over"]:
        return "over"
    if state["pending"]:
        return "resolve"
    if state["excluded"] is None:
        return "reveal"
    if state["role"] is None:
        return "choose" if waiting_for(state) else "play"
    if next_answerer(state) is not None:
        return "answer"
    return "resolving"


def turn(state: State) -> int | None:
    """The seat whose answer or action is awaited now (None: the whole table, or nobody)."""
    current = phase(state)
    if current == "resolve":
        return state["pending"][0]["seat"]
    if current == "choose":
        return waiting_for(state)[0]
    if current == "play":
        return starter(state)
    if current == "answer":
        return next_answerer(state)
    return None


def potions_taken(state: State, stack: str) -> list[dict[str, Any]]:
    return [p for pl in state["players"] for p in pl["potions"] if p["stack"] == stack]


def ravens_taken(state: State, stack: str) -> int:
    return sum(1 for p in potions_taken(state, stack) if p["raven"])


def top_value(state: State, stack: str) -> int | None:
    """The least a card from this stack may be worth now: each stack is sorted lowest value on
    top, so no card taken later is worth less than one the players already hold from it."""
    return max((p["points"] for p in potions_taken(state, stack)), default=None)


def ravens(state: State) -> int:
    return sum(1 for pl in state["players"] for p in pl["potions"] if p.get("raven"))


def stacks_left(state: State) -> dict[str, int]:
    return {s: size - len(potions_taken(state, s)) for s, size in STACK_SIZES.items()}


def score(player: dict[str, Any]) -> int:
    """Victory points: the potion cards' points plus the vials."""
    return sum(p["points"] for p in player["potions"]) + player["vials"]


def leftovers(player: dict[str, Any]) -> int:
    """The tie-break: drops and gold left."""
    return sum(player[d] for d in DROPS) + player["gold"]


def winners(state: State) -> list[int]:
    """Most points; tied: most drops + gold; still tied: a shared victory."""
    players = state["players"]
    best = max(score(p) for p in players)
    top = [i for i, p in enumerate(players) if score(p) == best]
    most = max(leftovers(players[i]) for i in top)
    return [i for i in top if leftovers(players[i]) == most]
