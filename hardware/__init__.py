"""Physical inputs and outputs of the table: GPIO buttons, seat LEDs and the buzzer, the dice tray on USB
serial, their config, and the thread-safe inbox that carries inputs from device threads to the UI
main thread. ``companion doctor`` and ``companion dicesim`` live in :mod:`hardware.commands`.

Nothing here knows a game; devices report input ids ("seat2.claim", "undo") as
:class:`companion.core.model.InputEvent` and the game's input map gives them meaning.
"""

from .buttons import SeatButtons
from .buzzer import TableBuzzer
from .config import (
    DEMO_CONFIG,
    KEYBOARD_MAP,
    DiceConfig,
    HardwareConfig,
    input_for_key,
    key_label,
    load_config,
    parse_config,
)
from .debounce import Debouncer
from .dice import DiceReader, DiceSimulator, DiceStatus, Faces
from .errors import ConfigError, HardwareError
from .inbox import Inbox
from .lights import SeatLights

__all__ = [
    "ConfigError",
    "DEMO_CONFIG",
    "Debouncer",
    "DiceConfig",
    "DiceReader",
    "DiceSimulator",
    "DiceStatus",
    "Faces",
    "HardwareConfig",
    "HardwareError",
    "Inbox",
    "KEYBOARD_MAP",
    "SeatButtons",
    "SeatLights",
    "TableBuzzer",
    "input_for_key",
    "key_label",
    "load_config",
    "parse_config",
]
