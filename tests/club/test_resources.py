"""The server's own resources under a hostile table (companion/club/limits.py): its 120
connections, or a transaction it leaves open after sending a game with its own timeouts reset,
leave the other tables and the rater working within seconds; it makes no large object, reaches
no other database and cannot raise its own connection limit. Each figure is printed, never
asserted against a time: the waits are for a condition, with a limit that fails loudly."""

from __future__ import annotations

import threading
import time
import uuid as uuids

import psycopg
import pytest

from companion.club import access
from companion.club.limits import CONNECTIONS
from companion.club.limits import STALL, end_stalled
from companion.club.rater import rate_due
from companion.club.reading import add_season
from companion.club.sync import ClubSync
from companion.store import Store
from tests.club.cluster import unique
from tests.club.hostile import REFUSED, _record, login
from tests.club.test_club import played

#: The longest any wait here may take before the test fails (a stall is ended after STALL s).
LIMIT = 6 * STALL


def _season(admin_url: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as admin:
        add_season(admin, "Always", "2000-01-01", "2100-12-31")


def _table_with_a_game(admin_url: str, tmp_path, seed: int) -> tuple[Store, access.Settings]:
    with psycopg.connect(admin_url, autocommit=True) as admin:
        settings = access.add_table(admin, unique("rs"))
    db = tmp_path / f"t{seed}.sqlite3"
    played(db, {"cauldron": 1}, seed)
    return db, settings


def _within(work: dict[str, callable]) -> dict[str, object]:
    """Run each piece of work in a thread; its result, or fail loudly past LIMIT seconds."""
    results: dict[str, object] = {}

    def run(name, job):
        try:
            results[name] = job()
        except Exception as problem:   # noqa: BLE001 (shown by the assertion below)
            results[name] = problem

    threads = [threading.Thread(target=run, args=item, daemon=True) for item in work.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(LIMIT)
    stuck = [name for name in work if name not in results]
    assert not stuck, f"still waiting after {LIMIT} s: {stuck}"
    return results


def _send(db, settings):
    with Store(db) as store:
        return ClubSync(store.conn, store.device_id, settings).send()


def _read(settings):
    with login(settings) as conn:
        return conn.execute("SELECT count(*) FROM club.games").fetchone()


def _rate(settings):
    with login(settings) as conn:
        return rate_due(conn)


def test_a_tables_open_transaction_stalls_no_one_for_long(roles, tmp_path):
    _season(roles["admin"])
    db, other = _table_with_a_game(roles["admin"], tmp_path, 1)
    hostile = psycopg.connect(roles["table"].conninfo)   # a transaction it never ends
    for reset in ("idle_in_transaction_session_timeout", "statement_timeout", "lock_timeout"):
        hostile.execute(f"SET {reset} = 0")
    hostile.execute("ALTER ROLE CURRENT_USER SET idle_in_transaction_session_timeout = 0")
    game = str(uuids.uuid4())
    hostile.execute(
        "INSERT INTO club.games (uuid, device, game, status, started_at, finished_at, content, "
        "record) VALUES (%s, %s, 'cauldron', 'finished', now() - interval '1 hour', now(), "
        "repeat('a', 64), %s::jsonb)", (game, roles["devices"]["table"],
                                        _record(game, "cauldron", ["A", "B"])))
    hostile.cursor().executemany(
        "INSERT INTO club.seats (game, seat, name, profile, score, winner, place) VALUES "
        "(%s, %s, %s, NULL, %s, %s, %s)", [(game, 0, "A", 10, True, 1), (game, 1, "B", 5, False, 2)])
    hostile.execute("SET CONSTRAINTS ALL IMMEDIATE")       # its commit's locks taken now
    started = time.monotonic()
    done = _within({"send": lambda: _send(db, other),
                    "rate": lambda: _rate(roles["rater"])})
    took = time.monotonic() - started
    print(f"\nanother table's send and the rater, with a table's transaction left open: "
          f"{took:.1f} s (stalled sessions are ended after {STALL} s)")
    assert not isinstance(done["rate"], Exception), done["rate"]
    report = done["send"]
    assert report.error is None and report.sent == 1, vars(report)
    with pytest.raises(psycopg.OperationalError):          # ended by the server
        hostile.execute("SELECT 1")
    hostile.close()


def test_a_short_transaction_and_the_rater_and_wall_are_never_ended(roles):
    with login(roles["wall"]) as wall, login(roles["rater"]) as rater, \
            psycopg.connect(roles["table"].conninfo) as table:
        wall.execute("BEGIN")
        rater.execute("BEGIN")
        table.execute("SELECT 1")                             # in a transaction, just begun
        with login(roles["other"]) as other:
            assert end_stalled(other) == 0
        for conn in (wall, rater, table):
            conn.execute("SELECT 1")


def test_a_tables_120_connections_leave_the_others_working(roles, tmp_path):
    _season(roles["admin"])
    db, other = _table_with_a_game(roles["admin"], tmp_path, 2)
    held, refused = [], []
    started = time.monotonic()
    for _ in range(120):
        try:
            held.append(psycopg.connect(roles["table"].conninfo, autocommit=True))
        except psycopg.OperationalError as problem:
            refused.append(str(problem))
    flood = time.monotonic() - started
    try:
        assert len(held) == CONNECTIONS["table"]
        assert all("too many connections for role" in r for r in refused), refused[:1]
        started = time.monotonic()
        done = _within({"send": lambda: _send(db, other),
                        "rate": lambda: _rate(roles["rater"]),
                        "wall": lambda: _read(roles["wall"])})
        took = time.monotonic() - started
    finally:
        for conn in held:
            conn.close()
    print(f"\n120 connections tried by one table in {flood:.1f} s: {len(held)} held, "
          f"{len(refused)} refused; another table's send, the rater and the wall then "
          f"{took:.2f} s")
    assert done["send"].error is None and done["send"].sent == 1, vars(done["send"])
    assert not isinstance(done["rate"], Exception) and not isinstance(done["wall"], Exception)


@pytest.mark.parametrize("kind", ["table", "wall", "rater"])
def test_no_large_objects_no_other_database_no_limit_raised(roles, kind):
    with login(roles[kind]) as conn:
        for sql in ("SELECT lo_create(0)", "SELECT lo_creat(-1)",
                    "SELECT lo_from_bytea(0, 'x'::bytea)"):
            with pytest.raises(REFUSED):
                conn.execute(sql)
        with pytest.raises(REFUSED):
            conn.execute("ALTER ROLE CURRENT_USER CONNECTION LIMIT 1000")
    given = psycopg.conninfo.conninfo_to_dict(roles[kind].conninfo)
    for other in ("postgres", "template1"):
        given["dbname"] = other
        with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
            psycopg.connect(psycopg.conninfo.make_conninfo(**given)).close()


def test_a_stolen_tables_credentials_are_ended_by_one_command(roles):
    """The thief changes the table's password first (PostgreSQL lets a role): end-table still
    ends its login and its sessions."""
    from tests.club.test_club import cli

    with psycopg.connect(roles["admin"]) as admin:
        name = admin.execute("SELECT name FROM club.tables WHERE role = %s",
                             (roles["table"].role,)).fetchone()[0]
    thief = psycopg.connect(roles["table"].conninfo, autocommit=True)
    thief.execute("ALTER ROLE CURRENT_USER PASSWORD 'the-thiefs-own'")
    code, said, err = cli("club", "end-table", name, "--url", roles["admin"])
    assert code == 0 and "1 session(s) ended" in said, err
    with pytest.raises(psycopg.OperationalError):
        thief.execute("SELECT 1")
    thief.close()
    given = psycopg.conninfo.conninfo_to_dict(roles["table"].conninfo)
    given["password"] = "the-thiefs-own"
    with pytest.raises(psycopg.OperationalError, match="not permitted to log in|password"):
        psycopg.connect(psycopg.conninfo.make_conninfo(**given)).close()
    code, _, err = cli("club", "end-table", "no such table", "--url", roles["admin"])
    assert code == 2 and "no table named" in err
