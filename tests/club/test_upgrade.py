"""A club at schema version 2 brought to version 3 (companion/club/boundary.py) with its games,
seats and standings; one holding rows version 3 refuses is left as it was, the rows named."""

from __future__ import annotations

import uuid as uuids
from random import Random

import psycopg
import pytest

from companion.club.boundary import UpgradeRefused
from companion.club.schema import CLUB_VERSION, init, version
from tests.club import making


def _v2_club(cluster) -> str:
    url = cluster.url(cluster.new_database())
    with psycopg.connect(url, autocommit=True) as conn:
        assert init(conn, 2) == (0, 2)
        device = str(uuids.uuid4())
        conn.execute("INSERT INTO seasons VALUES ('All', '2000-01-01', '2100-12-31')")
        conn.execute("INSERT INTO tables (name, role, device) VALUES ('T', 'club_table_t', %s)",
                     (device,))
        made = [(str(uuids.uuid4()), f"Player {i}") for i in range(6)]
        conn.cursor().executemany("INSERT INTO profiles (uuid, name, added_by) VALUES "
                                  "(%s, %s, %s)", [(u, n, device) for u, n in made])
        rng = Random(3)
        for i in range(12):
            game, seats = making.game_rows(rng, made, device, making.START.replace(day=2 + i))
            with conn.transaction():
                conn.execute(making.GAME_SQL.replace("club.", ""), game)
                conn.cursor().executemany(making.SEAT_SQL.replace("club.", ""), seats)
    return url


def test_a_club_at_version_2_keeps_its_games(cluster):
    url = _v2_club(cluster)
    with psycopg.connect(url, autocommit=True) as conn:
        before = conn.execute("SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM seats),"
                              " (SELECT string_agg(profile::text || games || wins, ',' "
                              "ORDER BY profile) FROM standings)").fetchone()
        assert init(conn) == (2, CLUB_VERSION) and version(conn) == CLUB_VERSION
        after = conn.execute("SELECT (SELECT count(*) FROM club.games), (SELECT count(*) FROM "
                             "club.seats), (SELECT string_agg(profile::text || games || wins, "
                             "',' ORDER BY profile) FROM club.standings)").fetchone()
        assert after == before and before[0] == 12
        assert init(conn) == (CLUB_VERSION, CLUB_VERSION)


def test_a_club_at_version_2_with_forged_rows_is_refused_naming_them(cluster):
    url = _v2_club(cluster)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE profiles SET name = repeat('x', 10000) WHERE name = 'Player 2'")
        conn.execute("UPDATE seats SET place = -7 WHERE seat = 0")
        with pytest.raises(UpgradeRefused) as refused:
            init(conn)
        said = str(refused.value)
        assert "a profile" in said and "a seat" in said and "nothing was changed" in said
        assert version(conn) == 2
        assert conn.execute("SELECT to_regnamespace('club')").fetchone() == (None,)
        assert conn.execute("SELECT count(*) FROM public.games").fetchone() == (12,)


def _admin_database(cluster) -> tuple[str, str]:
    """A new database owned by a CREATEROLE role that is no superuser (the docs' admin), and
    the admin's url to it."""
    from tests.club.cluster import unique

    keeper = unique("keeper")
    with psycopg.connect(cluster.url(), autocommit=True) as su:
        su.execute(f"CREATE ROLE {keeper} LOGIN CREATEROLE PASSWORD 'kept-secret'")
        name = cluster.new_database()
        su.execute(f"ALTER DATABASE {name} OWNER TO {keeper}")
    return name, cluster.url(name, keeper).replace(cluster.password, "kept-secret")


def test_an_admin_that_is_no_superuser_makes_the_club_and_is_not_its_owner(cluster):
    """A CREATEROLE role that owns the database (the docs' admin) runs init: it holds the
    owner for init's transaction only, and keeps the admin's rows (club_manager)."""
    from companion.club import access
    from companion.club.reading import add_season
    from tests.club.cluster import unique

    _name, url = _admin_database(cluster)
    with psycopg.connect(url, autocommit=True) as admin:
        assert init(admin) == (0, CLUB_VERSION)
        access.add_table(admin, unique("kt"))
        add_season(admin, "All", "2000-01-01", "2100-12-31")
        assert admin.execute("SELECT pg_has_role(current_user, 'club_manager', 'MEMBER'), "
                             "pg_has_role(current_user, 'club_owner', 'MEMBER')"
                             ).fetchone() == (True, False)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):   # no DDL: the owner's
            admin.execute("ALTER TABLE club.games DISABLE ROW LEVEL SECURITY")


def test_a_row_only_the_checks_themselves_find_is_refused_in_words(cluster):
    """A row past the rules the look beforehand does not cover (a game that ends before it
    begins): found as its check is added, said as the upgrade's refusal, nothing changed. A
    live status the checks refuse is only dropped (the table writes its next)."""
    url = _v2_club(cluster)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO status (device, game, data) SELECT device, 'chess', '{}' "
                     "FROM tables")
        conn.execute("UPDATE games SET started_at = finished_at + interval '1 hour' WHERE "
                     "uuid = (SELECT min(uuid::text)::uuid FROM games)")
        with pytest.raises(UpgradeRefused, match="game_times.*nothing was changed"):
            init(conn)
        assert version(conn) == 2
        conn.execute("UPDATE games SET started_at = finished_at - interval '1 hour'")
        assert init(conn) == (2, CLUB_VERSION)
        assert conn.execute("SELECT count(*) FROM club.status").fetchone() == (0,)


def test_an_admin_that_is_no_superuser_is_told_the_statements_left(cluster):
    """What init cannot do as a CREATEROLE admin (large objects, advisory locks) it prints as
    statements for a superuser; once run, init has nothing left to say."""
    from companion.club.limits import left_undone
    from tests.club.test_club import cli

    name, url = _admin_database(cluster)
    code, said, err = cli("club", "init", url)
    assert code == 0, err
    assert "Left for a superuser to run in the club's database" in said
    lo = [line.strip() for line in said.splitlines() if "lo_create" in line]
    assert len(lo) == 1 and lo[0].startswith("REVOKE EXECUTE ON FUNCTION")
    with psycopg.connect(cluster.url(name), autocommit=True) as su:
        su.execute(lo[0].split("--")[0])
        assert not any("lo_create" in s for s in left_undone(su))
