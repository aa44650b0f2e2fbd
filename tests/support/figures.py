"""Figures a test run reports in the test summary (CI logs carry them): one section per topic,
one line per figure. A fault or power-loss test adds its tries, failures and steps lost here, so
a run that passes still says how much it tried."""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Any, Callable

#: topic -> lines, printed by tests/conftest.py under "figures: <topic>"
FIGURES: defaultdict[str, list[str]] = defaultdict(list)


def report(topic: str, line: str) -> None:
    FIGURES[topic].append(line)


#: shot name -> the kinds of what the layout check found there (tests/ui): the figures
LAYOUT_KINDS: dict[str, list[str]] = {}
#: shot name -> [the screen shown, whether it is a game's table with no dialog over it, the
#: size in units of each text it showed]: the share read from a chair, per screen (tests/ui)
TEXT_SIZES: dict[str, list] = {}


def median_ms(call: Callable[[], Any], runs: int = 7) -> float:
    """The median of ``runs`` timings of ``call``, in milliseconds: a figure to print, never to
    assert on (these machines are noisy)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return sorted(times)[runs // 2] * 1000
