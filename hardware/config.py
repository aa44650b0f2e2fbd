"""The hardware config: which BCM pin each input sits on, named by role, not by pin.

A table is wired once and then played for years, so the wiring lives in a small TOML file
(``hardware.toml``) rather than in code. The app only ever sees input ids ("seat2.claim",
"undo"), so re-wiring a button is a config edit. A config that cannot work is refused at start
with a :class:`ConfigError` naming the key; nothing half-works.

    [buttons]
    undo = 5
    redo = 6
    [seats.1]
    claim = 17
    so_be_it = 27
    pass = 22
    led = 23
    [options]
    bounce_ms = 30
    hold_s = 1.5
    pull_up = true
    [dice]
    url = "/dev/serial/by-id/usb-Table_dicetray-if00"
    baudrate = 115200
    faces = [1, 6]          # what every die can show (default 1-6)
    [dice.die_faces]        # dice that differ
    d8 = [1, 8]
    [dice.ids]              # the tray's die ids -> the game's (Cauldron Quest here)
    d1 = "action_a"
    d4 = "magic1"
    [dice.face_names]       # what a face number means on a die with symbols
    d1 = ["bottle", "bottle", "bottle", "bottle", "hat", "hat"]
    [buzzer]
    pin = 12
    [ble]                   # smart dice over Bluetooth LE, kept by address (the ble extra)
    low_battery = 20
    [ble.dice."C4:5E:11:22:33:44"]
    make = "pixels"         # or "godice"
    name = "Pixel01"
    die = "magic1"          # the game's die, or "any": the first die the game asks for

Without ``--hardware`` the app reads ``hardware.toml`` in the user config directory
(:func:`default_config_path`), if it is there.

This module holds the entry points; the parts live beside it and are imported here, so
``hardware.config.X`` keeps working for all of them: the data (:class:`HardwareConfig`,
:class:`DiceConfig`) in :mod:`hardware.config_data`, the rules a config must pass in
:mod:`hardware.config_check`, writing one back (:func:`dump_config`, :func:`save_config`, for
the app's Hardware screen) in :mod:`hardware.config_write`, and the demo keyboard
(:data:`KEYBOARD_MAP`) in :mod:`hardware.keys`.
"""

from __future__ import annotations

import re
import tomllib
from os import PathLike
from pathlib import Path
from typing import Any, Mapping

from companion.files.names import BAK
from companion.files.read import Unreadable, read_regular
from companion.files.write import write_whole

from .config_check import (  # the rules; the constants are re-exported for the UI
    ANY_DIE, BLE_DIE_KEYS, BLE_KEYS, BLE_MAKES, BUZZER_KEYS, DEFAULT_BAUDRATE, DICE_KEYS, DIE_ID, FACE_NAME, FIRST_PIN, LAST_PIN,
    MAX_BOUNCE_MS, MAX_FACE, MAX_FACE_NAME, MAX_HOLD_S, MAX_SEATS, MAX_TURN_LIMIT_S, OPTIONS,
    RESERVED_PINS, SEAT_BUTTONS, SEAT_LED, SECTIONS, SERIAL_URL_SCHEMES, STANDARD_BAUDRATES, TABLE_BUTTONS,
    check_ble, check_dice, check_number, check_only, check_pin, check_seat_number, check_table,
    seat_sort_key,
)
from .config_data import BleConfig, BleDieConfig, DiceConfig, HardwareConfig
from .config_write import config_to_data, dump_config, save_config
from .errors import ConfigError
from .keys import KEYBOARD_MAP, input_for_key, key_label


def load_config(path: str | PathLike[str], missing_ok: bool = True) -> HardwareConfig:
    """Read and validate a TOML hardware config.

    A missing file gives :meth:`HardwareConfig.empty` when ``missing_ok`` (a table without
    buttons is a valid table); anything else wrong is a :class:`ConfigError` naming the file
    and the key, or the line of a TOML syntax error.
    """
    path = Path(path)
    try:
        data = read_toml(path)
    except FileNotFoundError:
        if missing_ok:
            return HardwareConfig.empty()
        raise ConfigError(f"{path}: hardware config not found") from None
    try:
        return parse_config(data)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def read_toml(path: str | PathLike[str]) -> dict[str, Any]:
    """The TOML tables of ``hardware.toml`` by the one reader (companion/files/read.py: no
    link followed, a regular file only, never waited on, 1 MB at most; a leading byte order
    mark allowed), unchecked: the Hardware screen shows a config with an error to fix it.
    ConfigError naming the file for anything but a missing file (FileNotFoundError)."""
    path = Path(path)
    try:
        text = read_regular(path, "config", str(path)).decode("utf-8").removeprefix("\ufeff")
        return parse_toml(text)
    except Unreadable as exc:
        raise ConfigError(f"{path}: cannot read: {exc.reason}") from None
    except FileNotFoundError:
        raise
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None


def keep_unreadable(path: str | PathLike[str]) -> Path | None:
    """Before the Hardware screen saves over a config that does not read as TOML: its bytes
    kept as ``NAME.bak`` (names.BAK) by the one writer (never through a link, a whole new
    file); None when there is nothing to keep (no file, a readable one, or one the reader
    refuses: a link, a pipe, which the save then refuses too)."""
    path = Path(path)
    try:
        data = read_regular(path, "config", str(path))
    except OSError:
        return None
    try:
        parse_toml(data.decode("utf-8").removeprefix("\ufeff"))
        return None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        pass
    return write_whole(path.with_name(BAK.of(path.name)), data, mode=0o600, force=True)


#: how deep tables and arrays may nest in a hardware config (the deepest it needs is 3)
MAX_DEPTH = 32


#: dots a hardware config may hold in its keys and numbers (it needs a handful): tomllib's time
#: grows with the square of a dotted key's depth, so they are counted before it parses
MAX_DOTS = 4096
#: strings and comments, whose dots are not keys
_NOT_KEYS = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')


def parse_toml(text: str) -> dict[str, Any]:
    """The TOML text as a dict; a TOMLDecodeError for text nested deeper than MAX_DEPTH
    (tomllib recurses, and 5,000 levels would end in a RecursionError) or with more than
    MAX_DOTS dots outside its strings and comments (a dotted key 300,000 deep would take
    hours), both found before tomllib builds anything."""
    if text.count(".") > MAX_DOTS and _NOT_KEYS.sub("", text).count(".") > MAX_DOTS:
        raise tomllib.TOMLDecodeError(f"more than {MAX_DOTS} dots in its keys and numbers "
                                      "(a hardware config has a handful)")
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(f"nested deeper than the {MAX_DEPTH} levels a hardware "
                                      "config may have") from None
    except tomllib.TOMLDecodeError:
        raise
    except ValueError as problem:  # tomllib's int() of a number past Python's 4,300 digits
        raise tomllib.TOMLDecodeError(f"a value it cannot read ({str(problem)[:60]}…): a "
                                      "hardware config's numbers are pins and counts") from None
    stack = [(data, 1)]
    while stack:
        value, level = stack.pop()
        if level > MAX_DEPTH:
            raise tomllib.TOMLDecodeError(f"nested deeper than the {MAX_DEPTH} levels a "
                                          "hardware config may have")
        items = value.values() if isinstance(value, dict) else value
        stack.extend((v, level + 1) for v in items if isinstance(v, (dict, list)))
    return data


def parse_config(data: Mapping[str, Any]) -> HardwareConfig:
    """Validate an already-parsed config (the dict ``tomllib`` gives); the rules are in
    :mod:`hardware.config_check`."""
    check_only(data, SECTIONS, "", "section")
    used: dict[int, str] = {}
    buttons: dict[str, int] = {}
    leds: dict[str, int] = {}

    table = check_table(data.get("buttons", {}), "buttons")
    check_only(table, TABLE_BUTTONS, "buttons.", "button")
    for name, value in table.items():
        buttons[name] = check_pin(f"buttons.{name}", value, used)

    seats = {str(k): v for k, v in check_table(data.get("seats", {}), "seats").items()}
    for number in sorted(seats, key=seat_sort_key):
        seat = check_seat_number(number)
        prefix = f"seat{seat}."
        keys = check_table(seats[number], f"seats.{number}")
        check_only(keys, (*SEAT_BUTTONS, SEAT_LED), prefix, "key")
        for name, value in keys.items():
            pin = check_pin(prefix + name, value, used)
            (leds if name == SEAT_LED else buttons)[prefix + name] = pin

    options = check_table(data.get("options", {}), "options")
    check_only(options, OPTIONS, "options.", "option")
    bounce_ms = check_number(options, "bounce_ms", 30, 0, MAX_BOUNCE_MS, "milliseconds")
    hold_s = check_number(options, "hold_s", 1.5, 0, MAX_HOLD_S, "seconds", above_min=True)
    pull_up = options.get("pull_up", True)
    if not isinstance(pull_up, bool):
        raise ConfigError(f"options.pull_up: must be true or false, got {pull_up!r}")
    ble = None
    if "ble" in data:
        checked = check_ble(data["ble"])
        ble = BleConfig(tuple(BleDieConfig(**d) for d in checked["dice"]), checked["low_battery"],
                        checked["air"])
    buzzer = None
    if "buzzer" in data:
        table = check_table(data["buzzer"], "buzzer")
        check_only(table, BUZZER_KEYS, "buzzer.", "key")
        # the turn limit also holds without a pin: the screen sounds the time cue too
        buzzer = check_pin("buzzer.pin", table["pin"], used) if "pin" in table else None
        turn_limit_s = table.get("turn_limit_s", 0)
        if isinstance(turn_limit_s, bool) or not isinstance(turn_limit_s, int) \
                or not 0 <= turn_limit_s <= MAX_TURN_LIMIT_S:
            raise ConfigError(f"buzzer.turn_limit_s: whole seconds from 0 (never) to "
                              f"{MAX_TURN_LIMIT_S}, got {turn_limit_s!r}")
    else:
        turn_limit_s = 0
    dice = DiceConfig(**check_dice(data["dice"])) if "dice" in data else None
    return HardwareConfig(buttons, leds, bounce_ms / 1000, hold_s, pull_up, dice, buzzer,
                          turn_limit_s, ble)


def default_config_path() -> Path:
    """Where the app reads ``hardware.toml`` without ``--hardware``: the user config directory
    (``~/.config/table-companion/hardware.toml`` on Linux)."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("table-companion", appauthor=False)) / "hardware.toml"


# The demo table: six seats and undo/redo, all on distinct pins that are not reserved, so it
# passes the same validation as a real config. Used with gpiozero's MockFactory.
DEMO_CONFIG = parse_config({
    "buttons": {"undo": 4, "redo": 18},
    "seats": {
        "1": {"claim": 17, "so_be_it": 27, "pass": 22},
        "2": {"claim": 5, "so_be_it": 6, "pass": 13},
        "3": {"claim": 19, "so_be_it": 26, "pass": 21},
        "4": {"claim": 20, "so_be_it": 16, "pass": 12},
        "5": {"claim": 23, "so_be_it": 24, "pass": 25},
        "6": {"claim": 8, "so_be_it": 7, "pass": 9},
    },
})

__all__ = [
    "ANY_DIE", "BLE_DIE_KEYS", "BLE_KEYS", "BLE_MAKES", "BleConfig", "BleDieConfig", "BUZZER_KEYS", "DEFAULT_BAUDRATE", "DEMO_CONFIG", "DICE_KEYS", "DIE_ID", "FACE_NAME",
    "FIRST_PIN", "KEYBOARD_MAP", "LAST_PIN", "MAX_BOUNCE_MS", "MAX_FACE", "MAX_FACE_NAME",
    "MAX_HOLD_S", "MAX_SEATS", "OPTIONS", "RESERVED_PINS", "SEAT_BUTTONS", "SEAT_LED",
    "SECTIONS", "SERIAL_URL_SCHEMES", "STANDARD_BAUDRATES", "TABLE_BUTTONS", "ConfigError",
    "DiceConfig", "HardwareConfig", "config_to_data", "default_config_path", "dump_config",
    "input_for_key", "keep_unreadable", "key_label", "load_config", "parse_config",
    "read_toml", "save_config",
]
