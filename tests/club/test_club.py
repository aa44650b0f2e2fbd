"""The club on a real PostgreSQL (tests/club/conftest.py): init and its migrations run twice;
a table's role adds its own games only and can change no one's; two companions play games of
all three titles and sync them; the same game sent twice, from two tables; a conflict kept on
both sides and never overwritten; the server stopped mid-sync; standings against a hand count
and openskill's own figures."""

from __future__ import annotations

import io
import json
import os
import stat
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import psycopg
import pytest

from companion.cli.main import main
from companion.club import access
from companion.club.board import LATEST, board
from companion.club.league import Finished, standings
from companion.club.schema import CLUB_VERSION, init
from companion.club.sync import Backoff, ClubSync, counts
from companion.store import Store
from tests.support.history import build_history
from tests.club.making import PATH
from tests.club.cluster import unique

ALL_THREE = {"witchs_brew": 2, "cauldron": 2, "quest": 2}


def cli(*args: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def joined(club: str, name: str, tmp_path: Path) -> Path:
    """A table added at the club and joined by a companion: its settings file."""
    code, printed, err = cli("club", "add-table", name, "--url", club)
    assert code == 0, err
    handed = tmp_path / f"{name}-handed.json"
    handed.write_text(printed)
    handed.chmod(0o600)
    settings = tmp_path / f"{name}.json"
    code, said, err = cli("club", "join", handed, "--settings", settings)
    assert code == 0 and "readable by this user only" in said and "password" not in said, err
    return settings


def played(db: Path, counts_: dict[str, int], seed: int) -> None:
    with Store(db) as store:
        store.conn.execute("PRAGMA synchronous = OFF")
        build_history(store, counts_, seed=seed)


def at_club(club: str, sql: str, *args: object) -> list[tuple]:
    with psycopg.connect(club) as conn:
        return conn.execute(sql, args).fetchall()


def test_init_twice_changes_nothing(club):
    code, said, _ = cli("club", "init", club)
    assert code == 0 and f"version {CLUB_VERSION}: nothing to do" in said
    with psycopg.connect(club, autocommit=True) as conn:
        assert init(conn) == (CLUB_VERSION, CLUB_VERSION)
    assert at_club(club, "SELECT version FROM club_schema ORDER BY version") == [
        (v,) for v in range(1, CLUB_VERSION + 1)]    # each version applied once


def test_settings_file_is_the_users_alone_and_no_password_is_said(club, tmp_path):
    path = joined(club, unique("ta"), tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    settings = access.load(path)
    password = psycopg.conninfo.conninfo_to_dict(settings.conninfo)["password"]
    assert password not in repr(settings)
    assert password not in access.words(f"failed: {settings.conninfo}")
    path.chmod(0o644)
    with pytest.raises(access.ClubRefused, match="readable by other users"):
        access.load(path)


def test_a_table_role_changes_only_its_own(club, tmp_path):
    db_a, db_b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    played(db_a, {"witchs_brew": 1}, 1)
    played(db_b, {"witchs_brew": 1}, 2)
    sa, sb = (access.load(joined(club, unique(f"t{x}"), tmp_path)) for x in "rs")
    for db, settings in ((db_a, sa), (db_b, sb)):
        with Store(db) as store:
            assert ClubSync(store.conn, store.device_id, settings).send().sent == 1
    with Store(db_a) as store:
        a_device = store.device_id
    (a_game,) = at_club(club, "SELECT uuid::text FROM games WHERE device = %s", a_device)[0]
    with psycopg.connect(sb.conninfo + PATH, autocommit=True) as b:
        for sql in ("UPDATE games SET status = 'abandoned' WHERE uuid = %s",
                    "DELETE FROM games WHERE uuid = %s", "DELETE FROM seats WHERE game = %s"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                b.execute(sql, (a_game,))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):   # under A's device id
            b.execute("INSERT INTO games (uuid, device, game, status, started_at, finished_at, "
                      "content, record) VALUES ('5d3b1c1e-0000-4000-8000-000000000001', %s, "
                      "'quest', 'finished', now(), now(), repeat('a', 64), '{\"uuid\": "
                      "\"5d3b1c1e-0000-4000-8000-000000000001\", \"game\": \"quest\", "
                      "\"status\": \"finished\", \"players\": [{\"name\": \"A\"}]}')",
                      (a_device,))
        b.execute("INSERT INTO status (device, game) VALUES (club_device(), 'quest')")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            b.execute("INSERT INTO status (device, game) VALUES (%s, 'quest')", (a_device,))
        assert b.execute("UPDATE tables SET device = gen_random_uuid()").rowcount == 0
    with psycopg.connect(sa.conninfo + PATH, autocommit=True) as a:
        a.execute("INSERT INTO status (device, game) VALUES (club_device(), 'cauldron')")
    with psycopg.connect(sb.conninfo + PATH, autocommit=True) as b:   # A's status: not B's to write
        assert b.execute("UPDATE status SET game = 'x' WHERE device = %s",
                         (a_device,)).rowcount == 0
    assert at_club(club, "SELECT game FROM status WHERE device = %s", a_device) == [("cauldron",)]
    assert at_club(club, "SELECT status FROM games WHERE uuid = %s", a_game) == [("finished",)]


def test_the_wall_reads_and_writes_nothing(club, tmp_path):
    code, printed, err = cli("club", "add-wall", unique("w"), "--url", club)
    assert code == 0, err
    wall = access.parse(printed, "wall")
    with psycopg.connect(wall.conninfo + PATH, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (0,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO seasons VALUES ('s', '2026-01-01', '2026-02-01')")


def test_two_companions_sync_all_three_titles_once(club, tmp_path):
    db_a, db_b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    played(db_a, ALL_THREE, 3)
    played(db_b, ALL_THREE, 4)
    sa, sb = joined(club, unique("tc"), tmp_path), joined(club, unique("td"),
                                                                 tmp_path)
    for db, settings in ((db_a, sa), (db_b, sb)):
        code, said, err = cli("club", "sync", "--db", db, "--settings", settings)
        assert code == 0 and "Sent 6 game(s); 0 already" in said, err
        code, said, _ = cli("club", "sync", "--db", db, "--settings", settings)
        assert code == 0 and "Sent 0 game(s); 0 already" in said
    assert at_club(club, "SELECT game, count(*) FROM games GROUP BY game ORDER BY game") == [
        ("cauldron", 4), ("quest", 4), ("witchs_brew", 4)]
    # the record at the club is the one export --all writes
    code, out, _ = cli("export", "--all", "--db", db_a)
    exported = {g["uuid"]: g for g in map(json.loads, out.splitlines())}
    for uuid, record in at_club(club, "SELECT uuid::text, record FROM games"):
        if uuid in exported:
            assert record == exported[uuid]
    code, said, err = cli("club", "status", "--db", db_a, "--settings", sa, "--json")
    status = json.loads(said)
    assert code == 0 and status["outbox"] == {"waiting": 0, "sent": 6, "conflict": 0}
    assert sorted(t["games"] for t in status["tables"]) == [6, 6]
    # the league and the wall screen show them: both tables, the latest games, every title
    code, _, err = cli("club", "season", "add", "All time", "2000-01-01", "2099-12-31",
                       "--url", club)
    assert code == 0, err
    with psycopg.connect(club) as conn:
        shown, _ = board(conn)
    tables = {access.load(sa).name, access.load(sb).name}
    assert tables <= {t["name"] for t in shown["tables"]}
    assert len(shown["recent"]) == LATEST and {g["table"] for g in shown["recent"]} <= tables
    assert {s["game"]: s["games"] for s in shown["standings"]} == {
        "cauldron": 4, "quest": 4, "witchs_brew": 4}


def test_the_same_game_sent_twice_from_two_tables(club, tmp_path):
    db_a, db_b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    played(db_a, {"cauldron": 2}, 5)
    sa, sb = (access.load(joined(club, unique(f"t{x}"), tmp_path)) for x in "ef")
    with Store(db_a) as store:
        assert ClubSync(store.conn, store.device_id, sa).send().sent == 2
        store.conn.execute("UPDATE outbox SET state = 'waiting'")   # as if the answer was lost
        again = ClubSync(store.conn, store.device_id, sa).send()
        assert (again.sent, again.already, again.conflicts) == (0, 2, [])
    code, out, _ = cli("export", "--all", "--db", db_a)
    (db_a.parent / "a.jsonl").write_text(out)
    assert cli("import", db_a.parent / "a.jsonl", "--db", db_b)[0] == 0
    with Store(db_b) as store:    # B holds A's games, but only its own wait for the club
        assert counts(store.conn)["waiting"] == 0
        # were B to send A's game anyway: the club has it, the same: acknowledged
        sync = ClubSync(store.conn, store.device_id, sb)
        store.conn.execute("INSERT INTO outbox (game_id, queued_at) SELECT id, 'now' FROM games")
        report = sync.send()
        assert (report.sent, report.already, report.error) == (0, 2, None)
    assert at_club(club, "SELECT count(*) FROM games") == [(2,)]
    assert at_club(club, "SELECT count(*) FROM seats") == at_club(
        club, "SELECT sum(jsonb_array_length(record->'players'))::bigint FROM games")


def test_a_conflict_is_kept_on_both_sides_and_never_overwritten(club, tmp_path):
    db = tmp_path / "a.sqlite3"
    played(db, {"witchs_brew": 1}, 6)
    settings = access.load(joined(club, unique("tg"), tmp_path))
    with Store(db) as store:
        assert ClubSync(store.conn, store.device_id, settings).send().sent == 1
        before = at_club(club, "SELECT record FROM games")
        store.conn.execute("UPDATE games SET created_at = '2020-01-01T00:00:00+00:00'")
        store.conn.execute("UPDATE outbox SET state = 'waiting'")
        report = ClubSync(store.conn, store.device_id, settings).send()
        assert len(report.conflicts) == 1 and "created at" in report.conflicts[0]
        assert store.conn.execute("SELECT state, error FROM outbox").fetchone()[0] == "conflict"
        store.conn.execute("UPDATE outbox SET state = 'waiting'")   # sent again: one record
        ClubSync(store.conn, store.device_id, settings).send()
    assert at_club(club, "SELECT record FROM games") == before
    assert at_club(club, "SELECT count(*) FROM conflicts") == [(1,)]


def test_the_server_stopped_mid_sync_loses_nothing_and_doubles_nothing(cluster, club,
                                                                         tmp_path):
    db = tmp_path / "a.sqlite3"
    played(db, {"witchs_brew": 3, "quest": 3}, 7)
    settings = access.load(joined(club, unique("th"), tmp_path))

    def connect(conninfo):
        conn = psycopg.connect(conninfo, autocommit=True)
        sent = {"n": 0}
        real = conn.transaction

        def transaction(*a, **k):   # the server goes down after two games were committed
            sent["n"] += 1
            if sent["n"] == 4:
                cluster.stop_immediately()
            return real(*a, **k)
        conn.transaction = transaction
        return conn

    try:
        with Store(db) as store:
            report = ClubSync(store.conn, store.device_id, settings, connect).send()
            assert report.error and report.sent == 2
            assert "password" not in report.error
            assert counts(store.conn) == {"waiting": 4, "sent": 2, "conflict": 0}
            assert store.conn.execute("SELECT count(*) FROM outbox WHERE error IS NOT NULL"
                                      ).fetchone() == (1,)
    finally:
        if cluster.pid() is None or not _alive(cluster.pid()):
            cluster.start()
    with Store(db) as store:
        report = ClubSync(store.conn, store.device_id, settings).send()
        assert report.error is None and report.sent + report.already == 4
        assert counts(store.conn) == {"waiting": 0, "sent": 6, "conflict": 0}
    assert at_club(club, "SELECT count(*), count(DISTINCT uuid) FROM games") == [(6, 6)]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def test_the_thread_sends_when_woken_and_backs_off(club, tmp_path):
    import threading

    db = tmp_path / "a.sqlite3"
    played(db, {"quest": 1}, 8)
    settings = access.load(joined(club, unique("ti"), tmp_path))
    reports, stop, wake = [], threading.Event(), threading.Event()
    with Store(db) as store:
        sync = ClubSync(store.conn, store.device_id, settings)
        done = threading.Event()
        thread = threading.Thread(target=sync.run, args=(stop, wake), kwargs={
            "reported": lambda r: (reports.append(r), done.set())}, daemon=True)
        thread.start()
        assert done.wait(30)
        stop.set()
        wake.set()
        thread.join(30)
    assert not thread.is_alive() and reports[0].sent == 1
    backoff = Backoff(2, 10)
    assert [backoff.next() for _ in range(5)] == [2, 4, 8, 10, 10]


def test_standings_match_a_hand_count_and_openskill(club, tmp_path):
    from openskill.models import PlackettLuce

    a, b, c = "00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b", \
        "00000000-0000-4000-8000-00000000000c"
    games = [Finished("witchs_brew", f"g{i}", f"2026-01-0{i}", seats) for i, seats in enumerate([
        ((a, "Anna", True, 1), (b, "Ben", False, 2), (c, "Cleo", False, 3)),
        ((a, "Anna", False, 2), (b, "Ben", True, 1), (c, "Cleo", False, 2)),
        ((a, "Anna", True, 1), (b, "Ben", False, 3), (c, "Cleo", False, 2)),
    ], start=1)] + [Finished("quest", "q1", "2026-01-04", ((a, "Anna", True, 1),
                                                           (b, "Ben", True, 1)))]
    result = {t.game: t for t in standings(games, {a: "Anna B."}, minimum=3)}
    model = PlackettLuce()
    r = {p: model.rating() for p in (a, b, c)}
    for ranks in ([1, 2, 3], [2, 1, 2], [1, 3, 2]):
        [[r[a]], [r[b]], [r[c]]] = model.rate([[r[a]], [r[b]], [r[c]]], ranks=ranks)
    wb = result["witchs_brew"]
    assert [(p.name, p.games, p.wins, p.win_rate) for p in wb.players] == [
        ("Anna B.", 3, 2, 0.667), ("Ben", 3, 1, 0.333), ("Cleo", 3, 0, 0.0)]
    assert [p.rating for p in wb.players] == [round(r[x].mu - 3 * r[x].sigma, 2)
                                              for x in (a, b, c)]
    quest = result["quest"]
    assert quest.team and all(p.rating is None and p.wins == 1 for p in quest.players)
    unranked = standings(games, {}, minimum=4)[1]
    assert not any(p.ranked(4) for p in unranked.players)


def test_standings_command_by_season(club, tmp_path):
    db = tmp_path / "a.sqlite3"
    played(db, {"witchs_brew": 3, "quest": 1}, 9)
    settings = joined(club, unique("tj"), tmp_path)
    assert cli("club", "sync", "--db", db, "--settings", settings)[0] == 0
    assert cli("club", "season", "add", "All", "2000-01-01", "2100-12-31", "--url", club)[0] == 0
    code, _, err = cli("club", "season", "add", "Bad", "2026-02-01", "2026-01-01", "--url", club)
    assert code == 2 and "END" in err
    code, out, err = cli("club", "standings", "--settings", settings, "--json")
    assert code == 0, err
    found = json.loads(out)            # a table reads; it rates nothing: the counts, unrated
    assert found["season"]["name"] == "All" and found["ratings_lag"] == ["witchs_brew"]
    titles = {t["game"]: t for t in found["titles"]}
    assert titles["witchs_brew"]["games"] == 3 and titles["quest"]["team"]
    assert not any(p["ranked"] for p in titles["witchs_brew"]["players"])
    code, out, _ = cli("club", "standings", "--settings", settings)
    assert "not yet up to the latest games" in out and "from 3 games" in out
    assert "not in these standings" not in out and found["not_sent"] == 0
    played(db, {"witchs_brew": 2}, 11)                 # finished here, not sent yet
    code, out, err = cli("club", "standings", "--settings", settings, "--db", db)
    assert code == 0 and "2 finished game(s) of this table are not in these standings" in out
    assert json.loads(cli("club", "standings", "--settings", settings, "--db", db,
                          "--json")[1])["not_sent"] == 2
    rater = tmp_path / "rater.json"
    assert cli("club", "add-rater", unique("r"), "--url", club, "-o", rater)[0] == 0
    code, out, err = cli("club", "rate", "--settings", rater)
    assert code == 0 and "Folded 3 game(s)" in out, err
    found = json.loads(cli("club", "standings", "--settings", settings, "--json")[1])
    titles = {t["game"]: t for t in found["titles"]}
    assert found["ratings_lag"] == [] and any(p["ranked"] for p in titles["witchs_brew"]["players"])
    code, out, _ = cli("club", "standings", "--settings", settings, "--game", "Cauldron Quest")
    assert code == 0 and "no rating" in out and "Witch" not in out
