"""What every game's fuzz test (a Hypothesis ``RuleBasedStateMachine``) shares: garbage to throw
at the gate, and the checks that must hold after every step.

A step may only be accepted or refused with ``RuleViolation``; a refusal changes nothing; the
state is plain JSON; undo then redo gives back the identical state; a game exported as a table
script replays to the identical state. The game's own test adds its box limits.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any, Callable

from hypothesis import given, settings
from hypothesis import strategies as hs
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from companion.core import Command, GameRules, InputEvent, RuleViolation, Session, SetupError
from companion.script import export_lines, replay

#: Values that are wrong almost everywhere: the kinds of input the review found crashing.
ODD_SCALARS = hs.one_of(
    hs.none(), hs.booleans(), hs.floats(allow_nan=True, allow_infinity=True),
    hs.integers(min_value=-(2**70), max_value=2**70), hs.just(2.0), hs.just(10**4000),
    hs.sampled_from(["", " ", "²", "٣", "2", "1.0", "\ud800", "x\udfffy", "\x00", "RED",
                     "Witch", "spell", "p2.3", "c5", "cauldron", "a" * 600]),
    hs.text(max_size=12),
)


def garbage(max_leaves: int = 6) -> hs.SearchStrategy[Any]:
    """Any JSON-ish value, nested a little: scalars, lists, mappings with odd keys."""
    return hs.recursive(
        ODD_SCALARS,
        lambda inner: hs.one_of(
            hs.lists(inner, max_size=4),
            hs.dictionaries(hs.one_of(hs.text(max_size=8), hs.sampled_from(
                ["red", "gold", "stack", "points", "raven", "name", "magic", "variant", "player"])),
                inner, max_size=4)),
        max_leaves=max_leaves)


def malformed_command(commands: list[str], keys: list[str], players: list[str]) -> hs.SearchStrategy[Command]:
    """A command with a known or unknown name, a real, odd or missing player, and arguments
    drawn from the game's own keys (and typos) with garbage values."""
    names = hs.one_of(hs.sampled_from(commands), hs.sampled_from(["skip", "Undo", "", "brew "]))
    who = hs.one_of(hs.none(), hs.sampled_from(players),
                    hs.sampled_from([p.upper() for p in players] + ["Nobody", "\ud800"]))
    args = hs.dictionaries(hs.one_of(hs.sampled_from(keys), hs.text(max_size=6)), garbage(),
                           max_size=3)
    return hs.builds(Command, names, who, args)


def odd_input() -> hs.SearchStrategy[InputEvent]:
    """A button or die input from a device or script with odd ids and values."""
    ids = hs.one_of(hs.sampled_from(["seat1.claim", "seat9.pass", "undo", "redo", "next",
                                     "d1", "d2", "action_a", "magic_1", "die"]), hs.text(max_size=8))
    return hs.builds(InputEvent, hs.sampled_from(["button", "die", "dial"]), ids, garbage(3),
                     hs.just("script"))


def snapshot(session: Session) -> tuple[Any, list[Any]]:
    return copy.deepcopy(session.state), list(session.steps)


#: What the fuzz tests played, per game: steps accepted and refused (printed after the run by
#: tests/conftest.py, so every CI log carries the figures).
TALLY: Counter[tuple[str, str]] = Counter()


def try_step(session: Session, item: Command | InputEvent) -> bool:
    """Play one command or input. True if accepted; a refusal must be a RuleViolation that
    changes nothing (state and log identical)."""
    before = snapshot(session)
    game = session.rules.name
    try:
        if isinstance(item, InputEvent):
            session.handle_input(item)
        else:
            session.execute(item)
    except RuleViolation as refusal:
        assert str(refusal), "a refusal must say why"
        assert snapshot(session) == before, f"refused {item} but the state or log changed"
        TALLY[game, "refused"] += 1
        return False
    TALLY[game, "accepted"] += 1
    return True


def assert_json_round_trip(session: Session) -> None:
    state = session.state
    assert json.loads(json.dumps(state, allow_nan=False)) == state


def assert_undo_redo_identity(session: Session) -> None:
    """Undo then redo gives back the identical state (when the last step can be undone)."""
    if not session.can_undo or session.can_redo:
        return
    before = copy.deepcopy(session.state)
    session.undo()
    session.redo()
    assert session.state == before


def assert_export_replays(session: Session) -> None:
    """The exported table script replays, strictly, to the identical state."""
    lines = export_lines(session)
    assert replay(lines, strict=True).session.state == session.state


def assert_step_holds(session: Session, steps: int, check_box: Callable[[Any], None], *,
                      undo_every: int = 5, replay_every: int = 20) -> None:
    """The checks after every step of a game's machine: JSON state and summary, the box's
    limits; every few steps, undo/redo identity and export/replay identity (they cost a fold)."""
    assert_json_round_trip(session)
    json.dumps(session.summary(), allow_nan=False)
    check_box(session.state)
    if steps % undo_every == 0:
        assert_undo_redo_identity(session)
    if steps % replay_every == 0:
        assert_export_replays(session)


def assert_setup_plays_or_is_refused(rules: GameRules, setup: Any,
                                     check_box: Callable[[Any], None]) -> None:
    """A garbled setup is a SetupError that says why, or a game whose state is JSON and
    within the box."""
    try:
        session = Session(rules, setup)
    except SetupError as problem:
        assert str(problem)
        return
    json.dumps(session.state, allow_nan=False)
    check_box(session.state)


def before_any_command(rules: GameRules, setups: Callable[[], hs.SearchStrategy[dict[str, Any]]],
                       setup_keys: list[str], check_box: Callable[[Any], None], *,
                       most: int = 4) -> tuple[Callable[..., None], Callable[..., None]]:
    """A game's two tests of a table before its first command: a setup with up to ``most`` of
    ``setup_keys`` garbled is a SetupError or a game within the box; an odd device input on a
    new table is a refusal or a step. Each game's fuzz module binds them to its own names."""

    @settings(max_examples=settings().max_examples * 3)
    @given(config=hs.dictionaries(hs.sampled_from(setup_keys), garbage(4), max_size=most),
           base=setups())
    def test_a_garbled_setup_is_a_setup_error_or_a_game(config: dict[str, Any],
                                                        base: dict[str, Any]) -> None:
        assert_setup_plays_or_is_refused(rules, {**copy.deepcopy(base), **config}, check_box)

    @given(item=odd_input(), setup=setups())
    def test_a_device_input_before_anything_is_a_refusal_or_a_step(
            item: InputEvent, setup: dict[str, Any]) -> None:
        try_step(Session(rules, setup), item)

    return (test_a_garbled_setup_is_a_setup_error_or_a_game,
            test_a_device_input_before_anything_is_a_refusal_or_a_step)


class TableMachine(RuleBasedStateMachine):
    """The rules every game's machine shares: seat buttons (real and made-up ones), odd device
    inputs, undo and redo by anyone, and the checks after every step. A game's machine sets
    ``self.session`` and ``self.steps`` in its ``initialize``, names its ``check_box``, and may
    wrap ``play``."""

    #: Wrong values and types for the game's arguments (a strategy).
    odd_values: hs.SearchStrategy[Any] = ODD_SCALARS

    def check_box(self, state: Any) -> None:
        raise NotImplementedError

    def legal_command(self, session: Session, rng: Any) -> Command:
        """A move the table could make now (the game's autoplay)."""
        raise NotImplementedError

    def play(self, item: Command | InputEvent) -> bool:
        return try_step(self.session, item)

    def sit(self, rules: GameRules, setup: dict[str, Any], head_start: int, rng: Any) -> None:
        """A new table of ``setup``, then up to ``head_start`` of the game's legal moves (fewer
        when the game ends first): a machine's ``initialize`` starts here."""
        self.session = Session(rules, setup)
        self.steps = 0
        for _ in range(head_start):
            if self.session.over:
                break
            self.session.execute(self.legal_command(self.session, rng))

    @rule(seat=hs.integers(0, 7),
          action=hs.sampled_from(["claim", "so_be_it", "pass", "end", "next"]))
    def seat_button(self, seat: int, action: str) -> None:
        self.play(InputEvent("button", f"seat{seat}.{action}", None, "gpio"))

    @rule(item=odd_input())
    def odd_device_input(self, item: InputEvent) -> None:
        self.play(item)

    @rule(which=hs.sampled_from(["undo", "redo"]), player=hs.sampled_from([None, "Anna", "zed"]))
    def undo_redo(self, which: str, player: str | None) -> None:
        self.play(Command(which, player))

    @rule(data=hs.data())
    def one_wrong_argument(self, data: hs.DataObject) -> None:
        """A legal command with one argument replaced by a wrong value or type."""
        if self.session.over:
            return
        command = self.legal_command(self.session, data.draw(hs.randoms(use_true_random=False)))
        if command.args:
            key = data.draw(hs.sampled_from(sorted(command.args)))
            self.play(Command(command.do, command.player,
                              {**command.args, key: data.draw(self.odd_values)}))

    @invariant()
    def holds(self) -> None:
        self.steps += 1
        assert_step_holds(self.session, self.steps, self.check_box)

    def teardown(self) -> None:
        if hasattr(self, "session"):
            assert_undo_redo_identity(self.session)
            assert_export_replays(self.session)
