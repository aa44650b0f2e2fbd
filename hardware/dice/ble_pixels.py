"""A Pixels die's messages and adverts, read as its makers' code reads them.

Sources (``hardware/dice/recorded/pixels.py`` names each file and commit): pixels-js
``DieMessages.ts`` (the messages), ``getScannedPixel.ts`` (the advert), ``DiceUtils.ts``
(``faceFromIndex``) and ``Pixel.ts`` (``_updateRoll``, the crooked rule); the DiceFirmware's
``bluetooth_messages.h`` and ``bluetooth_custom_advertising_data.cpp``.

A RollState gives a face *index*; what face it is depends on the die's type and on its
firmware's date, which the die says in its IAmADie (and its advert). So :func:`parse_pixels`
takes the die's :class:`Identity`, and a RollState heard before the die said what it is is
not a value.
"""

from __future__ import annotations

import struct
from typing import Mapping

from .ble_protocol import (
    MOVING, RESTING, Battery, Garbage, Identity, Ignored, Reading, Rolled, Unsettled, hex_of,
    too_long,
)

WHO_ARE_YOU = bytes([1])
REQUEST_BATTERY_LEVEL = bytes([33])
I_AM_A_DIE, ROLL_STATE, BATTERY_LEVEL = 2, 3, 34
LEGACY_I_AM_A_DIE_SIZE = 22
#: PixelDieTypeValues
DIE_TYPES = ("unknown", "d4", "d6", "d8", "d10", "d00", "d12", "d20", "d6pipped", "d6fudge")
#: DiceUtils.estimateDieType: the type of a die that does not say it, by its LED count
BY_LEDS = {4: "d4", 6: "d6", 8: "d8", 10: "d10", 12: "d12", 20: "d20", 21: "d6pipped"}
#: PixelColorwayValues (the enum since 2023-09; an advert has 4 bits, so custom is 15 there)
COLORWAYS = {1: "onyx black", 2: "hematite grey", 3: "midnight galaxy", 4: "aurora sky",
             5: "clear", 6: "white aurora", 15: "custom", 255: "custom"}
#: PixelRollStateValues -> (what the table is told, how it bears on the next value); rolled
#: (1) is the value itself
STATES = {0: ("not settled", ""), 2: ("in a hand", MOVING), 3: ("rolling", MOVING),
          4: ("tilted", ""), 5: ("set down", RESTING)}
CROOKED = 4
CHARGING_STATES = (2, 3)    # PixelBatteryState charging and done: on the charger
#: DiceUtils.isFirmwareWithBadNormals: built on or before this (ms there, seconds here)
FW_2023_11_17 = 1704150000
#: Pixel._updateRoll: a 6-LED die built before this may call a flat landing crooked
FW_2024_05_22 = 1716382800
#: the advert of before July 2022 has no firmware date; pixels-js takes 2022-07-01
FW_2022_07_01 = 1656633600


def face_from_index(index: int, die_type: str, firmware: int = 0) -> int:
    """pixels-js ``DiceUtils.faceFromIndex``: the face a face index is on this die type, for a
    firmware built at ``firmware`` (0: not known, taken as a good one, as pixels-js does)."""
    if firmware and firmware <= FW_2023_11_17:
        if die_type == "d4":
            return {3: 2, 2: 3, 5: 4}.get(index, 1)
        if die_type == "d6":
            return {4: 2, 3: 3, 2: 4, 1: 5}.get(index, index + 1)
    if die_type in ("d10", "unknown"):
        return index
    if die_type == "d00":
        return index * 10
    return index + 1


def crooked_is_rolled(identity: Identity) -> bool:
    """pixels-js ``_updateRoll``: a 6-LED die built before 2024-05-22 reports a flat landing
    as crooked, so its crooked counts as rolled (a firmware date of 0 is before it too)."""
    return identity.led_count == 6 and identity.firmware < FW_2024_05_22


def die_type_of(value: int, led_count: int) -> str:
    """The type a die says, or the one its LED count tells when it says none."""
    said = DIE_TYPES[value] if 0 <= value < len(DIE_TYPES) else "unknown"
    return said if said != "unknown" else BY_LEDS.get(led_count, "unknown")


def parse_pixels(data: bytes, identity: Identity | None = None) -> Reading:
    """One Pixels notification -> a reading. A RollState is read with the die's ``identity``
    (None: it has not said what it is yet, so a landing is not a value)."""
    data = bytes(data)
    bad = too_long(data)
    if bad is not None:
        return bad
    kind = data[0]
    if kind == ROLL_STATE:
        if len(data) != 3:
            return Garbage(f"a RollState is 3 bytes, not {len(data)}", hex_of(data))
        return roll_state(data[1], data[2], identity, data)
    if kind == BATTERY_LEVEL:
        if len(data) != 3:
            return Garbage(f"a BatteryLevel is 3 bytes, not {len(data)}", hex_of(data))
        return _battery(data[1], data[2], data)
    if kind == I_AM_A_DIE:
        return i_am_a_die(data)
    return Ignored(f"message type {kind}")


def roll_state(state: int, index: int, identity: Identity | None, data: bytes = b"") -> Reading:
    if state not in STATES and state != 1:
        return Garbage(f"roll state {state} is not one of 0-5", hex_of(data))
    if identity is not None and state == CROOKED and crooked_is_rolled(identity):
        state = 1
    if state == 1:
        if identity is None:
            return Unsettled("not identified yet")
        return Rolled(face_from_index(index, identity.die_type, identity.firmware))
    word, motion = STATES[state]
    return Unsettled(word, motion)


def i_am_a_die(data: bytes) -> Reading:
    """IAmADie: the legacy 22 bytes, or today's chunks (each led by its own size, size byte
    included), read as pixels-js' ``deserializeChunkedMessage`` does."""
    if len(data) == LEGACY_I_AM_A_DIE_SIZE:
        led, colorway, die_type = data[1], data[2], data[3]
        (firmware,) = struct.unpack_from("<I", data, 14)
        level, state = data[20], data[21]
        return _identity(die_type, led, colorway, firmware, level, state, data)
    chunks, offset = [], 1
    while offset < len(data) and len(chunks) < 6:
        size = data[offset]
        if size == 0 or offset + size > len(data):
            return Garbage("an IAmADie chunk runs past the message", hex_of(data))
        chunks.append(data[offset:offset + size])
        offset += size
    if len(chunks) < 6 or len(chunks[0]) < 7 or len(chunks[1]) < 9 or len(chunks[5]) < 3:
        return Garbage("an IAmADie without its version, die and status chunks", hex_of(data))
    version, die, status = chunks[0], chunks[1], chunks[5]
    (firmware,) = struct.unpack_from("<I", version, 3)
    return _identity(die[6], die[7], die[8], firmware, status[1], status[2], data)


def _identity(die_type: int, led: int, colorway: int, firmware: int, level: int, state: int,
              data: bytes) -> Reading:
    if level > 100:
        return Garbage(f"battery level {level} is over 100 %", hex_of(data))
    return Identity(die_type_of(die_type, led), led, firmware, COLORWAYS.get(colorway, ""),
                    level, state in CHARGING_STATES)


def _battery(level: int, state: int, data: bytes) -> Reading:
    if level > 100:
        return Garbage(f"battery level {level} is over 100 %", hex_of(data))
    return Battery(level, state in CHARGING_STATES)


def pixels_advert(manufacturer: Mapping[int, bytes], service_data: Mapping[str, bytes]
                  ) -> Identity | None:
    """What a Pixels-service advert says (die type, colour, firmware, battery), or None when
    it is not a die's: pixels-js' ``getScannedPixel`` wants today's manufacturer data (at
    least 5 bytes) with service data of at least 8, or the 7-byte advert from before July
    2022 without service data; it takes the first of each, as here."""
    manuf = next(iter(manufacturer.items()), None)
    service = next(iter(service_data.values()), None)
    service = bytes(service) if service is not None else None
    if manuf is None:
        return None
    company, payload = manuf[0], bytes(manuf[1])
    if service is not None and len(service) >= 8 and len(payload) >= 5:
        pixel_id, firmware = struct.unpack_from("<II", service)
        led, design = payload[0], payload[1]
        level, charging = payload[4] & 0x7F, bool(payload[4] & 0x80)
        colour = COLORWAYS.get(design & 0xF, "")
        die_type = die_type_of((design >> 4) & 0xF, led)
    elif service is None and len(payload) == 7:
        pixel_id = struct.unpack_from("<I", payload)[0]
        led, firmware = (company >> 8) & 0xFF, FW_2022_07_01
        level, charging, colour = round(payload[6] / 255 * 100), False, ""
        die_type = BY_LEDS.get(led, "unknown")
    else:
        return None
    if not pixel_id:
        return None          # pixels-js: "Received invalid advertising data"
    return Identity(die_type, led, firmware, colour, level if level <= 100 else None, charging)
