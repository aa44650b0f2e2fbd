"""Schema version 3: the server is the boundary. Versions 1 and 2 trusted each table to write
only what its own gate lets through, and left every function's ``search_path`` open (a table's
own ``pg_temp`` was searched first, so a temporary ``tables`` made ``club_device()`` answer
another table's device). This version closes the class, not the one probe:

- every object of the club lives in the schema ``club``, owned by ``club_owner``, a role no login
  role is a member of (init holds it for its own transaction only);
- every function fixes ``SET search_path = pg_catalog, club, pg_temp`` (pg_temp last) and names
  its relations by schema; no role but the owner may create anything in the database (no TEMP,
  no CREATE on any schema), and EXECUTE is granted function by function;
- the league's rows are written only by the owner's SECURITY DEFINER triggers and by
  ``club_rater``, which no table and no wall holds; the wall only SELECTs;
- the server checks what it stores as each table's gate does: names, short names, colours,
  titles (``club.titles``), seats, places, scores, times and the record's shape, and it sets
  every time a table must not choose (``received_at``, ``added_at``, ``updated_at``, a status's
  ``since``) itself.

docs/club.md's privilege matrix is what the grants here give; tests/club/test_boundary.py reads
both and compares them.
"""

from __future__ import annotations

from typing import Any

from companion.core.errors import CompanionError
from companion.core.values import shown
from companion.core.palette import NAMES
from companion.store.profiles import SHORT_NAME

#: The schema every object of the club lives in, and the path each of its functions fixes.
SCHEMA = "club"
PATH = "SET search_path = pg_catalog, club, pg_temp"
#: The club's relations, as versions 1 and 2 made them in ``public``.
MOVED = ("club_schema", "tables", "profiles", "games", "seats", "conflicts", "seasons", "status",
         "league_titles", "league_counts", "standings")
#: The titles a club knows at version 3: (name, fewest seats, most seats), as each game's gate.
TITLES = (("cauldron", 2, 6), ("quest", 1, 6), ("witchs_brew", 3, 6))
#: The widest score any title's results hold, either way (a Magik or points total).
SCORE = 1_000_000
#: How far ahead of the server's clock a table's time may be (its clock off, within reason:
#: companion/club/sync.py dates the games by the club's clock beyond 2 minutes).
AHEAD = "interval '10 minutes'"
#: The characters no name may hold: control characters, line and paragraph separators, and the
#: bidirectional overrides (a name that reverses the text after it on a wall).
_HIDDEN = r"[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
#: A character that is not a space of any kind (as Python's str.strip takes them, so a name
#: of no-break spaces is as blank here as at a table).
_SEEN = (r"[^ \t\n\r\v\f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f"
         r"\u3000]")
_COLOURS = ", ".join("'" + n.replace("'", "''") + "'" for n in NAMES)
_TITLES = ", ".join(f"'{n}'" for n, _, _ in TITLES)


def name_rule(x: str, most: int = 40) -> str:
    """A name as a table's gate takes one (companion/core/values.py ``clean_text``, and stricter:
    no tab or newline either): 1 to ``most`` characters, not blank, nothing hidden."""
    return (f"({x} IS NULL OR (length({x}) BETWEEN 1 AND {most} AND {x} ~ '{_SEEN}' "
            f"AND {x} !~ '{_HIDDEN}'))")


#: A record's player's name, and a status's seat's, as the rule reads them.
_PLAYER, _SEAT = "(p->>'name')", "(s->>'name')"


class UpgradeRefused(CompanionError, ValueError):
    """Rows of the club that break version 3's rules: named, nothing changed."""


def _fn(name: str, args: str, returns: str, body: str, *, language: str = "sql",
        volatility: str = "STABLE", definer: bool = False) -> str:
    return (f"CREATE OR REPLACE FUNCTION club.{name}({args}) RETURNS {returns} "
            f"LANGUAGE {language} {volatility}{' SECURITY DEFINER' if definer else ''} "
            f"{PATH} AS $fn$ {body} $fn$")


_TRIGGER = {"returns": "trigger", "language": "plpgsql", "volatility": "VOLATILE",
            "definer": True}

#: The end of ``club_seats_counted`` (each version's checks come before it): a finished game's
#: seats with a profile counted into the standings of every season its day falls in, each
#: player's row in the same order so that two games' commits cannot deadlock.
COUNTED = """
      IF NEW.status = 'finished' AND NEW.finished_at IS NOT NULL THEN
        INSERT INTO club.standings AS p (season, game, profile, name, games, wins)
          SELECT s.name, NEW.game, x.profile, min(x.name), count(*),
                 count(*) FILTER (WHERE x.winner)
            FROM club.seats x JOIN club.seasons s
              ON club.club_day(NEW.finished_at) BETWEEN s.starts AND s.ends
           WHERE x.game = NEW.uuid AND x.profile IS NOT NULL
           GROUP BY s.name, x.profile ORDER BY s.name, x.profile
        ON CONFLICT (season, game, profile) DO UPDATE SET games = p.games + EXCLUDED.games,
          wins = p.wins + EXCLUDED.wins;
      END IF;
      RETURN NULL;
    END"""

FUNCTIONS: tuple[str, ...] = (
    _fn("club_device", "", "uuid",
        "SELECT t.device FROM club.tables t WHERE t.role = current_user"),
    _fn("club_day", "at timestamptz", "date", "SELECT (at AT TIME ZONE 'UTC')::date",
        volatility="IMMUTABLE"),
    _fn("club_title_lock", "season text, game text", "bigint",
        "SELECT (1279607111::bigint << 32) | (hashtext(season || '/' || game)::bigint "
        "& 4294967295)", volatility="IMMUTABLE"),
    # the record as `export --all` writes it: its own uuid, title and status, 1 to 8 players
    # each with a seat and a name, and no larger than a long game's
    _fn("club_record_ok", "r jsonb, id uuid, title text, state text", "boolean",
        "SELECT jsonb_typeof(r) = 'object' AND octet_length(r::text) <= 1000000 "
        "AND r->>'uuid' = id::text AND r->>'game' = title AND r->>'status' = state "
        "AND jsonb_typeof(r->'players') = 'array' "
        "AND jsonb_array_length(r->'players') BETWEEN 1 AND 8 "
        "AND NOT EXISTS (SELECT FROM jsonb_array_elements(r->'players') p "
        "  WHERE jsonb_typeof(p) <> 'object' OR jsonb_typeof(p->'name') <> 'string' "
        f"  OR NOT {name_rule(_PLAYER)})",
        volatility="IMMUTABLE"),
    # a table's live status as companion/club/status.py makes it
    _fn("club_status_ok", "d jsonb", "boolean",
        "SELECT jsonb_typeof(d) = 'object' AND octet_length(d::text) <= 16000 "
        "AND coalesce(d->>'state', 'idle') IN ('idle', 'playing', 'over') "
        "AND coalesce(jsonb_typeof(d->'seats'), 'array') = 'array' "
        "AND coalesce(jsonb_array_length(d->'seats'), 0) <= 8 "
        "AND NOT EXISTS (SELECT FROM jsonb_array_elements(coalesce(d->'seats', '[]')) s "
        "  WHERE jsonb_typeof(s) <> 'object' OR jsonb_typeof(s->'name') <> 'string' "
        f"  OR NOT {name_rule(_SEAT)} "
        f"  OR (jsonb_typeof(s->'score') = 'number' AND abs((s->>'score')::numeric) > {SCORE}) "
        "  OR coalesce(jsonb_typeof(s->'score'), 'null') NOT IN ('number', 'null'))",
        volatility="IMMUTABLE"),
    _fn("club_game_arrived", "", body="""
        DECLARE s record;
        BEGIN
          IF NEW.status = 'finished' AND NEW.finished_at IS NOT NULL THEN
            FOR s IN SELECT x.name FROM club.seasons x WHERE club.club_day(NEW.finished_at)
                     BETWEEN x.starts AND x.ends ORDER BY x.name LOOP
              INSERT INTO club.league_titles (season, game) VALUES (s.name, NEW.game)
                ON CONFLICT DO NOTHING;
              PERFORM pg_advisory_xact_lock_shared(club.club_title_lock(s.name, NEW.game));
              INSERT INTO club.league_counts AS c (season, game, device, games)
                VALUES (s.name, NEW.game, NEW.device, 1)
                ON CONFLICT (season, game, device) DO UPDATE SET games = c.games + 1;
              UPDATE club.league_titles t SET late = true WHERE t.season = s.name
                AND t.game = NEW.game AND NOT t.late
                AND (t.through_at, t.through_uuid) > (NEW.finished_at, NEW.uuid);
            END LOOP;
          END IF;
          PERFORM pg_notify('club_games', json_build_object('uuid', NEW.uuid,
            'game', NEW.game, 'device', NEW.device)::text);
          RETURN NULL;
        END""", **_TRIGGER),
    # at the game's commit: its seats are its record's players, as many as its title seats,
    # each place 1 to their number; then counted, each player's row in the same order
    _fn("club_seats_counted", "", body="""
        DECLARE n integer; low integer; high integer; bad integer;
        BEGIN
          SELECT count(*), count(*) FILTER (WHERE x.place > (SELECT count(*) FROM club.seats y
                 WHERE y.game = NEW.uuid)) INTO n, bad FROM club.seats x WHERE x.game = NEW.uuid;
          SELECT t.seats_min, t.seats_max INTO low, high FROM club.titles t
           WHERE t.name = NEW.game;
          IF n <> jsonb_array_length(NEW.record->'players') OR n NOT BETWEEN low AND high THEN
            RAISE EXCEPTION 'game %: % seat(s); its record has % player(s) and % seats % to %',
              NEW.uuid, n, jsonb_array_length(NEW.record->'players'), NEW.game, low, high
              USING ERRCODE = 'check_violation';
          END IF;
          IF bad > 0 THEN
            RAISE EXCEPTION 'game %: a place is past its % seats', NEW.uuid, n
              USING ERRCODE = 'check_violation';
          END IF;""" + COUNTED, **_TRIGGER),
    # a seat comes with its game, in the game's own transaction (the counts are made at that
    # game's commit: a seat added later would be rated and never counted)
    _fn("club_seat_added", "", body="""
        BEGIN
          IF NOT EXISTS (SELECT FROM club.games g WHERE g.uuid = NEW.game
                         AND g.received_at = now()) THEN
            RAISE EXCEPTION 'seat % of game %: seats are sent with their game, in its '
              'transaction', NEW.seat, NEW.game USING ERRCODE = 'check_violation';
          END IF;
          RETURN NEW;
        END""", **_TRIGGER),
    # the status's times are the server's: when it was written, and since when the game (or
    # its end, or the table's idleness) stands as it does (the admin's own writes as written)
    _fn("club_status_dated", "", body="""
        BEGIN
          IF pg_has_role(session_user, 'club_manager', 'USAGE') THEN
            RETURN NEW;
          END IF;
          NEW.updated_at := now();
          IF jsonb_typeof(NEW.data) IS DISTINCT FROM 'object' THEN
            RETURN NEW;                       -- refused by its check, in words
          END IF;
          IF TG_OP = 'UPDATE' AND OLD.data ? 'since'
             AND OLD.data->'game_id' IS NOT DISTINCT FROM NEW.data->'game_id'
             AND OLD.data->'state' IS NOT DISTINCT FROM NEW.data->'state' THEN
            NEW.data := jsonb_set(NEW.data, '{since}', OLD.data->'since');
          ELSE
            NEW.data := jsonb_set(NEW.data, '{since}', to_jsonb(to_char(now() AT TIME ZONE
              'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')));
          END IF;
          RETURN NEW;
        END""", **_TRIGGER),
    _fn("club_status_changed", "", body="""
        BEGIN
          PERFORM pg_notify('club_status', NEW.device::text);
          RETURN NULL;
        END""", **_TRIGGER),
    _fn("club_league_fill", "wanted text", "void", """
        DELETE FROM club.league_titles WHERE season = wanted;
        INSERT INTO club.league_titles (season, game)
          SELECT DISTINCT s.name, g.game FROM club.seasons s JOIN club.games g
            ON g.status = 'finished' AND club.club_day(g.finished_at) BETWEEN s.starts AND s.ends
           WHERE s.name = wanted;
        INSERT INTO club.league_counts (season, game, device, games)
          SELECT s.name, g.game, g.device, count(*) FROM club.seasons s JOIN club.games g
            ON g.status = 'finished' AND club.club_day(g.finished_at) BETWEEN s.starts AND s.ends
           WHERE s.name = wanted GROUP BY s.name, g.game, g.device;
        INSERT INTO club.standings (season, game, profile, name, games, wins)
          SELECT s.name, g.game, x.profile, min(x.name), count(*), count(*) FILTER
                 (WHERE x.winner)
            FROM club.seasons s JOIN club.games g ON g.status = 'finished'
                 AND club.club_day(g.finished_at) BETWEEN s.starts AND s.ends
            JOIN club.seats x ON x.game = g.uuid AND x.profile IS NOT NULL
           WHERE s.name = wanted GROUP BY s.name, g.game, x.profile""",
        volatility="VOLATILE", definer=True),
)

#: What each role may do: the grants after everything is revoked (docs/club.md's matrix).
GRANTS: tuple[str, ...] = (
    "GRANT SELECT ON club.tables, club.titles, club.profiles, club.games, club.seats, "
    "club.conflicts, club.seasons, club.status, club.league_titles, club.league_counts, "
    "club.standings, club.club_schema, club.settings TO club_table",
    "GRANT SELECT ON club.tables, club.titles, club.profiles, club.games, club.seats, "
    "club.seasons, club.status, club.league_titles, club.league_counts, club.standings, "
    "club.club_schema, club.settings TO club_wall",
    "GRANT SELECT ON club.seasons, club.games, club.seats, club.league_titles, "
    "club.league_counts, club.standings TO club_rater",
    "GRANT UPDATE (device) ON club.tables TO club_table",
    "GRANT INSERT (uuid, name, short_name, colour, added_by) ON club.profiles TO club_table",
    "GRANT INSERT (uuid, device, game, status, started_at, finished_at, content, record) "
    "ON club.games TO club_table",
    "GRANT INSERT (game, seat, name, profile, score, winner, place) ON club.seats TO club_table",
    "GRANT INSERT (uuid, device, content, differs, record) ON club.conflicts TO club_table",
    "GRANT USAGE ON SEQUENCE club.conflicts_id_seq TO club_table",
    "GRANT INSERT (device, game, data), UPDATE (game, data) ON club.status TO club_table",
    "GRANT UPDATE (rated, through_at, through_uuid, late) ON club.league_titles TO club_rater",
    "GRANT UPDATE (mu, sigma) ON club.standings TO club_rater",
    "GRANT EXECUTE ON FUNCTION club.club_device(), "
    "club.club_record_ok(jsonb, uuid, text, text), club.club_status_ok(jsonb) TO club_table",
    "GRANT EXECUTE ON FUNCTION club.club_day(timestamptz) TO club_table, club_wall, club_rater",
    "GRANT EXECUTE ON FUNCTION club.club_title_lock(text, text) TO club_rater",
    # the admin's (who ran init): every row, and the season's fill; no DDL
    "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA club TO club_manager",
    "GRANT USAGE ON ALL SEQUENCES IN SCHEMA club TO club_manager",
    "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA club TO club_manager",
    "GRANT USAGE ON SCHEMA club TO club_table, club_wall, club_rater, club_manager",
)

#: Row-level security on the tables a table writes; the admin's rows through its own policy.
_POLICED = ("tables", "games", "seats", "profiles", "conflicts", "status")

STATEMENTS: tuple[str, ...] = (
    """DO $$ BEGIN
         IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'club_owner') THEN
           CREATE ROLE club_owner NOLOGIN; END IF;
         IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'club_manager') THEN
           CREATE ROLE club_manager NOLOGIN; END IF;
       END $$""",
    # held by init for this transaction only (a CREATEROLE admin may make objects the owner's
    # only as its member); revoked again at the end
    "GRANT club_owner TO CURRENT_USER",
    "CREATE SCHEMA club AUTHORIZATION club_owner",
    *(f"ALTER TABLE public.{t} SET SCHEMA club" for t in MOVED),
    "ALTER FUNCTION public.club_device() SET SCHEMA club",
    "ALTER FUNCTION public.club_day(timestamptz) SET SCHEMA club",
    "ALTER FUNCTION public.club_title_lock(text, text) SET SCHEMA club",
    "ALTER FUNCTION public.club_game_arrived() SET SCHEMA club",
    "ALTER FUNCTION public.club_seats_counted() SET SCHEMA club",
    "ALTER FUNCTION public.club_status_changed() SET SCHEMA club",
    "ALTER FUNCTION public.club_league_fill(text) SET SCHEMA club",
    *FUNCTIONS,
    # the titles a game may be, with their seats (a new title: a row here, by the admin)
    """CREATE TABLE club.titles (
         name text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_]{0,39}$'),
         seats_min integer NOT NULL CHECK (seats_min BETWEEN 1 AND 8),
         seats_max integer NOT NULL CHECK (seats_max BETWEEN seats_min AND 8))""",
    "INSERT INTO club.titles VALUES " + ", ".join(f"('{n}', {lo}, {hi})" for n, lo, hi in TITLES),
    # the club's own settings: its name, as the wall shows it (companion club name)
    """CREATE TABLE club.settings (
         key text PRIMARY KEY CHECK (key IN ('name')),
         value text NOT NULL CHECK """ + name_rule("value", 60) + ")",
    # what the server checks, as each table's gate does (the name rules written into the
    # domains themselves: no function call per value)
    f"CREATE DOMAIN club.name AS text CHECK {name_rule('VALUE')}",
    f"CREATE DOMAIN club.short_name AS text CHECK {name_rule('VALUE', SHORT_NAME)}",
    f"CREATE DOMAIN club.colour AS text CHECK (VALUE IN ({_COLOURS}))",
    f"CREATE DOMAIN club.score AS bigint CHECK (VALUE BETWEEN -{SCORE} AND {SCORE})",
    "CREATE DOMAIN club.digest AS text CHECK (VALUE ~ '^[0-9a-f]{64}$')",
    "ALTER TABLE club.profiles ALTER name TYPE club.name, ALTER short_name TYPE club.short_name, "
    "ALTER colour TYPE club.colour",
    "ALTER TABLE club.seats ALTER name TYPE club.name, ALTER score TYPE club.score, "
    "ADD CONSTRAINT seat_seat CHECK (seat BETWEEN 0 AND 7), "
    "ADD CONSTRAINT seat_place CHECK (place BETWEEN 1 AND 8)",
    "ALTER TABLE club.games ALTER content TYPE club.digest, "
    "ADD CONSTRAINT game_title FOREIGN KEY (game) REFERENCES club.titles (name), "
    "ADD CONSTRAINT game_status CHECK (status IN ('running', 'finished', 'abandoned')), "
    "ADD CONSTRAINT game_finished CHECK (status <> 'finished' OR finished_at IS NOT NULL), "
    "ADD CONSTRAINT game_times CHECK (started_at > '2000-01-01' AND started_at <= received_at "
    f"+ {AHEAD} AND (finished_at IS NULL OR finished_at BETWEEN started_at AND received_at "
    f"+ {AHEAD})), "
    "ADD CONSTRAINT game_record CHECK (club.club_record_ok(record, uuid, game, status))",
    "ALTER TABLE club.conflicts ALTER content TYPE club.digest, "
    "ADD CONSTRAINT conflict_differs CHECK (length(differs) <= 4000), "
    "ADD CONSTRAINT conflict_record CHECK (jsonb_typeof(record) = 'object' AND "
    "octet_length(record::text) <= 1000000)",
    # a status is the live view a table writes again within a heartbeat: one the checks refuse
    # is dropped, not kept (the table writes its next)
    "DELETE FROM club.status WHERE NOT club.club_status_ok(data) OR (game IS NOT NULL AND "
    "game NOT IN (SELECT name FROM club.titles))",
    "ALTER TABLE club.status ADD CONSTRAINT status_game FOREIGN KEY (game) REFERENCES "
    "club.titles (name), ADD CONSTRAINT status_data CHECK (club.club_status_ok(data))",
    "CREATE TRIGGER seat_added BEFORE INSERT ON club.seats FOR EACH ROW EXECUTE FUNCTION "
    "club.club_seat_added()",
    "CREATE TRIGGER status_dated BEFORE INSERT OR UPDATE ON club.status FOR EACH ROW EXECUTE "
    "FUNCTION club.club_status_dated()",
    # the admin's rows under row-level security (the owner's own pass it)
    *(f"CREATE POLICY manages ON club.{t} TO club_manager USING (true) WITH CHECK (true)"
      for t in _POLICED),
    # everything the owner's
    "ALTER TABLE club.titles OWNER TO club_owner",
    "ALTER TABLE club.settings OWNER TO club_owner",
    *(f"ALTER TABLE club.{t} OWNER TO club_owner" for t in MOVED),
    *(f"ALTER DOMAIN club.{d} OWNER TO club_owner"
      for d in ("name", "short_name", "colour", "score", "digest")),
    """DO $$ DECLARE f regprocedure; BEGIN
         FOR f IN SELECT p.oid FROM pg_proc p WHERE p.pronamespace = 'club'::regnamespace LOOP
           EXECUTE format('ALTER FUNCTION %s OWNER TO club_owner', f);
         END LOOP;
       END $$""",
    # nothing for anyone but what GRANTS gives back
    "REVOKE ALL ON SCHEMA club FROM PUBLIC",
    "REVOKE ALL ON ALL TABLES IN SCHEMA club FROM PUBLIC, club_table, club_wall, club_rater",
    "REVOKE ALL ON ALL SEQUENCES IN SCHEMA club FROM PUBLIC, club_table, club_wall, club_rater",
    "REVOKE ALL ON ALL FUNCTIONS IN SCHEMA club FROM PUBLIC, club_table, club_wall, club_rater",
    "REVOKE ALL ON SCHEMA public FROM club_table, club_wall, club_rater",
    "REVOKE CREATE ON SCHEMA public FROM PUBLIC",
    """DO $$ BEGIN
         EXECUTE format('REVOKE CREATE, TEMPORARY, CONNECT ON DATABASE %I FROM PUBLIC, '
                        'club_table, club_wall, club_rater', current_database());
         EXECUTE format('GRANT CONNECT ON DATABASE %I TO club_table, club_wall, club_rater, '
                        'club_manager', current_database());
       END $$""",
    "REVOKE club_rater FROM club_table, club_wall",
    # the advisory locks are the league's (club_title_lock): a table holding one would stall
    # every sender of a title, or the rater. PostgreSQL grants them to PUBLIC; a superuser's
    # init takes them back (a CREATEROLE admin cannot: docs/club.md says so)
    """DO $$ DECLARE f regprocedure; BEGIN
         IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
           FOR f IN SELECT p.oid FROM pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace
                    AND p.proname LIKE 'pg\\_%advisory\\_%lock%' AND p.proname NOT LIKE '%unlock%'
           LOOP
             EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
             EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO club_owner, club_rater, '
                            'club_manager', f);
           END LOOP;
         END IF;
       END $$""",
    *GRANTS,
    "GRANT club_manager TO CURRENT_USER",
    "REVOKE club_owner FROM CURRENT_USER",
)

#: Rows that would break version 3's rules, looked for before it is applied: (what, query).
_BROKEN = (
    ("a profile", "SELECT uuid::text, name FROM public.profiles WHERE NOT "
     f"({name_rule('name')} AND {name_rule('short_name', SHORT_NAME)} AND "
     f"coalesce(colour IN ({_COLOURS}), true))"),
    ("a seat", "SELECT game::text || ' seat ' || seat, name FROM public.seats WHERE NOT "
     f"({name_rule('name')} AND coalesce(abs(score) <= {SCORE}, true) AND place BETWEEN 1 "
     "AND 8 AND seat BETWEEN 0 AND 7)"),
    ("a game", f"SELECT uuid::text, game FROM public.games WHERE game NOT IN ({_TITLES}) OR "
     "content !~ '^[0-9a-f]{64}$'"),
)


def broken(conn: Any) -> list[str]:
    """What a club at version 2 holds that version 3 would refuse (at most five rows of each
    kind), in words."""
    found = []
    for what, query in _BROKEN:
        found += [f"{what} {key} ({shown(value)})"
                  for key, value in conn.execute(query + " LIMIT 5")]
    return found


def before(conn: Any) -> None:
    """Refuse the upgrade, naming the rows, when the club holds what version 3 refuses."""
    found = broken(conn)
    if found:
        raise UpgradeRefused(
            "init: the club holds rows version 3 refuses (written past a table's gate); "
            "correct or delete them as the admin, then run init again (nothing was changed): "
            + "; ".join(found))
