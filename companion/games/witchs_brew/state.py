"""Witch's Brew state: its setup, and the questions every other module asks of it.

The state is plain JSON data. What can be derived (phase, whose turn, who starts, scores,
ravens taken) is derived here and never stored, so it cannot disagree with the log.
"""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleViolation, SetupError
from companion.games.witchs_brew.roles import DROPS, ROLES, STACK_SIZES

State = dict[str, Any]

CARDS_PER_SET = 5
VARIANT = "excluded_roles"
#: Colour-blind-safe seat colours (Okabe-Ito), in seat order.
SEAT_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00")
COLOUR_NAMES = ("orange", "sky blue", "green", "yellow", "blue", "vermilion")


def setup(config: dict[str, Any]) -> State:
    """The state before the first command, from a setup such as a table script's first line."""
    names = config.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise SetupError("players: give a list of player names in clockwise seat order")
    names = [n.strip() for n in names]
    if not 3 <= len(names) <= 6:
        raise SetupError(f"players: Witch's Brew is for 3-5 players (6 allowed), not {len(names)}")
    if any(not n for n in names):
        raise SetupError("players: every seat needs a name")
    if len({n.casefold() for n in names}) != len(names):
        raise SetupError("players: two seats have the same name")
    starter = config.get("starter", names[0])
    if starter not in names:
        raise SetupError(f"starter: {starter!r} is not one of the players")
    variants = list(config.get("variants", []))
    unknown = [v for v in variants if v != VARIANT]
    if unknown:
        raise SetupError(f"variants: unknown {unknown}; Witch's Brew has only {VARIANT!r}")
    if variants and len(names) not in (3, 4):
        raise SetupError("variants: the excluded-roles variant is for 3 or 4 players")
    colours = config.get("colours") or list(SEAT_COLOURS[: len(names)])
    if len(colours) != len(names):
        raise SetupError("colours: give one colour per player")
    return {
        "game": "witchs_brew",
        "players": [
            {
                "name": name, "colour": colour,
                "red": 1, "white": 1, "green": 1, "gold": 2, "vials": 0, "potions": [],
                "cards_played": 0, "roles_played": [],
            }
            for name, colour in zip(names, colours)
        ],
        "set": 1,
        "round": 1,
        "lead": names.index(starter),
        "role": None,
        "round_starter": None,
        "holder": None,
        "answers": [],
        "pending": [],
        "last_round": None,
        "variant": bool(variants),
        "excluded": None if variants else [],
        "shown": [],
        "ravens_needed": 6 if len(names) == 6 else 4,
        "over": False,
    }


def seat_of(state: State, name: Any) -> int:
    """The seat index of a named player; a clear refusal for anyone else."""
    for i, player in enumerate(state["players"]):
        if isinstance(name, str) and player["name"].casefold() == name.strip().casefold():
            return i
    raise RuleViolation(f"There is no player named {name!r} at this table")


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
        return "play"
    if next_answerer(state) is not None:
        return "answer"
    return "resolving"


def turn(state: State) -> int | None:
    """The seat whose answer or action is awaited now (None: the whole table, or nobody)."""
    current = phase(state)
    if current == "resolve":
        return state["pending"][0]["seat"]
    if current == "play":
        return starter(state)
    if current == "answer":
        return next_answerer(state)
    return None


def potions_taken(state: State, stack: str) -> list[dict[str, Any]]:
    return [p for pl in state["players"] for p in pl["potions"] if p["stack"] == stack]


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
