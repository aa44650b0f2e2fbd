"""Hypothesis profiles for the fuzz tests (tests/*/test_*_fuzz.py).

``ci`` (the default) is bounded: about a minute for the three games together. ``long`` runs
on demand for a deeper search: ``COMPANION_FUZZ=long scripts/test tests/companion -k fuzz``.
The example database stays out of git (.hypothesis/ is ignored)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, stateful_step_count=40, deadline=None, derandomize=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    print_blob=True)
settings.register_profile(
    "long", max_examples=2000, stateful_step_count=120, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    print_blob=True)
settings.load_profile(os.environ.get("COMPANION_FUZZ", "ci"))


def pytest_terminal_summary(terminalreporter) -> None:
    """The fuzz figures: how many generated commands and inputs each game accepted and refused
    (a refusal is the only failure a malformed input may cause; anything else fails the test)."""
    from tests.support.fuzz import TALLY
    from tests.support.store_child import KILLS

    games = sorted({game for game, _ in TALLY})
    if games:
        terminalreporter.section("fuzz: generated steps per game")
        for game in games:
            terminalreporter.write_line(
                f"{game}: {TALLY[game, 'accepted']} accepted, {TALLY[game, 'refused']} refused "
                "(every refusal a RuleViolation that changed nothing)")
    if KILLS:
        terminalreporter.section("faults: kills per game")
        for run in KILLS:
            terminalreporter.write_line(
                f"{run.game}: {run.tries} tries, {run.kills} killed ({run.inside} inside a "
                f"transaction), {run.acknowledged} steps "
                f"acknowledged, {run.lost} lost")
    from tests.support.figures import FIGURES

    for topic, lines in FIGURES.items():
        terminalreporter.section(f"figures: {topic}")
        for line in lines:
            terminalreporter.write_line(line)
