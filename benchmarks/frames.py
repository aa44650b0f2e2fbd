"""What the probe (benchmarks/probe.py) and its latency scenarios (benchmarks/latency_probe.py)
share: the ``BENCH {json}`` report line, the peak memory, and ``Frames``, which counts the frames
drawn and runs a scenario written as a generator."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any, Callable, Iterator

WITCHS_BREW = {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Dora", "Emil"]}
FRAME_TIMEOUT = 5.0


def playing(app: Any, new_game: Callable[[], Iterator]) -> Iterator:
    """A scenario's steps until the app has a game in play (``new_game``'s, while it has none
    or its game is over), then that session: ``session = yield from playing(app, new_game)``."""
    while app.session is None or app.session.over:
        yield from new_game()
    return app.session


def report(**values: Any) -> None:
    print("BENCH " + json.dumps(values), flush=True)


def vm_hwm_mib(pid: int | str = "self", field: str = "VmHWM") -> float:
    """A process's peak resident memory so far (VmHWM), or another of its /proc status
    fields in kB, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def vm_rss_mib(pid: int | str = "self") -> float:
    """A process's resident memory now (VmRSS), in MiB."""
    return vm_hwm_mib(pid, "VmRSS")


class Frames:
    """Counts the frames drawn (Window on_flip) and runs a scenario written as a generator:
    it yields ``("frame", when, timeout)`` to wait for the first frame drawn once ``when()``
    holds (it gets that frame's perf_counter time, or None after ``timeout`` seconds), or
    ``("sleep", seconds)``."""

    def __init__(self) -> None:
        from kivy.core.window import Window

        self.count = 0
        self.marked = 0
        self._waiting: tuple[Callable[[], bool], float] | None = None
        self._scenario: Iterator | None = None
        Window.bind(on_flip=self._on_flip)
        signal.signal(signal.SIGUSR1, lambda *_: setattr(self, "marked", self.count))
        signal.signal(signal.SIGTERM, self._on_term)

    def _on_term(self, *_args) -> None:
        report(frames=self.count - self.marked, vm_hwm_mib=vm_hwm_mib())
        os._exit(0)

    def _on_flip(self, *_args) -> None:
        now = time.perf_counter()
        self.count += 1
        if self._waiting is not None and self._waiting[0]():
            self._waiting = None
            self._resume(now)

    def run(self, scenario: Iterator) -> None:
        """Start ``scenario`` now: its first wait is in place before the next frame."""
        self._scenario = scenario
        self._resume(None, at_once=True)

    def _resume(self, value: Any, at_once: bool = False) -> None:
        from kivy.clock import Clock

        def step(_dt: float) -> None:
            try:
                what = self._scenario.send(value)
            except StopIteration:
                return
            if what[0] == "sleep":
                self._resume_later(what[1])
            else:
                _, when, timeout = what
                waiting = (when, time.perf_counter())
                self._waiting = waiting
                Clock.schedule_once(lambda _dt: self._expire(waiting), timeout)

        if at_once:
            step(0.0)
        else:
            Clock.schedule_once(step)

    def _resume_later(self, seconds: float) -> None:
        from kivy.clock import Clock

        Clock.schedule_once(lambda _dt: self._resume(None), seconds)

    def _expire(self, waiting) -> None:
        if self._waiting is waiting:
            self._waiting = None
            self._resume(None)
