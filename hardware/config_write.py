"""Writing a hardware config back as ``hardware.toml`` (the app's Hardware screen).

``tomllib`` only reads, and the file is one a person also edits, so the writer is small and
fixed: the documented section order, a comment naming each section, and values written so that
:func:`hardware.config.parse_config` of the text gives the same config back. :func:`save_config`
replaces the file atomically, so a power cut mid-save never leaves half a config.
"""

from __future__ import annotations

import math
import os
import re
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from companion.files.write import write_whole

from .config_check import SEAT_BUTTONS, SEAT_LED, TABLE_BUTTONS

if TYPE_CHECKING:
    from .config_data import HardwareConfig

DICE_TABLES = ("die_faces", "ids", "face_names")   # the [dice.*] sub-tables, in file order

_COMMENTS = {
    "buttons": "table buttons: input = BCM GPIO number",
    "seats": "seat {}: its answer buttons and LED (BCM GPIO numbers)",
    "options": "bounce_ms: software debounce; hold_s: a press held this long is a hold",
    "buzzer": "the buzzer (BCM GPIO number)",
    "dice": "the dice tray: a device path (/dev/serial/by-id/...) or a pySerial URL",
    "die_faces": "dice whose faces differ from dice.faces",
    "ids": "the tray's die ids -> the game's",
    "face_names": "what each face of a die with symbols means, in face order",
    "ble": "smart dice over Bluetooth LE (GoDice, Pixels): the ble extra",
    "ble_die": "a smart die, by its address: its make, name and the game's die",
}


def config_to_data(config: HardwareConfig) -> dict[str, Any]:
    """The config as the TOML tables it came from (``parse_config(config_to_data(c)) == c``),
    in the documented order; sections with nothing in them are left out."""
    data: dict[str, Any] = {}
    table = {name: config.buttons[name] for name in TABLE_BUTTONS if name in config.buttons}
    if table:
        data["buttons"] = table
    pins = {**config.buttons, **config.leds}
    if config.seats:
        data["seats"] = {str(seat): {name: pins[f"seat{seat}.{name}"]
                                     for name in (*SEAT_BUTTONS, SEAT_LED)
                                     if f"seat{seat}.{name}" in pins}
                         for seat in config.seats}
    data["options"] = {"bounce_ms": _bounce_ms(config.bounce_s), "hold_s": config.hold_s,
                       "pull_up": config.pull_up}
    if config.buzzer is not None or config.turn_limit_s:
        data["buzzer"] = {} if config.buzzer is None else {"pin": config.buzzer}
        if config.turn_limit_s:
            data["buzzer"]["turn_limit_s"] = config.turn_limit_s
    dice = config.dice
    if dice is not None:
        data["dice"] = {"url": dice.url, "baudrate": dice.baudrate, "faces": list(dice.faces)}
        for name in DICE_TABLES:
            values = getattr(dice, name)
            if values:
                data["dice"][name] = {die: (v if isinstance(v, str) else list(v))
                                      for die, v in sorted(values.items())}
    if config.ble is not None:
        data["ble"] = {"low_battery": config.ble.low_battery,
                       **({"air": config.ble.air} if config.ble.air else {}), "dice": {
            d.address: {"make": d.make, **({"name": d.name} if d.name else {}), "die": d.die,
                        **({"face_names": list(d.face_names)} if d.face_names else {}),
                        **({"shell": d.shell} if d.shell != "d6" else {})}
            for d in config.ble.dice}}
    return data


def _bounce_ms(bounce_s: float) -> int | float:
    """The shortest number of milliseconds that reads back as exactly ``bounce_s``."""
    for digits in range(16):
        ms = round(bounce_s * 1000, digits)
        if ms / 1000 == bounce_s:
            return int(ms) if float(ms).is_integer() else ms
    return bounce_s * 1000


def dump_config(config: HardwareConfig) -> str:
    """The config as TOML text, in a fixed order with a comment naming each section;
    :func:`parse_config` of the text (through ``tomllib``) gives the same config."""
    data = config_to_data(config)
    lines = ["# The table companion's hardware config (docs/wiring.md).",
             "# Written by the app's Hardware screen; edits by hand are fine."]

    def section(header: str, comment: str, values: Mapping[str, Any]) -> None:
        lines.extend(["", f"[{header}]  # {comment}"])
        lines.extend(f"{_toml_key(key)} = {_toml_value(value)}" for key, value in values.items())

    if "buttons" in data:
        section("buttons", _COMMENTS["buttons"], data["buttons"])
    for seat, keys in data.get("seats", {}).items():
        section(f"seats.{seat}", _COMMENTS["seats"].format(seat), keys)
    section("options", _COMMENTS["options"], data["options"])
    if "buzzer" in data:
        section("buzzer", _COMMENTS["buzzer"], data["buzzer"])
    if "dice" in data:
        dice = data["dice"]
        section("dice", _COMMENTS["dice"],
                {k: v for k, v in dice.items() if not isinstance(v, dict)})
        for name in DICE_TABLES:
            if name in dice:
                section(f"dice.{name}", _COMMENTS[name], dice[name])
    if "ble" in data:
        ble = data["ble"]
        section("ble", _COMMENTS["ble"], {k: v for k, v in ble.items() if k != "dice"})
        for address, die in ble["dice"].items():
            section(f"ble.dice.{_toml_key(address)}", _COMMENTS["ble_die"], die)
    return "\n".join(lines) + "\n"


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_value(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot write {value!r} to TOML")
        return repr(value)
    if isinstance(value, str):
        return '"' + "".join(_toml_char(c) for c in value) + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def _toml_char(char: str) -> str:
    if char in '"\\':
        return "\\" + char
    if ord(char) < 0x20 or ord(char) == 0x7F:
        return f"\\u{ord(char):04X}"
    return char


def save_config(config: HardwareConfig, path: str | PathLike[str]) -> Path:
    """Write the config to ``path`` atomically: a temporary file beside it, flushed to disk,
    then renamed over the old one, so a crash or power cut leaves the old file or the new
    one, never half a file. Creates the folder if needed; returns the path."""
    return write_atomically(Path(path), dump_config(config), mode=0o644)


def write_atomically(path: Path, text: str, *, mode: int, folder_mode: int = 0o777) -> Path:
    """``text`` as ``path`` by the companion's one writer (companion/files/write.py): a new
    file beside it, synced, its mode set on the open file, renamed over it by the folder's
    descriptor (never through a link, never onto a pipe), and the folder synced; a crash or
    power cut leaves the old file or the new one. Creates the folder if needed; returns the
    path. The settings file uses it too."""
    return write_whole(path, text, mode=mode, force=True, folder_mode=folder_mode)
