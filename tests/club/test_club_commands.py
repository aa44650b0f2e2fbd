"""The club's commands say what is so: the settings name the server
by its name, not the address it resolved to; ``init`` takes $COMPANION_CLUB_URL; ``status``
without a database; ``--min-games`` from 1; a wall's and a rater's settings called so; a
refusal by the club told apart from the club away; ``join`` refusing a file others may read;
a profile from the club passing this table's own gate."""

from __future__ import annotations


import io
from contextlib import redirect_stderr

import psycopg
import pytest

from companion.cli.main import main
from companion.club import access, profiles
from companion.club.sync import ClubSync, permanent
from companion.core.errors import RuleViolation
from companion.store import Store
from tests.club.cluster import unique
from tests.club.test_club import cli, joined, played


def test_the_settings_name_the_server_not_the_address_it_resolved_to(club):
    by_name = club.replace("host=127.0.0.1", "host=localhost")
    with psycopg.connect(by_name, autocommit=True) as admin:
        assert "hostaddr" in admin.info.dsn          # psycopg's own resolution
        settings = access.add_table(admin, unique("hn"))
    given = psycopg.conninfo.conninfo_to_dict(settings.conninfo)
    assert given["host"] == "localhost" and "hostaddr" not in given


def test_init_takes_the_admins_url_from_the_environment(club, monkeypatch):
    monkeypatch.setenv("COMPANION_CLUB_URL", club)
    code, said, err = cli("club", "init")
    assert code == 0 and "nothing to do" in said, err
    monkeypatch.delenv("COMPANION_CLUB_URL")
    code, _, err = cli("club", "init")
    assert code == 2 and "COMPANION_CLUB_URL" in err


def test_status_without_a_database_says_so(club, tmp_path, monkeypatch):
    settings = joined(club, unique("sd"), tmp_path)
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "none.sqlite3"))
    code, said, err = cli("club", "status", "--settings", settings)
    assert code == 0, err
    assert "no games here yet (no database at this table)" in said
    assert ":  in the outbox" not in said and ": in the outbox" not in said


@pytest.mark.parametrize("given", ["-5", "0", "x", "100000"])
def test_min_games_is_a_whole_number_from_one(club, tmp_path, given):
    settings = joined(club, unique("mg"), tmp_path)
    err = io.StringIO()
    with redirect_stderr(err), pytest.raises(SystemExit) as stopped:
        main(["club", "standings", "--settings", str(settings), "--min-games", given])
    assert stopped.value.code == 2 and "--min-games: a whole number from 1" in err.getvalue()


def test_a_wall_and_a_rater_are_called_so(club, tmp_path):
    for kind in ("wall", "rater"):
        handed = tmp_path / f"{kind}.json"
        code, said, err = cli("club", f"add-{kind}", unique(kind[0]), "--url", club,
                              "-o", handed)
        assert code == 0, err
        assert f"to the {'wall screen' if kind == 'wall' else 'machine that rates'}" in said
        assert "to the table" not in said
        code, said, err = cli("club", "join", handed, "--settings", tmp_path / f"{kind}-kept")
        assert code == 0, err
        assert f"{'the wall screen' if kind == 'wall' else 'the rater'} " in said
        assert "table" not in said


def test_join_refuses_a_file_others_may_read(club, tmp_path):
    code, printed, _ = cli("club", "add-table", unique("jm"), "--url", club)
    handed = tmp_path / "handed.json"
    handed.write_text(printed)
    handed.chmod(0o644)
    kept = tmp_path / "kept.json"
    code, _, err = cli("club", "join", handed, "--settings", kept)
    assert code == 2 and "readable by other users (mode 644)" in err and not kept.exists()
    code, said, err = cli("club", "join", handed.with_name("missing.json"), "--settings", kept)
    assert code == 2 and "no such file" in err
    handed.chmod(0o600)
    code, said, err = cli("club", "join", handed, "--settings", kept)
    assert code == 0 and "Sync before the first game" in said, err


def test_a_refusal_is_not_the_club_away(club, tmp_path):
    """A game the club refuses for good stays in the outbox with the club's reason; the games
    after it are still sent; sync says it is refused, not that it waits for the next sync."""
    db = tmp_path / "a.sqlite3"
    played(db, {"witchs_brew": 1, "cauldron": 1}, 5)
    path = joined(club, unique("pr"), tmp_path)
    with psycopg.connect(club, autocommit=True) as admin:   # a title this club does not take
        admin.execute("DELETE FROM club.titles WHERE name = 'cauldron'")
    with Store(db) as store:
        first = store.conn.execute("SELECT id FROM games WHERE game = 'cauldron'").fetchone()[0]
    code, said, err = cli("club", "sync", "--db", db, "--settings", path)
    assert code == 2
    assert "Sent 1 game(s)" in said and f"refused by the club: game {first} (cauldron)" in said
    assert "stay in this table's outbox" in said and "next sync" not in err + said
    with Store(db) as store:
        state, error = store.conn.execute("SELECT state, error FROM outbox WHERE game_id = ?",
                                          (first,)).fetchone()
    assert state == "waiting" and "titles" in error
    # the club away instead: said as waiting
    away = access.Settings("c", "t", "club_table_x", "host=127.0.0.1 port=1 dbname=x user=x "
                           "connect_timeout=2")
    with Store(db) as store:
        report = ClubSync(store.conn, store.device_id, away).send()
    assert report.error and not report.permanent


def test_permanent_is_the_servers_answer():
    class Refusal(Exception):
        sqlstate = "23514"

    class Away(Exception):
        sqlstate = "08006"

    assert permanent(Refusal()) and permanent(PermissionError("claimed"))
    assert not permanent(Away()) and not permanent(OSError("refused"))


@pytest.mark.parametrize("name, short, colour, refused", [
    ("Anna", None, "Sky blue", None),
    ("x" * 41, None, None, "name"),
    ("An\x07na", None, None, "name"),
    ("Ann\na", None, None, "name"),
    ("", None, None, "name"),
    ("Anna", "A" * 500, None, "short_name"),
    ("Anna", None, "chartreuse", "colour"),
    (None, None, None, "name"),
])
def test_a_profile_from_the_club_passes_this_tables_gate(name, short, colour, refused):
    if refused is None:
        assert profiles.admitted(name, short, colour) == ("Anna", None, "Sky blue")
    else:
        with pytest.raises(RuleViolation, match=f"^{refused}"):
            profiles.admitted(name, short, colour)


def test_a_refused_profile_is_left_at_the_club_with_a_note(tmp_path):
    """A club that hands down what this table's gate refuses (a server before version 3, or
    one not the club's): nothing of it is stored, the report says why."""
    class Club:
        def execute(self, sql, args=()):
            rows = [] if "SELECT uuid::text, name FROM club.profiles" in sql else [
                ("8d7f2a52-1111-4111-8111-111111111111", "x" * 10_000, None, None,
                 "2026-01-01T00:00:00+00:00", None),
                ("8d7f2a52-2222-4222-8222-222222222222", "Bea", None, "Orange",
                 "2026-01-01T00:00:00+00:00", None)]
            return type("Rows", (), {"fetchall": lambda self: rows,
                                     "__iter__": lambda self: iter(rows)})()

        def cursor(self):
            return self

        def executemany(self, sql, rows):
            pass

    with Store(tmp_path / "a.sqlite3") as store:
        sent, brought, notes = profiles.exchange(Club(), store.conn)
        kept = [n for (n,) in store.conn.execute("SELECT name FROM profiles")]
    assert brought == 1 and kept == ["Bea"]
    assert len(notes) == 1 and "not taken: name: text of at most 40 characters" in notes[0]


def test_the_club_is_named_by_its_admin(club):
    from companion.club.board import board

    code, said, err = cli("club", "name", "Meeple Café", "--url", club)
    assert code == 0 and "'Meeple Café'" in said, err
    for bad, says in (("x" * 61, "at most 60"), ("Two\nlines", "one line"),
                      ("Bell\a", "control character"), ("  ", "give a name")):
        code, _, err = cli("club", "name", bad, "--url", club)
        assert code == 2 and says in err, (bad, err)
    with psycopg.connect(club) as conn:
        assert board(conn, club="fallback")[0]["club"] == "Meeple Café"


def test_a_status_the_club_refuses_is_said_and_dropped_not_retried(club, tmp_path):
    import threading
    import time

    db = tmp_path / "a.sqlite3"
    played(db, {"quest": 1}, 8)
    settings = access.load(joined(club, unique("st"), tmp_path))
    reports, stop, wake, opened = [], threading.Event(), threading.Event(), []

    def connect(conninfo):
        opened.append(1)
        return psycopg.connect(conninfo, autocommit=True)

    bad = {"state": "playing", "game": "quest", "title": "Cauldron Quest", "game_id": 1,
           "seats": [{"name": "Two\nlines", "score": None}]}
    with Store(db) as store:
        sync = ClubSync(store.conn, store.device_id, settings, connect=connect)
        sync.offer(bad)
        thread = threading.Thread(target=sync.run, args=(stop, wake), kwargs={
            "reported": reports.append, "gap": 0.05}, daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        while not any(r.refused for r in reports) and time.monotonic() < deadline:
            time.sleep(0.05)
        sync.offer(dict(bad, seats=[{"name": "Anna", "score": None}]))
        while time.monotonic() < deadline:
            with psycopg.connect(club) as conn:
                if conn.execute("SELECT count(*) FROM club.status").fetchone()[0]:
                    break
            time.sleep(0.05)
        stop.set()
        wake.set()
        thread.join(20)
    assert any("this table's status" in said for r in reports for said in r.refused)
    assert opened == [1] and not any(r.error for r in reports)   # never reconnected
    assert reports[0].sent == 1
