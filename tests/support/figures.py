"""Figures a test run reports in the test summary (CI logs carry them): one section per topic,
one line per figure. A fault or power-loss test adds its tries, failures and steps lost here, so
a run that passes still says how much it tried."""

from __future__ import annotations

from collections import defaultdict

#: topic -> lines, printed by tests/conftest.py under "figures: <topic>"
FIGURES: defaultdict[str, list[str]] = defaultdict(list)


def report(topic: str, line: str) -> None:
    FIGURES[topic].append(line)


#: shot name -> the kinds of what the layout check found there (tests/ui): the figures
LAYOUT_KINDS: dict[str, list[str]] = {}
