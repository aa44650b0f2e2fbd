"""Cauldron Quest state: setup with its settings, and the questions other modules ask of it.

The state is plain JSON data. Bottle ``n`` (1-6) is the bottle that starts on path ``n``; its
space is ``bottles[n-1]``. Phase and whose turn it is are derived here, never stored.
"""

from __future__ import annotations

from typing import Any

from companion.core.errors import SetupError
from companion.games.quest import board
from companion.games.quest.odds import ROLLS

State = dict[str, Any]

INGREDIENTS = ("rotten_egg", "poisonous_mushroom", "horned_toad", "newt_eye", "dandelion_root",
               "bat_wing")
NEEDED = 3
BOTTLES = (1, 2, 3, 4, 5, 6)
HAT, BOTTLE, SPELL = "hat", "bottle", "spell"
SPELL_TITLES = {"omniscience": "Spell of Omniscience", "exchange": "Charm of Exchange",
                "great_sorcery": "Great Sorcery"}
SORCERY_SPACES = 6

#: Settings for what the rulebook leaves open (RULES-NOTES.md: *unsure*). See the package doc.
DEFAULTS: dict[str, Any] = {
    "circle_spaces": 24,
    "path_spaces": 5,
    "obstacle_space": 2,
    "start_space": 0,
    "wizard_start": None,
    "die_a": [BOTTLE, BOTTLE, BOTTLE, BOTTLE, HAT, HAT],
    "die_b": [2, 3, 3, 4, SPELL, SPELL],
    "share_spaces": False,
}


def settings_from(config: dict[str, Any]) -> dict[str, Any]:
    """The settings: defaults, overridden by the setup's own keys. The gate checked each key's
    type and range (commands.SETUP_KEYS); what is left are the rules of the board itself."""
    s = {**DEFAULTS, **{k: config[k] for k in DEFAULTS if config.get(k) is not None}}
    if s["circle_spaces"] % len(board.PATHS):
        raise SetupError("circle_spaces: the six paths sit evenly on the circle, so a multiple "
                         f"of 6, not {s['circle_spaces']}")
    if s["wizard_start"] is None:
        s["wizard_start"] = board.spacing(s) // 2
    starts = {board.start_space(b, s) for b in BOTTLES}
    if board.circle(s["wizard_start"], s) in starts:
        raise SetupError("wizard_start: the wizard's arrow cannot be a bottle's start space")
    s["die_a"], s["die_b"] = list(s["die_a"]), list(s["die_b"])
    return s


def words(name: str) -> str:
    """An id in players' words: "bat_wing" is the bat wing."""
    return name.replace("_", " ")


def setup(config: dict[str, Any]) -> State:
    """The state before the first roll, from a checked setup (the gate's ``check_setup``)."""
    s = settings_from(config)
    return {
        "game": "quest",
        "players": list(config["players"]),
        "settings": s,
        "needed": list(config["needed"]),
        "bottles": [board.start_space(b, s) for b in BOTTLES],
        "revealed": {},
        "wizard": s["wizard_start"],
        "obstacles": [],
        "spell_breaker_used": False,
        "turn_no": 1,
        "action": None,
        "spell": None,
        "returns": [],
        "reading": {},
        "correctable": None,
        "outcome": None,
        "over": False,
    }


# -- questions ------------------------------------------------------------------------------
def seat(state: State) -> int:
    """Whose turn: clockwise from the first listed (the youngest)."""
    return (state["turn_no"] - 1) % len(state["players"])


def player(state: State) -> str:
    return state["players"][seat(state)]


def where(state: State, bottle: int) -> str:
    return state["bottles"][bottle - 1]


def ingredient(state: State, bottle: int) -> str | None:
    return state["revealed"].get(str(bottle))


def in_cauldron(state: State) -> list[str]:
    return [state["revealed"][str(b)] for b in BOTTLES if where(state, b) == board.CAULDRON]


def on_board(state: State) -> list[int]:
    return [b for b in BOTTLES if where(state, b) != board.CAULDRON]


def wizard_space(state: State) -> str:
    return board.circle(state["wizard"], state["settings"])


def blocked_spaces(state: State) -> list[str]:
    return [board.obstacle_space(p, state["settings"]) for p in state["obstacles"]]


def barriers(state: State) -> list[str]:
    """What a bottle may not pass: the wizard and every obstacle on the board."""
    return [wizard_space(state), *blocked_spaces(state)]


def taken(state: State, moving: int | None = None) -> list[str]:
    """Spaces a bottle may not stop on because another bottle stands there (unless shared)."""
    if state["settings"]["share_spaces"]:
        return []
    return [where(state, b) for b in on_board(state) if b != moving]


def bottle_on(state: State, space: str) -> int | None:
    return next((b for b in on_board(state) if where(state, b) == space), None)


def rolls_left(state: State) -> int:
    spell = state["spell"]
    return 0 if spell is None else ROLLS - spell["rolls"]


def phase(state: State) -> str:
    """over, return, roll, move, block, announce, magic, cast; "busy" only inside the flow."""
    if state["over"]:
        return "over"
    if state["returns"]:
        return "return"
    action = state["action"]
    if action is None:
        return "roll"
    if action["done"]:
        return "busy"
    a, b = action["a"], action["b"]
    if a == BOTTLE and b != SPELL:
        return "move"
    if a == HAT:
        return "block" if b == SPELL else "busy"
    spell = state["spell"]
    if spell is None:
        return "announce"
    if spell["success"]:
        return "cast"
    return "magic" if spell["rolls"] < ROLLS else "busy"
