"""Smart dice over Bluetooth LE, as pure functions: one notification's bytes in, a reading out.

No radio and no ``bleak`` here, so every byte a die can send is tested from recordings and
fuzzed. Two makes (``docs/hardware.md``, "Smart dice", cites the sources):

* **Pixels** (GameWithPixels): the messages of their Communications Protocol. The first byte
  is the message type: ``RollState`` is ``3, state, face index``; ``BatteryLevel`` is ``34,
  level, state``; the legacy ``IAmADie`` answer to ``WhoAreYou`` (``1``) is 22 bytes with the
  battery level at byte 20. Roll states: 1 rolled, 2 handling, 3 rolling, 4 crooked, 5 on face
  (set down without a roll), 0 unknown. Only *rolled* is a value.
* **GoDice** (Particula): the frames the ``godice`` package reads: ``R`` rolling, ``S`` + x y z
  stable, ``FS``/``TS``/``MS`` + x y z fake-, tilt- and move-stable, ``Bat`` + level, ``Col`` +
  colour. Which face an x y z vector is stays ``godice``'s (its D6 shell): its licence lets us
  use the package, not copy or change it. :func:`godice_frame` only says whether a frame has one
  of those shapes (``godice`` itself raises on a short one) and what kind it is.

A reading is :class:`Rolled` (a value), :class:`Unsettled` (rolling, in a hand, tilted, moved:
never a value), :class:`Battery`, :class:`Colour`, :class:`Ignored` (a well-formed message
we do not use) or :class:`Garbage` (to count and drop).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Union

MAX_NOTIFICATION = 244      # bytes: the most one BLE notification carries (MTU 247 - 3)

# -- the two makes' GATT ids ----------------------------------------------------------------
PIXELS = "pixels"
GODICE = "godice"
MAKES = (PIXELS, GODICE)
MAKE_WORDS = {PIXELS: "Pixels", GODICE: "GoDice"}
#: Pixels: service, notify and write characteristics, as the Pixels libraries name them
#: (``PixelsBluetoothIds``): today's dice, and the legacy ones the Communications Protocol
#: document gives (their notify characteristic has the service's own id).
PIXELS_SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
PIXELS_NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
PIXELS_WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
PIXELS_LEGACY_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
PIXELS_LEGACY_NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
PIXELS_LEGACY_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
#: (notify, write) for each generation, today's first
PIXELS_CHARACTERISTICS = ((PIXELS_NOTIFY, PIXELS_WRITE), (PIXELS_LEGACY_NOTIFY, PIXELS_LEGACY_WRITE))
#: GoDice: the Nordic UART service; ``godice`` finds its characteristics itself.
GODICE_NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
GODICE_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
GODICE_NAME_PREFIX = "GoDice"

# -- Pixels messages ---------------------------------------------------------------------------
WHO_ARE_YOU = bytes([1])
I_AM_A_DIE, ROLL_STATE, BATTERY_LEVEL = 2, 3, 34
LEGACY_I_AM_A_DIE_SIZE = 22
ROLLED = 1
#: roll state -> what the table is told (None: a value)
PIXELS_STATES = {0: "not settled", 1: None, 2: "in a hand", 3: "rolling", 4: "tilted",
                 5: "moved"}
PIXELS_CHARGING = (2, 3)    # battery states "charging" and "done" (on the charger)
PIXELS_COLOURS = {1: "generic", 2: "orange", 3: "black clear", 4: "white clear", 5: "grey",
                  6: "white", 7: "black", 8: "gold", 9: "onyx black", 10: "hematite grey",
                  11: "midnight galaxy", 12: "aurora sky"}

# -- GoDice frames -----------------------------------------------------------------------------
GODICE_COLOURS = {0: "black", 1: "red", 2: "green", 3: "blue", 4: "yellow", 5: "orange"}
#: the colour letter of an advertised name, GoDice_<id>_<colour>_<firmware>
GODICE_NAME_COLOURS = {"K": "black", "R": "red", "G": "green", "B": "blue", "Y": "yellow",
                       "O": "orange"}
#: the two-letter stable frames that are not a roll: what the table is told
GODICE_UNSTABLE = {b"FS": "moved", b"TS": "tilted", b"MS": "moved"}


# -- readings ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rolled:
    """The die came to rest after a proper roll, showing ``face``: a value."""

    face: int


@dataclass(frozen=True)
class Unsettled:
    """Rolling, in a hand, tilted, set down without a roll: shown, never a value."""

    state: str


@dataclass(frozen=True)
class Battery:
    """The battery in percent (0-100), and whether it is on the charger (None: not said)."""

    level: int
    charging: bool | None = None


@dataclass(frozen=True)
class Colour:
    """The die's colour, as its maker names it."""

    name: str


@dataclass(frozen=True)
class Ignored:
    """A well-formed message the companion has no use for (telemetry, identity...)."""

    what: str


@dataclass(frozen=True)
class Garbage:
    """Not a message of the make's protocol: counted and dropped. ``data`` is hex."""

    reason: str
    data: str = ""

    def __str__(self) -> str:
        return f"{self.reason}: {self.data}" if self.data else self.reason


@dataclass(frozen=True)
class Position:
    """A GoDice position frame: ``godice`` turns ``xyz`` into a face; ``stable`` is False for
    the fake-, tilt- and move-stable frames (``state`` says which)."""

    xyz: tuple[int, int, int]
    stable: bool
    state: str = ""


Reading = Union[Rolled, Unsettled, Battery, Colour, Ignored, Garbage]


def hex_of(data: bytes, most: int = 24) -> str:
    """The first ``most`` bytes as hex for a log line, never the whole of a flood."""
    data = bytes(data)
    return data[:most].hex(" ") + (" ..." if len(data) > most else "")


def _too_long(data: bytes) -> Garbage | None:
    if not data:
        return Garbage("an empty notification")
    if len(data) > MAX_NOTIFICATION:
        return Garbage(f"longer than {MAX_NOTIFICATION} bytes", hex_of(data))
    return None


# -- Pixels -----------------------------------------------------------------------------------
def parse_pixels(data: bytes) -> Reading:
    """One Pixels notification -> a reading. The face is the face index + 1 (a D6 shows 1-6);
    whether the die can show it is the source's check (:class:`hardware.dice.protocol.Faces`)."""
    data = bytes(data)
    bad = _too_long(data)
    if bad is not None:
        return bad
    kind = data[0]
    if kind == ROLL_STATE:
        if len(data) != 3:
            return Garbage(f"a RollState is 3 bytes, not {len(data)}", hex_of(data))
        state, index = data[1], data[2]
        if state not in PIXELS_STATES:
            return Garbage(f"roll state {state} is not one of 0-5", hex_of(data))
        word = PIXELS_STATES[state]
        return Rolled(index + 1) if word is None else Unsettled(word)
    if kind == BATTERY_LEVEL:
        if len(data) != 3:
            return Garbage(f"a BatteryLevel is 3 bytes, not {len(data)}", hex_of(data))
        return _battery(data[1], data[2], data)
    if kind == I_AM_A_DIE:
        if len(data) == LEGACY_I_AM_A_DIE_SIZE:
            return _battery(data[20], data[21], data)
        return Ignored("the die's identity")
    return Ignored(f"message type {kind}")


def _battery(level: int, state: int, data: bytes) -> Reading:
    if level > 100:
        return Garbage(f"battery level {level} is over 100 %", hex_of(data))
    return Battery(level, state in PIXELS_CHARGING)


def pixels_advert(manufacturer: Mapping[int, bytes]) -> tuple[int | None, str]:
    """(battery %, colour) from a Pixels advertisement's manufacturer data (LED count, design
    and colour, roll state, face, battery with the charging bit on top); (None, "") if none."""
    for payload in manufacturer.values():
        payload = bytes(payload)
        if len(payload) >= 5:
            level = payload[4] & 0x7F
            return (level if level <= 100 else None), PIXELS_COLOURS.get(payload[1], "")
    return None, ""


# -- GoDice -----------------------------------------------------------------------------------
def godice_frame(data: bytes) -> Position | Reading:
    """One GoDice notification -> what kind of frame it is, or :class:`Garbage` for any frame
    ``godice`` could not read safely (it indexes bytes 1-4 without checking the length)."""
    data = bytes(data)
    bad = _too_long(data)
    if bad is not None:
        return bad
    if data == b"R":
        return Unsettled("rolling")
    if len(data) == 4 and data[:1] == b"S":
        return Position(_xyz(data[1:4]), True)
    if len(data) == 5 and data[:2] in GODICE_UNSTABLE:
        return Position(_xyz(data[2:5]), False, GODICE_UNSTABLE[data[:2]])
    if len(data) == 4 and data[:3] == b"Bat":
        level = data[3]
        if level > 100:
            return Garbage(f"battery level {level} is over 100 %", hex_of(data))
        return Battery(level)
    if len(data) == 4 and data[:3] == b"Col":
        if data[3] not in GODICE_COLOURS:
            return Garbage(f"colour {data[3]} is not one of 0-5", hex_of(data))
        return Colour(GODICE_COLOURS[data[3]])
    return Garbage("not a GoDice frame (R, S, FS, TS, MS, Bat, Col)", hex_of(data))


def _xyz(raw: bytes) -> tuple[int, int, int]:
    x, y, z = (b - 256 if b > 127 else b for b in raw)
    return x, y, z


# -- scanning ---------------------------------------------------------------------------------
def make_of(name: str | None, services: tuple[str, ...] | list[str] = ()) -> str | None:
    """Which make an advertisement is: GoDice by its name, Pixels by its service (today's or
    the legacy one); else None. (A GoDice and a legacy Pixels both use the Nordic UART
    service's id, so the name decides first.)"""
    if name and name.startswith(GODICE_NAME_PREFIX):
        return GODICE
    if {PIXELS_SERVICE, PIXELS_LEGACY_SERVICE} & {s.lower() for s in services}:
        return PIXELS
    return None


def godice_name_colour(name: str) -> str:
    """The colour a GoDice says in its advertised name (GoDice_<id>_<colour>_<firmware>)."""
    parts = name.split("_")
    return GODICE_NAME_COLOURS.get(parts[2], "") if len(parts) >= 3 else ""
