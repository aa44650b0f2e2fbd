"""A GoDice's frames, read as its makers' SDKs read them, synchronously and in arrival order.

The frames (Particula's C SDK ``godice_incoming_packet``, their JavaScript SDK's
``parseMessage``; ``hardware/dice/recorded/godice.py`` names the commits): ``R`` a roll
starts; ``S`` + x y z at rest; ``FS``, ``TS``, ``MS`` + x y z fake-, tilt- and move-stable (not
a rest after a roll); ``Tap`` and ``DTap`` (the C SDK accepts and drops them, as we do);
``Bat`` + level; ``Char`` + 0/1 (off or on the charger); ``Col`` + colour.

Which face an x y z vector is depends on the shell the die wears (D6, D20, D10, D10X, D4,
D8, D12): the GoDice has no way to say it, so it is a setting of each paired die. The vector
tables are ``godice``'s (``godice.factory.xyz_interpret_map``): Particula's licence lets us use
their package, not copy its tables. Read here, in the notification callback itself, rather
than through ``godice.Dice``'s coroutine, which bleak runs as a task: a task runs after a
Pixels' notification that arrived later, so two dice landing in quick order were taken in the
wrong order.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from .ble_protocol import (
    MOVING, RESTING, Battery, Charging, Colour, Garbage, Ignored, Reading, Rolled, Unsettled,
    hex_of, too_long,
)

SHELLS = ("d6", "d20", "d10", "d10x", "d4", "d8", "d12")
DEFAULT_SHELL = "d6"
ASK_BATTERY = bytes([3])      # GoDice JS SDK messageIdentifiers.BATTERY_LEVEL
ASK_COLOUR = bytes([23])      # ... DICE_COLOUR
COLOURS = {0: "black", 1: "red", 2: "green", 3: "blue", 4: "yellow", 5: "orange"}
#: the colour letter of an advertised name, GoDice_<id>_<colour>_<firmware>
NAME_COLOURS = {"K": "black", "R": "red", "G": "green", "B": "blue", "Y": "yellow",
                "O": "orange"}
#: the two-letter keys of frames that carry x y z but are not a rest after a roll
NOT_AT_REST = {b"FS": ("moved", ""), b"TS": ("tilted", ""), b"MS": ("set down", RESTING)}


@lru_cache(maxsize=None)
def reader_of(shell: str) -> Callable[[tuple[int, int, int]], int]:
    """godice's x y z -> face function for ``shell`` (imports godice: the ble extra)."""
    import godice
    from godice.factory import xyz_interpret_map

    return xyz_interpret_map[godice.Shell[shell.upper()]]


def signed(raw: bytes) -> tuple[int, int, int]:
    x, y, z = (b - 256 if b > 127 else b for b in raw)
    return x, y, z


def godice_frame(data: bytes, shell: str = DEFAULT_SHELL) -> Reading:
    """One GoDice notification -> a reading; a frame of the wrong length is garbage (godice
    itself indexes bytes 1-4 without checking)."""
    data = bytes(data)
    bad = too_long(data)
    if bad is not None:
        return bad
    if data == b"R":
        return Unsettled("rolling", MOVING)
    if data[:3] == b"Tap" or data[:4] == b"DTap":     # the C SDK matches the key only
        return Ignored("a tap" if data[:1] == b"T" else "a double tap")
    if len(data) == 4 and data[:1] == b"S":
        return Rolled(int(reader_of(shell)(signed(data[1:4]))))
    if len(data) == 5 and data[:2] in NOT_AT_REST:
        return Unsettled(*NOT_AT_REST[data[:2]])
    if len(data) == 4 and data[:3] == b"Bat":
        if data[3] > 100:
            return Garbage(f"battery level {data[3]} is over 100 %", hex_of(data))
        return Battery(data[3])
    if len(data) == 5 and data[:4] == b"Char":
        if data[4] not in (0, 1):
            return Garbage(f"charging state {data[4]} is not 0 or 1", hex_of(data))
        return Charging(bool(data[4]))
    if len(data) == 4 and data[:3] == b"Col":
        if data[3] not in COLOURS:
            return Garbage(f"colour {data[3]} is not one of 0-5", hex_of(data))
        return Colour(COLOURS[data[3]])
    return Garbage("not a GoDice frame (R, S, FS, TS, MS, Tap, DTap, Bat, Char, Col)",
                   hex_of(data))


def godice_name_colour(name: str) -> str:
    """The colour a GoDice says in its advertised name (GoDice_<id>_<colour>_<firmware>)."""
    parts = name.split("_")
    return NAME_COLOURS.get(parts[2], "") if len(parts) >= 3 else ""
