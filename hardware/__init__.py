"""Physical inputs and outputs of the table: GPIO buttons, seat LEDs and the buzzer, the dice tray on USB
serial, the smart dice over Bluetooth LE (:mod:`hardware.dice.ble`), their config, and the thread-safe inbox that carries inputs from device threads to the UI
main thread. ``companion doctor`` and ``companion dicesim`` live in :mod:`hardware.commands`
(the doctor itself in :mod:`hardware.doctor`, with its checks beside it).

The config is :mod:`hardware.config` (data, loading, the demo table) with its rules in
:mod:`hardware.config_check` and its writer in :mod:`hardware.config_write`; the demo keyboard
is :mod:`hardware.keys`.

Nothing here knows a game; devices report input ids ("seat2.claim", "undo") as
:class:`companion.core.model.InputEvent` and the game's input map gives them meaning.
"""

from typing import TYPE_CHECKING

#: name -> the module that holds it. Imported when first used (PEP 562), so the app's first
#: frame does not wait for gpiozero and pyserial: only the inbox is needed before the devices
#: start.
_WHERE = {
    "SeatButtons": ".buttons", "TableBuzzer": ".buzzer", "Debouncer": ".debounce",
    "DEMO_CONFIG": ".config", "DiceConfig": ".config", "HardwareConfig": ".config",
    "default_config_path": ".config", "load_config": ".config", "parse_config": ".config",
    "config_to_data": ".config_write", "dump_config": ".config_write",
    "save_config": ".config_write",
    "DiceReader": ".dice", "DiceSimulator": ".dice", "DiceStatus": ".dice", "Faces": ".dice",
    "ConfigError": ".errors", "HardwareError": ".errors", "Inbox": ".inbox",
    "KEYBOARD_MAP": ".keys", "input_for_key": ".keys", "key_label": ".keys",
    "SeatLights": ".lights",
}


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'hardware' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_WHERE[name], __name__), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:  # what a type checker and a reader see, imported at once
    from .buttons import SeatButtons
    from .buzzer import TableBuzzer
    from .config import (DEMO_CONFIG, DiceConfig, HardwareConfig, default_config_path,
                         load_config, parse_config)
    from .config_write import config_to_data, dump_config, save_config
    from .debounce import Debouncer
    from .dice import DiceReader, DiceSimulator, DiceStatus, Faces
    from .errors import ConfigError, HardwareError
    from .inbox import Inbox
    from .keys import KEYBOARD_MAP, input_for_key, key_label
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
    "config_to_data",
    "default_config_path",
    "dump_config",
    "input_for_key",
    "key_label",
    "load_config",
    "parse_config",
    "save_config",
]
