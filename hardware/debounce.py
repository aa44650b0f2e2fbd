"""A software debounce shared by every input.

gpiozero hands ``bounce_time`` to the pin driver, but not every driver honours it (the mock
pins ignore it, and a worn arcade button can chatter longer than the driver's filter). The
board runs this filter as well so that one press is one input, whatever the driver does.
"""

from __future__ import annotations

import threading
import time
from typing import Callable


class Debouncer:
    """Accepts a press of an input only if the last accepted press of that same input is at
    least ``window_s`` ago. Inputs are independent: two seats pressing together both count.

    Callable from any thread. ``clock`` is injectable so tests can control time exactly.
    """

    def __init__(self, window_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        if window_s < 0:
            raise ValueError(f"debounce window must be >= 0 s, got {window_s!r}")
        self.window_s = float(window_s)
        self._clock = clock
        self._last: dict[str, float] = {}
        self._lock = threading.Lock()

    def accept(self, input_id: str) -> bool:
        """True if this press counts (and remember it); False if it is chatter."""
        with self._lock:
            last = self._last.get(input_id)
            now = self._clock()
            if last is not None and now - last < self.window_s:
                return False
            self._last[input_id] = now
            return True

    def reset(self, input_id: str | None = None) -> None:
        """Forget the last press of one input, or of all inputs."""
        with self._lock:
            if input_id is None:
                self._last.clear()
            else:
                self._last.pop(input_id, None)
