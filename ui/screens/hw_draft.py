"""The Hardware screen's draft: the TOML tables of a ``hardware.toml`` that may not validate
(a wrong value stays, for Check to name), and a config said in one line."""

from __future__ import annotations

import copy
from typing import Any

from hardware.config import (
    BUZZER_KEYS, DICE_KEYS, OPTIONS, SEAT_BUTTONS, SEAT_LED, TABLE_BUTTONS, HardwareConfig,
)


def draft_from(raw: Any) -> tuple[dict[str, Any], list[str]]:
    """A draft from a parsed TOML file that may not validate: the known keys with their
    values as written (a wrong value stays, for the check to name), and the keys left out."""
    draft: dict[str, Any] = {}
    dropped: list[str] = []
    raw = raw if isinstance(raw, dict) else {}
    for section, allowed in (("buttons", TABLE_BUTTONS), ("options", OPTIONS),
                             ("buzzer", BUZZER_KEYS), ("dice", DICE_KEYS)):
        table = raw.get(section)
        if isinstance(table, dict):
            draft[section] = {k: v for k, v in table.items() if k in allowed}
            dropped += [f"{section}.{k}" for k in table if k not in allowed]
        elif section in raw:
            dropped.append(section)
    seats = raw.get("seats")
    for number, keys in (seats.items() if isinstance(seats, dict) else ()):
        if str(number) in {str(n) for n in range(1, 7)} and isinstance(keys, dict):
            allowed = (*SEAT_BUTTONS, SEAT_LED)
            draft.setdefault("seats", {})[str(number)] = {
                k: v for k, v in keys.items() if k in allowed}
            dropped += [f"seats.{number}.{k}" for k in keys if k not in allowed]
        else:
            dropped.append(f"seats.{number}")
    if isinstance(raw.get("ble"), dict):   # the smart dice: kept whole, the check names a slip
        draft["ble"] = copy.deepcopy(raw["ble"])
    elif "ble" in raw:
        dropped.append("ble")
    dropped += [k for k in raw if k not in ("buttons", "options", "buzzer", "dice", "seats",
                                             "ble")]
    return draft, dropped


def describe(config: HardwareConfig) -> str:
    """'13 buttons, 2 LEDs, buzzer on GPIO9, dice tray at loop://' or 'nothing wired'."""
    parts = []
    if config.buttons:
        parts.append(f"{len(config.buttons)} button" + ("s" if len(config.buttons) > 1 else ""))
    if config.leds:
        parts.append(f"{len(config.leds)} LED" + ("s" if len(config.leds) > 1 else ""))
    if config.buzzer is not None:
        parts.append(f"buzzer on GPIO{config.buzzer}")
    if config.dice is not None:
        parts.append(f"dice tray at {config.dice.url}")
    if config.ble is not None and config.ble.dice:
        count = len(config.ble.dice)
        parts.append(f"{count} smart {'die' if count == 1 else 'dice'}")
    return ", ".join(parts) or "nothing wired (touch only)"
