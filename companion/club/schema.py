"""The club's PostgreSQL store: its tables, its versions (``club_schema``) and the roles that
reach it. ``init`` brings a database to CLUB_VERSION in one transaction (under an advisory lock,
so two admins at once cannot apply a version twice); running it again changes nothing.

Roles (cluster-wide names): ``club_table``, the group of every table's own login role, which may
read everything and add games, seats, profiles and conflicts, and write its live status, only
under its own device id (row-level security through ``club_device()``); ``club_wall``, the
group of the wall screen's read-only roles. The admin who runs ``init`` owns the tables and is
the only one who changes or deletes a game.
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
}
CLUB_VERSION = max(VERSIONS)

#: Any number: the advisory lock init holds while it applies versions.
_LOCK = 0x54434D50


def init(conn: Any) -> tuple[int, int]:
    """Bring the club's database to CLUB_VERSION, in one transaction; returns (the version it
    had, the version it has now). ``conn``: a psycopg connection as the club's admin."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS club_schema (version integer NOT NULL)")
        row = conn.execute("SELECT max(version) FROM club_schema").fetchone()
        found = row[0] or 0
        for version in range(found + 1, CLUB_VERSION + 1):
            for statement in VERSIONS[version]:
                conn.execute(statement)
            conn.execute("INSERT INTO club_schema (version) VALUES (%s)", (version,))
    return found, max(found, CLUB_VERSION)


def version(conn: Any) -> int:
    """The club database's version (0: never initialised)."""
    found = conn.execute("SELECT to_regclass('club_schema') IS NOT NULL").fetchone()[0]
    if not found:
        return 0
    return conn.execute("SELECT coalesce(max(version), 0) FROM club_schema").fetchone()[0]
