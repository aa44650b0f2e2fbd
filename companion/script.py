"""Table scripts: a game as JSON lines. The first line is the setup, then one command or input
a line. ``replay`` plays a script; ``export`` writes a stored game as one. Replaying an export
gives the identical state, because automatic events are derived again by the same rules.

A script is typed by people and passed around, so any line may be anything: a line that is not
a command (bad JSON, brackets nested ten thousand deep, a number of five thousand digits) is
refused with its line number like a command the rules refuse. A setup that cannot be played is
a :class:`SetupError` naming its line: nothing can be replayed after it."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any, Iterable

from companion.core.engine import Session
from companion.core.errors import CompanionError, ScriptError, SetupError, StoreError
from companion.core.model import Command, InputEvent
from companion.files.budget import (
    LINE_VALUES, SCRIPT_STEPS, TooMany, _finite, _int64, _no_constant, _TooBig, field_of,
    refuse_crowd,
)
from companion.games import get_rules


@dataclass
class Replay:
    session: Session
    rejected: list[dict[str, Any]] = field(default_factory=list)

    def result(self) -> dict[str, Any]:
        return {**self.session.summary(), "rejected": self.rejected}


def _json(line: str) -> Any:
    """One line's JSON, or ScriptError saying in words why it cannot be read: counted before
    it is built (no more values than a line may hold, companion/files/budget.py), its whole
    numbers within SQLite's 64 bits and its other numbers finite."""
    try:
        refuse_crowd(line, LINE_VALUES)
        return json.loads(line, parse_constant=_no_constant, parse_int=_int64,
                          parse_float=_finite)
    except TooMany as problem:
        raise ScriptError(f"not JSON the companion can read: "
                          f"{str(problem).replace('one game', 'one line')}") from None
    except _TooBig as problem:
        raise ScriptError(f"{field_of(line)}: {problem}") from None
    except json.JSONDecodeError as problem:
        raise ScriptError(f"not JSON ({problem.msg}, column {problem.colno})") from None
    except RecursionError:
        raise ScriptError("not JSON the companion can read: its brackets are nested too "
                          "deep") from None
    except ValueError:  # Python's limit on the digits of a whole number
        raise ScriptError(f"holds a number of more than {sys.get_int_max_str_digits()} digits; "
                          "no game counts that high") from None


def parse_setup(line: str) -> dict[str, Any]:
    """The setup line as a mapping naming the game, or ScriptError."""
    setup = _json(line)
    if not isinstance(setup, dict) or not isinstance(setup.get("game"), str):
        raise ScriptError('the setup is a JSON object naming the game, e.g. {"game": '
                          '"witchs_brew", "players": ["Anna", "Barb", "Carl"]}')
    return setup


def parse_line(line: str) -> Command | InputEvent:
    """One script line as a Command (``{"do": ...}``) or an InputEvent (``{"input": ...}``)."""
    data = _json(line)
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


class NotStored(StoreError):
    """A step of a replay with ``--db`` that the database did not take: the replay stops there
    (the steps before it are stored)."""


def replay(lines: Iterable[str], *, strict: bool = False, store: Any = None) -> Replay:
    """Play a script. A refused line is listed in ``rejected`` and the replay goes on; with
    ``strict`` the first refusal raises it (ScriptError naming the line). A setup line that
    cannot be played raises SetupError naming it, strict or not; a step the store cannot
    save raises NotStored naming its line, and nothing after it is tried."""
    numbered = iter(_lines(lines))
    first = next(numbered, None)
    if first is None:
        raise SetupError("the script is empty: its first line is the setup")
    try:
        setup = parse_setup(first[1])
        rules = get_rules(setup["game"])
        session = store.new_game(rules, setup) if store is not None else Session(rules, setup)
    except StoreError as problem:   # a full card: not even the setup was stored
        raise NotStored(f"line {first[0]}: {problem}") from None
    except CompanionError as problem:
        raise SetupError(f"line {first[0]}: {problem}") from None
    result = Replay(session)
    for count, (number, text) in enumerate(numbered, 1):
        if count > SCRIPT_STEPS:   # each step is kept by the session: memory is bounded here
            raise ScriptError(f"line {number}: the script holds more than {SCRIPT_STEPS:,} "
                              "steps, more than the companion replays in one game")
        try:
            item = parse_line(text)
            if isinstance(item, Command):
                session.execute(item)
            else:
                session.handle_input(item)
        except StoreError as problem:   # not saved: every later step would be refused too
            raise NotStored(f"line {number}: {problem}") from None
        except CompanionError as refusal:
            if strict:
                raise ScriptError(f"line {number}: {refusal}") from refusal
            result.rejected.append({"line": number, "reason": str(refusal)})
    return result


def export_lines(session: Session, *, ascii_only: bool = False) -> list[str]:
    """The game as a script: its setup, then the commands that stand (undone ones left out).
    Names are written as typed; ``ascii_only`` (for a terminal that cannot show them), or a
    character UTF-8 cannot hold, writes them as JSON escapes, which replay the same."""
    setup = {"game": session.rules.name, **session.setup}
    items = [setup] + [step.command.to_dict() for step in session.done_steps()]
    return [_json_line(item, ascii_only) for item in items]


def _json_line(item: Any, ascii_only: bool) -> str:
    text = json.dumps(item, ensure_ascii=ascii_only)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(item)
    return text
