"""Hypothesis profiles for the fuzz tests (tests/*/test_*_fuzz.py).

``ci`` (the default) is bounded: about a minute for the three games together. ``long`` runs
on demand for a deeper search: ``COMPANION_FUZZ=long scripts/test tests/companion -k fuzz``.
The example database stays out of git (.hypothesis/ is ignored)."""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from pathlib import Path

import pytest
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


def _worker(config) -> str | None:
    """The pytest-xdist worker this process is (None: the controller, or a run without -n)."""
    return getattr(config, "workerinput", {}).get("workerid")


def pytest_configure(config) -> None:
    """Under pytest-xdist the figures are gathered in worker processes: each leaves its own in
    a folder the controller names, and the controller prints them all together."""
    if _worker(config) is None and "COMPANION_FIGURES_DIR" not in os.environ:
        os.environ["COMPANION_FIGURES_DIR"] = tempfile.mkdtemp(prefix="companion-figures-")


#: The order the folders run in: the long files first (the UI's, the end-to-end one, the
#: browser's, the club's PostgreSQL, the benchmarks' smoke runs), the many short ones last.
#: pytest-xdist hands out whole files in this order, so the two workers end together instead
#: of one finishing a long file alone while the other waits (``--dist loadfile``).
FOLDERS_FIRST = ("ui", "e2e", "web", "club", "", "companion", "hardware")


def pytest_collection_modifyitems(items) -> None:
    root = Path(__file__).parent

    def rank(item) -> int:
        parts = Path(item.fspath).relative_to(root).parts
        folder = parts[0] if len(parts) > 1 else ""
        return FOLDERS_FIRST.index(folder) if folder in FOLDERS_FIRST else len(FOLDERS_FIRST)

    items.sort(key=rank)            # stable: a file's tests keep their order


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session) -> None:
    worker = _worker(session.config)
    if worker is not None:
        Path(os.environ["COMPANION_FIGURES_DIR"], f"{worker}.json").write_text(
            json.dumps(_figures()))


def _figures() -> dict:
    """This process's figures as JSON-able data."""
    from dataclasses import asdict

    from tests.support.figures import FIGURES, LAYOUT_KINDS, TEXT_SIZES
    from tests.support.fuzz import TALLY
    from tests.support.store_child import KILLS

    return {"tally": [[g, k, n] for (g, k), n in TALLY.items()],
            "kills": [asdict(k) for k in KILLS], "figures": dict(FIGURES),
            "layout": dict(LAYOUT_KINDS), "sizes": dict(TEXT_SIZES)}


def _gathered() -> dict:
    """The figures of this process and of every xdist worker, merged."""
    from collections import Counter

    from tests.support.store_child import Kills

    parts = [_figures()] + [json.loads(f.read_text()) for f in
                            sorted(Path(os.environ["COMPANION_FIGURES_DIR"]).glob("*.json"))]
    tally: Counter = Counter()
    kills, figures, layout, sizes = [], {}, {}, {}
    for part in parts:
        for g, k, n in part["tally"]:
            tally[g, k] += n
        kills += [Kills(**k) for k in part["kills"]]
        for topic, lines in part["figures"].items():
            figures.setdefault(topic, []).extend(lines)
        layout.update(part["layout"])
        sizes.update(part.get("sizes", {}))
    return {"tally": tally, "kills": kills, "figures": figures, "layout": layout,
            "sizes": sizes}


def _layout_lines(layout: dict[str, list[str]]) -> list[str]:
    lines = []
    for size in ("800x480", "1280x720", "720x1280"):
        states = [k for k in layout if k.endswith(size)]
        lines.append(f"{len(states)} captured states at {size}, "
                     f"{sum(len(layout[k]) for k in states)} findings")
    kinds = Counter(kind for found in layout.values() for kind in found)
    lines.append(f"{sum(kinds.values())} findings in all: " + (", ".join(
        f"{n} {kind}" for kind, n in sorted(kinds.items())) or "none"))
    return lines


def _share_lines(sizes: dict[str, list]) -> list[str]:
    """Per table screen and window size: the share of the texts shown at 24 units or more
    (the aim: at least half at 800x480), pooled over every state captured there."""
    from statistics import median

    pooled: dict[tuple[str, str], list[float]] = {}
    caps: dict[tuple[str, str], list[float]] = {}
    for shot, (screen, table, found, *capital) in sizes.items():
        if table:
            pooled.setdefault((screen, shot.rsplit("_", 1)[-1]), []).extend(found)
            caps.setdefault((screen, shot.rsplit("_", 1)[-1]), []).extend(*capital)
    return [f"{screen} at {size}: {sum(s >= 24 - 0.5 for s in found) / len(found):.0%} of "
            f"{len(found)} texts at 24 units or more (median {median(found):.0f})"
            + (f"; capitals {min(c):.0f}-{max(c):.0f} px, median {median(c):.0f}, "
               f"{sum(x >= 21 - 0.5 for x in c) / len(c):.0%} at 21 px or more, "
               f"{sum(x < 14 - 0.5 for x in c)} under 14 px"
               if (c := caps.get((screen, size))) else "")
            for (screen, size), found in sorted(pooled.items()) if found]


def pytest_terminal_summary(terminalreporter) -> None:
    """The fuzz figures: how many generated commands and inputs each game accepted and refused
    (a refusal is the only failure a malformed input may cause; anything else fails the test),
    the kills, the fault and power-loss figures and the layout check's, from every worker."""
    gathered = _gathered()
    TALLY, KILLS = gathered["tally"], gathered["kills"]

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
    figures = gathered["figures"]
    if gathered["layout"]:
        figures["layout"] = _layout_lines(gathered["layout"]) + _share_lines(gathered["sizes"])
    for topic, lines in figures.items():
        terminalreporter.section(f"figures: {topic}")
        for line in lines:
            terminalreporter.write_line(line)


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium for the phones' page (tests/support/browser.py): skipped without it
    on a desktop, a failure in CI."""
    from tests.support.browser import chromium

    with chromium() as driver:
        yield driver


@pytest.fixture(scope="session")
def histories(tmp_path_factory):
    """Autoplayed histories (tests/support/history.py), each built once a session for every
    module that asks the same one, each ask its own copy of the file."""
    from tests.support.history import Histories

    return Histories(tmp_path_factory.mktemp("histories"))
