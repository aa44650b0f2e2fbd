"""A press from a device thread is drawn at once, not at the next frame slot.

Kivy's clock sleeps between frames (maxfps 30: up to 33 ms) and nothing cuts that sleep short:
a button, a die or a phone's press put on the Inbox waited, on average, half a frame before the
main thread even saw it. Kivy's own "interrupt" clocks would cut it short, but for
every event scheduled anywhere: an Animation or a ScrollView's kinetic effect then runs its
frames back to back (2,000 a second measured here). This wait cuts it short for the Inbox
alone: the sleep waits on an event the Inbox's wake sets, and every other frame keeps its slot.

Early frames are at least ``MIN_GAP`` apart, so a flood of puts (a tray sending garbage, a
phone pressing in a loop) costs at most 1 / MIN_GAP loops a second, each drawing only what
changed.
"""

from __future__ import annotations

import threading
import time
from typing import Any

#: seconds: the least time between two frames a wake may bring forward
MIN_GAP = 0.008


class FrameWait:
    """Installed on Kivy's clock (once: later calls return the same one): its sleep between
    frames becomes a wait that :meth:`wake` ends."""

    def __init__(self, clock: Any) -> None:
        self._clock = clock
        self._woken = threading.Event()
        self._ready = clock._check_ready     # Kivy's own: is the next frame's slot here?
        clock._check_ready = self._check
        clock.usleep = self._sleep

    @classmethod
    def on(cls, clock: Any) -> "FrameWait":
        found = getattr(clock, "frame_wait", None)
        if found is None:
            found = clock.frame_wait = cls(clock)
        return found

    def wake(self) -> None:
        """From any thread: the next frame now (or MIN_GAP after the last one)."""
        self._woken.set()

    def _check(self, fps: float, min_sleep: float, undershoot: float) -> tuple[bool, float]:
        if self._woken.is_set():
            early = MIN_GAP - (self._clock.time() - self._clock._last_tick)
            if early <= 0:
                self._woken.clear()
                return True, 0
            done, sleeptime = self._ready(fps, min_sleep, undershoot)
            return done, min(sleeptime, early)
        return self._ready(fps, min_sleep, undershoot)

    def _sleep(self, microseconds: float) -> None:
        seconds = microseconds / 1e6
        if self._woken.is_set():     # woken within MIN_GAP of the last frame: the gap's rest
            time.sleep(max(0.0, seconds))
        else:
            self._woken.wait(seconds)
