"""What one connection of one smart die has said, and which of its readings is a value.

Rules, each from what the makers do or what their users ask for in their issues:

* **A die says what it is before it gives a number.** A Pixels' IAmADie (its type, LED count,
  firmware date) and a GoDice's shell come first; a landing before that is not a value.
* **A die that is not six-sided never fills a die.** Its landing is refused by name ("Pixel 03
  is a D20"); the screen adds what the game rolls.
* **A value only from a rest reached after a roll.** A landing counts once the die has been
  rolling or handled since its last value (Pixels' *handling*/*rolling*, GoDice's ``R``); a
  die set down without a roll (Pixels' *onFace*, GoDice's ``MS``), or one that reports the
  same rest again without moving, gives no second value: the false rolls makers' users
  report when a die is picked up or held still.
* A die that floods (more than ``flood`` values a second) has the rest dropped and counted.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from companion.core.model import InputEvent

from .ble_protocol import (
    MOVING, RESTING, Battery, Charging, Colour, Garbage, Identity, Rolled, Unsettled,
)

log = logging.getLogger(__name__)

SOURCE = "ble"
BATTERY_EVERY_S = 600.0     # the battery is asked again after a roll, at most this often


class DieState:
    """One die's connection as its source sees it; :meth:`heard` takes each reading."""

    def __init__(self, source: Any, die: Any) -> None:
        self.source, self.die = source, die
        self.link: Any = None
        self.identity: Identity | None = None
        self.armed = False              # moved since the last value: the next rest is one
        self.shown = ""                 # the unsettled state last shown: once per change
        self.window = (0.0, 0)          # (start of this second, values in it)
        self.battery_asked = time.monotonic()
        self.repeats = 0                # rests that were not a value (no roll before them)

    def heard(self, reading: Any) -> None:
        source, address = self.source, self.die.address
        if isinstance(reading, Rolled):
            self._landed(reading.face)
        elif isinstance(reading, Unsettled):
            if reading.motion == MOVING:
                self.armed = True
            elif reading.motion == RESTING:
                self.armed = False
            if reading.state != self.shown:
                self.shown = reading.state
                source.send(InputEvent("die_moving", address, reading.state, source=SOURCE))
        elif isinstance(reading, Identity):
            self.identity = reading
            source.identified(self.die, reading)
            if reading.battery is not None:
                source.battery_said(self.die, reading.battery, reading.charging)
        elif isinstance(reading, Battery):
            source.battery_said(self.die, reading.level, reading.charging)
        elif isinstance(reading, Charging):
            source.battery_said(self.die, None, reading.on)
        elif isinstance(reading, Colour):
            source.colour[address] = reading.name
        elif isinstance(reading, Garbage):
            source.garbage += 1   # logged by the link

    def _landed(self, face: int) -> None:
        source, die = self.source, self.die
        self.shown = ""
        if self.identity is None:
            log.info("%s: a landing before the die said what it is", die.label)
            return
        if not self.armed:
            self.repeats += 1
            log.info("%s: at rest on %s again without a roll: not a value", die.label, face)
            return
        self.armed = False
        if self._flooding():
            source.flooded += 1
            return
        if not self.identity.six_sided:
            source.refuse(die, f"{die.label} is a {self.identity.words}", self.identity.die_type)
            return
        reason = source.faces.check(die.address, face)
        if reason:
            source.refuse(die, f"{die.label}: {reason.split(': ', 1)[-1]}")
            return
        source.send(InputEvent("die", die.address, face, source=SOURCE))
        self._maybe_ask_battery()

    def _flooding(self) -> bool:
        now = time.monotonic()
        start, count = self.window
        if now - start >= 1.0:
            start, count = now, 0
        self.window = (start, count + 1)
        return count + 1 > self.source.flood

    def _maybe_ask_battery(self) -> None:
        if self.link is None or time.monotonic() - self.battery_asked < BATTERY_EVERY_S:
            return
        self.battery_asked = time.monotonic()
        asyncio.get_running_loop().create_task(self.link.read_battery())


__all__ = ["DieState", "SOURCE"]
