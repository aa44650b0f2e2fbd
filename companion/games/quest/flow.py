"""What Cauldron Quest does by itself: the wizard's walk, a knocked bottle with only one nearest
space, judging each magic roll, passing a turn nobody can use, and the end of the game. Every
event returned here is logged as automatic; where the team has a choice, the flow waits."""

from __future__ import annotations

from companion.core.model import Event
from companion.games.quest import board, moves
from companion.games.quest import state as st
from companion.games.quest.odds import ROLLS, works
from companion.games.quest.state import BOTTLE, HAT, SPELL, State


def wizard_walk(state: State, steps: int) -> tuple[int, list[int]]:
    """Where the wizard stops going ``steps`` clockwise, and the bottles he passes or stops on,
    in the order he meets them."""
    settings = state["settings"]
    hit: list[int] = []
    for i in range(1, steps + 1):
        space = board.circle(state["wizard"] + i, settings)
        hit += [b for b in st.on_board(state) if st.where(state, b) == space and b not in hit]
    return (state["wizard"] + steps) % settings["circle_spaces"], hit


def _end_turn(state: State, reason: str) -> list[Event]:
    n = len(state["players"])
    nxt = state["players"][(st.seat(state) + 1) % n]
    return [Event("turn_ended", {"player": st.player(state), "next": nxt, "reason": reason})]


def flow(state: State) -> list[Event]:
    if state["over"]:
        return []
    if all(i in st.in_cauldron(state) for i in state["needed"]):
        return [Event("game_won", {"in_cauldron": st.in_cauldron(state)})]
    if len(state["obstacles"]) == len(board.PATHS):
        return [Event("game_lost", {"obstacles": list(state["obstacles"])})]
    for bottle in state["returns"]:
        spaces = moves.return_targets(state, bottle)
        if len(spaces) == 1:
            return [Event("bottle_returned", {"bottle": bottle, "from": st.where(state, bottle),
                                              "to": spaces[0]})]
    if state["returns"]:
        return []
    action = state["action"]
    if action is None:
        return []
    if action["done"]:
        return _end_turn(state, "the action is done")
    a, b = action["a"], action["b"]
    if a == HAT and b != SPELL:
        to, hit = wizard_walk(state, b)
        return [Event("wizard_moved", {"from": state["wizard"], "to": to, "steps": b, "hit": hit})]
    if a == BOTTLE and b != SPELL and not moves.any_move(state, b):
        return _end_turn(state, f"no potion bottle can move {b} spaces")
    spell = state["spell"]
    if spell is None or spell["rolls"] == 0:
        return []
    if spell["success"] is None:
        return [Event("spell_judged", {"spell": spell["name"], "roll": spell["rolls"],
                                       "dice": list(spell["dice"]),
                                       "success": works(spell["name"], spell["dice"])})]
    if spell["success"] is False and spell["rolls"] >= ROLLS:
        return _end_turn(state, f"the {st.SPELL_TITLES[spell['name']]} failed")
    if spell["success"]:
        useless = moves.spell_use(state)
        if useless:
            return _end_turn(state, f"the {st.SPELL_TITLES[spell['name']]} has no use: {useless}")
    return []
