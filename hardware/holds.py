"""Held buttons, timed from their edges by one sleeping thread per board.

gpiozero's ``Button`` starts a ``HoldThread`` per button that wakes every 0.1 s to ask whether
its button went down: twenty buttons, more than two hundred wake-ups a second while nobody
touches the table. Here the press edge arms a deadline and the release edge cancels
it; a single thread sleeps until the earliest deadline, and without any timeout while nothing is
pressed, so an idle table costs no wake-up at all.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from .closing import ClosedOnExit

log = logging.getLogger(__name__)

JOIN_S = 2.0


class HoldTimer(ClosedOnExit):
    """Calls ``on_held(key)`` once for a key that stayed armed for ``hold_s`` seconds.

    ``arm(key)`` on the press edge, ``cancel(key)`` on the release edge; arming a key that is
    armed already restarts its time. One thread serves every key; it starts at the first
    ``arm`` and waits on a condition, with the time left to the earliest deadline as timeout,
    or with no timeout while nothing is armed. ``on_held`` runs on that thread, in deadline
    order and outside the lock (it may arm, cancel or close); an exception from it is logged.

    ``clock`` is injectable (seconds, monotonic). The thread sleeps in real time, so a clock
    moved by hand goes with ``threaded=False``: no thread, and the owner calls
    :meth:`fire_due` after moving the clock.
    """

    def __init__(self, hold_s: float, on_held: Callable[[str], object], *,
                 clock: Callable[[], float] = time.monotonic, threaded: bool = True,
                 name: str = "button holds") -> None:
        if not hold_s >= 0:
            raise ValueError(f"hold_s must be >= 0 s, got {hold_s!r}")
        self.hold_s = float(hold_s)
        self._on_held = on_held
        self._clock = clock
        self._threaded = threaded
        self._name = name
        self._deadlines: dict[str, float] = {}
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    # -- edges (any thread) ----------------------------------------------------------------
    def arm(self, key: str) -> None:
        """Start timing ``key`` from now. Does nothing once closed."""
        with self._cond:
            if self._closed:
                return
            self._deadlines[key] = self._clock() + self.hold_s
            if self._thread is None and self._threaded:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._cond.notify()

    def cancel(self, key: str) -> bool:
        """Stop timing ``key`` (released in time); True if it was armed. The thread is not
        woken for it: at the old deadline it finds nothing due and sleeps on."""
        with self._cond:
            return self._deadlines.pop(key, None) is not None

    def fire_due(self) -> list[str]:
        """Call ``on_held`` for every key whose time has come, earliest first, on the calling
        thread, and return those keys; each is disarmed first, so it is held once. The timer's
        thread calls this at each deadline."""
        with self._cond:
            due = self._pop_due()
        for key in due:
            if self._closed:
                break
            try:
                self._on_held(key)
            except Exception:
                log.exception("hold callback failed for %s", key)
        return due

    # -- state -----------------------------------------------------------------------------
    @property
    def pending(self) -> tuple[str, ...]:
        """The armed keys, earliest deadline first."""
        with self._cond:
            return tuple(sorted(self._deadlines, key=self._deadlines.__getitem__))

    @property
    def running(self) -> bool:
        """Whether the thread exists (it starts at the first press, ends at close)."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    @property
    def closed(self) -> bool:
        return self._closed

    # -- lifecycle -------------------------------------------------------------------------
    def close(self, timeout: float = JOIN_S) -> None:
        """Drop every pending hold and end the thread, waiting for a hold it is sending: once
        this returns, the thread calls ``on_held`` no more (when called from ``on_held`` on
        that thread, it ends as soon as ``on_held`` returns). Safe to call twice."""
        with self._cond:
            self._closed = True
            self._deadlines.clear()
            thread = self._thread
            self._cond.notify()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"{len(self._deadlines)} pending"
        return f"<HoldTimer {self.hold_s:g} s {state}>"

    # -- the thread ------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._closed:
                    wait_s = self._time_to_next()
                    if wait_s == 0.0:
                        break
                    self._cond.wait(wait_s)   # None: no timeout, asleep until an edge
                if self._closed:
                    return
            self.fire_due()

    def _pop_due(self) -> list[str]:
        """The keys whose deadline has passed, earliest first, no longer armed (lock held)."""
        if not self._deadlines:
            return []
        now = self._clock()
        due = sorted((deadline, key) for key, deadline in self._deadlines.items()
                     if deadline <= now)
        for _, key in due:
            del self._deadlines[key]
        return [key for _, key in due]

    def _time_to_next(self) -> float | None:
        """Seconds until the earliest deadline, or None (sleep until woken) (lock held)."""
        if not self._deadlines:
            return None
        return max(0.0, min(self._deadlines.values()) - self._clock())
