"""The club's server is the boundary (schema version 3, companion/club/boundary.py), against a
real PostgreSQL: the privilege matrix as granted against docs/club.md's; every object the
owner's, every function's search path fixed; a table's temporary tables and functions
shadowing every club name change nothing (and without TEMP it cannot make them); the ratings
written by the rater alone; the times a table cannot choose; another device's rows (every
column at and past its bounds: test_bounds.py; a club at version 2 brought to 3:
test_upgrade.py)."""

from __future__ import annotations

import uuid as uuids

import psycopg
import pytest

from companion.club.boundary import FUNCTIONS, PATH, TITLES
from companion.club.limits import STATEMENTS as LIMITS
from tests.club.hostile import REFUSED, counts, login, send
from tests.club.matrix import KINDS, documented, granted


def test_the_privilege_matrix_is_the_documented_one(roles):
    docs = documented()
    with psycopg.connect(roles["admin"]) as conn:
        for kind in KINDS:
            assert granted(conn, roles[kind].role) == docs[kind], kind


def test_every_object_is_the_owners_and_every_function_fixes_its_path(roles):
    with psycopg.connect(roles["admin"]) as conn:
        owners = conn.execute(
            "SELECT DISTINCT pg_get_userbyid(relowner) FROM pg_class WHERE relnamespace = "
            "'club'::regnamespace UNION SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE "
            "pronamespace = 'club'::regnamespace UNION SELECT pg_get_userbyid(typowner) FROM "
            "pg_type WHERE typnamespace = 'club'::regnamespace UNION SELECT "
            "pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'club'").fetchall()
        assert owners == [("club_owner",)]
        paths = conn.execute("SELECT proname, proconfig FROM pg_proc WHERE pronamespace = "
                             "'club'::regnamespace").fetchall()
        # version 3's functions and version 4's one more (club_end_stalled)
        assert len(paths) == len(FUNCTIONS) + sum("CREATE FUNCTION" in s for s in LIMITS)
        for name, config in paths:
            assert config == [PATH.replace("SET search_path = ", "search_path=")], name
        # no login role is the owner's member, not even the admin who ran init
        assert conn.execute("SELECT count(*) FROM pg_auth_members m JOIN pg_roles r ON "
                            "r.oid = m.roleid WHERE r.rolname = 'club_owner'").fetchone() == (0,)
        # nothing of the club is left where a role may create
        assert conn.execute("SELECT count(*) FROM pg_class WHERE relnamespace = "
                            "'public'::regnamespace").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM pg_proc WHERE pronamespace = "
                            "'public'::regnamespace").fetchone() == (0,)


@pytest.mark.parametrize("kind", ["table", "wall", "rater"])
def test_no_club_role_makes_anything(roles, kind):
    before = counts(roles["admin"])
    with login(roles[kind]) as conn:
        for sql in ("CREATE TEMP TABLE tables (role name, device uuid)",
                    "CREATE TABLE public.tables (role name, device uuid)",
                    "CREATE TABLE club.tables2 (role name)",
                    "CREATE FUNCTION public.club_device() RETURNS uuid LANGUAGE sql AS "
                    "$$ SELECT NULL::uuid $$",
                    "CREATE SCHEMA mine", "CREATE VIEW club.v AS SELECT 1"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql)
    assert counts(roles["admin"]) == before


def test_temporary_shadows_of_every_club_name_change_nothing(roles):
    """Given TEMP (which no club role has), a table shadows every relation and function of the
    club in its own pg_temp, naming the other table's device everywhere: the club's functions
    still see the club's rows, so it still writes only under its own device."""
    with psycopg.connect(roles["admin"], autocommit=True) as admin:
        dbname = admin.info.dbname
        admin.execute(f'GRANT TEMPORARY ON DATABASE "{dbname}" TO "{roles["table"].role}"')
        names = [r for (r,) in admin.execute("SELECT relname FROM pg_class WHERE relnamespace "
                                             "= 'club'::regnamespace AND relkind = 'r'")]
        functions = [(n, a) for n, a in admin.execute(
            "SELECT proname, pg_get_function_identity_arguments(oid) FROM pg_proc WHERE "
            "pronamespace = 'club'::regnamespace")]
    mine, theirs = roles["devices"]["table"], roles["devices"]["other"]
    with login(roles["table"]) as conn:
        for name in names:
            conn.execute(f"CREATE TEMP TABLE {name} (LIKE club.{name} INCLUDING DEFAULTS)")
        conn.execute("ALTER TABLE pg_temp.tables ALTER name TYPE text")
        conn.execute("INSERT INTO pg_temp.tables (name, role, device) VALUES ('x', "
                     "current_user, %s)", (theirs,))
        for name, args in functions:
            returns = "uuid" if name == "club_device" else "boolean" if name.endswith("_ok") \
                else None
            if returns:
                value = f"'{theirs}'::uuid" if returns == "uuid" else "true"
                conn.execute(f"CREATE FUNCTION pg_temp.{name}({args}) RETURNS {returns} "
                             f"LANGUAGE sql AS $$ SELECT {value} $$")
        conn.execute("SET search_path = pg_temp, club, public")
        assert conn.execute("SELECT club.club_device()::text").fetchone() == (mine,)
        before = counts(roles["admin"])
        with pytest.raises(REFUSED):
            send(conn, theirs)
        with pytest.raises(REFUSED):
            conn.execute("INSERT INTO club.status (device, game, data) VALUES (%s, 'quest', "
                         "'{}')", (theirs,))
        with pytest.raises(REFUSED):   # the record's names are checked by the club's function
            send(conn, mine, names=["Anna", "Ben", "x" * 41])
        assert counts(roles["admin"]) == before
        made = send(conn, mine)
        conn.execute("INSERT INTO club.status (device, game, data) VALUES "
                     "(club.club_device(), 'quest', '{\"state\": \"idle\"}')")
    with psycopg.connect(roles["admin"]) as admin:
        assert admin.execute("SELECT device::text FROM club.games WHERE uuid = %s",
                             (made,)).fetchone() == (mine,)
        assert admin.execute("SELECT device::text FROM club.status").fetchall() == [(mine,)]


@pytest.mark.parametrize("kind", ["table", "wall"])
def test_no_table_and_no_wall_writes_the_league(roles, kind):
    with psycopg.connect(roles["admin"], autocommit=True) as admin:
        admin.execute("INSERT INTO club.seasons VALUES ('All', '2000-01-01', '2100-12-31')")
    people = [str(uuids.uuid4()) for _ in range(3)]
    with login(roles["table"]) as conn:
        conn.cursor().executemany("INSERT INTO club.profiles (uuid, name, added_by) VALUES "
                                  "(%s, %s, club.club_device())",
                                  [(p, f"P{i}") for i, p in enumerate(people)])
        send(conn, roles["devices"]["table"], profiles=people)
    before = counts(roles["admin"])
    with login(roles[kind]) as conn:
        for sql in ("UPDATE club.standings SET mu = 99, sigma = 0.1",
                    "UPDATE club.league_titles SET rated = 0, late = false",
                    "UPDATE club.league_counts SET games = 99",
                    "DELETE FROM club.standings", "TRUNCATE club.standings",
                    "INSERT INTO club.standings (season, game, profile, name) VALUES "
                    "('All', 'cauldron', gen_random_uuid(), 'Mallory')",
                    "SELECT club.club_league_fill('All')",
                    # the title locks' own keys, taken by hand: every sender would wait
                    "SELECT pg_advisory_lock(1)",
                    "SELECT pg_advisory_xact_lock_shared(1)",
                    "SELECT pg_try_advisory_lock(1, 2)",
                    "SET ROLE club_rater", "SET ROLE club_owner", "SET ROLE club_manager"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql)
    assert counts(roles["admin"]) == before
    with login(roles["rater"]) as conn:        # the rater: its figures, nothing else
        for sql in ("UPDATE club.standings SET games = 99", "UPDATE club.league_counts SET "
                    "games = 99", "UPDATE club.seats SET score = 99", "DELETE FROM club.games"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql)
        assert conn.execute("UPDATE club.standings SET mu = 25, sigma = 8").rowcount == 3
    assert counts(roles["admin"]) != before


def test_the_times_a_table_cannot_choose(roles):
    with login(roles["table"]) as conn:
        for sql in ("INSERT INTO club.status (device, game, data, updated_at) VALUES "
                    "(club.club_device(), NULL, '{}', now() + interval '1 year')",
                    "INSERT INTO club.profiles (uuid, name, added_by, added_at) VALUES "
                    "(gen_random_uuid(), 'A', club.club_device(), '2000-01-01')"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql)
        conn.execute("INSERT INTO club.status (device, game, data) VALUES (club.club_device(), "
                     "NULL, '{\"since\": \"2000-01-01T00:00:00Z\"}')")
        (since, age) = conn.execute("SELECT data->>'since', extract(epoch FROM now() - "
                                    "updated_at) FROM club.status").fetchone()
        assert since != "2000-01-01T00:00:00Z" and abs(age) < 5   # the server's own


def test_another_devices_rows_are_refused(roles):
    with login(roles["other"]) as conn:
        theirs = send(conn, roles["devices"]["other"])
        conn.execute("INSERT INTO club.status (device, game, data) VALUES (club.club_device(), "
                     "'quest', '{}')")
    before = counts(roles["admin"])
    other = roles["devices"]["other"]
    with login(roles["table"]) as conn:
        with pytest.raises(REFUSED):
            send(conn, other)
        for sql, args in (
                ("INSERT INTO club.profiles (uuid, name, added_by) VALUES (gen_random_uuid(), "
                 "'A', %s)", (other,)),
                ("INSERT INTO club.conflicts (uuid, device, content, differs, record) VALUES "
                 "(gen_random_uuid(), %s, repeat('a', 64), 'x', '{}')", (other,)),
                ("INSERT INTO club.status (device, game, data) VALUES (%s, 'quest', '{}')",
                 (other,)),
                ("UPDATE club.games SET status = 'abandoned' WHERE uuid = %s", (theirs,)),
                ("DELETE FROM club.seats WHERE game = %s", (theirs,)),
                ("INSERT INTO club.seats (game, seat, name, winner, place) VALUES (%s, 5, "
                 "'Mallory', true, 1)", (theirs,))):
            with pytest.raises(REFUSED):
                conn.execute(sql, args)
        for sql, args in (("UPDATE club.status SET data = '{}' WHERE device = %s", (other,)),
                          ("UPDATE club.tables SET device = gen_random_uuid()", ())):
            assert conn.execute(sql, args).rowcount == 0
    assert counts(roles["admin"]) == before


def test_seats_come_only_with_their_game(roles):
    with login(roles["table"]) as conn:
        mine = send(conn, roles["devices"]["table"])
        before = counts(roles["admin"])
        with pytest.raises(REFUSED):   # its own game, a transaction later: never counted
            conn.execute("INSERT INTO club.seats (game, seat, name, winner, place) VALUES "
                         "(%s, 3, 'Dora', true, 1)", (mine,))
    assert counts(roles["admin"]) == before


def test_the_titles_are_the_games_the_companion_plays():
    from companion.games import all_games

    assert {name for name, _, _ in TITLES} == set(all_games())
