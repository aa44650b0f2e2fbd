"""Plays whole games of Witch's Brew with a seeded, rule-abiding table, for scenario, replay and
crash tests. The choices are random but the commands are always legal, so every one is a step."""

from __future__ import annotations

import random
from typing import Any

from companion.core import Command, Session
from companion.games import get_rules
from companion.games.witchs_brew.flow import effect_of
from companion.games.witchs_brew.roles import (
    BREW, CAULDRONS, CHOOSE_DROPS, DROPS, PAY, RAVENS_PER_STACK, ROLES, TABLE, TRADE_DROP,
)
from companion.games.witchs_brew.state import excluded_per_set, shown_this_cycle, stacks_left


def _potion(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    left = stacks_left(state)
    stacks = [s for s in CAULDRONS if left[s] > 0]
    if not stacks:
        return None
    stack = rng.choice(stacks)
    ravens = sum(1 for p in state["players"] for q in p["potions"]
                 if q["stack"] == stack and q["raven"])
    raven = ravens < RAVENS_PER_STACK and rng.random() < 0.45
    return {"stack": stack, "points": rng.randint(1, 6), "raven": raven}


def next_command(session: Session, rng: random.Random) -> Command:
    state = session.state
    prompt = session.prompt()
    who = prompt["turn"]
    phase = prompt["phase"]
    if phase == "reveal":
        shown = shown_this_cycle(state)
        pool = [r for r in ROLES if r not in shown]
        return Command("reveal_excluded", args={"roles": rng.sample(pool, excluded_per_set(state))})
    if phase == "play":
        seat = prompt["seat"]
        played = {r for p in state["players"] for r in p["roles_played"]}
        roles = [r for r in ROLES if r not in played and r not in state["excluded"]]
        return Command("play_role", who, {"role": rng.choice(roles)})
    if phase == "answer":
        seat = prompt["seat"]
        if state["role"] in state["players"][seat]["roles_played"]:
            return Command("pass", who)
        return Command(rng.choice(["claim", "so_be_it", "pass", "pass"]), who)
    if phase == "resolve":
        player = state["players"][prompt["seat"]]
        effect = effect_of(state["pending"][0])
        if rng.random() < 0.1:
            return Command("abstain", who)
        if effect.kind == PAY:
            return Command("resolve", who)
        if effect.kind == TRADE_DROP:
            return Command("resolve", who, {"drop": rng.choice([d for d in DROPS if player[d]])})
        if effect.kind == CHOOSE_DROPS:
            a = rng.randint(0, 3)
            return Command("resolve", who, {"drops": {"red": a, "green": 3 - a}})
        if effect.kind == BREW:
            potion = _potion(state, rng)
            pay = {d: min(player[d], 1) for d in DROPS}
            if potion is None:
                return Command("abstain", who)
            return Command("resolve", who, {"potion": potion, "pay": pay})
        if effect.kind == TABLE:
            return Command("resolve", who, {"changes": {"gold": 1}})
    raise AssertionError(f"autoplay has no move for phase {phase!r}")


def play(setup: dict[str, Any], seed: int = 1, limit: int = 5000) -> tuple[Session, list[Command]]:
    """A whole game from ``setup``; returns the finished session and the commands played."""
    rng = random.Random(seed)
    session = Session(get_rules(setup.get("game", "witchs_brew")), setup)
    commands: list[Command] = []
    while not session.over:
        if len(commands) >= limit:
            raise AssertionError("autoplay: the game did not end")
        command = next_command(session, rng)
        session.execute(command)
        commands.append(command)
    return session, commands
