"""The questions every command asks before it is allowed: is it the time, is it this seat's
turn, does the seat hold what it names. Each refusal says what the table should do instead."""

from __future__ import annotations

from companion.core.errors import RuleViolation
from companion.games.cauldron import data as d
from companion.games.cauldron import state as st
from companion.games.cauldron.prompt import prompt
from companion.games.cauldron.state import State

HARVEST_TURN = ("turns", "closing")
PHASE_WORDS = {
    "milestones": "the Magik Track milestones are entered", "setup": "setup",
    "omen": "the Omen", "fill": "filling the board", "turn_order": "the turn order rolls",
    "turns": "the Harvest turns", "closing": "the close of the Harvest Season",
    "market": "the Market Season",
}


def need_phase(state: State, wanted: tuple[str, ...], doing: str) -> str:
    current = st.phase(state)
    if current in wanted:
        return current
    if current == "over":
        raise RuleViolation(over_text(state))
    raise RuleViolation(f"Not the time to {doing}: {prompt(state)['text']}")


def over_text(state: State) -> str:
    return (f"The game is over: {st.name(state, state['winner'])} is the Grand Infuser "
            "(Undo takes back the winning brew)")


def need_turn(state: State, seat: int, doing: str) -> None:
    due = st.turn(state)
    if due != seat and st.phase(state) == "closing":
        raise RuleViolation(closed_text(state, seat))
    if due != seat:
        raise RuleViolation(f"It is {st.name(state, due)}'s turn, not {st.name(state, seat)}'s: "
                            f"only the seat whose turn it is may {doing}")


def closed_text(state: State, seat: int) -> str:
    """What a seat is told once the last Ingredient is gathered: "the Harvest Season ends", only
    the gatherer may still take Quick Actions, then the Market opens."""
    gatherer = st.turn(state)
    starter = st.name(state, st.market_starter(state, gatherer))
    who = st.name(state, gatherer)
    return (f"The last Ingredient is gathered: the Harvest Season is over, so {st.name(state, seat)} "
            f"can do nothing more in it. Only {who}, who gathered it, may still take Quick "
            f"Actions; when {who} ends the turn, the Market Season opens with {starter}")


def need_harvest_turn(state: State, seat: int, doing: str) -> str:
    current = need_phase(state, HARVEST_TURN, doing)
    need_turn(state, seat, doing)
    steal = state["harvest"]["steal"]
    if steal is not None and steal["roll"] is None:
        raise RuleViolation(f"{st.name(state, seat)} is stealing {d.label(steal['ingredient'])} from "
                            f"{st.name(state, steal['target'])}: roll the die first (4 or more succeeds)")
    return current


def need_action_free(state: State, seat: int, doing: str) -> None:
    harvest = state["harvest"]
    if st.phase(state) == "closing":
        raise RuleViolation(f"The last Ingredient has been gathered: no more Actions this Harvest "
                            f"Season ({doing} is an Action); {st.name(state, seat)} may take "
                            "Quick Actions, then end the turn")
    done = harvest["action"]
    if done is not None:
        words = {"gather": "gathered", "steal": "stole", "brew": "brewed a Potion"}[done]
        raise RuleViolation(f"One Action per turn: {st.name(state, seat)} already {words} this turn "
                            f"({doing} is an Action too); Quick Actions are still allowed")


def hand_kind(state: State, seat: int, kind: str | None, doing: str) -> str:
    """Which kind of Spell the seat means: the one given, or the only kind it holds."""
    spells = state["players"][seat]["spells"]
    who = st.name(state, seat)
    if kind is None:
        kinds = sorted(set(spells))
        if not kinds:
            raise RuleViolation(f"{who} holds no Spell to {doing}")
        if len(kinds) > 1:
            raise RuleViolation(f"{who} holds Basic and Advanced Spells: say which kind to "
                                f"{doing}, Basic or Advanced")
        return kinds[0]
    if kind not in spells:
        raise RuleViolation(f"{who} holds no {kind.title()} Spell to {doing}")
    return kind


def magik_after(magik: int, delta: int) -> int:
    """Spells, Omens, milestones and corrections move Magik but never past 34 nor below 0:
    35 is reached only by brewing."""
    new = magik + delta
    if delta > 0:
        new = min(new, max(magik, d.NOT_BY_BREWING_MAX))
    return max(new, 0)


def need_tokens(state: State, more: int, doing: str) -> None:
    """The box holds so many Ingredient tokens (setting ``box_ingredients``): ``more`` out of
    the supply must still be in it."""
    left = st.tokens_left(state)
    if more > left:
        held = st.tokens_in_play(state)
        raise RuleViolation(f"The box holds {state['settings']['box_ingredients']} Ingredient "
                            f"tokens and {held} are already out (board, pools, Cellars): "
                            f"{doing} needs {more}, only {left} are left")


def need_board(state: State, total: int, doing: str) -> None:
    """Filling the board puts ``total`` tokens on it (what it held goes back first): the box
    must hold them besides those in pools and Cellars."""
    need_tokens(state, total - st.board_total(state), doing)
