"""What real smart dice send, byte for byte, each vector with the makers' source it comes from.

The fakes (:mod:`hardware.dice.ble_fake`, the simulated air) replay these bytes and the tests
read them, so a reading is checked against what a die sends, never against what the
companion expects. Each :class:`Vector` names the repository, the file and the commit where
its layout and values are written down:

* :mod:`.pixels`: adverts of every die type and colorway (today's and the form from before
  July 2022), today's and the legacy IAmADie, RollState of every state for each firmware era,
  BatteryLevel (GameWithPixels' pixels-js and DiceFirmware);
* :mod:`.godice`: every frame kind of a GoDice (Particula's C SDK and JavaScript SDK) and the
  x y z frames of each shell;
* :mod:`.air`: what else is on the air (Nordic UART boards, a Pixels charger) and what bleak
  raises on a machine without Bluetooth.

A vector's bytes are written out in hex as the die sends them; where a message carries a
value that varies (a battery level), the vector is the recorded one and
:func:`with_bytes` changes the byte at the offset the source documents, nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Source:
    """Where a vector's layout and values are written down."""

    repo: str
    path: str
    commit: str
    lines: str = ""     # the names to look for in that file

    def __str__(self) -> str:
        where = f" ({self.lines})" if self.lines else ""
        return f"{self.repo} {self.path}{where} at {self.commit[:12]}"


@dataclass(frozen=True)
class Vector:
    """One notification a die sends (``data``), what its makers' code reads from it
    (``means``), and ``source``."""

    name: str
    data: bytes
    means: Any
    source: Source


@dataclass(frozen=True)
class AdvertVector:
    """One advertisement as bleak hands it over: the local name, the service UUIDs, the
    manufacturer data by company id and the service data by UUID (bytes after the ids), and
    what the makers' scanner reads from it (None: not a die of that make)."""

    name: str
    local_name: str
    services: tuple[str, ...]
    manufacturer: dict[int, bytes] = field(default_factory=dict)
    service_data: dict[str, bytes] = field(default_factory=dict)
    means: Any = None
    source: Source | None = None


def hx(text: str) -> bytes:
    """Bytes from hex as written in the vectors ("03 01 05")."""
    return bytes.fromhex(text)


def with_bytes(vector: Vector, **offsets: int) -> bytes:
    """The vector's bytes with the bytes at named offsets changed: ``with_bytes(v, at_20=55)``
    sets byte 20 to 55 (a battery level). Only offsets the source documents are used."""
    data = bytearray(vector.data)
    for key, value in offsets.items():
        data[int(key.removeprefix("at_"))] = value & 0xFF
    return bytes(data)


__all__ = ["AdvertVector", "Source", "Vector", "hx", "with_bytes"]
