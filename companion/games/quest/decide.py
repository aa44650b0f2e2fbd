"""Turn a Cauldron Quest command into events, or refuse it with the rule that forbids it.

Commands arrive through the gate (commands.COMMANDS): the bottle is a whole number 1-6, the
space one of this board's, the player a name at the table. What is refused here is the rules,
in the words players see: spaces as they look on the board ("the second space of path 3"),
never a script's ids, and the button to press. The dice live in ``dice``.
"""

from __future__ import annotations

from companion.core.errors import RuleViolation
from companion.core.model import Command, Event
from companion.games.quest import board, dice, moves
from companion.games.quest import state as st
from companion.games.quest.state import SORCERY_SPACES, State


def _where(state: State, space: str) -> str:
    return board.describe(space, state["settings"])


def move_bottle(state: State, cmd: Command) -> list[Event]:
    bottle, to = cmd.args["bottle"], cmd.args["to"]
    current = st.phase(state)
    start = st.where(state, bottle)
    if current == "return":
        if bottle not in state["returns"]:
            waiting = " and ".join(str(b) for b in state["returns"])
            raise RuleViolation(f"Bottle {bottle} was not knocked away; first put bottle "
                                f"{waiting} back on the nearest space (tap a gold ring)")
        nearest = moves.return_targets(state, bottle)
        if to not in nearest:
            raise RuleViolation(
                f"Bottle {bottle} returns to the nearest space on the board: "
                f"{board.describe_all(nearest, state['settings'])}, not {_where(state, to)}")
        return [Event("bottle_returned", {"bottle": bottle, "from": start, "to": to})]
    if current == "move":
        steps, by = state["action"]["b"], "roll"
    elif current == "cast" and state["spell"]["name"] == "great_sorcery":
        steps, by = SORCERY_SPACES, "great_sorcery"
    else:
        raise RuleViolation(f"Not the time to move a bottle: {dice.now(state)}")
    reason = moves.why_not(state, bottle, to, steps, sorcery=by == "great_sorcery")
    if reason:
        raise RuleViolation(reason)
    return [Event("bottle_moved", {"bottle": bottle, "from": start, "to": to, "by": by})]


def block_path(state: State, cmd: Command) -> list[Event]:
    dice.need(state, "block", doing="block a path (only hat + spell on the action dice does)")
    path = cmd.args["path"]
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
    path = cmd.args["path"]
    if path not in state["obstacles"]:
        blocked = ", ".join(str(p) for p in state["obstacles"]) or "none"
        raise RuleViolation(f"Path {path} has no obstacle to remove (blocked: {blocked})")
    return [Event("obstacle_removed", {"path": path})]


def _cast(state: State, spell: str, doing: str) -> None:
    dice.need(state, "cast", doing=doing)
    if state["spell"]["name"] != spell:
        raise RuleViolation(f"The spell cast is the {st.SPELL_TITLES[state['spell']['name']]}, "
                            f"not the {st.SPELL_TITLES[spell]}")


def reveal(state: State, cmd: Command) -> list[Event]:
    _cast(state, "omniscience", "reveal an ingredient (it takes the Spell of Omniscience)")
    bottle, ingredient = cmd.args["bottle"], cmd.args["ingredient"]
    shows = st.ingredient(state, bottle)
    if shows is not None:
        raise RuleViolation(f"Bottle {bottle} already shows the {st.words(shows)}")
    owner = next((b for b, i in state["revealed"].items() if i == ingredient), None)
    if owner is not None:
        raise RuleViolation(f"Bottle {owner} already shows the {st.words(ingredient)}: "
                            "each ingredient is in one bottle")
    return [Event("bottle_revealed", {"bottle": bottle, "ingredient": ingredient})]


def swap(state: State, cmd: Command) -> list[Event]:
    _cast(state, "exchange", "swap bottles (it takes the Charm of Exchange)")
    i, j = cmd.args["bottles"]
    for b in (i, j):
        if st.where(state, b) == board.CAULDRON:
            raise RuleViolation(f"Bottle {b} is in the cauldron: swap bottles on the board")
    spaces = [st.where(state, i), st.where(state, j)]
    return [Event("bottles_swapped", {"bottles": [i, j], "spaces": spaces})]


COMMANDS = {
    **dice.COMMANDS,
    "move_bottle": move_bottle, "block_path": block_path, "break_obstacle": break_obstacle,
    "reveal": reveal, "swap": swap,
}


def decide(state: State, cmd: Command) -> list[Event]:
    """The events of one command the gate has checked, or RuleViolation naming the rule."""
    lost_all = cmd.do == "break_obstacle" and len(state["obstacles"]) >= len(board.PATHS)
    if state["over"] and not lost_all:
        verdict = "the team won" if state["outcome"] == "won" else "the wizard won"
        raise RuleViolation(f"The game is over ({verdict}): only Undo is possible")
    return COMMANDS[cmd.do](state, cmd)
