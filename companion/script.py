"""Table scripts: a game as JSON lines. The first line is the setup, then one command or input
a line. ``replay`` plays a script; ``export`` writes a stored game as one. Replaying an export
gives the identical state, because automatic events are derived again by the same rules."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable

from companion.core.engine import Session
from companion.core.errors import CompanionError, ScriptError
from companion.core.model import Command, InputEvent
from companion.games import get_rules


@dataclass
class Replay:
    session: Session
    rejected: list[dict[str, Any]] = field(default_factory=list)

    def result(self) -> dict[str, Any]:
        return {**self.session.summary(), "rejected": self.rejected}


def parse_setup(line: str) -> dict[str, Any]:
    try:
        setup = json.loads(line)
    except json.JSONDecodeError as problem:
        raise ScriptError(f"line 1: the setup is not JSON ({problem.msg})") from None
    if not isinstance(setup, dict) or not isinstance(setup.get("game"), str):
        raise ScriptError('line 1: the setup names the game, e.g. {"game": "witchs_brew", '
                          '"players": ["Anna", "Barb", "Carl"]}')
    return setup


def parse_line(line: str) -> Command | InputEvent:
    """One script line as a Command (``{"do": ...}``) or an InputEvent (``{"input": ...}``)."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as problem:
        raise ScriptError(f"not JSON ({problem.msg})") from None
    if not isinstance(data, dict):
        raise ScriptError('a line is a JSON object: {"do": ...} or {"input": ...}')
    if "do" in data and "input" in data:
        raise ScriptError('a line is either a command ("do") or an input ("input"), not both')
    if isinstance(data.get("do"), str):
        if "player" in data and not isinstance(data["player"], str):
            raise ScriptError("player: give the player's name")
        return Command.from_dict(data)
    if isinstance(data.get("input"), str):
        if not isinstance(data.get("id"), str):
            raise ScriptError('an input needs its id, e.g. {"input": "button", "id": "seat2.claim"}')
        return InputEvent(data["input"], data["id"], data.get("value"), source="script")
    raise ScriptError('a line needs "do" (a command) or "input" (a button or die)')


def _lines(lines: Iterable[str]) -> Iterable[tuple[int, str]]:
    """Numbered lines, skipping blank ones and # comments."""
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if text and not text.startswith("#"):
            yield number, text


def replay(lines: Iterable[str], *, strict: bool = False, store: Any = None) -> Replay:
    """Play a script. A refused line is listed in ``rejected`` and the replay goes on; with
    ``strict`` the first refusal raises it (ScriptError naming the line)."""
    numbered = iter(_lines(lines))
    first = next(numbered, None)
    if first is None:
        raise ScriptError("the script is empty: its first line is the setup")
    setup = parse_setup(first[1])
    rules = get_rules(setup["game"])
    session = store.new_game(rules, setup) if store is not None else Session(rules, setup)
    result = Replay(session)
    for number, text in numbered:
        try:
            item = parse_line(text)
            if isinstance(item, Command):
                session.execute(item)
            else:
                session.handle_input(item)
        except CompanionError as refusal:
            if strict:
                raise ScriptError(f"line {number}: {refusal}") from refusal
            result.rejected.append({"line": number, "reason": str(refusal)})
    return result


def export_lines(session: Session) -> list[str]:
    """The game as a script: its setup, then the commands that stand (undone ones left out)."""
    setup = {"game": session.rules.name, **session.setup}
    out = [json.dumps(setup, ensure_ascii=False)]
    out += [json.dumps(step.command.to_dict(), ensure_ascii=False) for step in session.done_steps()]
    return out
