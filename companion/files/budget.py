"""What a JSON text may cost before it is built: memory for a parsed value grows with its count
of values, not its bytes (a 30 MB game of empty lists is 1.5 GB of Python lists), so a text is
counted before ``json`` materialises it, and refused when it holds more values than its kind
allows. Counting never builds anything: brackets and commas outside strings (a value is one or
two of them: the limits count them, so a list of N empty lists counts 2N), found by one
regular expression; a cheap upper bound (``str.count``) first, the exact count only when that
bound is over.

``Extent`` finds where one value ends in a text that is still arriving (a JSON list read an
element at a time), counting as it goes and keeping its place between reads, so a game is
measured once, whatever the size of the reads."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from companion.core.values import INT64_MAX, INT64_MIN, shown

#: values one game of an import may hold (a long real game holds a few thousand)
GAME_VALUES = 500_000
#: values one line of a table script may hold (a command is a few dozen)
LINE_VALUES = 10_000
#: command lines one table script may hold (a long real game is a few thousand steps): each
#: step is kept by the session (about 2 KB), so this bounds a replay's memory
SCRIPT_STEPS = 50_000

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},"]')


#: brackets nested deeper than this are said as such (Python's JSON parser stops near 1,000)
DEEP = 500


class TooMany(ValueError):
    """More values than the kind allows: ``str`` says how many it allows; ``deep`` when it
    was brackets nested past DEEP."""

    deep = False


def _say(most: int, depth: int) -> TooMany:
    if depth > DEEP:
        found = TooMany(f"its brackets are nested too deep (more than {DEEP} levels)")
        found.deep = True
        return found
    return TooMany(f"it holds more than {most:,} values, more than the companion reads for "
                   "one game")


def refuse_crowd(text: str, most: int) -> None:
    """TooMany when ``text`` (one JSON value) holds more than ``most`` values."""
    if text.count(",") + text.count("[") + text.count("{") < most:
        return
    extent = Extent(0, most)
    extent.advance(text)


class Extent:
    """One JSON value being found in a growing text from ``start``: ``advance`` returns where
    it ends (None while the text does not hold all of it yet), TooMany past ``most`` values."""

    def __init__(self, start: int, most: int) -> None:
        self.pos, self.depth, self.count, self.most = start, 0, 1, most

    def advance(self, text: str) -> int | None:
        for match in _TOKENS.finditer(text, self.pos):
            token = match.group()
            if token == '"':          # a string the text does not finish yet: read on
                self.pos = match.start()
                return None
            if token[0] == '"':
                continue
            if token in "[{":
                self.depth += 1
                self.count += 1
                if self.depth > DEEP:
                    raise _say(self.most, self.depth)
            elif token in "]}":
                self.depth -= 1
                if self.depth <= 0:
                    self.pos = match.end()
                    return self.pos
            else:
                self.count += 1
            if self.count > self.most:
                raise _say(self.most, self.depth)
        self.pos = len(text)
        return None

    def shift(self, by: int) -> None:
        """The text lost ``by`` characters at its start (read past): keep the place."""
        self.pos -= by


# -- numbers the game record can keep, checked while parsing -----------------------------------
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
    only after a refusal, so a good file is never walked. Text that is also broken after the
    number (the parser met the number first) names the game as a whole."""
    mark = _Marked()

    def kept(digits: str, read: Any) -> Any:
        try:
            return read(digits)
        except _TooBig:
            return mark

    try:   # the number came before a break further on: the number is what is refused
        value = json.loads(text, parse_constant=_no_constant, parse_int=lambda d: kept(d, _int64),
                           parse_float=lambda d: kept(d, _finite))
    except (ValueError, RecursionError):
        return "the game"
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


