"""Witch's Brew under generated play: a Hypothesis state machine mixes legal moves (which must all
be accepted), malformed commands, well-formed commands the rules may refuse (potions from any
stack, corrections of any size, drops of any colour), odd button and device inputs, undo and
redo. After every step only RuleViolation may have been raised, a refusal changed nothing, the
state is JSON, the box holds (no counter negative, vials, drops and gold within the supply, no
stack holding more cards or ravens than the box, no card worth less than one taken before it
from the same stack), undo then redo is the identity, and the exported script replays to the
identical state. ``COMPANION_FUZZ=long`` searches deeper (tests/conftest.py)."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import event
from hypothesis import strategies as hs
from hypothesis.stateful import initialize, rule

from companion.core import Command, InputEvent
from companion.games.witchs_brew import RULES
from companion.games.witchs_brew import state as st
from companion.games.witchs_brew.flow import effect_of
from companion.games.witchs_brew.roles import (
    BREW, CHOOSE_DROPS, COUNTERS, DROPS, PAY, RAVENS_PER_STACK, ROLES, STACK_SIZES, STACKS, TABLE,
    TRADE_DROP, VIALS_IN_BOX, plain_per_stack,
)
from tests.support.autoplay import next_command
from tests.support.fuzz import (
    ODD_SCALARS, before_any_command, garbage, malformed_command, TableMachine,
    try_step,
)

#: A head start that plays the whole game: autoplay's games end well within it.
END = 5000
NAMES = ["Anna", "Barb", "Zoë", "Émile", "Carl", "Fay"]
ARG_KEYS = sorted({k for d in RULES.commands.values() for k in d.args}
                  | {"variant", "magic", "Role", "changes "})
ODD_VALUES = hs.one_of(
    hs.sampled_from([2.0, "²", "3", "Witch", "WITCH", "gold_shelf", "Gold", ["witch"], {"gold": 1},
                     {"stack": "copper", "points": 3, "magic": 1}, {"Zed": {"gold": 1}},
                     10**4000, 2**63, -(2**63) - 1, "\ud800", True, None, [], {}]),
    ODD_SCALARS, garbage(3))


def setups() -> hs.SearchStrategy[dict[str, Any]]:
    """Every kind of table: 3 to 6 seats, the variant where it is allowed, drops and gold
    unlimited (the default), as the box counts them, or short (so the supply runs out within a
    few dozen steps), any starter."""
    def build(n: int, variant: bool, supply: str, starter: int) -> dict[str, Any]:
        setup: dict[str, Any] = {"game": "witchs_brew", "players": NAMES[:n],
                                 "starter": NAMES[starter % n]}
        if variant and n <= 4:
            setup["variants"] = ["excluded_roles"]
        if supply == "short":
            setup["supply"] = {"drops": n + 2, "gold": 2 * n + 3}
        elif supply == "box":
            setup["supply"] = dict(st.BOX_SUPPLY)
        elif supply == "short gold":
            setup["supply"] = {"gold": 2 * n + 1}
        return setup
    return hs.builds(build, hs.integers(3, 6), hs.booleans(),
                     hs.sampled_from(["unlimited", "box", "short", "short gold"]),
                     hs.integers(0, 5))


def check_the_box(state: dict[str, Any]) -> None:
    """What the box holds, whatever was played."""
    players = state["players"]
    assert state["supply"]["vials"] == VIALS_IN_BOX
    for p in players:
        for counter in COUNTERS:
            assert type(p[counter]) is int and p[counter] >= 0, (p["name"], counter, p[counter])
        assert 0 <= p["cards_played"] <= st.CARDS_PER_SET
        assert len(set(p["roles_played"])) == len(p["roles_played"]) <= st.CARDS_PER_SET
        for potion in p["potions"]:
            assert set(potion) <= {"stack", "points", "raven", "name"}
            assert potion["stack"] in STACKS and type(potion["points"]) is int
            assert type(potion["raven"]) is bool
    left = st.left_in_supply(state)
    assert all(n is None or n >= 0 for n in left.values()), f"the supply went below empty: {left}"
    # a gain a seat may still decline is one the companion applied by itself, to a seat here
    for gain in state["free_gains"]:
        assert 0 <= gain["seat"] < len(players)
        effect = effect_of({"role": gain["role"], "kind": gain["kind"]})
        assert effect.automatic and set(gain["changes"]) <= set(effect.gain), gain
    if state["role"] is not None:  # in a round: only its favors, nothing from a round before
        assert all(g["role"] == state["role"] and g["kind"] == "favor"
                   for g in state["free_gains"]), state["free_gains"]
    for stack, size in STACK_SIZES.items():
        taken = st.potions_taken(state, stack)
        ravens = st.ravens_taken(state, stack)
        assert len(taken) <= size and ravens <= RAVENS_PER_STACK
        assert len(taken) - ravens <= plain_per_stack(stack)
    assert st.ravens(state) <= RAVENS_PER_STACK * len(STACKS)
    assert all(0 <= p["seat"] < len(players) for p in state["pending"])
    assert set(state["excluded"] or []) <= set(ROLES)


def check_new_cards(before: dict[str, Any], step_events: list[Any]) -> None:
    """Each stack is sorted lowest value on top: a card a step takes is worth at least every card
    of that stack the players held before it (after the step's own correction, if any)."""
    held = {s: [p["points"] for p in st.potions_taken(before, s)] for s in STACKS}
    potions = [list(p["potions"]) for p in before["players"]]
    for e in step_events:
        d = e.data
        if e.type == "adjusted" and d.get("remove_potion") is not None:
            gone = potions[d["seat"]].pop(d["remove_potion"])
            held[gone["stack"]].remove(gone["points"])
        card = d.get("potion") if e.type in ("adjusted", "effect_applied") else None
        if card:
            assert card["points"] >= max(held[card["stack"]], default=0), (card, held)
            held[card["stack"]].append(card["points"])
            potions[d["seat"]].append(card)


class WitchsBrewTable(TableMachine):
    check_box = staticmethod(check_the_box)
    legal_command = staticmethod(next_command)
    odd_values = ODD_VALUES

    @initialize(setup=setups(), head_start=hs.sampled_from([0, 0, 0, 40, 150, END]),
                rng=hs.randoms(use_true_random=False))
    def sit_down(self, setup: dict[str, Any], head_start: int, rng: random.Random) -> None:
        """A table from its first command, one some sets in, or one whose game is over (so that
        ravens, empty stacks, a short supply and the end come within the machine's few dozen
        rules)."""
        self.sit(RULES, setup, head_start, rng)
        self.names = list(setup["players"])

    def play(self, item: Command | InputEvent) -> bool:
        """One step through the shared check; a new step is checked against the stacks' order."""
        before, count = copy.deepcopy(self.session.state), len(self.session.steps)
        accepted = try_step(self.session, item)
        if accepted and len(self.session.steps) > count:
            check_new_cards(before, list(self.session.steps[-1].events))
        return accepted

    @rule(rng=hs.randoms(use_true_random=False), turns=hs.integers(1, 25))
    def play_on(self, rng: random.Random, turns: int) -> None:
        """Legal moves as a table makes them (tests/support/autoplay.py): each must be accepted."""
        for _ in range(turns):
            if self.session.over:
                break
            command = next_command(self.session, rng)
            assert self.play(command), f"a legal {command} was refused"
        event(f"phase after play_on: {self.session.prompt()['phase']}")
        event(f"ravens after play_on: {st.ravens(self.session.state)}")

    @rule(command=malformed_command(sorted(RULES.commands), ARG_KEYS, NAMES))
    def malformed(self, command: Command) -> None:
        self.play(command)

    @rule(data=hs.data())
    def correction(self, data: hs.DataObject) -> None:
        """A well-formed correction the rules may refuse: any counters, any potion card."""
        args: dict[str, Any] = {}
        if data.draw(hs.booleans()):
            args["changes"] = data.draw(hs.dictionaries(
                hs.sampled_from(COUNTERS), hs.integers(-30, 30), max_size=3))
        if data.draw(hs.booleans()):
            args["potion"] = data.draw(potion_cards())
        if data.draw(hs.booleans()):
            args["remove_potion"] = data.draw(hs.integers(0, 4))
        accepted = self.play(Command("adjust", data.draw(hs.sampled_from(self.names)), args))
        event(f"correction accepted: {accepted}")

    @rule(data=hs.data())
    def decline(self, data: hs.DataObject) -> None:
        """Any seat says "No thanks" at any time: accepted only for what it is owed now or was
        given by itself since the last role was announced, and then exactly that goes back."""
        state = self.session.state
        who = data.draw(hs.sampled_from(self.names))
        seat = self.names.index(who)
        owed = [g for g in state["free_gains"] if g["seat"] == seat]
        waiting = st.phase(state) == "resolve" and st.turn(state) == seat
        before = {c: state["players"][seat][c] for c in COUNTERS}
        accepted = self.play(Command("abstain", who))
        event(f"decline accepted: {accepted}, waiting: {waiting}, given: {bool(owed)}")
        if accepted and not waiting:
            assert owed, "a decline with nothing to decline was accepted"
            after = self.session.state["players"][seat]
            assert {c: before[c] - after[c] for c in COUNTERS if before[c] != after[c]} \
                == {c: n for c, n in owed[-1]["changes"].items() if n}, (before, after, owed)

    @rule(data=hs.data())
    def any_resolve(self, data: hs.DataObject) -> None:
        """Resolve with well-formed choices the rules may refuse (a wrong stack, a third raven, a
        card worth less than the last, drops the supply lacks, more than a seat has); mostly in
        the shape the waiting effect takes, so that some are accepted."""
        state = self.session.state
        pending = state["pending"]
        who = (state["players"][pending[0]["seat"]]["name"] if pending
               else data.draw(hs.sampled_from(self.names)))
        drops = hs.dictionaries(hs.sampled_from(DROPS), hs.integers(0, 3), max_size=3)
        changes = hs.dictionaries(hs.sampled_from(COUNTERS), hs.integers(-4, 6), max_size=2)
        shapes = {
            BREW: hs.builds(lambda p, pay: {"potion": p, "pay": pay}, potion_cards(), drops),
            CHOOSE_DROPS: hs.builds(lambda d: {"drops": d}, drops),
            TRADE_DROP: hs.builds(lambda d: {"drop": d}, hs.sampled_from(DROPS)),
            TABLE: hs.builds(
                lambda c, o, p: {"changes": c, "others": o, **({"potion": p} if p else {})},
                changes, hs.dictionaries(hs.sampled_from(self.names), changes, max_size=2),
                hs.none() | potion_cards()),
            PAY: hs.just({}),
        }
        kind = effect_of(pending[0]).kind if pending else None
        event(f"any resolve while waiting for: {kind}")
        if kind in shapes and data.draw(hs.integers(0, 3)):
            args = data.draw(shapes[kind])
        else:
            args = data.draw(hs.one_of(*shapes.values()))
        accepted = self.play(Command("resolve", who, args))
        event(f"any resolve accepted: {accepted}")

    def teardown(self) -> None:
        if hasattr(self, "session"):
            event(f"steps: {min(self.steps // 10 * 10, 40)}+, commands: "
                  f"{len(self.session.done_steps()) // 50 * 50}+")
        super().teardown()


def potion_cards() -> hs.SearchStrategy[dict[str, Any]]:
    return hs.fixed_dictionaries(
        {"stack": hs.sampled_from(STACKS), "points": hs.integers(0, 12)},
        optional={"raven": hs.booleans()})


TestWitchsBrewTable = WitchsBrewTable.TestCase


(test_a_garbled_setup_is_a_setup_error_or_a_game,
 test_a_device_input_before_anything_is_a_refusal_or_a_step) = before_any_command(
    RULES, setups, ["players", "starter", "variants", "colours", "supply", "game", "variant"],
    check_the_box)
