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
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any, Mapping

from .errors import ConfigError

SECTIONS = ("buttons", "seats", "options")
TABLE_BUTTONS = ("undo", "redo", "menu", "next")
SEAT_BUTTONS = ("claim", "so_be_it", "pass")
SEAT_LED = "led"
MAX_SEATS = 6
FIRST_PIN, LAST_PIN = 2, 27
# Pins a table will want for something else: a display or sensor on I2C, a console on the UART.
RESERVED_PINS = {2: "I2C (SDA)", 3: "I2C (SCL)", 14: "UART (TXD)", 15: "UART (RXD)"}
OPTIONS = ("bounce_ms", "hold_s", "pull_up")
MAX_BOUNCE_MS = 1000
MAX_HOLD_S = 10


@dataclass(frozen=True)
class HardwareConfig:
    """A validated config. ``buttons`` maps input id ("seat1.claim", "undo") to BCM pin,
    ``leds`` maps "seat1.led" to BCM pin. Build it with :func:`parse_config` or
    :func:`load_config`; the constructor itself does not validate."""

    buttons: dict[str, int] = field(default_factory=dict)
    leds: dict[str, int] = field(default_factory=dict)
    bounce_s: float = 0.030
    hold_s: float = 1.5
    pull_up: bool = True

    @classmethod
    def empty(cls) -> "HardwareConfig":
        """Nothing wired: the app runs on touch (and keyboard) alone."""
        return cls()

    @property
    def is_empty(self) -> bool:
        return not self.buttons and not self.leds

    @property
    def seats(self) -> tuple[int, ...]:
        """Seat numbers that have at least one button or LED, ascending."""
        found = {_seat_of(key) for key in (*self.buttons, *self.leds)}
        return tuple(sorted(s for s in found if s is not None))

    def seat_leds(self) -> dict[int, int]:
        """Seat number -> LED pin, for :class:`hardware.lights.SeatLights`."""
        return {seat: pin for key, pin in self.leds.items()
                if (seat := _seat_of(key)) is not None}


def _seat_of(input_id: str) -> int | None:
    head = input_id.split(".", 1)[0]
    return int(head[4:]) if head.startswith("seat") and head[4:].isdigit() else None


def load_config(path: str | PathLike[str], missing_ok: bool = True) -> HardwareConfig:
    """Read and validate a TOML hardware config.

    A missing file gives :meth:`HardwareConfig.empty` when ``missing_ok`` (a table without
    buttons is a valid table); anything else wrong is a :class:`ConfigError` naming the file
    and the key, or the line of a TOML syntax error.
    """
    path = Path(path)
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        if missing_ok:
            return HardwareConfig.empty()
        raise ConfigError(f"{path}: hardware config not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return parse_config(data)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def parse_config(data: Mapping[str, Any]) -> HardwareConfig:
    """Validate an already-parsed config (the dict ``tomllib`` gives)."""
    _only(data, SECTIONS, "", "section")
    used: dict[int, str] = {}
    buttons: dict[str, int] = {}
    leds: dict[str, int] = {}

    table = _table(data.get("buttons", {}), "buttons")
    _only(table, TABLE_BUTTONS, "buttons.", "button")
    for name, value in table.items():
        buttons[name] = _pin(f"buttons.{name}", value, used)

    seats = {str(k): v for k, v in _table(data.get("seats", {}), "seats").items()}
    for number in sorted(seats, key=_seat_sort_key):
        seat = _seat_number(number)
        prefix = f"seat{seat}."
        keys = _table(seats[number], f"seats.{number}")
        _only(keys, (*SEAT_BUTTONS, SEAT_LED), prefix, "key")
        for name, value in keys.items():
            pin = _pin(prefix + name, value, used)
            (leds if name == SEAT_LED else buttons)[prefix + name] = pin

    options = _table(data.get("options", {}), "options")
    _only(options, OPTIONS, "options.", "option")
    bounce_ms = _number(options, "bounce_ms", 30, 0, MAX_BOUNCE_MS, "milliseconds")
    hold_s = _number(options, "hold_s", 1.5, 0, MAX_HOLD_S, "seconds", above_min=True)
    pull_up = options.get("pull_up", True)
    if not isinstance(pull_up, bool):
        raise ConfigError(f"options.pull_up: must be true or false, got {pull_up!r}")
    return HardwareConfig(buttons, leds, bounce_ms / 1000, hold_s, pull_up)


def _only(table: Mapping[str, Any], allowed: tuple[str, ...], prefix: str, what: str) -> None:
    for key in table:
        if key not in allowed:
            raise ConfigError(
                f"{prefix}{key}: unknown {what}; allowed: {', '.join(allowed)}")


def _table(value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{key}: expected a table ([{key}]), got {value!r}")
    return value


def _seat_sort_key(number: str) -> tuple[int, str]:
    return (int(number), number) if number.isdigit() else (MAX_SEATS + 1, number)


def _seat_number(number: str) -> int:
    if not (number.isdigit() and str(int(number)) == number and 1 <= int(number) <= MAX_SEATS):
        raise ConfigError(f"seats.{number}: seat numbers are 1-{MAX_SEATS}, like [seats.1]")
    return int(number)


def _pin(key: str, value: Any, used: dict[int, str]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{key}: pin must be a BCM GPIO number, like 17; got {value!r}")
    if not FIRST_PIN <= value <= LAST_PIN:
        raise ConfigError(
            f"{key}: pin {value} is not a GPIO pin (use BCM {FIRST_PIN}-{LAST_PIN})")
    if value in RESERVED_PINS:
        raise ConfigError(
            f"{key}: pin {value} is reserved for {RESERVED_PINS[value]}; "
            f"use another BCM pin (not {', '.join(map(str, RESERVED_PINS))})")
    if value in used:
        raise ConfigError(f"{key}: pin {value} is already used by {used[value]}")
    used[value] = key
    return value


def _number(options: Mapping[str, Any], name: str, default: float, low: float, high: float,
            unit: str, above_min: bool = False) -> float:
    value = options.get(name, default)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if ok:
        ok = (value > low if above_min else value >= low) and value <= high
    if not ok:
        low_text = f"more than {low}" if above_min else f"at least {low}"
        raise ConfigError(
            f"options.{name}: must be a number of {unit}, {low_text} and at most {high}; "
            f"got {value!r}")
    return float(value)


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

# Demo keyboard: key name as Kivy reports it (``Keyboard.keycode_to_string``, lower case)
# -> input id. One column of the keyboard per seat: q/a/z, w/s/x, e/d/c, r/f/v, t/g/b, y/h/n
# for claim / so_be_it / pass. The first key listed for an id is the one printed on screen.
_SEAT_KEYS = ("qaz", "wsx", "edc", "rfv", "tgb", "yhn")
KEYBOARD_MAP: dict[str, str] = {
    key: f"seat{seat}.{role}"
    for seat, keys in enumerate(_SEAT_KEYS, start=1)
    for key, role in zip(keys, SEAT_BUTTONS)
}
KEYBOARD_MAP.update({"u": "undo", "backspace": "undo", "i": "redo"})


def input_for_key(key: str) -> str | None:
    """The input id a demo key stands for ("q" -> "seat1.claim"), or None."""
    return KEYBOARD_MAP.get(key.lower())


def key_label(input_id: str) -> str | None:
    """The key to print on screen for an input ("seat1.claim" -> "Q"), or None if no key."""
    for key, target in KEYBOARD_MAP.items():
        if target == input_id:
            return key.upper() if len(key) == 1 else key.title()
    return None
