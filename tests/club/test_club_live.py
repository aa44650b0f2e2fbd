"""The club's live side on a real PostgreSQL (tests/club/conftest.py): each table's status with
the server's times, offline after three missed heartbeats; the club's profiles at every table;
and the faults: the port refused, a table's clock a day off, the server stopped while the sync
thread runs. Nothing lost, nothing doubled, nothing overwritten."""

from __future__ import annotations

import json
import threading
from datetime import datetime, timedelta

import psycopg
from psycopg.conninfo import make_conninfo

from companion.club import access, status as live
from companion.club.profiles import exchange
from companion.club.status import read_tables, status_of
from companion.club.sync import Backoff, ClubSync, counts, side_connection, utc_clock
from companion.games import get_rules
from companion.store import Store
from companion.view.snapshot import table_view
from companion.core.narrator import Narrator
from tests.club.making import PATH
from tests.club.cluster import free_port
from tests.support.history import NEEDED, build_history
from tests.club.test_club import _alive, at_club, cli, joined, played
from tests.club.cluster import unique

DAY = timedelta(days=1)


def _view(session):
    return table_view(session, 1, Narrator(session))


def test_status_from_the_snapshot_names_the_seats_and_scores(tmp_path):
    with Store(tmp_path / "a.sqlite3") as store:
        session = store.new_game(get_rules("witchs_brew"),
                                 {"players": ["Anna", "Ben", "Cleo"]})
        status = status_of(_view(session), session.game_id)
    assert status["state"] == "playing" and status["title"] == "Witch's Brew"
    assert [(s["name"], s["score"], s["winner"]) for s in status["seats"]] == [
        ("Anna", 0, False), ("Ben", 0, False), ("Cleo", 0, False)]
    assert status["stands"][0].startswith("Set 1") and status["asks"]
    assert status_of(None) == live.IDLE
    json.dumps(status)    # plain data, for the club's jsonb


def _written(club_url, settings, data):
    with psycopg.connect(settings.conninfo + PATH, autocommit=True) as conn:
        return live.write(conn, data)


def test_status_since_and_offline_by_the_servers_clock(club, tmp_path):
    db = tmp_path / "a.sqlite3"
    played(db, {"quest": 1}, 11)
    path = joined(club, unique("tk"), tmp_path)
    settings = access.load(path)
    with Store(db) as store:
        assert ClubSync(store.conn, store.device_id, settings).send().error is None
    playing = {"state": "playing", "game": "quest", "title": "Cauldron Quest", "game_id": 1,
               "seats": []}
    _written(club, settings, playing)
    at_club(club, "UPDATE status SET data = jsonb_set(data, '{since}', '\"2000-01-01T00:00:00Z\"')"
            " RETURNING 1")
    _written(club, settings, dict(playing, stands=["Turn 2"]))   # the same game: since kept
    with psycopg.connect(club) as conn:
        (table,) = [t for t in read_tables(conn) if t["name"] == settings.name]
    assert table["online"] and table["status"]["since"] == "2000-01-01T00:00:00Z"
    assert table["status"]["stands"] == ["Turn 2"]
    _written(club, settings, dict(playing, state="over"))          # the game ended: since now
    with psycopg.connect(club) as conn:
        (table,) = [t for t in read_tables(conn) if t["name"] == settings.name]
        server_now = conn.execute("SELECT now()").fetchone()[0]
    since = datetime.fromisoformat(table["status"]["since"].replace("Z", "+00:00"))
    assert abs((server_now - since).total_seconds()) < 5
    for ago, online in ((live.MISSED * live.HEARTBEAT - 2, True),
                        (live.MISSED * live.HEARTBEAT + 2, False)):
        at_club(club, "UPDATE status SET updated_at = now() - make_interval(secs => %s) "
                "RETURNING 1", ago)
        with psycopg.connect(club) as conn:
            (table,) = [t for t in read_tables(conn) if t["name"] == settings.name]
        assert table["online"] is online, ago
    code, said, _ = cli("club", "status", "--db", db, "--settings", path)
    assert code == 0 and f"{settings.name}: offline (last heard" in said


def test_the_port_refused_loses_nothing(club, tmp_path):
    db = tmp_path / "a.sqlite3"
    played(db, {"witchs_brew": 2, "cauldron": 1}, 12)
    path = joined(club, unique("tm"), tmp_path)
    settings = access.load(path)
    password = psycopg.conninfo.conninfo_to_dict(settings.conninfo)["password"]
    refused = access.Settings(settings.club, settings.name, settings.role,
                              make_conninfo(settings.conninfo, port=free_port()))
    with Store(db) as store:
        report = ClubSync(store.conn, store.device_id, refused).send()
        assert report.error and "refused" in report.error and password not in report.error
        assert (report.sent, report.waiting) == (0, 3)
        assert counts(store.conn) == {"waiting": 3, "sent": 0, "conflict": 0}
        # the thread backs off and says so each time; play never waits on it
        reports, stop, wake, failed = [], threading.Event(), threading.Event(), threading.Event()
        sync = ClubSync(side_connection(str(db)), store.device_id, refused)
        sync.offer(live.IDLE)

        def heard(r):
            reports.append(r)
            if len(reports) == 3:
                failed.set()
        thread = threading.Thread(target=sync.run, args=(stop, wake, Backoff(0.05, 0.1)),
                                  kwargs={"reported": heard}, daemon=True)
        thread.start()
        assert failed.wait(30)
        stop.set()
        wake.set()
        thread.join(30)
        assert all(r.error and r.waiting == 3 for r in reports[:3])
    bad = tmp_path / "refused.json"
    access.save(refused, bad)
    code, _, err = cli("club", "sync", "--db", db, "--settings", bad)
    assert code != 0 and "wait" in err and password not in err
    code, said, _ = cli("club", "status", "--db", db, "--settings", bad)
    assert code == 0 and "cannot be reached" in said and password not in said
    code, said, err = cli("club", "sync", "--db", db, "--settings", path)
    assert code == 0 and "Sent 3 game(s)" in said, err
    assert at_club(club, "SELECT count(*), count(DISTINCT uuid) FROM games") == [(3, 3)]


def test_a_tables_clock_a_day_off(club, tmp_path):
    db = tmp_path / "a.sqlite3"
    played(db, {"witchs_brew": 1, "quest": 1}, 13)
    settings = access.load(joined(club, unique("tn"), tmp_path))
    with Store(db) as store:       # played with a clock a day ahead: every time is a day late
        true = dict(store.conn.execute("SELECT uuid, finished_at FROM games"))
        for (gid,) in store.conn.execute("SELECT id FROM games").fetchall():
            store.conn.execute(
                "UPDATE games SET created_at = strftime('%Y-%m-%dT%H:%M:%S+00:00', created_at, "
                "'+1 day'), finished_at = strftime('%Y-%m-%dT%H:%M:%S+00:00', finished_at, "
                "'+1 day') WHERE id = ?", (gid,))
        ahead = ClubSync(store.conn, store.device_id, settings,
                         clock=lambda: utc_clock() + DAY)
        report = ahead.send()
        assert report.error is None and report.sent == 2
        assert abs(report.skew + DAY.total_seconds()) < 60
        for uuid, ended, kept in at_club(
                club, "SELECT uuid::text, finished_at, record->'stored'->>'finished_at' "
                "FROM games"):
            off = ended - datetime.fromisoformat(true[uuid])       # the server's time
            assert abs(off.total_seconds()) <= 2
            assert kept == (datetime.fromisoformat(true[uuid]) + DAY).isoformat()  # the table's
        store.conn.execute("UPDATE outbox SET state = 'waiting'")  # sent again: the same game
        again = ahead.send()
        assert (again.sent, again.already, again.conflicts) == (0, 2, [])
        with psycopg.connect(settings.conninfo + PATH, autocommit=True) as conn:
            live.write(conn, {"state": "idle", "game": None})
            (table,) = [t for t in read_tables(conn) if t["name"] == settings.name]
            server_now = conn.execute("SELECT now()").fetchone()[0]
    assert table["online"] and table["age"] < 5
    heard = datetime.fromisoformat(table["heard"].replace("Z", "+00:00"))
    assert abs((server_now - heard).total_seconds()) < 5
    assert at_club(club, "SELECT count(*), count(DISTINCT uuid) FROM games") == [(2, 2)]
    assert at_club(club, "SELECT count(*) FROM conflicts") == [(0,)]


def test_the_clubs_profiles_reach_every_table(club, tmp_path):
    db_a, db_b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    played(db_a, {"witchs_brew": 1}, 14)
    sa, sb = (access.load(joined(club, unique(f"t{x}"), tmp_path)) for x in "op")
    with Store(db_b) as b:
        b.new_game(get_rules("quest"), {"players": ["Zoe", "Yann"], "needed": list(NEEDED)})   # not finished: profiles
    with Store(db_a) as a:
        first = ClubSync(a.conn, a.device_id, sa).send()
        mine_a = {p.uuid: p.name for p in a.profiles(200)}
    assert first.error is None and first.profiles_sent == len(mine_a)
    with Store(db_b) as b:
        report = ClubSync(b.conn, b.device_id, sb).send()
        known = {p.uuid: p for p in b.profiles(200)}
    assert report.error is None and (report.profiles_sent, report.profiles_brought) == (
        2, len(mine_a))
    assert {u: known[u].name for u in mine_a} == mine_a      # the same uuids, the same names
    assert all(known[u].last_played for u in mine_a)         # as they last played at the club
    with Store(db_a) as a:                                   # B's players at A after its sync
        again = ClubSync(a.conn, a.device_id, sa).send()
        names = {p.name for p in a.profiles(200)}
    assert again.profiles_brought == 2 and {"Zoe", "Yann"} <= names
    with Store(db_b) as b:                                   # nothing more either way
        assert ClubSync(b.conn, b.device_id, sb).send().profiles_brought == 0
        # a seat picked in "Who?" as A's player links by uuid, and the club sees that uuid
        uuid, name = next(iter(mine_a.items()))
        session = b.new_game(get_rules("quest"), {"players": [name, "Zoe"], "needed": list(NEEDED)},
                             picked=[uuid, None])
        assert b.conn.execute("SELECT pr.uuid FROM players pl JOIN profiles pr ON pr.id = "
                              "pl.profile_id WHERE pl.game_id = ? AND pl.seat = 0",
                              (session.game_id,)).fetchone() == (uuid,)
    assert at_club(club, "SELECT count(*), count(DISTINCT uuid) FROM profiles") == [
        (len(mine_a) + 2,) * 2]


def test_a_club_player_named_like_one_here_is_kept_apart(club, tmp_path):
    db_a, db_b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    sa, sb = (access.load(joined(club, unique(f"t{x}"), tmp_path)) for x in "qr")
    for db in (db_a, db_b):
        with Store(db) as store:
            store.new_game(get_rules("quest"), {"players": ["Anna", "Ben"],
                                                    "needed": list(NEEDED)})
    with Store(db_a) as a:
        ClubSync(a.conn, a.device_id, sa).send()
    with Store(db_b) as b:
        report = ClubSync(b.conn, b.device_id, sb).send()
        annas = b.conn.execute("SELECT count(DISTINCT uuid) FROM profiles WHERE name = 'Anna'"
                               ).fetchone()
    assert annas == (2,) and any("Anna" in note and "kept apart" in note
                                 for note in report.notes)
    assert any("Anna" in note and "the standings show two" in note for note in report.notes)
    with psycopg.connect(sb.conninfo + PATH, autocommit=True) as conn:   # the club's: never changed
        assert exchange(conn, side_connection(str(db_b)))[:2] == (0, 0)


def test_the_thread_writes_the_status_at_most_once_a_second_and_beats(club, tmp_path,
                                                                      monkeypatch):
    db = tmp_path / "a.sqlite3"
    played(db, {"quest": 1}, 15)
    settings = access.load(joined(club, unique("ts"), tmp_path))
    writes, beats = [], threading.Event()
    real = live.write

    def counted(conn, data):
        writes.append(data)
        if len(writes) >= 4 and all(w is writes[-1] for w in writes[-2:]):
            beats.set()
        return real(conn, data)
    monkeypatch.setattr(live, "write", counted)
    stop, wake = threading.Event(), threading.Event()
    with Store(db) as store:
        sync = ClubSync(side_connection(str(db)), store.device_id, settings)
        thread = threading.Thread(target=sync.run, args=(stop, wake), kwargs={
            "gap": 0.3, "heartbeat": 0.6}, daemon=True)
        thread.start()
        offered = [{"state": "playing", "game": "quest", "title": "Cauldron Quest",
                    "game_id": 1, "stands": [f"Turn {n}"]} for n in range(60)]
        for status in offered:
            sync.offer(status)
        assert beats.wait(30)       # the last offered, then the same again as heartbeats
        stop.set()
        wake.set()
        thread.join(30)
    assert len(writes) < 20 and writes[-1] == offered[-1]
    (shown,) = at_club(club, "SELECT data->'stands' FROM status")
    assert shown == (["Turn 59"],)


def test_the_server_stopped_while_the_thread_runs(cluster, club, tmp_path):
    db = tmp_path / "a.sqlite3"
    played(db, {"witchs_brew": 2}, 16)
    settings = access.load(joined(club, unique("tt"), tmp_path))
    reports, stop, wake = [], threading.Event(), threading.Event()
    heard = threading.Condition()

    def reported(r):
        with heard:
            reports.append(r)
            heard.notify_all()

    def wait_for(test):
        with heard:
            assert heard.wait_for(lambda: test(reports), 60), reports

    with Store(db) as store:
        sync = ClubSync(side_connection(str(db)), store.device_id, settings)
        thread = threading.Thread(target=sync.run, args=(stop, wake, Backoff(0.2, 0.5)),
                                  kwargs={"reported": reported}, daemon=True)
        thread.start()
        try:
            wait_for(lambda rs: rs and rs[-1].sent == 2)
            cluster.stop_immediately()
            build_history(store, {"quest": 1}, seed=17)    # a game finishes meanwhile
            sync.ask_send()
            wait_for(lambda rs: rs[-1].error is not None)
            assert counts(store.conn)["waiting"] == 1
        finally:
            if cluster.pid() is None or not _alive(cluster.pid()):
                cluster.start()
        wait_for(lambda rs: rs[-1].error is None and rs[-1].waiting == 0)
        stop.set()
        wake.set()
        thread.join(30)
        assert counts(store.conn) == {"waiting": 0, "sent": 3, "conflict": 0}
    assert at_club(club, "SELECT count(*), count(DISTINCT uuid) FROM games") == [(3, 3)]


def test_a_table_in_words_and_a_clock_off():
    from companion.club.status import in_words
    from companion.club.sync import clock_words

    playing = {"name": "Table 1", "online": True, "heard": "2026-12-01T10:00:00Z", "status": {
        "state": "playing", "title": "Witch's Brew", "since": "2026-12-01T09:00:00Z",
        "stands": ["Set 1, round 2"], "seats": [{"name": "Anna", "score": 3},
                                                {"name": "Ben", "score": None}]}}
    assert in_words(playing) == ("Table 1: playing Witch's Brew since 2026-12-01T09:00:00Z "
                                 "(Set 1, round 2): Anna 3, Ben")
    assert in_words(dict(playing, online=False)) == \
        "Table 1: offline (last heard 2026-12-01T10:00:00Z)"
    assert in_words({"name": "T2", "online": False, "heard": None}) == \
        "T2: offline (never heard from)"
    assert [clock_words(s) for s in (-86400, 7200, -90, 5)] == [
        "1 day ahead of", "2 hours behind", "2 minutes ahead of", "5 seconds behind"]
