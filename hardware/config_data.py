"""A validated hardware config as data: which pin each input sits on, the dice tray, the
smart dice, the buzzer. Made by :func:`hardware.config.parse_config`, written back by
:mod:`hardware.config_write`; both import it from here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .config_check import DEFAULT_BAUDRATE


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
        return self.ids.get(die, die), face_name(self.face_names.get(die), self.faces_of(die)[0],
                                                 value)


def face_name(names: tuple[str | int, ...] | None, low: int, value: Any) -> Any:
    """What face ``value`` of a die whose faces start at ``low`` means, by ``names`` (in face
    order); anything else passes unchanged. The tray and the smart dice use this one rule."""
    if names and isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value - low < len(names):
            return names[value - low]
    return value


@dataclass(frozen=True)
class BleDieConfig:
    """One paired smart die, kept by its address: its make ("pixels", "godice"), the name it
    advertised, the game's die it is (``die``: "magic1", "action_a"... or "any": the first die
    the game asks for), for a die with stickered faces what each face 1-6 means and, for a
    GoDice, the shell it wears ("d6", "d20"...: the die cannot say it)."""

    address: str
    make: str
    name: str = ""
    die: str = "any"
    face_names: tuple[str | int, ...] = ()
    shell: str = "d6"

    def game_value(self, value: Any) -> Any:
        return face_name(self.face_names, 1, value)


@dataclass(frozen=True)
class BleConfig:
    """The smart dice over Bluetooth LE (``[ble]``): the paired dice, the battery level
    below which the screen says a die is low, and ``air``: the socket of ``companion dicesim
    --ble`` to read instead of the radio (a demo table), "" for the radio."""

    dice: tuple[BleDieConfig, ...] = ()
    low_battery: int = 20
    air: str = ""

    def transport(self):
        """The simulated air when ``air`` names one, else None (the radio)."""
        if not self.air:
            return None
        from .dice.ble_air import AirTransport

        return AirTransport(self.air)

    def die(self, address: str) -> BleDieConfig | None:
        return next((d for d in self.dice if d.address == address), None)


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
    turn_limit_s: int = 0       # the "time" cue (buzzer and screen) after a turn this long
    ble: BleConfig | None = None   # smart dice over Bluetooth LE

    @classmethod
    def empty(cls) -> "HardwareConfig":
        """Nothing wired: the app runs on touch (and keyboard) alone."""
        return cls()

    @property
    def is_empty(self) -> bool:
        """No GPIO device (button, LED or buzzer); dice (tray or smart) do not count here."""
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
