"""Reading a file to import: JSON text to values, refused naming its line and field before
anything is built or written. A game is counted before it is parsed (companion/files/budget.py:
no more values than a game may hold), its whole numbers kept within SQLite's 64 bits and its
other numbers finite while parsing (never ``Infinity``), a lone surrogate refused; only a
refused text is parsed again, to name the field."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from companion.core.errors import CompanionError
from companion.core.gate import INT64_MAX, INT64_MIN, shown
from companion.files.budget import GAME_VALUES, TooMany, refuse_crowd
from companion.store.schema import unstorable


class ImportRefused(CompanionError, ValueError):
    """A file, or a game in it, that cannot be imported: names the line and the field."""



def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a number JSON allows")


class _TooBig(ValueError):
    pass


def _int64(digits: str) -> int:
    """A whole number as JSON gives it, refused beyond what the file can keep (SQLite's 64
    bits): checked while parsing, not by walking every value afterwards."""
    value = int(digits)
    if not INT64_MIN <= value <= INT64_MAX:
        raise _TooBig(f"{shown(value)} is more than the game record can keep (whole "
                      f"numbers up to {INT64_MAX:,} either way)")
    return value


def _finite(digits: str) -> float:
    """A number with a fraction or an exponent, refused when a float cannot hold it (1e400
    would be stored as Infinity, which no JSON reader takes back)."""
    value = float(digits)
    if not math.isfinite(value):
        raise _TooBig(f"{shown(digits, 40)} is too large a number for the game record (it "
                      "would be stored as Infinity)")
    return value


class _Marked:
    """A number the file cannot keep, in place, while its field is looked for."""


def field_of(text: str) -> str:
    """Where in ``text`` (one JSON value) the first number the file cannot keep sits, as a
    field path (``stored.log[3].command.amount``): parsed again with the numbers marked,
    only after a refusal, so a good file is never walked."""
    mark = _Marked()

    def kept(digits: str, read: Any) -> Any:
        try:
            return read(digits)
        except _TooBig:
            return mark

    value = json.loads(text, parse_constant=_no_constant,
                       parse_int=lambda d: kept(d, _int64), parse_float=lambda d: kept(d, _finite))
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        at, item = stack.pop()
        if item is mark:
            return at or "the game"
        if isinstance(item, dict):
            stack.extend((f"{at}.{k}" if at else k, v) for k, v in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((f"{at}[{i}]", v) for i, v in reversed(list(enumerate(item))))
    return "the game"


#: A \u escape of half a surrogate pair: only then is a parsed line walked for a lone one.
SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _parse(where: str, text: str) -> Any:
    try:
        refuse_crowd(text, GAME_VALUES)   # counted before anything is built
        value = json.loads(text, parse_constant=_no_constant, parse_int=_int64,
                           parse_float=_finite)
    except TooMany as bad:
        raise ImportRefused(f"{where}: {bad}") from None
    except json.JSONDecodeError as bad:
        line = where if not where.startswith("line ") else f"line {int(where[5:]) + bad.lineno - 1}"
        raise ImportRefused(f"{line}: not JSON ({bad.msg} at column {bad.colno})") from None
    except _TooBig as bad:
        raise ImportRefused(f"{where}: {field_of(text)}: {bad}") from None
    except (ValueError, RecursionError) as bad:
        raise ImportRefused(f"{where}: not JSON ({_words(bad)})") from None
    if SURROGATE.search(text):
        problem = unstorable(value, "the game")
        if problem:
            raise ImportRefused(f"{where}: {problem.replace('; nothing was recorded', '')}")
    return value


def read_records(lines: list[str]) -> list[tuple[str, Any]]:
    """The file's games as (where, value): ``line N`` of JSON lines, or ``game N of the list``
    of a JSON list (``export --all --format json``). ImportRefused naming the line otherwise,
    also for a value the file cannot keep (a number beyond 64 bits, a lone surrogate)."""
    text = "\n".join(lines)
    if text.lstrip().startswith("["):
        items = _parse("line 1", text)
        if not isinstance(items, list):
            raise ImportRefused("line 1: not a list of games")
        return [(f"game {i} of the list", item) for i, item in enumerate(items, 1)]
    out = []
    for i, line in enumerate(lines, 1):
        if line.strip():
            out.append((f"line {i}", _parse(f"line {i}", line)))
    return out


def _words(problem: BaseException) -> str:
    return shown(str(problem) or type(problem).__name__, 80)[1:-1]


