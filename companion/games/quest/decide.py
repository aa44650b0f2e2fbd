"""Turn a Cauldron Quest command into events, or refuse it with the rule that forbids it."""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleViolation
from companion.core.model import Command, Event
from companion.games.quest import board, moves
from companion.games.quest import state as st
from companion.games.quest.odds import FACES, MAGIC_DICE, SPELLS, best_keep
from companion.games.quest.state import INGREDIENTS, SORCERY_SPACES, State

ACTION_DICE = ("action_a", "action_b")
WHAT_NOW = {
    "roll": "roll the two action dice first",
    "move": "the action dice say: move a potion bottle (move_bottle)",
    "return": "first put the knocked bottles on the nearest space (move_bottle)",
    "block": "the wizard blocks a path: say which obstacle came up (block_path)",
    "announce": "announce a spell before the first magic roll (announce_spell)",
    "magic": "roll the magic dice (magic_roll)",
    "cast": "the spell works: use it, or end_turn",
}


def _now(state: State) -> str:
    return WHAT_NOW.get(st.phase(state), "wait")


def _dice(state: State, a: Any, b: Any) -> dict[str, Any]:
    faces_a, faces_b = state["settings"]["die_a"], state["settings"]["die_b"]
    for die, value, faces in (("a", a, faces_a), ("b", b, faces_b)):
        if isinstance(value, bool) or value not in faces:
            shown = ", ".join(str(f) for f in faces)
            raise RuleViolation(f"{die}: action die {die.upper()} has no face {value!r}; "
                                f"its faces are {shown} (settings die_{die})")
    return {"a": a, "b": b}


def _magic(dice: Any) -> list[int]:
    if (not isinstance(dice, list) or len(dice) != 3
            or any(isinstance(d, bool) or d not in FACES for d in dice)):
        raise RuleViolation(f"dice: the three magic dice after this roll, each 1-6, not {dice!r}")
    return list(dice)


def _need(state: State, *phases: str, doing: str) -> None:
    current = st.phase(state)
    if current not in phases:
        raise RuleViolation(f"Not the time to {doing}: {_now(state)}")


def _advised_keep(state: State) -> list[str]:
    spell = state["spell"]
    if not spell["rolls"]:
        return []
    keep = best_keep(spell["name"], spell["dice"], st.rolls_left(state))[1]
    return [MAGIC_DICE[i] for i in keep]


def action_roll(state: State, cmd: Command) -> list[Event]:
    if st.phase(state) != "roll" and state["action"] is not None:
        a, b = state["action"]["a"], state["action"]["b"]
        raise RuleViolation(f"The action dice were already rolled this turn ({a} + {b}): "
                            "a misread die is fixed with correct_roll")
    _need(state, "roll", doing="roll the action dice")
    if cmd.player is not None and st.player(state) != cmd.player:
        raise RuleViolation(f"It is {st.player(state)}'s turn to roll the action dice")
    return [Event("action_rolled", _dice(state, cmd.args.get("a"), cmd.args.get("b")),
                  undoable=False)]


def read_die(state: State, cmd: Command) -> list[Event]:
    """One die from the reader or a touch; completing the roll turns into the roll itself."""
    die, value = cmd.args.get("die"), cmd.args.get("value")
    if die in ACTION_DICE:
        if st.phase(state) != "roll":
            raise RuleViolation(f"Nobody asked for the action dice now: {_now(state)}")
        faces = state["settings"]["die_" + die[-1]]
        if isinstance(value, bool) or value not in faces:
            raise RuleViolation(f"{die}: no face {value!r}; its faces are "
                                f"{', '.join(str(f) for f in faces)} (settings die_{die[-1]})")
        reading = {**state["reading"], die: value}
        if all(d in reading for d in ACTION_DICE):
            return [Event("action_rolled", {"a": reading["action_a"], "b": reading["action_b"]},
                          undoable=False)]
        return [Event("die_read", {"die": die, "value": value}, undoable=False)]
    if die not in MAGIC_DICE:
        raise RuleViolation(f"die: one of {', '.join(ACTION_DICE + MAGIC_DICE)}, not {die!r}")
    if st.phase(state) != "magic":
        raise RuleViolation("Nobody asked for the magic dice: they are rolled after bottle + spell "
                            f"on the action dice and an announced spell; now {_now(state)}")
    if isinstance(value, bool) or value not in FACES:
        raise RuleViolation(f"{die}: a magic die shows 1-6, not {value!r}")
    spell = state["spell"]
    keep = spell["keep"] if spell["keep"] is not None else _advised_keep(state)
    keep = [k for k in keep if k != die]
    reading = {**state["reading"], die: value}
    if all(d in reading or d in keep for d in MAGIC_DICE):
        dice = [reading[d] if d in reading else spell["dice"][i] for i, d in enumerate(MAGIC_DICE)]
        return [Event("magic_rolled", {"dice": dice}, undoable=False)]
    return [Event("die_read", {"die": die, "value": value, "keep": keep}, undoable=False)]


def correct_roll(state: State, cmd: Command) -> list[Event]:
    last = state["correctable"]
    if last is None:
        raise RuleViolation("No roll to correct: only the latest roll can be corrected, before the "
                            "team acts on it (undo the later entries first)")
    args = cmd.args
    if last["kind"] == "action":
        if "a" not in args and "b" not in args:
            raise RuleViolation("correct_roll: give the true faces of the action dice, a and/or b")
        true = {"a": args.get("a", last["roll"]["a"]), "b": args.get("b", last["roll"]["b"])}
        return [Event("roll_corrected", {"kind": "action", **_dice(state, true["a"], true["b"])},
                      undoable=False)]
    if "dice" not in args:
        raise RuleViolation("correct_roll: give the three magic dice as they really show (dice)")
    return [Event("roll_corrected", {"kind": "magic", "dice": _magic(args["dice"])},
                  undoable=False)]


def move_bottle(state: State, cmd: Command) -> list[Event]:
    bottle = st.bottle_id(cmd.args.get("bottle"))
    to = board.parse_space(cmd.args.get("to"), state["settings"])
    current = st.phase(state)
    start = st.where(state, bottle)
    if current == "return":
        if bottle not in state["returns"]:
            waiting = ", ".join(str(b) for b in state["returns"])
            raise RuleViolation(f"Bottle {bottle} was not knocked away; first put bottle(s) "
                                f"{waiting} on the nearest space")
        nearest = moves.return_targets(state, bottle)
        if to not in nearest:
            raise RuleViolation(f"Bottle {bottle} returns to the nearest space on the board: "
                                f"{' or '.join(nearest)}, not {to}")
        return [Event("bottle_returned", {"bottle": bottle, "from": start, "to": to})]
    if current == "move":
        steps, by = state["action"]["b"], "roll"
    elif current == "cast" and state["spell"]["name"] == "great_sorcery":
        steps, by = SORCERY_SPACES, "great_sorcery"
    else:
        raise RuleViolation(f"Not the time to move a bottle: {_now(state)}")
    reason = moves.why_not(state, bottle, to, steps, sorcery=by == "great_sorcery")
    if reason:
        raise RuleViolation(reason)
    return [Event("bottle_moved", {"bottle": bottle, "from": start, "to": to, "by": by})]


def _path(value: Any) -> int:
    if isinstance(value, bool) or value not in board.PATHS:
        raise RuleViolation(f"path: the paths are numbered 1-6, not {value!r}")
    return value


def block_path(state: State, cmd: Command) -> list[Event]:
    _need(state, "block", doing="block a path (only hat + spell on the action dice does)")
    path = _path(cmd.args.get("path"))
    if path in state["obstacles"]:
        raise RuleViolation(f"Path {path} is already blocked: "
                            "the obstacle drawn names another path")
    space = board.obstacle_space(path, state["settings"])
    knocked = [b for b in st.on_board(state) if st.where(state, b) == space]
    return [Event("path_blocked", {"path": path, "space": space, "knocked": knocked})]


def break_obstacle(state: State, cmd: Command) -> list[Event]:
    if len(state["obstacles"]) >= len(board.PATHS):
        raise RuleViolation("The spell-breaking token must be used before all 6 obstacles are on "
                            "the board: the wizard has won")
    if state["spell_breaker_used"]:
        raise RuleViolation("The spell-breaking token can be used only once per game; "
                            "it is face down")
    path = _path(cmd.args.get("path"))
    if path not in state["obstacles"]:
        blocked = ", ".join(str(p) for p in state["obstacles"]) or "none"
        raise RuleViolation(f"Path {path} has no obstacle to remove (blocked: {blocked})")
    return [Event("obstacle_removed", {"path": path})]


def announce_spell(state: State, cmd: Command) -> list[Event]:
    _need(state, "announce", doing="announce a spell (bottle + spell on the action dice)")
    spell = cmd.args.get("spell")
    if spell not in SPELLS:
        raise RuleViolation(f"spell: one of {', '.join(SPELLS)}, not {spell!r}")
    return [Event("spell_announced", {"spell": spell})]


def keep(state: State, cmd: Command) -> list[Event]:
    _need(state, "magic", doing="keep magic dice")
    if not state["spell"]["rolls"]:
        raise RuleViolation("Nothing to keep before the first magic roll: roll all three dice")
    dice = cmd.args.get("dice")
    if (not isinstance(dice, list) or any(d not in MAGIC_DICE for d in dice)
            or len(set(dice)) != len(dice)):
        raise RuleViolation(f"dice: the magic dice kept, by id ({', '.join(MAGIC_DICE)})")
    if len(dice) == 3:
        raise RuleViolation("Re-roll one, two or all three dice: keeping all three is not a roll")
    return [Event("dice_kept", {"keep": sorted(dice)})]


def magic_roll(state: State, cmd: Command) -> list[Event]:
    if st.phase(state) == "announce":
        raise RuleViolation("Always say in advance what result you want: announce a spell before "
                            "the first roll of the magic dice")
    _need(state, "magic", doing="roll the magic dice (bottle + spell on the action dice)")
    return [Event("magic_rolled", {"dice": _magic(cmd.args.get("dice"))}, undoable=False)]


def _cast(state: State, spell: str, doing: str) -> None:
    _need(state, "cast", doing=doing)
    if state["spell"]["name"] != spell:
        raise RuleViolation(f"The spell cast is the {st.SPELL_TITLES[state['spell']['name']]}, "
                            f"not the {st.SPELL_TITLES[spell]}")


def reveal(state: State, cmd: Command) -> list[Event]:
    _cast(state, "omniscience", "reveal an ingredient (it takes the Spell of Omniscience)")
    bottle = st.bottle_id(cmd.args.get("bottle"))
    ingredient = cmd.args.get("ingredient")
    if st.ingredient(state, bottle) is not None:
        raise RuleViolation(f"Bottle {bottle} already shows {st.ingredient(state, bottle)}")
    if ingredient not in INGREDIENTS:
        raise RuleViolation(f"ingredient: one of {', '.join(INGREDIENTS)}, not {ingredient!r}")
    owner = next((b for b, i in state["revealed"].items() if i == ingredient), None)
    if owner is not None:
        raise RuleViolation(f"Bottle {owner} already shows {ingredient}: "
                            "each ingredient is in one bottle")
    return [Event("bottle_revealed", {"bottle": bottle, "ingredient": ingredient})]


def swap(state: State, cmd: Command) -> list[Event]:
    _cast(state, "exchange", "swap bottles (it takes the Charm of Exchange)")
    pair = cmd.args.get("bottles")
    if not isinstance(pair, list) or len(pair) != 2:
        raise RuleViolation("bottles: the two bottles to swap, e.g. [2, 5]")
    i, j = (st.bottle_id(b, "bottles") for b in pair)
    if i == j:
        raise RuleViolation("bottles: swap two different bottles")
    for b in (i, j):
        if st.where(state, b) == board.CAULDRON:
            raise RuleViolation(f"Bottle {b} is in the cauldron: swap bottles on the board")
    spaces = [st.where(state, i), st.where(state, j)]
    return [Event("bottles_swapped", {"bottles": [i, j], "spaces": spaces})]


def end_turn(state: State, cmd: Command) -> list[Event]:
    current = st.phase(state)
    if current == "magic" and not state["spell"]["rolls"]:
        raise RuleViolation("The spell is announced: roll the magic dice at least once")
    if current not in ("magic", "cast"):
        raise RuleViolation(f"The turn passes by itself once its action is done: {_now(state)}")
    n = len(state["players"])
    return [Event("turn_ended", {"player": st.player(state),
                                 "next": state["players"][(st.seat(state) + 1) % n],
                                 "reason": "the team passed"})]


COMMANDS = {
    "action_roll": action_roll, "read_die": read_die, "correct_roll": correct_roll,
    "move_bottle": move_bottle, "block_path": block_path, "break_obstacle": break_obstacle,
    "announce_spell": announce_spell, "keep": keep, "magic_roll": magic_roll, "reveal": reveal,
    "swap": swap, "end_turn": end_turn,
}


def decide(state: State, cmd: Command) -> list[Event]:
    handler = COMMANDS.get(cmd.do)
    if handler is None:
        known = ", ".join(sorted([*COMMANDS, "undo", "redo"]))
        raise RuleViolation(f"Cauldron Quest has no command {cmd.do!r}; it knows {known}")
    if cmd.player is not None and cmd.player not in state["players"]:
        raise RuleViolation(f"There is no player named {cmd.player!r} at this table")
    lost_all = cmd.do == "break_obstacle" and len(state["obstacles"]) >= len(board.PATHS)
    if state["over"] and not lost_all:
        verdict = "the team won" if state["outcome"] == "won" else "the wizard won"
        raise RuleViolation(f"The game is over ({verdict}): only undo is possible")
    return handler(state, cmd)
