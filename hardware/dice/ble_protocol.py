"""Smart dice over Bluetooth LE, as pure functions: one notification's bytes in, a reading out.

No radio and no ``bleak`` here, so every byte a die can send is tested from the makers'
recorded vectors (:mod:`hardware.dice.recorded`) and fuzzed. This module holds what both
makes share: the GATT ids, the readings and which make an advert is; each make's messages
are read in its own module:

* :mod:`hardware.dice.ble_pixels`: Pixels (GameWithPixels), their messages as pixels-js and
  the DiceFirmware lay them out, the face of a face index for each die type and firmware era;
* :mod:`hardware.dice.ble_godice`: GoDice (Particula), their frames as the GoDice SDKs read
  them, the face of an x y z vector for the shell the die wears (through ``godice``).

A reading is :class:`Rolled` (a value), :class:`Unsettled` (rolling, in a hand, tilted, set
down: never a value), :class:`Identity` (what the die is), :class:`Battery`,
:class:`Charging`, :class:`Colour`, :class:`Ignored` (a well-formed message we do not use)
or :class:`Garbage` (to count and drop).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

MAX_NOTIFICATION = 244      # bytes: the most one BLE notification carries (MTU 247 - 3)

# -- the two makes' GATT ids ----------------------------------------------------------------
PIXELS = "pixels"
GODICE = "godice"
MAKES = (PIXELS, GODICE)
MAKE_WORDS = {PIXELS: "Pixels", GODICE: "GoDice"}
#: Pixels: service, notify and write characteristics (pixels-js ``PixelsBluetoothIds``):
#: today's dice, and the legacy ones (their notify characteristic has the service's own id).
PIXELS_SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
PIXELS_NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
PIXELS_WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
PIXELS_LEGACY_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
PIXELS_LEGACY_NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
PIXELS_LEGACY_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
#: (notify, write) for each generation, today's first
PIXELS_CHARACTERISTICS = ((PIXELS_NOTIFY, PIXELS_WRITE), (PIXELS_LEGACY_NOTIFY, PIXELS_LEGACY_WRITE))
#: GoDice: the Nordic UART service's characteristics (GoDice SDKs, ``godice.Dice.connect``)
GODICE_NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
GODICE_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
GODICE_NAME_PART = "GoDice"

#: the die types a table of six-sided dice reads (a pipped D6 is one; a Fudge die is not:
#: its faces are -, blank and +)
SIX_SIDED = ("d6", "d6pipped")

# -- readings ---------------------------------------------------------------------------------
#: how an unsettled state bears on the next value: "moving" (a roll begins: the next rest is
#: a value), "resting" (at rest without a roll: the next rest is not), "" (neither)
MOVING, RESTING = "moving", "resting"


@dataclass(frozen=True)
class Rolled:
    """The die came to rest after a proper roll, showing ``face``: a value."""

    face: int


@dataclass(frozen=True)
class Unsettled:
    """Rolling, in a hand, tilted, set down without a roll: shown, never a value."""

    state: str
    motion: str = ""


@dataclass(frozen=True)
class Identity:
    """What a die says it is: its type ("d6", "d20"... as pixels-js names them; a GoDice's
    shell), LED count, firmware build time (Unix seconds, 0: not said) and colour; the
    battery when the same message carries it."""

    die_type: str
    led_count: int = 0
    firmware: int = 0
    colour: str = ""
    battery: int | None = None
    charging: bool | None = None

    @property
    def six_sided(self) -> bool:
        return self.die_type in SIX_SIDED

    @property
    def words(self) -> str:
        """'D20', 'D6 (pipped)', 'D00 (percentile)': the type as the table says it."""
        return type_words(self.die_type)


def type_words(die_type: str) -> str:
    extra = {"d6pipped": "D6 (pipped)", "d6fudge": "Fudge die", "d00": "D00 (percentile)",
             "d10x": "D10 (tens)", "unknown": "die of unknown type"}
    return extra.get(die_type, die_type.upper())


@dataclass(frozen=True)
class Battery:
    """The battery in percent (0-100), and whether it is on the charger (None: not said)."""

    level: int
    charging: bool | None = None


@dataclass(frozen=True)
class Charging:
    """On the charger or off it, without a level (a GoDice's ``Char`` frame)."""

    on: bool


@dataclass(frozen=True)
class Colour:
    """The die's colour, as its maker names it."""

    name: str


@dataclass(frozen=True)
class Ignored:
    """A well-formed message the companion has no use for (telemetry, a tap...)."""

    what: str


@dataclass(frozen=True)
class Garbage:
    """Not a message of the make's protocol: counted and dropped. ``data`` is hex."""

    reason: str
    data: str = ""

    def __str__(self) -> str:
        return f"{self.reason}: {self.data}" if self.data else self.reason


Reading = Union[Rolled, Unsettled, Identity, Battery, Charging, Colour, Ignored, Garbage]


def hex_of(data: bytes, most: int = 24) -> str:
    """The first ``most`` bytes as hex for a log line, never the whole of a flood."""
    data = bytes(data)
    return data[:most].hex(" ") + (" ..." if len(data) > most else "")


def too_long(data: bytes) -> Garbage | None:
    if not data:
        return Garbage("an empty notification")
    if len(data) > MAX_NOTIFICATION:
        return Garbage(f"longer than {MAX_NOTIFICATION} bytes", hex_of(data))
    return None


# -- scanning ---------------------------------------------------------------------------------
def make_of(name: str | None, services: tuple[str, ...] | list[str] = ()) -> str | None:
    """Which make an advert may be by its name and services: GoDice by its name (it uses
    the Nordic UART service, as many boards do), Pixels by its service (today's or the
    legacy one); else None. Whether a Pixels-service advert is a die is decided by its data
    (:func:`hardware.dice.ble_pixels.pixels_advert`)."""
    if name and GODICE_NAME_PART in name:
        return GODICE
    if {PIXELS_SERVICE, PIXELS_LEGACY_SERVICE} & {s.lower() for s in services}:
        return PIXELS
    return None
