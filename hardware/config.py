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

Without ``--hardware`` the app reads ``hardware.toml`` in the user config directory
(:func:`default_config_path`), if it is there. :func:`dump_config` and :func:`save_config`
write a config back (the app's Hardware screen), in a fixed order with a comment per section.
"""

from __future__ import annotations

import math
import os
import re
import tempfile
import tomllib
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any, Mapping

from .errors import ConfigError

SECTIONS = ("buttons", "seats", "options", "dice", "buzzer")
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
DICE_KEYS = ("url", "baudrate", "faces", "die_faces", "ids", "face_names")
BUZZER_KEYS = ("pin",)
MAX_FACE_NAME = 24
DEFAULT_BAUDRATE = 115200
# pySerial's Serial.BAUDRATES (not imported here: reading a config needs no serial port).
STANDARD_BAUDRATES = (50, 75, 110, 134, 150, 200, 300, 600, 1200, 1800, 2400, 4800, 9600,
                      19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600,
                      1000000, 1152000, 1500000, 2000000, 2500000, 3000000, 3500000, 4000000)
# The URL schemes pySerial's serial_for_url knows; anything else must be a device path.
SERIAL_URL_SCHEMES = ("loop", "socket", "rfc2217", "spy", "hwgrep", "alt", "cp2110")
MAX_FACE = 999
DIE_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,15}\Z")
FACE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*\Z")


@dataclass(frozen=True)
class DiceConfig:
    """The dice tray: where it is (a device path or a pySerial URL), its speed, and the faces
    each die can show (``faces`` for all, ``die_faces`` for those that differ).

    ``ids`` renames the tray's dice to the game's ("d1" -> "action_a"); ``face_names`` gives
    the face numbers of a die with symbols their meaning (face 1 of d1 -> "bottle"). Both are
    keyed by the tray's die id and applied by :meth:`game_die` before a game sees the die.
    """

    url: str
    baudrate: int = DEFAULT_BAUDRATE
    faces: tuple[int, int] = (1, 6)
    die_faces: dict[str, tuple[int, int]] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)
    face_names: dict[str, tuple[str | int, ...]] = field(default_factory=dict)

    def faces_of(self, die: str) -> tuple[int, int]:
        """The (lowest, highest) face of the tray's die ``die``."""
        return self.die_faces.get(die, self.faces)

    def game_die(self, die: str, value: Any = None) -> tuple[str, Any]:
        """The tray's (die, value) as the game knows them: the id from ``ids`` and, for a
        die in ``face_names``, the name of face ``value``. Anything else passes unchanged."""
        names = self.face_names.get(die)
        if names is not None and isinstance(value, int) and not isinstance(value, bool):
            low = self.faces_of(die)[0]
            if 0 <= value - low < len(names):
                value = names[value - low]
        return self.ids.get(die, die), value


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
    dice: DiceConfig | None = None
    buzzer: int | None = None

    @classmethod
    def empty(cls) -> "HardwareConfig":
        """Nothing wired: the app runs on touch (and keyboard) alone."""
        return cls()

    @property
    def is_empty(self) -> bool:
        """No GPIO device (button, LED or buzzer); a dice tray alone does not count here."""
        return not self.buttons and not self.leds and self.buzzer is None

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
    buzzer = None
    if "buzzer" in data:
        table = _table(data["buzzer"], "buzzer")
        _only(table, BUZZER_KEYS, "buzzer.", "key")
        if "pin" not in table:
            raise ConfigError("buzzer.pin: missing; the buzzer's BCM pin, like 12 "
                              "(or leave out [buzzer])")
        buzzer = _pin("buzzer.pin", table["pin"], used)
    dice = _dice(data["dice"]) if "dice" in data else None
    return HardwareConfig(buttons, leds, bounce_ms / 1000, hold_s, pull_up, dice, buzzer)


def _dice(value: Any) -> DiceConfig:
    table = _table(value, "dice")
    _only(table, DICE_KEYS, "dice.", "key")
    if "url" not in table:
        raise ConfigError("dice.url: missing; the tray's port, like "
                          '"/dev/serial/by-id/usb-..." (or leave out [dice])')
    url = table["url"]
    if not isinstance(url, str) or not url.strip():
        raise ConfigError(f"dice.url: must be a device path or a serial URL, got {url!r}")
    scheme, sep, _ = url.partition("://")
    if sep and scheme not in SERIAL_URL_SCHEMES:
        raise ConfigError(
            f"dice.url: unknown scheme {scheme!r}; use a device path like "
            f"/dev/serial/by-id/... or one of {', '.join(s + '://' for s in SERIAL_URL_SCHEMES)}")
    if not sep and not (url.startswith("/") or re.fullmatch(r"COM[0-9]+", url)):
        raise ConfigError(f"dice.url: {url!r} is neither an absolute device path "
                          f"(/dev/ttyACM0, /dev/serial/by-id/...) nor a serial URL (loop://)")
    baudrate = table.get("baudrate", DEFAULT_BAUDRATE)
    if isinstance(baudrate, bool) or not isinstance(baudrate, int):
        raise ConfigError(f"dice.baudrate: must be a whole number like 115200, got {baudrate!r}")
    if baudrate not in STANDARD_BAUDRATES:
        raise ConfigError(f"dice.baudrate: {baudrate} is not a standard baud rate "
                          f"(like 9600, 57600, 115200)")
    faces = _faces("dice.faces", table.get("faces", [1, 6]))
    die_faces = {}
    for die, pair in _table(table.get("die_faces", {}), "dice.die_faces").items():
        if not DIE_ID.match(die):
            raise ConfigError(f"dice.die_faces.{die}: not a die id (a letter, then up to 15 "
                              f"letters, digits, _ or -)")
        die_faces[die] = _faces(f"dice.die_faces.{die}", pair)
    ids: dict[str, str] = {}
    named: dict[str, str] = {}
    for die, game_id in _table(table.get("ids", {}), "dice.ids").items():
        key = f"dice.ids.{die}"
        if not DIE_ID.match(die):
            raise ConfigError(f"{key}: not a tray die id (a letter, then up to 15 letters, "
                              f"digits, _ or -)")
        if not isinstance(game_id, str) or not DIE_ID.match(game_id):
            raise ConfigError(f'{key}: the id the game knows this die by, like "action_a" or '
                              f'"magic1" (a letter, then up to 15 letters, digits, _ or -); '
                              f"got {game_id!r}")
        if game_id in named:
            raise ConfigError(f"{key}: {game_id!r} is already the game's id of "
                              f"{named[game_id]}; two dice cannot be the same die")
        named[game_id] = die
        ids[die] = game_id
    face_names = {}
    for die, names in _table(table.get("face_names", {}), "dice.face_names").items():
        key = f"dice.face_names.{die}"
        if not DIE_ID.match(die):
            raise ConfigError(f"{key}: not a tray die id (a letter, then up to 15 letters, "
                              f"digits, _ or -)")
        low, high = die_faces.get(die, faces)
        count = high - low + 1
        ok = isinstance(names, list) and len(names) == count and all(
            (isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_FACE)
            or (isinstance(n, str) and len(n) <= MAX_FACE_NAME and FACE_NAME.match(n))
            for n in names)
        if not ok:
            raise ConfigError(
                f"{key}: must list what each of the die's {count} faces ({low}-{high}) means, "
                f'in face order, like ["bottle", "bottle", "bottle", "bottle", "hat", "hat"] '
                f"(words of up to {MAX_FACE_NAME} letters, digits, _ or -, or numbers); "
                f"got {names!r}")
        face_names[die] = tuple(names)
    return DiceConfig(url, baudrate, faces, die_faces, ids, face_names)


def _faces(key: str, value: Any) -> tuple[int, int]:
    ok = (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
          and 0 <= value[0] < value[1] <= MAX_FACE)
    if not ok:
        raise ConfigError(f"{key}: must be [lowest, highest] face, like [1, 6] "
                          f"(0-{MAX_FACE}, lowest below highest); got {value!r}")
    return (value[0], value[1])


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


# -- writing a config back (the Hardware screen) ----------------------------------------------
def default_config_path() -> Path:
    """Where the app reads ``hardware.toml`` without ``--hardware``: the user config directory
    (``~/.config/table-companion/hardware.toml`` on Linux)."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("table-companion", appauthor=False)) / "hardware.toml"


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
    if config.buzzer is not None:
        data["buzzer"] = {"pin": config.buzzer}
    dice = config.dice
    if dice is not None:
        data["dice"] = {"url": dice.url, "baudrate": dice.baudrate, "faces": list(dice.faces)}
        for name in ("die_faces", "ids", "face_names"):
            values = getattr(dice, name)
            if values:
                data["dice"][name] = {die: (v if isinstance(v, str) else list(v))
                                      for die, v in sorted(values.items())}
    return data


def _bounce_ms(bounce_s: float) -> int | float:
    """The shortest number of milliseconds that reads back as exactly ``bounce_s``."""
    for digits in range(16):
        ms = round(bounce_s * 1000, digits)
        if ms / 1000 == bounce_s:
            return int(ms) if float(ms).is_integer() else ms
    return bounce_s * 1000


_COMMENTS = {
    "buttons": "table buttons: input = BCM GPIO number",
    "seats": "seat {}: its answer buttons and LED (BCM GPIO numbers)",
    "options": "bounce_ms: software debounce; hold_s: a press held this long is a hold",
    "buzzer": "the buzzer (BCM GPIO number)",
    "dice": "the dice tray: a device path (/dev/serial/by-id/...) or a pySerial URL",
    "die_faces": "dice whose faces differ from dice.faces",
    "ids": "the tray's die ids -> the game's",
    "face_names": "what each face of a die with symbols means, in face order",
}


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
        for name in ("die_faces", "ids", "face_names"):
            if name in dice:
                section(f"dice.{name}", _COMMENTS[name], dice[name])
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
    path = Path(path)
    text = dump_config(config)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    try:   # and the rename itself reaches the disk
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass
    return path
