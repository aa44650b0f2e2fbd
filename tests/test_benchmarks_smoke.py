"""The benchmark runner (``python -m benchmarks``) still runs: every figure module imports
and has a title and ``measure``, and the pure figures run end to end with tiny sizes and write
their JSON. Figures are printed, never asserted on: nothing here checks a time."""

from __future__ import annotations

import importlib
import json

from benchmarks import FIGURES
from benchmarks.__main__ import main


def test_every_figure_module_imports():
    names = [name for name, _ in FIGURES]
    assert len(names) == len(set(names)) == 10
    for _name, module in FIGURES:
        figure = importlib.import_module(f"benchmarks.{module}")
        assert figure.TITLE and callable(figure.measure)


def test_pure_figures_run_with_tiny_sizes(tmp_path, capsys):
    out = tmp_path / "figures.json"
    assert main(["--tiny", "--only", "replay", "--only", "undo_redo", "--only", "suite",
                 "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    figures = {f["name"]: f for f in data["figures"]}
    assert list(figures) == ["undo_redo", "suite", "replay"]   # the table's order
    replay = {r["label"]: r for r in figures["replay"]["rows"]}
    assert set(replay) == {"100 commands", "undo-heavy, 60 commands"}
    assert all(r["n"] == 1 and r["median"] > 0 and r["unit"] == "cmd/s" for r in replay.values())
    undo = [r["label"] for r in figures["undo_redo"]["rows"]]
    assert undo == ["100 steps: undo", "100 steps: redo", "100 steps: resume (Store + open_session)",
                    "100 steps: raw SQLite read", "100 steps: ratio resume/raw read"]
    assert "scripts/test" in " ".join(figures["suite"]["notes"])
    printed = capsys.readouterr().out
    assert "== replay:" in printed and "undo-heavy, 60 commands" in printed


def test_the_phones_figure_runs_with_tiny_sizes(tmp_path, capsys):
    """The server on loopback with 20 clients in a child, the app with and without it, and the
    app pressed by its seats' phones and its mock pins in turn."""
    out = tmp_path / "figures.json"
    assert main(["--tiny", "--only", "phones", "--json", str(out)]) == 0
    (figure,) = json.loads(out.read_text())["figures"]
    rows = {r["label"]: r for r in figure["rows"]}
    assert set(rows) == {
        "snapshot at 100 steps: build", "snapshot at 100 steps: size",
        "snapshot at 1,000 steps: build", "snapshot at 1,000 steps: size",
        "publish -> each of 20 clients has it", "publish -> all 20 have it",
        "idle: app, server on, 20 clients, % of one core", "idle: app, server off, % of one core",
        "idle: ratio on/off", "memory: added by the server and its clients (inside)",
        "memory: app with the server less the app without",
        "heartbeat: pings per client (most of any)",
        "a phone's seat press -> frame showing it", "the same GPIO press -> frame showing it",
        "phone less GPIO, medians, in frames", "phone less GPIO, p99s, in frames",
        # a crowd of 1,200 hostile connections against none
        "a seat's phone joins, no hostile connection",
        "a seat's phone joins, 1,200 hostile from one address",
        "a seat's phone joins, 1,200 hostile from 75 addresses",
        "the Pi's frames a second, no hostile connection", "the Pi's frames a second, one address",
        "the Pi's frames a second, 75 addresses", "join time, one address / none",
        "frame rate, one address / none", "join time, 75 addresses / none",
        "frame rate, 75 addresses / none"}
    each = rows["publish -> each of 20 clients has it"]
    # every phone has the last table; one behind may skip a table a newer one replaced (how
    # many depends on the machine's load, so it is printed, not asserted)
    assert 20 <= each["n"] <= 20 * 10 and "p99" in each
    assert "0 phones without the last" in rows["publish -> all 20 have it"]["note"]
    assert 1000 < rows["snapshot at 1,000 steps: size"]["median"] < 16384
    assert rows["idle: ratio on/off"]["n"] == 1
    assert rows["a phone's seat press -> frame showing it"]["n"] == 3 == rows[
        "the same GPIO press -> frame showing it"]["n"]         # tiny: 3 presses of each
    assert rows["phone less GPIO, medians, in frames"]["unit"] == "frames"
    assert rows["a seat's phone joins, 1,200 hostile from one address"]["n"] == 2   # tiny
    assert rows["the Pi's frames a second, one address"]["unit"] == "fps"
    assert "== phones:" in capsys.readouterr().out


def test_the_club_figure_runs_with_tiny_sizes(tmp_path):
    """The app with no club and joined to a club whose port refuses, and the step commit with a
    sync thread retrying it: each with its ratio against the other."""
    out = tmp_path / "figures.json"
    assert main(["--tiny", "--only", "club", "--json", str(out)]) == 0
    (figure,) = json.loads(out.read_text())["figures"]
    rows = [r["label"] for r in figure["rows"]]
    assert rows.count("  ratio of medians, unreachable/none") == 3
    assert "button -> frame, club unreachable" in rows
    assert "Session.execute + commit, club unreachable (sync retrying)" in rows


def test_the_league_benchmark_runs_with_tiny_sizes(capsys):
    """``python -m benchmarks.league``: its own PostgreSQL, 4 tables sending at once, two small
    seasons, the board's stream; the figures printed, none lost or doubled."""
    from benchmarks import league
    from tests.club.cluster import installed

    if not installed():
        import os
        import pytest

        if os.environ.get("CI") == "true":
            pytest.fail("PostgreSQL (initdb, pg_ctl) is missing: .ci/run installs it")
        pytest.skip("PostgreSQL is not installed")
    assert league.main(["--tiny"]) == 0
    printed = capsys.readouterr().out
    assert "20 games (22 sends, every tenth twice)" in printed
    assert "0 lost, 0 doubled, 0 seats missing, 0 miscounted" in printed and "errors" not in printed
    assert "standings of 1,000 games" in printed and "standings of 2,000 games" in printed
    assert "on the board's event stream" in printed and "2 games)" in printed
