"""Figure 7: the test suite. Not run here: it takes minutes and both cores, and the suite
measures itself. This figure only says how to measure it."""

from __future__ import annotations

from benchmarks.common import Figure
from benchmarks.context import Context

TITLE = "the test suite (not run by the benchmarks)"


def measure(ctx: Context) -> Figure:
    fig = Figure("suite", TITLE)
    fig.notes += [
        "not run: `bash scripts/test` runs the whole suite on two workers and prints its own "
        "duration at the end (pytest's summary line)",
        "one process: `COMPANION_TEST_WORKERS=0 bash scripts/test`; the slowest tests: add "
        "`--durations=20`",
        "whole-process figures: `/usr/bin/time -v bash scripts/test` (wall, CPU, peak memory)",
    ]
    return fig
