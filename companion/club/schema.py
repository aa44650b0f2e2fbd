"""The club's PostgreSQL store: its tables, its versions (``club.club_schema``) and the roles that
reach it. Version 3 (companion/club/boundary.py) moves everything into the schema ``club``,
owned by ``club_owner``, and makes the server the boundary: read that module's docstring
first; what follows describes versions 1 and 2, as they were. ``init`` brings a database to
CLUB_VERSION in one transaction (under an advisory lock, so two admins at once cannot apply a
version twice); running it again changes nothing.

Roles (cluster-wide names): ``club_table``, the group of every table's own login role, which may
read everything and add games, seats, profiles and conflicts, and write its live status, only
under its own device id (row-level security through ``club_device()``); ``club_wall``, the
group of the wall screen's read-only roles. The admin who runs ``init`` owns the tables and is
the only one who changes or deletes a game.

Version 2 keeps the league as games arrive (docs/club.md, "The league"): ``league_titles`` (per
season and title: how many games are folded into the ratings, the last one folded, whether a
game arrived before it), ``league_counts`` (its games, per sending table) and ``standings``
(per season, title and player: games, wins, mu, sigma), the counts kept by triggers in the
sending transaction, the ratings by the rater
(companion/club/league.py ``rate_due``, group ``club_rater``). Its triggers also NOTIFY
``club_games``, ``club_status`` (and the rater ``club_league``) so a wall screen is live
without polling.
"""

from __future__ import annotations

from typing import Any

#: Each version's statements; a version is applied once, in order, inside init's transaction.
VERSIONS: dict[int, tuple[str, ...]] = {
    1: (
        """DO $$ BEGIN
             IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'club_table') THEN
               CREATE ROLE club_table NOLOGIN; END IF;
             IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'club_wall') THEN
               CREATE ROLE club_wall NOLOGIN; END IF;
           END $$""",
        # the club's tables: one row per companion, its login role, its device id claimed by
        # its first sync (the companion's own SQLite device id)
        """CREATE TABLE tables (
             name text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 60),
             role name NOT NULL UNIQUE,
             device uuid UNIQUE,
             added_at timestamptz NOT NULL DEFAULT now())""",
        """CREATE FUNCTION club_device() RETURNS uuid LANGUAGE sql STABLE AS
             $$ SELECT device FROM tables WHERE role = current_user $$""",
        """CREATE TABLE profiles (
             uuid uuid PRIMARY KEY,
             name text NOT NULL,
             short_name text,
             colour text,
             added_by uuid NOT NULL,
             added_at timestamptz NOT NULL DEFAULT now())""",
        """CREATE TABLE games (
             uuid uuid PRIMARY KEY,
             device uuid NOT NULL,
             game text NOT NULL,
             status text NOT NULL,
             started_at timestamptz NOT NULL,
             finished_at timestamptz,
             content text NOT NULL,
             record jsonb NOT NULL,
             received_at timestamptz NOT NULL DEFAULT now())""",
        "CREATE INDEX games_by_title ON games (game, finished_at, uuid)",
        """CREATE TABLE seats (
             game uuid NOT NULL REFERENCES games (uuid),
             seat integer NOT NULL,
             name text NOT NULL,
             profile uuid,
             score bigint,
             winner boolean NOT NULL,
             place integer NOT NULL,
             PRIMARY KEY (game, seat))""",
        "CREATE INDEX seats_by_profile ON seats (profile)",
        """CREATE TABLE conflicts (
             id bigserial PRIMARY KEY,
             uuid uuid NOT NULL,
             device uuid NOT NULL,
             content text NOT NULL,
             differs text NOT NULL,
             record jsonb NOT NULL,
             received_at timestamptz NOT NULL DEFAULT now(),
             UNIQUE (uuid, device, content))""",
        """CREATE TABLE seasons (
             name text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 60),
             starts date NOT NULL,
             ends date NOT NULL,
             CHECK (starts <= ends))""",
        """CREATE TABLE status (
             device uuid PRIMARY KEY,
             game text,
             data jsonb NOT NULL DEFAULT '{}',
             updated_at timestamptz NOT NULL DEFAULT now())""",
        # who may do what: every club role reads; a table writes only under its own device
        "GRANT USAGE ON SCHEMA public TO club_table, club_wall",
        "GRANT SELECT ON tables, profiles, games, seats, conflicts, seasons, status "
        "TO club_table, club_wall",
        "GRANT UPDATE (device) ON tables TO club_table",
        "GRANT INSERT ON profiles, games, seats, conflicts TO club_table",
        "GRANT INSERT, UPDATE ON status TO club_table",
        "GRANT USAGE ON SEQUENCE conflicts_id_seq TO club_table",
        "ALTER TABLE tables ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY everyone_reads ON tables FOR SELECT USING (true)",
        "CREATE POLICY claims_its_device ON tables FOR UPDATE TO club_table "
        "USING (role = current_user AND device IS NULL) WITH CHECK (role = current_user)",
        "ALTER TABLE games ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY everyone_reads ON games FOR SELECT USING (true)",
        "CREATE POLICY adds_its_own ON games FOR INSERT TO club_table "
        "WITH CHECK (device = club_device())",
        "ALTER TABLE seats ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY everyone_reads ON seats FOR SELECT USING (true)",
        "CREATE POLICY adds_its_own ON seats FOR INSERT TO club_table WITH CHECK (EXISTS "
        "(SELECT FROM games g WHERE g.uuid = seats.game AND g.device = club_device()))",
        "ALTER TABLE profiles ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY everyone_reads ON profiles FOR SELECT USING (true)",
        "CREATE POLICY adds_its_own ON profiles FOR INSERT TO club_table "
        "WITH CHECK (added_by = club_device())",
        "ALTER TABLE conflicts ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY everyone_reads ON conflicts FOR SELECT USING (true)",
        "CREATE POLICY adds_its_own ON conflicts FOR INSERT TO club_table "
        "WITH CHECK (device = club_device())",
        "ALTER TABLE status ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY everyone_reads ON status FOR SELECT USING (true)",
        "CREATE POLICY adds_its_own ON status FOR INSERT TO club_table "
        "WITH CHECK (device = club_device())",
        "CREATE POLICY updates_its_own ON status FOR UPDATE TO club_table "
        "USING (device = club_device()) WITH CHECK (device = club_device())",
    ),
    2: (
        """DO $$ BEGIN
             IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'club_rater') THEN
               CREATE ROLE club_rater NOLOGIN; END IF;
           END $$""",
        # a season's days are UTC days, wherever the sending session's clock is set
        """CREATE FUNCTION club_day(at timestamptz) RETURNS date LANGUAGE sql IMMUTABLE AS
             $$ SELECT (at AT TIME ZONE 'UTC')::date $$""",
        # the latest games (a wall screen's), read backwards
        "CREATE INDEX games_latest ON games (finished_at, uuid) WHERE status = 'finished'",
        """CREATE TABLE league_titles (
             season text NOT NULL REFERENCES seasons (name) ON DELETE CASCADE,
             game text NOT NULL,
             rated integer NOT NULL DEFAULT 0,
             through_at timestamptz,
             through_uuid uuid,
             late boolean NOT NULL DEFAULT false,
             PRIMARY KEY (season, game))""",
        # a title's games per sending table: no row every sender must update (those would
        # send one after another), a title's count is their sum
        """CREATE TABLE league_counts (
             season text NOT NULL,
             game text NOT NULL,
             device uuid NOT NULL,
             games integer NOT NULL DEFAULT 0,
             PRIMARY KEY (season, game, device),
             FOREIGN KEY (season, game) REFERENCES league_titles ON DELETE CASCADE)""",
        """CREATE TABLE standings (
             season text NOT NULL,
             game text NOT NULL,
             profile uuid NOT NULL,
             name text NOT NULL,
             games integer NOT NULL DEFAULT 0,
             wins integer NOT NULL DEFAULT 0,
             mu double precision,
             sigma double precision,
             PRIMARY KEY (season, game, profile),
             FOREIGN KEY (season, game) REFERENCES league_titles ON DELETE CASCADE)""",
        # the lock a rater takes alone to write a season's title, every sender of it shared
        """CREATE FUNCTION club_title_lock(season text, game text) RETURNS bigint
             LANGUAGE sql IMMUTABLE AS
             $$ SELECT (1279607111::bigint << 32) | (hashtext(season || '/' || game)::bigint
                       & 4294967295) $$""",
        # a game arriving, in its sender's transaction: counted under its table, and marked
        # late for the rater when it ended before the last game the rater folded in
        """CREATE FUNCTION club_game_arrived() RETURNS trigger LANGUAGE plpgsql
             SECURITY DEFINER SET search_path = public AS $$
           DECLARE s record;
           BEGIN
             IF NEW.status = 'finished' AND NEW.finished_at IS NOT NULL THEN
               FOR s IN SELECT name FROM seasons WHERE club_day(NEW.finished_at)
                        BETWEEN starts AND ends ORDER BY name LOOP
                 INSERT INTO league_titles (season, game) VALUES (s.name, NEW.game)
                   ON CONFLICT DO NOTHING;
                 PERFORM pg_advisory_xact_lock_shared(club_title_lock(s.name, NEW.game));
                 INSERT INTO league_counts AS c (season, game, device, games)
                   VALUES (s.name, NEW.game, NEW.device, 1)
                   ON CONFLICT (season, game, device) DO UPDATE SET games = c.games + 1;
                 UPDATE league_titles SET late = true WHERE season = s.name
                   AND game = NEW.game AND NOT late
                   AND (through_at, through_uuid) > (NEW.finished_at, NEW.uuid);
               END LOOP;
             END IF;
             PERFORM pg_notify('club_games', json_build_object('uuid', NEW.uuid,
               'game', NEW.game, 'device', NEW.device)::text);
             RETURN NULL;
           END $$""",
        """CREATE TRIGGER game_arrived AFTER INSERT ON games
             FOR EACH ROW EXECUTE FUNCTION club_game_arrived()""",
        # its seats' counts at its commit (when they are all there), each player's row in the
        # same order in every sender's transaction: no two senders wait on each other in a ring
        """CREATE FUNCTION club_seats_counted() RETURNS trigger LANGUAGE plpgsql
             SECURITY DEFINER SET search_path = public AS $$
           BEGIN
             IF NEW.status = 'finished' AND NEW.finished_at IS NOT NULL THEN
               INSERT INTO standings AS p (season, game, profile, name, games, wins)
                 SELECT s.name, NEW.game, x.profile, min(x.name), count(*),
                        count(*) FILTER (WHERE x.winner)
                   FROM seats x JOIN seasons s
                     ON club_day(NEW.finished_at) BETWEEN s.starts AND s.ends
                  WHERE x.game = NEW.uuid AND x.profile IS NOT NULL
                  GROUP BY s.name, x.profile ORDER BY s.name, x.profile
               ON CONFLICT (season, game, profile) DO UPDATE SET games = p.games + EXCLUDED.games,
                 wins = p.wins + EXCLUDED.wins;
             END IF;
             RETURN NULL;
           END $$""",
        """CREATE CONSTRAINT TRIGGER seats_counted AFTER INSERT ON games
             DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION club_seats_counted()""",
        """CREATE FUNCTION club_status_changed() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN
             PERFORM pg_notify('club_status', NEW.device::text);
             RETURN NULL;
           END $$""",
        """CREATE TRIGGER status_changed AFTER INSERT OR UPDATE ON status
             FOR EACH ROW EXECUTE FUNCTION club_status_changed()""",
        # a season's counts from the games already there (a season added late, this version
        # applied to a club with games); its ratings are then due from its first game
        """CREATE FUNCTION club_league_fill(wanted text) RETURNS void LANGUAGE sql
             SECURITY DEFINER SET search_path = public AS $$
           DELETE FROM league_titles WHERE season = wanted;
           INSERT INTO league_titles (season, game)
             SELECT DISTINCT s.name, g.game FROM seasons s JOIN games g
               ON g.status = 'finished' AND club_day(g.finished_at) BETWEEN s.starts AND s.ends
              WHERE s.name = wanted;
           INSERT INTO league_counts (season, game, device, games)
             SELECT s.name, g.game, g.device, count(*) FROM seasons s JOIN games g
               ON g.status = 'finished' AND club_day(g.finished_at) BETWEEN s.starts AND s.ends
              WHERE s.name = wanted GROUP BY s.name, g.game, g.device;
           INSERT INTO standings (season, game, profile, name, games, wins)
             SELECT s.name, g.game, x.profile, min(x.name), count(*), count(*) FILTER
                    (WHERE x.winner)
               FROM seasons s JOIN games g ON g.status = 'finished'
                    AND club_day(g.finished_at) BETWEEN s.starts AND s.ends
               JOIN seats x ON x.game = g.uuid AND x.profile IS NOT NULL
              WHERE s.name = wanted GROUP BY s.name, g.game, x.profile
           $$""",
        "SELECT club_league_fill(name) FROM seasons",
        "REVOKE ALL ON FUNCTION club_league_fill(text) FROM PUBLIC",
        "GRANT SELECT ON league_titles, league_counts, standings TO club_table, club_wall",
        "GRANT UPDATE (rated, through_at, through_uuid, late) ON league_titles TO club_rater",
        "GRANT UPDATE (mu, sigma) ON standings TO club_rater",
        "GRANT club_rater TO club_table, club_wall",
    ),
}
from companion.club.boundary import (  # noqa: E402
    SCHEMA, STATEMENTS as _V3, UpgradeRefused, before as _before_3)

VERSIONS[3] = _V3
from companion.club import facts, limits  # noqa: E402

# version 4: the server's resources (limits.py) and checks that always decide (facts.py), made
# as the owner (init holds it for this transaction only, as in version 3)
VERSIONS[4] = ("GRANT club_owner TO CURRENT_USER", *limits.STATEMENTS, *facts.STATEMENTS,
               "REVOKE club_owner FROM CURRENT_USER")
CLUB_VERSION = max(VERSIONS)
#: Checks run before a version is applied (an existing club's rows the version would refuse).
BEFORE = {3: _before_3}

#: Any number: the advisory lock init holds while it applies versions.
_LOCK = 0x54434D50


def _where(version: int) -> str:
    """Where ``club_schema`` lives at that version: ``public`` before 3, the club's after."""
    return f"{SCHEMA}.club_schema" if version >= 3 else "public.club_schema"


def init(conn: Any, upto: int = CLUB_VERSION) -> tuple[int, int]:
    """Bring the club's database to ``upto`` (CLUB_VERSION), in one transaction; returns (the
    version it had, the version it has now). ``conn``: a psycopg connection as the club's admin
    (a superuser, or a CREATEROLE role that owns the database). An existing club whose rows a
    version refuses is left as it was (``UpgradeRefused`` names the rows)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        found = version(conn)
        conn.execute("SET LOCAL search_path = public")   # where versions 1 and 2 made theirs
        if found == 0:
            conn.execute("CREATE TABLE public.club_schema (version integer NOT NULL)")
        for number in range(found + 1, upto + 1):
            if number in BEFORE:
                BEFORE[number](conn)
            try:
                for statement in VERSIONS[number]:
                    conn.execute(statement)
            except Exception as problem:
                if (getattr(problem, "sqlstate", None) or "")[:2] not in ("22", "23"):
                    raise
                raise UpgradeRefused(   # a row a new check refuses, found as it is added
                    f"init: the club holds a row version {number} refuses ("
                    f"{' '.join(str(problem).split())}); correct or delete it as the admin, "
                    "then run init again (nothing was changed)") from None
            conn.execute(f"INSERT INTO {_where(number)} (version) VALUES (%s)", (number,))
    return found, max(found, upto)


def version(conn: Any) -> int:
    """The club database's version (0: never initialised)."""
    for where in (_where(3), _where(2)):
        if conn.execute("SELECT to_regclass(%s) IS NOT NULL", (where,)).fetchone()[0]:
            return conn.execute(f"SELECT coalesce(max(version), 0) FROM {where}"
                                ).fetchone()[0]
    return 0
