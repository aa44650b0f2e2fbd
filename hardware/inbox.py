"""The one hand-over point between device threads and the UI main thread.

gpiozero and the serial reader call back on their own threads; the rules, the store and the
widgets must only be touched on the main thread (DESIGN.md, Threads). Devices ``put`` here and
the main thread ``drain``s. ``wake`` tells the main thread there is something to drain; in the
app it is a Kivy ``Clock.create_trigger``, injected so this module stays free of Kivy.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Callable

from companion.core.model import InputEvent

log = logging.getLogger(__name__)


class Inbox:
    """A thread-safe FIFO of :class:`InputEvent`, with an optional wake-up call.

    ``put`` can be passed straight to a device as its ``emit`` callback.
    """

    def __init__(self, wake: Callable[[], object] | None = None) -> None:
        self.wake = wake
        self._items: deque[InputEvent] = deque()
        self._lock = threading.Lock()

    def put(self, event: InputEvent) -> None:
        """Queue ``event`` (from any thread), then call ``wake``.

        A failing ``wake`` is logged, not raised: it must not kill the device thread that
        called us, and the event is queued already.
        """
        with self._lock:
            self._items.append(event)
        wake = self.wake
        if wake is not None:
            try:
                wake()
            except Exception:
                log.exception("inbox wake-up failed")

    def drain(self) -> list[InputEvent]:
        """Take every queued event, oldest first (main thread)."""
        with self._lock:
            items = list(self._items)
            self._items.clear()
        return items

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)
