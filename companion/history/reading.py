"""Reading a file to import: JSON text to values, refused naming its line and field before
anything is built or written. A game is counted before it is parsed (companion/files/budget.py:
no more values than a game may hold), its whole numbers kept within SQLite's 64 bits and its
other numbers finite while parsing (never ``Infinity``), a lone surrogate refused; only a
refused text is parsed again, to name the field."""

from __future__ import annotations

import json
import re
from typing import Any

from companion.core.errors import CompanionError
from companion.core.values import shown
from companion.files.budget import (  # noqa: F401 (import_stream reads them here)
    GAME_VALUES, TooMany, _finite, _int64, _no_constant, _TooBig, field_of, refuse_crowd,
)
from companion.store.schema import unstorable


class ImportRefused(CompanionError, ValueError):
    """A file, or a game in it, that cannot be imported: names the line and the field."""



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


