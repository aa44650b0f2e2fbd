"""The dice tray on USB serial: its line protocol (pure), the reader (pySerial threads,
reconnecting), a pseudo-terminal simulator for demos and tests, and which URLs may be opened;
and the smart dice over Bluetooth LE beside it (GoDice, Pixels): their messages (pure,
``ble_protocol``), one die's link (``ble_link``), the source on its asyncio thread (``ble``),
the air without a radio (``ble_fake``, ``ble_air``) and which game die a roll is for
(``route``), each imported by its own module path, never from here.

The reader and the simulator are imported on first use (PEP 562), so the config check can use
:func:`hardware.dice.urls.check_tray_url` without loading pySerial.

See ``docs/dice-protocol.md``.
"""

from importlib import import_module
from typing import Any

from .protocol import Faces, LineSplitter, parse_line
from .urls import check_tray_url

_LAZY = {"DiceProtocol": ".reader", "DiceReader": ".reader", "DiceStatus": ".reader",
         "DiceSimulator": ".simulator"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DiceProtocol", "DiceReader", "DiceSimulator", "DiceStatus", "Faces",
           "LineSplitter", "check_tray_url", "parse_line"]
