"""The dice tray's line protocol, as pure functions: bytes in, typed messages out.

No serial port here (see ``docs/dice-protocol.md`` for the protocol itself). Two pieces:

* :class:`LineSplitter` cuts a byte stream into lines. It never holds more than ``max_len``
  bytes, whatever arrives: a line that grows past the limit is reported once as
  :class:`Overlong` and everything up to the next line end is thrown away.
* :func:`parse_line` turns one line into a message (:class:`Hello`, :class:`DieSettled`,
  :class:`Roll`, :class:`Moving`, :class:`ButtonPress`, ...) or a :class:`LineError`
  (:class:`Malformed` for lines to log and ignore, :class:`Refused` for a face value the die
  cannot show, which the app should show to the table).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, Union

MAX_LINE = 80            # bytes in a line, not counting its end (LF, CRLF or CR)
MAX_DICE_PER_ROLL = 12
MAX_FACE = 999           # three digits at most on the wire
DEFAULT_FACES = (1, 6)
LINE_ENDS = b"\r\n"

DIE_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,15}\Z")
INPUT_ID = re.compile(r"[a-z][a-z0-9_]{0,23}(\.[a-z][a-z0-9_]{0,23})?\Z")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,31}\Z")
VALUE = re.compile(r"[0-9]{1,3}\Z")
_PRINTABLE = re.compile(rb"[\t\x20-\x7e]*\Z")


# -- messages from the tray -----------------------------------------------------------------
@dataclass(frozen=True)
class Hello:
    """``HELLO <name> <version> [anything]``: the tray says who it is."""

    name: str
    version: str
    extra: str = ""

    def __str__(self) -> str:
        return f"{self.name} {self.version}" + (f" ({self.extra})" if self.extra else "")


@dataclass(frozen=True)
class DieSettled:
    """``DIE <id> <value>``: one die came to rest showing ``value``."""

    die: str
    value: int


@dataclass(frozen=True)
class Roll:
    """``ROLL <id>=<v> ...``: several dice thrown together came to rest. ``dice`` keeps the
    order of the line."""

    dice: tuple[tuple[str, int], ...]

    def as_dict(self) -> dict[str, int]:
        return dict(self.dice)


@dataclass(frozen=True)
class Moving:
    """``MOVING <id>``: a die is rolling, tumbling or in a hand. Never a result."""

    die: str


@dataclass(frozen=True)
class ButtonPress:
    """``BTN <input-id> [HOLD]``: a button on a USB button box."""

    input_id: str
    hold: bool = False


@dataclass(frozen=True)
class Comment:
    """``# ...``: for people reading the wire; ignored."""

    text: str


@dataclass(frozen=True)
class Pong:
    """``PONG [token]``: the answer to the host's ``PING [token]``."""

    token: str = ""


@dataclass(frozen=True)
class DeviceError:
    """``ERR <text>``: the tray reports a problem of its own (camera, sensor ...)."""

    text: str


# -- messages from the host (the simulator reads these; the reader ignores an echo) ----------
@dataclass(frozen=True)
class HelloQuery:
    """``HELLO?``: the host asks for the greeting."""


@dataclass(frozen=True)
class Ping:
    """``PING [token]``: the host asks for a ``PONG`` with the same token."""

    token: str = ""


# -- what cannot be used --------------------------------------------------------------------
@dataclass(frozen=True)
class LineError:
    """A line that gives no message. ``line`` is printable (non-ASCII bytes escaped)."""

    line: str
    reason: str

    def __str__(self) -> str:
        return f"{self.reason}: {self.line!r}" if self.line else self.reason


@dataclass(frozen=True)
class Malformed(LineError):
    """Not a line of the protocol (unknown word, wrong shape, not ASCII): log and ignore."""


@dataclass(frozen=True)
class Refused(LineError):
    """A well-formed result that cannot be true (a 9 on a six-sided die): show and ignore.
    Nothing of the line is used, not even the good dice of a ``ROLL``."""

    die: str = ""
    value: int = 0


Message = Union[Hello, DieSettled, Roll, Moving, ButtonPress, Comment, Pong, DeviceError,
                HelloQuery, Ping]
Parsed = Union[Message, LineError]


# -- face ranges ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Faces:
    """Which values each die can show: ``default`` (min, max) for every die, ``per_die`` for
    the dice that differ (``{"d8": (1, 8), "action": (0, 5)}``)."""

    default: tuple[int, int] = DEFAULT_FACES
    per_die: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for die, (low, high) in {"*": self.default, **self.per_die}.items():
            if not 0 <= low < high <= MAX_FACE:
                raise ValueError(f"faces of {die}: need 0 <= min < max <= {MAX_FACE}, "
                                 f"got ({low}, {high})")

    def range_of(self, die: str) -> tuple[int, int]:
        return self.per_die.get(die, self.default)

    def check(self, die: str, value: int) -> str | None:
        """None if ``die`` can show ``value``, else the reason it cannot."""
        low, high = self.range_of(die)
        if low <= value <= high:
            return None
        return f"die {die} reported {value}, which is not a face of it ({low}-{high})"


# -- splitting the stream into lines ---------------------------------------------------------
@dataclass(frozen=True)
class Overlong:
    """A line that passed ``limit`` bytes; it is dropped up to the next line end."""

    head: bytes
    limit: int

    def error(self) -> Malformed:
        return Malformed(printable(self.head) + "...",
                         f"line longer than {self.limit} bytes, dropped up to its end")


class LineSplitter:
    """Cuts bytes into lines at LF, CR or CRLF (an empty line between CR and LF is skipped,
    so CRLF split across two reads is still one line end).

    Memory stays bounded: at most ``max_len`` bytes are buffered. When a line passes that, one
    :class:`Overlong` (holding the first ``max_len`` bytes) is returned and the rest of the line
    is discarded as it arrives, however long it goes on.
    """

    def __init__(self, max_len: int = MAX_LINE) -> None:
        if max_len < 1:
            raise ValueError("max_len must be at least 1")
        self.max_len = max_len
        self._buf = bytearray()
        self._discarding = False

    @property
    def buffered(self) -> int:
        """Bytes held for the line in progress (never more than ``max_len``)."""
        return len(self._buf)

    @property
    def discarding(self) -> bool:
        """True while the rest of an overlong line is being thrown away."""
        return self._discarding

    def feed(self, data: bytes) -> list[bytes | Overlong]:
        """Take the next bytes; return the lines they complete (without line ends)."""
        data = bytes(data)
        out: list[bytes | Overlong] = []
        start, size = 0, len(data)
        while start < size:
            end = _find_line_end(data, start)
            stop = size if end < 0 else end
            if not self._discarding:
                room = self.max_len - len(self._buf)
                if stop - start > room:
                    self._buf += data[start:start + room]
                    out.append(Overlong(bytes(self._buf), self.max_len))
                    self._buf.clear()
                    self._discarding = True
                else:
                    self._buf += data[start:stop]
            if end < 0:
                break
            if self._discarding:
                self._discarding = False
            elif self._buf:
                out.append(bytes(self._buf))
                self._buf.clear()
            start = end + 1
        return out

    def reset(self) -> None:
        """Forget the line in progress (after a reconnect)."""
        self._buf.clear()
        self._discarding = False


def _find_line_end(data: bytes, start: int) -> int:
    lf, cr = data.find(b"\n", start), data.find(b"\r", start)
    return cr if lf < 0 else lf if cr < 0 else min(lf, cr)


# -- parsing one line ----------------------------------------------------------------------
def printable(raw: bytes | str) -> str:
    """The line as safe text for a log or the screen: anything but printable ASCII escaped
    as ``\\xNN``."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogateescape")
    return "".join(chr(b) if 0x20 <= b < 0x7F else f"\\x{b:02x}" for b in raw)


def parse_line(line: bytes | str, faces: Faces | None = None) -> Parsed:
    """One line (without its end) -> a message, or a :class:`LineError` saying why not.

    Keywords are case-insensitive; ids are kept as sent. Words are separated by spaces or
    tabs. An empty line is a :class:`Comment` with no text.
    """
    faces = faces or _DEFAULT
    raw = line.encode("utf-8", "surrogateescape") if isinstance(line, str) else bytes(line)
    if len(raw) > MAX_LINE:
        return Malformed(printable(raw[:MAX_LINE]) + "...", f"line longer than {MAX_LINE} bytes")
    if not _PRINTABLE.match(raw):
        return Malformed(printable(raw), "not printable ASCII")
    text = raw.decode("ascii").strip()
    if not text:
        return Comment("")
    if text.startswith("#"):
        return Comment(text[1:].strip())
    word, *args = text.split()
    word = word.upper()
    parser = _PARSERS.get(word)
    if parser is None:
        return Malformed(text, f"unknown line {word!r}")
    return parser(text, args, faces)


def _hello(text: str, args: list[str], faces: Faces) -> Parsed:
    if len(args) < 2 or not NAME.match(args[0]) or not NAME.match(args[1]):
        return Malformed(text, "a greeting is HELLO <name> <version>")
    return Hello(args[0], args[1], " ".join(args[2:]))


def _hello_query(text: str, args: list[str], faces: Faces) -> Parsed:
    return HelloQuery() if not args else Malformed(text, "HELLO? takes nothing")


def _die(text: str, args: list[str], faces: Faces) -> Parsed:
    if len(args) != 2:
        return Malformed(text, "a die line is DIE <id> <value>")
    die, value = args
    if not DIE_ID.match(die):
        return Malformed(text, f"{die!r} is not a die id")
    if not VALUE.match(value):
        return Malformed(text, f"{value!r} is not a face value")
    reason = faces.check(die, int(value))
    if reason:
        return Refused(text, reason, die, int(value))
    return DieSettled(die, int(value))


def _roll(text: str, args: list[str], faces: Faces) -> Parsed:
    if not args:
        return Malformed(text, "a roll is ROLL <id>=<value> ...")
    if len(args) > MAX_DICE_PER_ROLL:
        return Malformed(text, f"more than {MAX_DICE_PER_ROLL} dice in one roll")
    dice: list[tuple[str, int]] = []
    for arg in args:
        die, eq, value = arg.partition("=")
        if not eq or not DIE_ID.match(die) or not VALUE.match(value):
            return Malformed(text, f"{arg!r} is not <id>=<value>")
        if any(die == seen for seen, _ in dice):
            return Malformed(text, f"die {die} twice in one roll")
        dice.append((die, int(value)))
    for die, value in dice:
        reason = faces.check(die, value)
        if reason:
            return Refused(text, reason + "; the whole roll is ignored", die, value)
    return Roll(tuple(dice))


def _moving(text: str, args: list[str], faces: Faces) -> Parsed:
    if len(args) != 1 or not DIE_ID.match(args[0]):
        return Malformed(text, "a moving die is MOVING <id>")
    return Moving(args[0])


def _button(text: str, args: list[str], faces: Faces) -> Parsed:
    if not 1 <= len(args) <= 2 or not INPUT_ID.match(args[0]):
        return Malformed(text, "a button is BTN <input-id> [HOLD], like BTN seat2.claim")
    if len(args) == 2 and args[1].upper() != "HOLD":
        return Malformed(text, f"{args[1]!r}: only HOLD may follow a button id")
    return ButtonPress(args[0], hold=len(args) == 2)


def _token(message: type[Ping] | type[Pong]):
    """The parser of ``PING [token]`` or ``PONG [token]``: one rule, two directions."""
    word = message.__name__.upper()

    def parse(text: str, args: list[str], faces: Faces) -> Parsed:
        return message(" ".join(args)) if len(args) <= 1 else Malformed(
            text, f"{word} takes one token")

    return parse


def _error(text: str, args: list[str], faces: Faces) -> Parsed:
    return DeviceError(" ".join(args) or "(no text)")


_PARSERS = {
    "HELLO": _hello, "HELLO?": _hello_query, "DIE": _die, "ROLL": _roll, "MOVING": _moving,
    "BTN": _button, "PING": _token(Ping), "PONG": _token(Pong), "ERR": _error,
}
_DEFAULT = Faces()


# -- writing lines (the simulator and the reader's queries) ---------------------------------
def format_line(message: Message) -> str:
    """The wire text of a message, without its line end."""
    if isinstance(message, Hello):
        return " ".join(filter(None, ("HELLO", message.name, message.version, message.extra)))
    if isinstance(message, DieSettled):
        return f"DIE {message.die} {message.value}"
    if isinstance(message, Roll):
        return "ROLL " + " ".join(f"{d}={v}" for d, v in message.dice)
    if isinstance(message, Moving):
        return f"MOVING {message.die}"
    if isinstance(message, ButtonPress):
        return f"BTN {message.input_id}" + (" HOLD" if message.hold else "")
    if isinstance(message, Comment):
        return f"# {message.text}".rstrip()
    if isinstance(message, (Ping, Pong)):
        return f"{type(message).__name__.upper()} {message.token}".rstrip()
    if isinstance(message, DeviceError):
        return f"ERR {message.text}"
    if isinstance(message, HelloQuery):
        return "HELLO?"
    raise TypeError(f"not a protocol message: {message!r}")
