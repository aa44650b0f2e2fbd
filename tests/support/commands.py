"""Playing and refusing commands in tests, for every game."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.core import Command, RuleViolation, Session, Step


def do(s: Session, what: str, player: str | None = None, **args: Any) -> Step:
    return s.execute(Command(what, player, args))


def refused(s: Session, what: str, player: str | None = None, *, match: str, **args: Any) -> str:
    """Assert the command is refused with ``match`` (literal text) in its message and that
    neither the state nor the log changed. Returns the message."""
    state_before = copy.deepcopy(s.state)
    steps_before = list(s.steps)
    with pytest.raises(RuleViolation) as info:
        s.execute(Command(what, player, args))
    message = str(info.value)
    assert match in message, f"expected {match!r} in {message!r}"
    assert s.state == state_before
    assert s.steps == steps_before
    return message
