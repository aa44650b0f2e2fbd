"""What a hardware config may say, and the rules each value must pass.

The sections and keys a ``hardware.toml`` knows, the pins it may use and the checks on every
value live here, apart from :mod:`hardware.config` (the data and the entry points), so the
rules read in one place; the Hardware screen offers the same pins, keys and baud rates. Every
check raises :class:`ConfigError` naming the key, so a config that cannot work is refused at
start and nothing half-works.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from companion.core.values import clipped, shown

from .dice.urls import check_tray_url
from .errors import ConfigError

SECTIONS = ("buttons", "seats", "options", "dice", "buzzer", "ble")
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
BUZZER_KEYS = ("pin", "turn_limit_s")
MAX_TURN_LIMIT_S = 3600
MAX_FACE_NAME = 24
DEFAULT_BAUDRATE = 115200
# pySerial's Serial.BAUDRATES (not imported here: reading a config needs no serial port).
STANDARD_BAUDRATES = (50, 75, 110, 134, 150, 200, 300, 600, 1200, 1800, 2400, 4800, 9600,
                      19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600,
                      1000000, 1152000, 1500000, 2000000, 2500000, 3000000, 3500000, 4000000)
# The URL schemes the app opens (hardware.dice.urls has the whole allow-list): pySerial knows
# more (spy://, hwgrep://, rfc2217://...), and some of those write files.
SERIAL_URL_SCHEMES = ("loop", "socket")
MAX_FACE = 999
# The protocol's own (hardware.dice.protocol) is not imported: that would load pySerial too.
DIE_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,15}\Z")
FACE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*\Z")
# Smart dice over Bluetooth LE ([ble]); the makes are hardware.dice.ble_protocol's (not
# imported: it is small, but a config check needs none of it).
BLE_KEYS = ("low_battery", "air", "dice")
MAX_AIR_PATH = 200
BLE_DIE_KEYS = ("make", "name", "die", "face_names", "shell")
BLE_MAKES = ("pixels", "godice")
# The shells a GoDice can wear (hardware.dice.ble_godice.SHELLS, godice.Shell); a Pixels says
# its own type, so only a GoDice has this setting.
GODICE_SHELLS = ("d6", "d20", "d10", "d10x", "d4", "d8", "d12")
ANY_DIE = "any"
MAX_BLE_DICE = 12
MAX_BLE_NAME = 32
# A Bluetooth address as BlueZ gives it (AA:BB:CC:DD:EE:FF), or the UUID macOS gives instead.
BLE_ADDRESS = re.compile(r"([0-9A-F]{2}:){5}[0-9A-F]{2}\Z|[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}\Z")
_BLE_NAME = re.compile(r"[\x20-\x7e]*\Z")


# -- tables and keys --------------------------------------------------------------------------
def check_only(table: Mapping[str, Any], allowed: tuple[str, ...], prefix: str,
               what: str) -> None:
    """Refuse a key not in ``allowed``: a typo must not be silently ignored."""
    for key in table:
        if key not in allowed:
            raise ConfigError(
                f"{prefix}{clipped(key)}: unknown {what}; allowed: {', '.join(allowed)}")


def check_table(value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{key}: expected a table ([{key}]), got {shown(value, 80)}")
    return value


def seat_sort_key(number: str) -> tuple[int, str]:
    """Seats in number order, so an error names the first bad seat; non-numbers last."""
    return (int(number), number) if number.isdigit() else (MAX_SEATS + 1, number)


def check_seat_number(number: str) -> int:
    if not (number.isdigit() and str(int(number)) == number and 1 <= int(number) <= MAX_SEATS):
        raise ConfigError(f"seats.{clipped(number)}: seat numbers are 1-{MAX_SEATS}, like [seats.1]")
    return int(number)


# -- values -----------------------------------------------------------------------------------
def check_pin(key: str, value: Any, used: dict[int, str]) -> int:
    """A free, usable BCM pin; ``used`` (pin -> key) catches two devices on one pin."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{key}: pin must be a BCM GPIO number, like 17; got {shown(value, 80)}")
    if not FIRST_PIN <= value <= LAST_PIN:
        raise ConfigError(
            f"{key}: pin {shown(value)} is not a GPIO pin (use BCM {FIRST_PIN}-{LAST_PIN})")
    if value in RESERVED_PINS:
        raise ConfigError(
            f"{key}: pin {value} is reserved for {RESERVED_PINS[value]}; "
            f"use another BCM pin (not {', '.join(map(str, RESERVED_PINS))})")
    if value in used:
        raise ConfigError(f"{key}: pin {value} is already used by {used[value]}")
    used[value] = key
    return value


def check_number(options: Mapping[str, Any], name: str, default: float, low: float,
                 high: float, unit: str, above_min: bool = False) -> float:
    value = options.get(name, default)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if ok:
        ok = (value > low if above_min else value >= low) and value <= high
    if not ok:
        low_text = f"more than {low}" if above_min else f"at least {low}"
        raise ConfigError(
            f"options.{name}: must be a number of {unit}, {low_text} and at most {high}; "
            f"got {shown(value, 80)}")
    return float(value)


# -- the dice tray ----------------------------------------------------------------------------
def check_dice(value: Any) -> dict[str, Any]:
    """The ``[dice]`` table, checked: the keyword arguments of
    :class:`hardware.config.DiceConfig` (built there, so this module needs no config class)."""
    table = check_table(value, "dice")
    check_only(table, DICE_KEYS, "dice.", "key")
    if "url" not in table:
        raise ConfigError("dice.url: missing; the tray's port, like "
                          '"/dev/serial/by-id/usb-..." (or leave out [dice])')
    # In this order, so the first of several mistakes is the one named.
    url = check_tray_url(table["url"])
    baudrate = check_baudrate(table.get("baudrate", DEFAULT_BAUDRATE))
    faces = check_faces("dice.faces", table.get("faces", [1, 6]))
    die_faces = {}
    for die, pair in check_table(table.get("die_faces", {}), "dice.die_faces").items():
        check_die_id(f"dice.die_faces.{die}", die, "a die id")
        die_faces[die] = check_faces(f"dice.die_faces.{die}", pair)
    ids = check_die_ids(check_table(table.get("ids", {}), "dice.ids"))
    face_names = {}
    for die, names in check_table(table.get("face_names", {}), "dice.face_names").items():
        key = f"dice.face_names.{die}"
        check_die_id(key, die)
        face_names[die] = check_face_names(key, names, die_faces.get(die, faces))
    return {"url": url, "baudrate": baudrate, "faces": faces, "die_faces": die_faces,
            "ids": ids, "face_names": face_names}


def check_baudrate(baudrate: Any) -> int:
    if isinstance(baudrate, bool) or not isinstance(baudrate, int):
        raise ConfigError(f"dice.baudrate: must be a whole number like 115200, got {shown(baudrate, 80)}")
    if baudrate not in STANDARD_BAUDRATES:
        raise ConfigError(f"dice.baudrate: {shown(baudrate)} is not a standard baud rate "
                          f"(like 9600, 57600, 115200)")
    return baudrate


def check_faces(key: str, value: Any) -> tuple[int, int]:
    ok = (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
          and 0 <= value[0] < value[1] <= MAX_FACE)
    if not ok:
        raise ConfigError(f"{key}: must be [lowest, highest] face, like [1, 6] "
                          f"(0-{MAX_FACE}, lowest below highest); got {shown(value, 80)}")
    return (value[0], value[1])


def check_die_id(key: str, die: str, what: str = "a tray die id") -> None:
    if not DIE_ID.match(die):
        raise ConfigError(f"{key}: not {what} (a letter, then up to 15 letters, digits, _ or -)")


def check_die_ids(table: Mapping[str, Any]) -> dict[str, str]:
    """``[dice.ids]``: tray id -> game id, one game id per die (two dice cannot be one)."""
    ids: dict[str, str] = {}
    named: dict[str, str] = {}
    for die, game_id in table.items():
        key = f"dice.ids.{die}"
        check_die_id(key, die)
        if not isinstance(game_id, str) or not DIE_ID.match(game_id):
            raise ConfigError(f'{key}: the id the game knows this die by, like "action_a" or '
                              f'"magic1" (a letter, then up to 15 letters, digits, _ or -); '
                              f"got {shown(game_id, 80)}")
        if game_id in named:
            raise ConfigError(f"{key}: {shown(game_id, 80)} is already the game's id of "
                              f"{named[game_id]}; two dice cannot be the same die")
        named[game_id] = die
        ids[die] = game_id
    return ids


def check_face_names(key: str, names: Any, faces: tuple[int, int]) -> tuple[str | int, ...]:
    """One name (or number) per face of the die, in face order."""
    low, high = faces
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
            f"got {shown(names, 80)}")
    return tuple(names)


# -- the smart dice ---------------------------------------------------------------------------
def check_ble(value: Any) -> dict[str, Any]:
    """The ``[ble]`` table, checked: the keyword arguments of
    :class:`hardware.config_data.BleConfig` (its dice as keyword dicts, in address order)."""
    table = check_table(value, "ble")
    check_only(table, BLE_KEYS, "ble.", "key")
    low = table.get("low_battery", 20)
    if isinstance(low, bool) or not isinstance(low, int) or not 0 <= low <= 100:
        raise ConfigError(f"ble.low_battery: a percentage from 0 to 100, like 20; "
                          f"got {shown(low, 80)}")
    air = table.get("air", "")
    if not isinstance(air, str) or len(air) > MAX_AIR_PATH or \
            (air and (not air.startswith("/") or "\x00" in air)):
        raise ConfigError(f"ble.air: the socket of companion dicesim --ble, an absolute path "
                          f"(leave it out for the radio); got {shown(air, 80)}")
    dice_table = check_table(table.get("dice", {}), "ble.dice")
    if len(dice_table) > MAX_BLE_DICE:
        raise ConfigError(f"ble.dice: at most {MAX_BLE_DICE} smart dice, got {len(dice_table)}")
    dice: list[dict[str, Any]] = []
    named: dict[str, str] = {}
    for address in sorted(dice_table, key=lambda a: str(a).upper()):
        die = check_ble_die(address, dice_table[address], named)
        if any(d["address"] == die["address"] for d in dice):
            raise ConfigError(f'ble.dice."{address}": {die["address"]} is listed twice')
        dice.append(die)
    return {"dice": dice, "low_battery": low, "air": air}


def check_ble_die(address: str, value: Any, named: dict[str, str]) -> dict[str, Any]:
    """One ``[ble.dice."ADDRESS"]``; ``named`` (game die -> address) catches two dice paired
    to one game die ("any" may be many)."""
    key = f'ble.dice."{address}"'
    if not isinstance(address, str) or not BLE_ADDRESS.match(address.upper()):
        raise ConfigError(f"{key}: not a Bluetooth address (like AA:BB:CC:DD:EE:FF)")
    upper = address.upper()
    table = check_table(value, key)
    check_only(table, BLE_DIE_KEYS, f"{key}.", "key")
    make = table.get("make")
    if make not in BLE_MAKES:
        raise ConfigError(f"{key}.make: one of {', '.join(BLE_MAKES)}; got {shown(make, 80)}")
    name = table.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_BLE_NAME or not _BLE_NAME.match(name):
        raise ConfigError(f"{key}.name: the die's name, up to {MAX_BLE_NAME} printable ASCII "
                          f"characters; got {shown(name, 80)}")
    die = table.get("die", ANY_DIE)
    if not isinstance(die, str) or not (die == ANY_DIE or DIE_ID.match(die)):
        raise ConfigError(f'{key}.die: the game\'s die, like "magic1" or "action_a", or '
                          f'"{ANY_DIE}"; got {shown(die, 80)}')
    if die != ANY_DIE:
        if die in named:
            raise ConfigError(f"{key}.die: {die} is already the die at {named[die]}; two dice "
                              "cannot be the same die")
        named[die] = upper
    names = table.get("face_names")
    face_names = () if names is None else check_face_names(f"{key}.face_names", names, (1, 6))
    shell = table.get("shell", GODICE_SHELLS[0])
    if "shell" in table and make != "godice":
        raise ConfigError(f"{key}.shell: only a GoDice wears a shell (a Pixels says its own "
                          "type); leave it out")
    if shell not in GODICE_SHELLS:
        raise ConfigError(f"{key}.shell: the shell the GoDice wears, one of "
                          f"{', '.join(GODICE_SHELLS)}; got {shown(shell, 80)}")
    return {"address": upper, "make": make, "name": name, "die": die, "face_names": face_names,
            "shell": shell}
