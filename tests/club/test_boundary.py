"""The club's server is the boundary (schema version 3, companion/club/boundary.py), against a
real PostgreSQL: the privilege matrix as granted against docs/club.md's; every object the
owner's, every function's search path fixed; a table's temporary tables and functions
shadowing every club name change nothing (and without TEMP it cannot make them); the ratings
written by the rater alone; every column a table writes at its bounds and past them; another
device's rows (a club at version 2 brought to 3: tests/club/test_upgrade.py)."""

from __future__ import annotations

import hashlib
import json
import uuid as uuids
from contextlib import contextmanager
from typing import Any, Iterator

import psycopg
import pytest

from companion.club import access
from companion.club.boundary import FUNCTIONS, PATH, SCORE, TITLES
from tests.club.cluster import unique
from tests.club.matrix import KINDS, documented, granted

#: How the server refuses: a privilege, a constraint or check, a value that is no value.
REFUSED = (psycopg.errors.InsufficientPrivilege, psycopg.IntegrityError, psycopg.DataError)


@pytest.fixture
def roles(club):
    """A table (A) and another (B), both with their devices claimed, a wall and a rater."""
    with psycopg.connect(club, autocommit=True) as admin:
        made = {"table": access.add_table(admin, unique("ba")),
                "other": access.add_table(admin, unique("bb")),
                "wall": access.add_wall(admin, unique("bw")),
                "rater": access.add_rater(admin, unique("br"))}
        devices = {}
        for kind in ("table", "other"):
            devices[kind] = str(uuids.uuid4())
            admin.execute("UPDATE club.tables SET device = %s WHERE role = %s",
                          (devices[kind], made[kind].role))
    made["devices"], made["admin"] = devices, club
    return made


@contextmanager
def login(settings: access.Settings) -> Iterator[Any]:
    with psycopg.connect(settings.conninfo, autocommit=True) as conn:
        yield conn


def counts(club: str) -> dict[str, Any]:
    """Everything a hostile write could change: each relation's rows, as text."""
    with psycopg.connect(club) as conn:
        return {name: conn.execute(f"SELECT coalesce(string_agg(t::text, '|' ORDER BY t::text),"
                                   f" '') FROM club.{name} t").fetchone()[0]
                for (name,) in conn.execute("SELECT relname FROM pg_class WHERE relnamespace = "
                                            "'club'::regnamespace AND relkind = 'r'")}


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
        assert len(paths) == len(FUNCTIONS)
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


def _record(game_uuid: str, title: str, names: list[str]) -> str:
    return json.dumps({"uuid": game_uuid, "game": title, "status": "finished",
                       "players": [{"seat": i, "name": n} for i, n in enumerate(names)]})


def send(conn: Any, device: str, *, title: str = "cauldron", names: list[str] | None = None,
         places: list[int] | None = None, scores: list[int | None] | None = None,
         started: str = "now() - interval '40 minutes'", finished: str = "now()",
         record: str | None = None, content: str | None = None, game_uuid: str | None = None,
         also: tuple[str, str] | None = None, profiles: list[str] | None = None) -> str:
    """One game and its seats in one transaction, as a table's sync sends it (the times as SQL
    expressions); its uuid."""
    names = names if names is not None else ["Anna", "Ben", "Cleo"]
    places = places if places is not None else list(range(1, len(names) + 1))
    scores = scores if scores is not None else [10] * len(names)
    game_uuid = game_uuid or str(uuids.uuid4())
    profiles = profiles or [None] * len(names)
    column, value = (", " + also[0], ", " + also[1]) if also else ("", "")
    with conn.transaction():
        conn.execute(
            f"INSERT INTO club.games (uuid, device, game, status, started_at, finished_at, "
            f"content, record{column}) VALUES (%s, %s, %s, 'finished', {started}, {finished}, "
            f"%s, %s::jsonb{value})",
            (game_uuid, device, title, content or hashlib.sha256(game_uuid.encode()).hexdigest(),
             record or _record(game_uuid, title, names)))
        conn.cursor().executemany(
            "INSERT INTO club.seats (game, seat, name, profile, score, winner, place) VALUES "
            "(%s, %s, %s, %s, %s, %s, %s)",
            [(game_uuid, i, n, who, s, p == 1, p) for i, (n, who, s, p) in
             enumerate(zip(names, profiles, scores, places))])
    return game_uuid


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


def _long(n: int) -> str:
    return ("Annabel Lee the Fourth of Kingsbridge and Westminster " * 3)[:n]


#: (what, the send's keywords, accepted): every column a table writes, at and past its bounds.
GAMES = [
    ("a name of 40", {"names": ["Anna", "Ben", _long(40)]}, True),
    ("a name of 41", {"names": ["Anna", "Ben", _long(41)]}, False),
    ("a name of 10,000", {"names": ["Anna", "Ben", "x" * 10_000]}, False),
    ("a blank name", {"names": ["Anna", "Ben", "   "]}, False),
    ("a name with a newline and a bell", {"names": ["Anna", "Ben", "Cl\neo\a"]}, False),
    ("a name with a tab", {"names": ["Anna", "Ben", "Cl\teo"]}, False),
    ("a name reversing the wall's text", {"names": ["Anna", "Ben", "\u202eoelC"]}, False),
    ("a name in other scripts", {"names": ["Zoë", "Jürgen", "Ōtani 大谷"]}, True),
    ("place 1..seats", {"places": [3, 1, 2]}, True),
    ("place 0", {"places": [0, 1, 2]}, False),
    ("place -7", {"places": [-7, 1, 2]}, False),
    ("a place past the seats", {"places": [4, 1, 2]}, False),
    (f"score {SCORE}", {"scores": [SCORE, -SCORE, None]}, True),
    (f"score {SCORE + 1}", {"scores": [SCORE + 1, 0, 0]}, False),
    ("score 2^63-1", {"scores": [2**63 - 1, 0, 0]}, False),
    ("score -(2^63)", {"scores": [-(2**63), 0, 0]}, False),
    ("the title's fewest seats", {"title": "cauldron", "names": ["A", "B"]}, True),
    ("fewer seats than the title", {"title": "witchs_brew", "names": ["A", "B"]}, False),
    ("the title's most seats", {"title": "cauldron", "names": list("ABCDEF")}, True),
    ("more seats than the title", {"title": "cauldron", "names": list("ABCDEFG")}, False),
    ("an unknown title", {"title": "chess"}, False),
    ("started 9 minutes ahead", {"started": "now() + interval '9 minutes'",
                                 "finished": "now() + interval '9 minutes'"}, True),
    ("started 11 minutes ahead", {"started": "now() + interval '11 minutes'",
                                  "finished": "now() + interval '11 minutes'"}, False),
    ("finished before it started", {"started": "now()",
                                    "finished": "now() - interval '1 minute'"}, False),
    ("finished a year ahead", {"finished": "now() + interval '1 year'"}, False),
    ("started in 1970", {"started": "'1970-01-01'"}, False),
    ("a content that is no digest", {"content": "x" * 64}, False),
    ("a record of another game", {"record": _record(str(uuids.uuid4()), "cauldron",
                                                    ["Anna", "Ben", "Cleo"])}, False),
    ("a record that is a list", {"record": "[1, 2]"}, False),
    ("its own received_at", {"also": ("received_at", "'2000-01-01'")}, False),
]


@pytest.mark.parametrize("what, given, accepted", GAMES, ids=[g[0] for g in GAMES])
def test_every_game_column_at_and_past_its_bounds(roles, what, given, accepted):
    before = counts(roles["admin"])
    with login(roles["table"]) as conn:
        if accepted:
            send(conn, roles["devices"]["table"], **given)
        else:
            with pytest.raises(REFUSED):
                send(conn, roles["devices"]["table"], **given)
    assert (counts(roles["admin"]) == before) is not accepted


def test_a_record_whose_players_are_not_its_seats(roles):
    made = str(uuids.uuid4())
    with login(roles["table"]) as conn, pytest.raises(REFUSED):
        send(conn, roles["devices"]["table"], game_uuid=made,
             record=_record(made, "cauldron", ["Anna", "Ben", "Cleo", "Dora"]))


PROFILES = [
    ("a name of 40", (_long(40), None, None), True),
    ("a name of 41", (_long(41), None, None), False),
    ("a name with a bell", ("An\ana", None, None), False),
    ("an empty name", ("", None, None), False),
    ("a short name of 6", ("Anna", "Annabe", None), True),
    ("a short name of 7", ("Anna", "Annabel", None), False),
    ("a short name of 500", ("Anna", "A" * 500, None), False),
    ("a palette colour", ("Anna", None, "Sky blue"), True),
    ("another colour", ("Anna", None, "chartreuse"), False),
    ("a colour as CSS", ("Anna", None, "red; background: url(x)"), False),
]


def tried(roles: dict, sql: str, args: tuple, accepted: bool) -> None:
    """``sql`` as table A: accepted (a row more), or refused with nothing changed."""
    before = counts(roles["admin"])
    with login(roles["table"]) as conn:
        if accepted:
            conn.execute(sql, args)
        else:
            with pytest.raises(REFUSED):
                conn.execute(sql, args)
    assert (counts(roles["admin"]) == before) is not accepted


@pytest.mark.parametrize("what, given, accepted", PROFILES, ids=[p[0] for p in PROFILES])
def test_every_profile_column_at_and_past_its_bounds(roles, what, given, accepted):
    tried(roles, "INSERT INTO club.profiles (uuid, name, short_name, colour, added_by) VALUES "
          "(gen_random_uuid(), %s, %s, %s, club.club_device())", given, accepted)


STATUSES = [
    ("as a table writes it", '{"state": "playing", "seats": [{"name": "Anna", "score": 3}]}',
     True),
    ("an unknown state", '{"state": "won"}', False),
    ("nine seats", json.dumps({"seats": [{"name": f"P{i}"} for i in range(9)]}), False),
    ("a seat's name with a newline", '{"seats": [{"name": "A\\nB"}]}', False),
    ("a score of 2^63", '{"seats": [{"name": "A", "score": 9223372036854775807}]}', False),
    ("a score that is text", '{"seats": [{"name": "A", "score": "lots"}]}', False),
    ("20,000 bytes", json.dumps({"asks": "x" * 20_000}), False),
    ("a list", "[]", False),
]


@pytest.mark.parametrize("what, data, accepted", STATUSES, ids=[s[0] for s in STATUSES])
def test_every_status_at_and_past_its_bounds(roles, what, data, accepted):
    tried(roles, "INSERT INTO club.status (device, game, data) VALUES (club.club_device(), "
          "NULL, %s::jsonb)", (data,), accepted)


CONFLICTS = [
    ("as a table records one", ("a" * 64, "x" * 4000, "{}"), True),
    ("what differs in 4,001 characters", ("a" * 64, "x" * 4001, "{}"), False),
    ("a content that is no digest", ("A" * 64, "x", "{}"), False),
    ("a record that is a list", ("a" * 64, "x", "[]"), False),
    ("a record of 2 MB", ("a" * 64, "x", json.dumps({"x": "y" * 2_000_000})), False),
]


@pytest.mark.parametrize("what, given, accepted", CONFLICTS, ids=[c[0] for c in CONFLICTS])
def test_every_conflict_column_at_and_past_its_bounds(roles, what, given, accepted):
    tried(roles, "INSERT INTO club.conflicts (uuid, device, content, differs, record) VALUES "
          "(gen_random_uuid(), club.club_device(), %s, %s, %s::jsonb)", given, accepted)


@pytest.mark.parametrize("title, accepted", [("quest", True), ("chess", False)])
def test_a_status_names_a_known_title(roles, title, accepted):
    tried(roles, "INSERT INTO club.status (device, game, data) VALUES (club.club_device(), %s, "
          "'{}')", (title,), accepted)


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
