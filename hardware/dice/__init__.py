"""The dice tray on USB serial: its line protocol (pure), the reader (pySerial threads,
reconnecting) and a pseudo-terminal simulator for demos and tests.

See ``docs/dice-protocol.md``.
"""

from .protocol import Faces, LineSplitter, parse_line
from .reader import DiceProtocol, DiceReader, DiceStatus
from .simulator import DiceSimulator

__all__ = ["DiceProtocol", "DiceReader", "DiceSimulator", "DiceStatus", "Faces",
           "LineSplitter", "parse_line"]
