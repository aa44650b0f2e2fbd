"""Physical inputs and outputs of the table: GPIO buttons and seat LEDs, their config, and the
thread-safe inbox that carries inputs from device threads to the UI main thread.

Nothing here knows a game; devices report input ids ("seat2.claim", "undo") as
:class:`companion.core.model.InputEvent` and the game's input map gives them meaning.
"""

from .buttons import SeatButtons
from .config import (
    DEMO_CONFIG,
    KEYBOARD_MAP,
    HardwareConfig,
    input_for_key,
    key_label,
    load_config,
    parse_config,
)
from .debounce import Debouncer
from .errors import ConfigError, HardwareError
from .inbox import Inbox
from .lights import SeatLights

__all__ = [
    "ConfigError",
    "DEMO_CONFIG",
    "Debouncer",
    "HardwareConfig",
    "HardwareError",
    "Inbox",
    "KEYBOARD_MAP",
    "SeatButtons",
    "SeatLights",
    "input_for_key",
    "key_label",
    "load_config",
    "parse_config",
]
