"""``companion export --all`` over the history the statistics tests count
(tests/support/history.py): every format parses back to the games as the test played them,
in local time, and adds up to what ``stats`` says."""

from __future__ import annotations

import csv
import io
import json
import time
from datetime import datetime
from typing import Any

import pytest

from companion.cli.main import main
from tests.support.history import TITLES, Played, cli


def local(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone().isoformat(timespec="seconds")


def expected_play(p: Played) -> dict[str, Any]:
    """What an export says of a game, from the test's own record of it."""
    seats = p.results or [{"seat": i, "name": n, "score": None, "winner": False}
                          for i, n in enumerate(p.names)]
    return {"id": p.id, "game": p.game, "title": TITLES[p.game], "status": p.status,
            "started": local(p.created), "finished": local(p.finished),
            "length_minutes": p.minutes, "variants": p.variants,
            "players": [(s["seat"], s["name"], s["score"], s["winner"]) for s in seats],
            "winners": [s["name"] for s in seats if s["winner"]]}


def from_json(game: dict[str, Any]) -> dict[str, Any]:
    keys = ("id", "game", "title", "status", "started", "finished", "length_minutes",
            "variants", "winners")
    return {**{k: game[k] for k in keys},
            "players": [(s["seat"], s["name"], s["score"], s["winner"]) for s in game["players"]]}


def from_csv(text: str) -> list[dict[str, Any]]:
    """The csv's rows (one per seat) gathered back into games."""
    games: dict[int, dict[str, Any]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        game = games.setdefault(int(row["id"]), {
            "id": int(row["id"]), "game": row["game"], "title": row["title"],
            "status": row["status"], "started": row["started"], "finished": row["finished"] or None,
            "length_minutes": float(row["length_minutes"]) if row["length_minutes"] else None,
            "variants": row["variants"].split("; ") if row["variants"] else [],
            "winners": row["winners"].split("; ") if row["winners"] else [], "players": []})
        game["players"].append((int(row["seat"]), row["player"],
                                int(row["score"]) if row["score"] else None, row["winner"] == "1"))
        assert isinstance(json.loads(row["setup"]), dict)
    return list(games.values())


@pytest.fixture
def berlin(monkeypatch):
    """Local time an hour or two off UTC, so the exports' local times are seen converted."""
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize("fmt", ["csv", "json", "jsonl"])
def test_every_export_format_parses_back_to_the_played_games(history, tmp_path, berlin, fmt):
    path, played = history
    out = tmp_path / f"all.{fmt}"
    assert cli("export", "--all", "--db", str(path), "--format", fmt, "--out", str(out))[0] == 0
    text = out.read_text(encoding="utf-8")
    if fmt == "csv":
        games = from_csv(text)
    else:
        parsed = (json.loads(text) if fmt == "json"
                  else [json.loads(line) for line in text.splitlines()])
        games = [from_json(g) for g in parsed]
    wanted = [expected_play(p) for p in played if p.status == "finished"]
    assert games == wanted
    assert games[0]["started"].endswith(("+01:00", "+02:00"))  # local time, with its offset


def test_export_figures_sum_to_the_stats(history):
    """A sheet made from the csv counts what ``stats`` says (wins, best scores per player)."""
    path, played = history
    _, text = cli("export", "--all", "--db", str(path), "--format", "csv")
    _, stats = cli("stats", "--db", str(path), "--json")
    rows = list(csv.DictReader(io.StringIO(text)))
    for p in json.loads(stats)["players"]:
        mine = [r for r in rows if r["player"] == p["name"]]
        assert len(mine) == p["overall"]["games"]
        assert sum(r["winner"] == "1" for r in mine) == p["overall"]["wins"]
        for game, figures in p["titles"].items():
            scores = [int(r["score"]) for r in mine if r["game"] == game]
            assert figures["best_score"] == (max(scores) if game != "quest" else None)


def test_export_since_a_date_and_with_unfinished_games(history):
    path, played = history
    cut = played[len(played) // 2].created
    since = cut.astimezone().strftime("%Y-%m-%d")
    midnight = datetime.fromisoformat(since).astimezone()
    _, text = cli("export", "--all", "--db", str(path), "--format", "jsonl", "--since", since)
    assert [json.loads(line)["id"] for line in text.splitlines()] == [
        p.id for p in played if p.status == "finished" and p.created >= midnight]
    _, text = cli("export", "--all", "--db", str(path), "--format", "json",
                  "--include-unfinished")
    games = json.loads(text)
    assert [from_json(g) for g in games] == [expected_play(p) for p in played]
    assert {g["status"] for g in games} == {"finished", "running", "abandoned"}


@pytest.mark.parametrize("args, words", [
    (["--all", "--since", "last week"], "--since: 'last week' is not a date"),
    (["--all", "--raw"], "--raw goes with --log"),
    (["--log", "1", "--format", "csv"], "--format, --since and --include-unfinished go with --all"),
])
def test_export_refuses_options_that_do_not_go_together(history, capsys, args, words):
    path, _ = history
    assert main(["export", "--db", str(path), *args]) == 2
    assert words in capsys.readouterr().err


def test_export_all_of_a_database_never_written_is_empty(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "none.sqlite3"))
    assert cli("export", "--all", "--format", "json") == (0, "[]\n")
    assert cli("export", "--all", "--format", "csv")[1].startswith("id,uuid,game,title,")
    assert not (tmp_path / "none.sqlite3").exists()
