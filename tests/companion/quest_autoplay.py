"""A rule-abiding Cauldron Quest table for scenario, refusal-text and fuzz tests: every command
it offers for a state is legal there, so the tests can require that each one is accepted.
Choices (faces, dice, which bottle) come from a ``random.Random`` the caller seeds, or one
Hypothesis draws, so a failing sequence shrinks."""

from __future__ import annotations

import random
from itertools import product
from typing import Any

from companion.core import Command, InputEvent, Session
from companion.games.quest import RULES, moves
from companion.games.quest import state as st
from companion.games.quest.commands import faces_of
from companion.games.quest.odds import MAGIC_DICE, SPELLS
from companion.games.quest.prompt import expected_dice
from companion.games.quest.state import INGREDIENTS, SORCERY_SPACES

PLAYERS = ["Ann", "Bob", "Cat"]
NEEDED = ["rotten_egg", "newt_eye", "bat_wing"]


def new(**settings: Any) -> Session:
    return Session(RULES, {"game": "quest", "players": list(PLAYERS), "needed": list(NEEDED),
                           **settings})


def _roll(state: dict[str, Any], rng: random.Random) -> list[int]:
    """Three magic dice after a roll: the dice the team kept keep their values."""
    spell = state["spell"]
    kept = spell["keep"] if spell["chosen"] else []
    return [spell["dice"][i] if d in kept else rng.randint(1, 6) for i, d in enumerate(MAGIC_DICE)]


def keepable(state: dict[str, Any]) -> list[str]:
    """The magic dice the team may say it keeps: not one the tray already read as rolled again
    in this roll (a new face)."""
    spell, reading = state["spell"], state["reading"]
    return [d for i, d in enumerate(MAGIC_DICE) if reading.get(d, spell["dice"][i]) == spell["dice"][i]]


def legal_commands(state: dict[str, Any], rng: random.Random) -> list[Command | InputEvent]:
    """Every kind of legal thing the table may do now (dice values drawn from ``rng``)."""
    phase = RULES.prompt(state)["phase"]
    out: list[Command | InputEvent] = []
    if phase == "over":
        return out
    if state["obstacles"] and not state["spell_breaker_used"] and len(state["obstacles"]) < 6:
        out += [Command("break_obstacle", args={"path": p}) for p in state["obstacles"]]
    last = state["correctable"]
    if last is not None and last["kind"] == "action":
        out.append(Command("correct_roll", args={
            "a": rng.choice(faces_of("action_a", state)), "b": rng.choice(faces_of("action_b", state))}))
    elif last is not None:
        out.append(Command("correct_roll", args={"dice": [rng.randint(1, 6) for _ in range(3)]}))
    for die in expected_dice(state):
        out.append(InputEvent("die", die, rng.choice(faces_of(die, state)), source="serial"))
    if phase == "roll":
        a, b = rng.choice(list(product(faces_of("action_a", state), faces_of("action_b", state))))
        out.append(Command("action_roll", st.player(state), {"a": a, "b": b}))
    elif phase == "return":
        out += [Command("move_bottle", args={"bottle": b, "to": to})
                for b in state["returns"] for to in moves.return_targets(state, b)]
    elif phase == "move":
        out += [Command("move_bottle", args={"bottle": b, "to": to}) for b in st.on_board(state)
                for to in moves.targets(state, b, state["action"]["b"])]
    elif phase == "block":
        out += [Command("block_path", args={"path": p}) for p in range(1, 7)
                if p not in state["obstacles"]]
    elif phase == "announce":
        out += [Command("announce_spell", args={"spell": s}) for s in SPELLS]
    elif phase == "magic":
        out.append(Command("magic_roll", args={"dice": _roll(state, rng)}))
        if state["spell"]["rolls"]:
            free = keepable(state)
            out.append(Command("keep", args={"dice": sorted(rng.sample(free, rng.randint(0, min(2, len(free)))))}))
            out.append(Command("end_turn"))
    elif phase == "cast":
        out += _cast(state, rng)
    return out


def _cast(state: dict[str, Any], rng: random.Random) -> list[Command | InputEvent]:
    out: list[Command | InputEvent] = [Command("end_turn")]
    spell, board = state["spell"]["name"], st.on_board(state)
    if spell == "omniscience":
        hidden = [b for b in board if st.ingredient(state, b) is None]
        free = [i for i in INGREDIENTS if i not in state["revealed"].values()]
        out += [Command("reveal", args={"bottle": b, "ingredient": rng.choice(free)}) for b in hidden]
    elif spell == "exchange":
        out += [Command("swap", args={"bottles": rng.sample(board, 2)})]
    else:
        out += [Command("move_bottle", args={"bottle": b, "to": to}) for b in board
                for to in moves.targets(state, b, SORCERY_SPACES, sorcery=True)]
    return out


def random_command(state: dict[str, Any], rng: random.Random) -> Command | InputEvent:
    """One legal step that moves the game on (a whole roll rather than its single dice, the
    cauldron whenever Great Sorcery can reach it, end_turn only when nothing else is offered)."""
    options = [o for o in legal_commands(state, rng)
               if isinstance(o, Command) and o.do not in ("break_obstacle", "correct_roll", "keep")]
    onward = [o for o in options if o.do != "end_turn"] or options
    cauldron = [o for o in onward if o.args.get("to") == "cauldron"]
    return rng.choice(cauldron or onward)
