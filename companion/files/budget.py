"""What a JSON text may cost before it is built: memory for a parsed value grows with its count
of values, not its bytes (a 30 MB game of empty lists is 1.5 GB of Python lists), so a text is
counted before ``json`` materialises it, and refused when it holds more values than its kind
allows. Counting never builds anything: brackets and commas outside strings, found by one
regular expression; a cheap upper bound (``str.count``) first, the exact count only when that
bound is over.

``Extent`` finds where one value ends in a text that is still arriving (a JSON list read an
element at a time), counting as it goes and keeping its place between reads, so a game is
measured once, whatever the size of the reads."""

from __future__ import annotations

import re

#: values one game of an import may hold (a long real game holds a few thousand)
GAME_VALUES = 500_000
#: values one line of a table script may hold (a command is a few dozen)
LINE_VALUES = 10_000
#: command lines one table script may hold (a long real game is a few thousand steps): each
#: step is kept by the session (about 2 KB), so this bounds a replay's memory
SCRIPT_STEPS = 50_000

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},"]')


class TooMany(ValueError):
    """More values than the kind allows: ``str`` says how many it allows."""


def _say(most: int) -> TooMany:
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
            elif token in "]}":
                self.depth -= 1
                if self.depth <= 0:
                    self.pos = match.end()
                    return self.pos
            else:
                self.count += 1
            if self.count > self.most:
                raise _say(self.most)
        self.pos = len(text)
        return None

    def shift(self, by: int) -> None:
        """The text lost ``by`` characters at its start (read past): keep the place."""
        self.pos -= by
