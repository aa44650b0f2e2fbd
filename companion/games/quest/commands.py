"""Cauldron Quest's setup keys and commands as the gate checks them (companion.core.gate).

Declared here, next to the rules, so one validator refuses a wrong shape before ``decide`` or
``setup`` sees it: ``"path": 1.0`` (which used to become a phantom seventh obstacle), a die
``2.0`` or ``"²"``, ``"dice": "123"`` read letter by letter, a key nobody declared. A die's
faces come from the table's settings, so the choices of an action die are a function of the
state. What is left for ``decide`` is the rules: whose turn, which phase, where a bottle may go.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from companion.core.errors import RuleViolation
from companion.core.gate import (
    PLAYER_OPTIONAL, Arg, Choice, Declared, Flag, ListOf, Spec, Whole, clean_text, player_names,
    shown,
)
from companion.games.quest import board
from companion.games.quest.odds import FACES, MAGIC_DICE, ROLLS, SPELLS
from companion.games.quest.state import (
    BOTTLE, BOTTLES, DEFAULTS, HAT, INGREDIENTS, NEEDED, SPELL, State,
)

ACTION_DICE = ("action_a", "action_b")
PLAYERS = (1, 6)


def unique(faces: Sequence[Any]) -> list[Any]:
    """A die's faces without repeats, in the order printed."""
    out: list[Any] = []
    for face in faces:
        if face not in out:
            out.append(face)
    return out


def faces_of(die: str, state: State) -> list[Any]:
    """What one die can show: action die A and B from the settings, a magic die 1-6."""
    if die in ACTION_DICE:
        return unique(state["settings"]["die_" + die[-1]])
    return list(FACES)


def seat_names(state: State) -> list[str]:
    return list(state["players"])


def _any_face(state: State) -> list[Any]:
    """Every face any die of this table shows, numbers first (which die shows which is a rule
    in decide)."""
    faces = unique([*FACES, *faces_of("action_a", state), *faces_of("action_b", state)])
    return sorted(faces, key=lambda f: (isinstance(f, str), f if isinstance(f, int) else 0))


@dataclass(frozen=True)
class Space(Spec):
    """A space of this board as a script names it: ``"c7"`` on the wizard's circle (counted
    clockwise from path 1's entrance), ``"p2.3"`` (path 2, the third space from the circle) or
    ``"cauldron"``; case and blanks do not matter. The screens send these from the board."""

    def wants(self, state: State) -> str:
        s = state["settings"]
        return (f"a space of the board: \"c0\" to \"c{s['circle_spaces'] - 1}\" on the wizard's "
                f"circle (clockwise from path 1's entrance), \"p2.3\" for the third of the "
                f"{s['path_spaces']} spaces of path 2 (from the circle), or \"cauldron\"")

    def check(self, value: Any, at: str, state: State) -> str:
        if isinstance(value, str):
            space = board.parse_space(clean_text(value, at, limit=20), state["settings"])
            if space is not None:
                return space
        raise RuleViolation(f"{at}: {self.wants(state)}; not {shown(value)}")


def _die(label: str, die: str, required: bool = False) -> Arg:
    return Arg(Choice(lambda s: faces_of(die, s)), required=required, doc=f"what {label} shows")


BOTTLE_NO = Whole(1, len(BOTTLES))
PATH_NO = Whole(1, len(board.PATHS))
MAGIC = ListOf(Whole(1, 6), least=3, most=3)
SPELL_CHOICE = Choice(SPELLS, aliases={"spell of omniscience": "omniscience",
                                       "charm of exchange": "exchange",
                                       "great sorcery": "great_sorcery"})
INGREDIENT_CHOICE = Choice(INGREDIENTS, aliases={i.replace("_", " "): i for i in INGREDIENTS},
                           words={i: i.replace("_", " ") for i in INGREDIENTS})


def _required(spec: Spec, doc: str) -> Arg:
    return Arg(spec, required=True, doc=doc)


def _declare(doc: str, **args: Arg) -> Declared:
    """Every Cauldron Quest command may name the player doing it (a team game: only the
    action dice check whose turn it is)."""
    return Declared(args=args, player=PLAYER_OPTIONAL, doc=doc)


COMMANDS: dict[str, Declared] = {
    "action_roll": _declare(
        "the two action dice as rolled",
        a=_die("action die A", "action_a", required=True),
        b=_die("action die B", "action_b", required=True)),
    "read_die": _declare(
        "one die from the dice tray or a touch; the die that completes a roll makes the roll",
        die=_required(Choice(ACTION_DICE + MAGIC_DICE), "which die"),
        value=_required(Choice(_any_face), "the face it shows")),
    "correct_roll": _declare(
        "the latest roll as the dice really show, before the team acts on it",
        a=_die("action die A", "action_a"), b=_die("action die B", "action_b"),
        dice=Arg(MAGIC, doc="the three magic dice")),
    "move_bottle": _declare(
        "move a potion bottle (a roll, Great Sorcery, or back to the nearest space)",
        bottle=_required(BOTTLE_NO, "the bottle, numbered by the path it started on"),
        to=_required(Space(), "where it goes")),
    "block_path": _declare("the path the obstacle turned face up shows",
                           path=_required(PATH_NO, "the path, 1-6")),
    "break_obstacle": _declare("the spell-breaking token removes one obstacle, once a game",
                               path=_required(PATH_NO, "the path freed, 1-6")),
    "announce_spell": _declare("the spell chosen before the first magic roll",
                               spell=_required(SPELL_CHOICE, "the spell")),
    "keep": _declare("the magic dice left where they are for the next roll",
                     dice=_required(ListOf(Choice(MAGIC_DICE), most=len(MAGIC_DICE), unique=True),
                                    "the dice kept")),
    "magic_roll": _declare(f"the three magic dice after a roll (up to {ROLLS} a spell)",
                           dice=_required(MAGIC, "the three magic dice")),
    "reveal": _declare("the Spell of Omniscience turns a bottle ingredient-up",
                       bottle=_required(BOTTLE_NO, "the bottle turned over"),
                       ingredient=_required(INGREDIENT_CHOICE, "what it holds")),
    "swap": _declare("the Charm of Exchange swaps two bottles",
                     bottles=_required(ListOf(BOTTLE_NO, least=2, most=2, unique=True),
                                       "the two bottles")),
    "end_turn": _declare("pass the turn: the team gives up its magic rolls or its spell"),
}


def _setting(key: str) -> Any:
    """A board setting as a setup bound sees it: the config's own value, else the default
    (the gate checks the keys in order, so a value read here has passed its own check)."""
    def bound(config: dict[str, Any]) -> int:
        value = config.get(key)
        return DEFAULTS[key] if value is None else value
    return bound


SETUP_KEYS: dict[str, Arg] = {
    "players": _required(player_names(*PLAYERS), "the names clockwise, the youngest first"),
    "needed": _required(ListOf(INGREDIENT_CHOICE, least=NEEDED, most=NEEDED, unique=True),
                        f"the {NEEDED} ingredients face up in the cauldron"),
    "circle_spaces": Arg(Whole(6, 60), doc="spaces on the wizard's circle, a multiple of 6"),
    "path_spaces": Arg(Whole(1, 12), doc="spaces on each path"),
    "obstacle_space": Arg(Whole(1, _setting("path_spaces")),
                          doc="the path space an obstacle covers, from the circle"),
    "start_space": Arg(Whole(0, _setting("path_spaces")),
                       doc="where a bottle starts: 0 its path's entrance, k the k-th path space"),
    "wizard_start": Arg(Whole(0, lambda c: _setting("circle_spaces")(c) - 1),
                        doc="the wizard's arrow, a circle space"),
    "die_a": Arg(ListOf(Choice((BOTTLE, HAT)), least=6, most=6), doc="action die A's faces"),
    "die_b": Arg(ListOf(Choice((*FACES, SPELL)), least=6, most=6), doc="action die B's faces"),
    "share_spaces": Arg(Flag(), doc="whether two bottles may stand on one space"),
}
