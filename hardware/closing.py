"""What every device of the table does at the end of a ``with`` block: it closes.

The buttons, the lights, the buzzer, the hold timer, the dice tray's reader, the smart dice and
the tray simulator each own threads, pins or a port that ``close`` gives back; a ``with`` block
(a test, the doctor's checks) gives them back however it ends. One mixin says so once.
"""

from __future__ import annotations

from typing import Self


class ClosedOnExit:
    """A device whose ``close`` frees what it holds: ``with device:`` closes it at the end."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()  # type: ignore[attr-defined]  # each device's own
