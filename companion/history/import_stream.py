"""A file to import read one game at a time (``companion import``), so memory stays bounded by
the largest game, not the file: JSON lines a line at a time, a JSON list (``export --all
--format json``) an element at a time with a decoder over a buffer that never holds more than
one game. A game bigger than the ``game`` limit (companion/files/read.py), or holding more
values than a game may (companion/files/budget.py, counted before it is built), is refused
naming its line; bytes that are not UTF-8 are refused naming theirs. The list is read by a
position that moves on, never by cutting the text read so far: time grows with the file,
not with the count of its elements times the buffer."""

from __future__ import annotations

import codecs
import io
import json
import re
from typing import Any, BinaryIO, Iterator

from companion.files.budget import GAME_VALUES, Extent, TooMany
from companion.files.read import LIMITS, limit
from companion.history.reading import (
    SURROGATE, ImportRefused, _finite, _int64, _no_constant, _parse, _TooBig, field_of,
)
from companion.store.schema import unstorable

CHUNK = 1 << 20
WHITESPACE = " \t\r\n"
_SPACE = re.compile(r"[ \t\r\n]*")


def _too_big(where: str) -> ImportRefused:
    return ImportRefused(f"{where}: one game bigger than the {limit('game') >> 20} MB the "
                         f"companion reads for a game (set {LIMITS['game'][1]} to allow more)")


def _text(data: bytes, line: int) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as bad:
        line += data.count(b"\n", 0, bad.start)
        raise ImportRefused(f"line {line}: not UTF-8 text (byte 0x{data[bad.start]:02x})") from None


class _Again(io.RawIOBase):
    """The bytes already read to tell the format, then the rest of the file."""

    def __init__(self, head: bytes, file: BinaryIO) -> None:
        self.head, self.file = head, file

    def readable(self) -> bool:
        return True

    def readinto(self, into: Any) -> int:
        if self.head:
            n = min(len(into), len(self.head))
            into[:n], self.head = self.head[:n], self.head[n:]
            return n
        data = self.file.read(len(into))
        into[:len(data)] = data
        return len(data)


def stream_records(file: BinaryIO) -> Iterator[tuple[str, Any]]:
    """The file's games as (where, value), as read_records gives them, one at a time."""
    head = file.read(3)
    head = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    while head.strip() == b"" and (more := file.read(1)):
        head += more
    stream = io.BufferedReader(_Again(head, file), CHUNK)
    if head.lstrip().startswith(b"["):
        yield from _list(stream)
    else:
        yield from _lines(stream)


def _lines(file: BinaryIO) -> Iterator[tuple[str, Any]]:
    most = limit("game")
    number = 0
    while raw := file.readline(most + 1):
        number += 1
        if len(raw) > most and not raw.endswith(b"\n"):
            raise _too_big(f"line {number}")
        text = _text(raw, number).rstrip("\r\n")
        if text.strip():
            yield f"line {number}", _parse(f"line {number}", text)


def _list(file: BinaryIO) -> Iterator[tuple[str, Any]]:
    decoder = json.JSONDecoder(parse_constant=_no_constant, parse_int=_int64,
                               parse_float=_finite)
    most = limit("game")
    utf8 = codecs.getincrementaldecoder("utf-8")()
    text, at, line, index, ended = "", 0, 1, 0, False

    def fill() -> bool:
        """More of the file after ``text``; what was read past is dropped first."""
        nonlocal text, at, ended
        if ended:
            return False
        data = file.read(CHUNK)
        try:   # a character split between two reads waits for the next
            more = utf8.decode(data, final=not data)
        except UnicodeDecodeError as bad:
            where = line + text.count("\n", at) + data.count(b"\n", 0, bad.start)
            raise ImportRefused(f"line {where}: not UTF-8 text (byte "
                                f"0x{data[bad.start]:02x})") from None
        text, dropped = text[at:] + more, at
        at = 0
        if extent is not None:
            extent.shift(dropped)
        ended = not data
        return bool(data)

    def skip() -> str:
        nonlocal at, line
        while True:
            end = _SPACE.match(text, at).end()
            line += text.count("\n", at, end)
            at = end
            if at < len(text) or not fill():
                return text[at:at + 1]

    extent: Extent | None = None
    skip()
    at += 1   # the "["
    first = True
    while True:
        mark = skip()
        if mark == "]":
            at += 1
            if skip():
                raise ImportRefused(f"line {line}: not JSON (something after the list's end)")
            return
        if not first:
            if mark != ",":
                raise ImportRefused(f"line {line}: not JSON (expected ',' or ']' after game "
                                    f"{index})")
            at += 1
            mark = skip()
        first = False
        index += 1
        where = f"game {index} of the list"
        start = at
        if mark in "[{" and mark:   # found whole, and counted, before it is built
            extent = Extent(at, GAME_VALUES)
            try:
                while extent.advance(text) is None:
                    if extent.pos - at > most:
                        raise _too_big(where)
                    if not fill():
                        break
            except TooMany as bad:
                raise ImportRefused(f"{where}: {bad}") from None
            start, extent = at, None
        while True:
            try:
                value, end = decoder.raw_decode(text, start)
                break
            except _TooBig as bad:
                raise ImportRefused(f"{where}: {field_of(_cut(text, start))}: {bad}") from None
            except json.JSONDecodeError as bad:
                if len(text) - start > most:
                    raise _too_big(where) from None
                if not fill():
                    where_line = line + text.count("\n", start, bad.pos)
                    raise ImportRefused(f"line {where_line}: not JSON ({bad.msg} at column "
                                        f"{bad.colno})") from None
                start = at
            except (ValueError, RecursionError) as bad:
                raise ImportRefused(f"{where}: not JSON ({str(bad)[:80]})") from None
        if end - start > most:
            raise _too_big(where)
        line += text.count("\n", start, end)
        game = text[start:end]
        at = end
        if SURROGATE.search(game):
            problem = unstorable(value, "the game")
            if problem:
                raise ImportRefused(f"{where}: {problem.replace('; nothing was recorded', '')}")
        yield where, value


def _cut(text: str, start: int) -> str:
    """The one value at ``start`` of ``text``, for naming a field after a refusal."""
    value_end = json.JSONDecoder(parse_constant=lambda w: None).raw_decode(text, start)[1]
    return text[start:value_end]
