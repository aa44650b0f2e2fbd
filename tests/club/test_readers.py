"""Readers trust no row (companion/club/status.py ``admitted``, profiles.py's bounds): what one
table writes at the club reaches every other table through the same gate as its own input. A
status of seats without names (a club before schema version 4 took one) is one line naming the
table it came from, never a traceback; 20,000 profiles of one name from one table bring a
bounded few to another table, said in one line."""

from __future__ import annotations

import json

import psycopg
import pytest

from companion.club import access
from companion.club.board import board
from companion.club.profiles import BROUGHT_MOST, SAME_NAME
from companion.club.schema import init
from companion.club.status import admitted
from companion.core.errors import RuleViolation
from tests.club.cluster import unique
from tests.club.hostile import login
from tests.club.test_club import cli


@pytest.mark.parametrize("status", [
    {"seats": [{}]}, {"seats": [{"name": 3}]}, {"seats": [{"name": "A\nB"}]},
    {"seats": [{"name": "Anna", "score": "10"}]}, {"seats": [{"name": "Anna", "score": 10**30}]},
    {"seats": [{"name": "Anna"}] * 9}, {"seats": "Anna"}, {"seats": [None]},
    {"state": "won"}, {"title": 5, "state": "playing"}, {"stands": "x"},
    {"stands": ["x" * 201]}, {"since": ["now"]}, [], "idle", 7])
def test_a_status_is_taken_only_as_this_table_would_show_it(status):
    with pytest.raises(RuleViolation) as refused:
        admitted(status)
    assert "\n" not in str(refused.value)


def test_a_good_status_keeps_only_what_is_shown():
    got = admitted({"state": "playing", "title": "Cauldron", "since": "2026-01-01T00:00:00Z",
                    "seats": [{"name": "Anna", "score": 3, "winner": 1, "extra": "x" * 10}],
                    "stands": ["Round 2"], "asks": "Anna's turn", "secret": "y"})
    assert got["seats"] == [{"name": "Anna", "score": 3, "winner": False, "colour": None,
                             "awaited": False}]
    assert "secret" not in got and admitted(None) is None


@pytest.fixture
def old_club(cluster):
    """A club at schema version 3, whose status check let a seat without a name through."""
    url = cluster.url(cluster.new_database())
    with psycopg.connect(url, autocommit=True) as conn:
        init(conn, upto=3)
    return url


def _joined(url: str, tmp_path, prefix: str):
    code, printed, err = cli("club", "add-table", unique(prefix), "--url", url)
    assert code == 0, err
    (tmp_path / f"{prefix}-h.json").write_text(printed)
    (tmp_path / f"{prefix}-h.json").chmod(0o600)
    kept = tmp_path / f"{prefix}.json"
    code, _, err = cli("club", "join", tmp_path / f"{prefix}-h.json", "--settings", kept)
    assert code == 0, err
    return kept, access.load(kept)


def test_a_status_of_nameless_seats_is_one_line_naming_its_table(old_club, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "none.sqlite3"))
    hostile_file, hostile = _joined(old_club, tmp_path, "rh")
    _, me = _joined(old_club, tmp_path, "rm")
    code, _, err = cli("club", "sync", "--settings", hostile_file, "--db", tmp_path / "h.db")
    assert code == 0, err                                   # its device claimed
    with login(hostile) as conn:
        conn.execute("INSERT INTO club.status (device, game, data) VALUES "
                     "(club.club_device(), NULL, '{\"state\": \"playing\", \"seats\": [{}]}')")
    code, said, err = cli("club", "status", "--settings", tmp_path / "rm.json")
    assert code == 0 and "Traceback" not in said + err, err
    line = [x for x in said.splitlines() if hostile.name in x]
    assert len(line) == 1 and "its status is not one this table shows (seat 1's name" in line[0]
    code, said, err = cli("club", "status", "--settings", tmp_path / "rm.json", "--json")
    shown = {t["name"]: t for t in json.loads(said)["tables"]}[hostile.name]
    assert shown["status"] is None and shown["online"] is False and shown["refused"]
    with login(me) as conn:
        snapshot, _ = board(conn)
    assert {t["name"]: t for t in snapshot["tables"]}[hostile.name]["status"] is None


def test_a_flood_of_profiles_of_one_name_is_bounded_and_said_in_one_line(club, tmp_path):
    flood_file, flood = _joined(club, tmp_path, "fh")
    code, _, err = cli("club", "sync", "--settings", flood_file, "--db", tmp_path / "f.db")
    assert code == 0, err
    with login(flood) as conn:
        conn.execute("INSERT INTO club.profiles (uuid, name, added_by) SELECT "
                     "gen_random_uuid(), 'Anna', club.club_device() "
                     "FROM generate_series(1, 20000)")
    mine, _ = _joined(club, tmp_path, "fm")
    code, said, err = cli("club", "sync", "--settings", mine, "--db", tmp_path / "m.db")
    assert code == 0, err
    print(f"\n{said}")
    lines = said.strip().splitlines()
    assert len(lines) <= 4, lines
    assert f"brought from it" in said and sum("not brought" in x for x in lines) == 1
    assert "19,990 profiles from the club were not brought" in said
    import sqlite3
    with sqlite3.connect(tmp_path / "m.db") as store:
        assert store.execute("SELECT count(*) FROM profiles").fetchone()[0] == SAME_NAME
    assert SAME_NAME < BROUGHT_MOST
