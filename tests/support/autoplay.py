"""Plays whole games of Witch's Brew with a seeded, rule-abiding table, for scenario, replay and
crash tests. The choices are random but the commands are always legal, so every one is a step."""

from __future__ import annotations

import random
from typing import Any

from companion.core import Command, Session
from companion.games import get_rules
from companion.games.witchs_brew.flow import drops_to_take, effect_of
from companion.games.witchs_brew.roles import (
    BREW, CAULDRONS, CHOOSE_DROPS, DROPS, MAX_POINTS, PAY, RAVENS_PER_STACK, ROLES, TABLE,
    TRADE_DROP, plain_per_stack,
)
from companion.games.witchs_brew.state import (
    excluded_per_set, left_in_supply, potions_taken, ravens_taken, shown_this_cycle, stacks_left,
    top_value,
)


def potion_card(state: dict[str, Any], rng: random.Random,
                stacks: tuple[str, ...] = CAULDRONS) -> dict[str, Any] | None:
    """A card the top of a stack may show: a raven only while the stack has one left (a plain
    card only while it has one), worth at least any card already taken from it."""
    left = stacks_left(state)
    open_stacks = [s for s in stacks if left[s] > 0]
    if not open_stacks:
        return None
    stack = rng.choice(open_stacks)
    ravens = ravens_taken(state, stack)
    plain = len(potions_taken(state, stack)) - ravens
    if plain >= plain_per_stack(stack):
        raven = True
    elif ravens >= RAVENS_PER_STACK:
        raven = False
    else:
        raven = rng.random() < 0.45
    least = top_value(state, stack) or 1
    return {"stack": stack, "points": min(MAX_POINTS, least + rng.randint(0, 2)), "raven": raven}


def chosen_drops(state: dict[str, Any], count: int, rng: random.Random) -> dict[str, int]:
    """``count`` drops the supply still holds, in random colours."""
    left = left_in_supply(state)
    chosen = {d: 0 for d in DROPS}
    for _ in range(count):
        colour = rng.choice([d for d in DROPS if left[d] is None or left[d] > chosen[d]])
        chosen[colour] += 1
    return {d: n for d, n in chosen.items() if n}


def next_command(session: Session, rng: random.Random) -> Command:
    state = session.state
    prompt = session.prompt()
    who = prompt["turn"]
    phase = prompt["phase"]
    if phase == "reveal":
        shown = shown_this_cycle(state)
        pool = [r for r in ROLES if r not in shown]
        return Command("reveal_excluded", args={"roles": rng.sample(pool, excluded_per_set(state))})
    hand = state.get("hands", {}).get(str(prompt["seat"])) if prompt["seat"] is not None else None
    if phase == "choose":   # a seat that chose a hand before chooses this set's
        pool = [r for r in ROLES if r not in state["excluded"]]
        return Command("choose_hand", who, {"roles": rng.sample(pool, 5)})
    if phase == "play" and hand is not None:   # a known hand: one of its own cards
        own = state["players"][prompt["seat"]]["roles_played"]
        return Command("play_role", who, {"role": rng.choice([r for r in hand if r not in own])})
    if phase == "answer" and hand is not None and state["role"] in hand \
            and state["role"] not in state["players"][prompt["seat"]]["roles_played"]:
        return Command(rng.choice(["claim", "so_be_it"]), who)   # it must play it
    if phase == "play":
        played = {r for p in state["players"] for r in p["roles_played"]}
        roles = [r for r in ROLES if r not in played and r not in state["excluded"]]
        if not roles:  # every role is out: the seat's cards were forgotten, face down they go
            own = state["players"][prompt["seat"]]["roles_played"]
            late = rng.choice(sorted(played - set(own)))
            # named (forfeit) or simply announced: either way the card goes face down
            return Command(rng.choice(["forfeit", "play_role"]), who, {"role": late})
        gains = state.get("free_gains", [])
        if gains and rng.random() < 0.1:  # "No thanks": a seat declines what it was given
            seat = rng.choice(gains)["seat"]
            if all(state["players"][seat][c] >= n
                   for c, n in next(g for g in gains if g["seat"] == seat)["changes"].items()):
                return Command("abstain", state["players"][seat]["name"])
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
            drops = chosen_drops(state, drops_to_take(state, effect), rng)
            return Command("resolve", who, {"drops": drops})
        if effect.kind == BREW:
            potion = potion_card(state, rng)
            pay = {d: min(player[d], 1) for d in DROPS}
            if potion is None:
                return Command("abstain", who)
            return Command("resolve", who, {"potion": potion, "pay": pay})
        if effect.kind == TABLE:
            left = left_in_supply(state)["gold"]
            gold = 1 if left is None or left > 0 else 0
            return Command("resolve", who, {"changes": {"gold": gold}})
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
