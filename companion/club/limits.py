"""Schema version 4, the server's own resources: what one club role may spend of them, so that a
table whose password is stolen (or whose companion misbehaves) cannot shut the other tables,
the wall or the rater out.

- **Connections**: each login role has its kind's ``CONNECTION LIMIT`` (:data:`CONNECTIONS`
  here); a role cannot raise its own. The cluster's ``max_connections`` must exceed
  their sum (docs/club.md says how to size it).
- **Time**: each login role's defaults (``ALTER ROLE ... SET``): ``idle_in_transaction_session_
  timeout``, ``statement_timeout`` and ``lock_timeout``. PostgreSQL lets a role reset those for
  itself, so nothing here depends on a role keeping them: a table's transaction holds the title's
  lock it shares with every sender (and the rows its game counts) from its first insert to its
  commit, and a table can keep that open as long as it likes. What bounds it is the server's:
  ``club.club_end_stalled()`` ends every table's session that has been in one transaction
  longer than STALL seconds, or holds an advisory lock outside any transaction. The rater and
  every table's sync call it when they wait longer than their own ``lock_timeout`` (they set it
  themselves), then try again: one stalled table holds the others for seconds, not for as long
  as it likes. It ends sessions of the club's tables only (never the rater's, the wall's or the
  admin's), and only stalled ones; the owner may end them because it is made a member of each
  table's login role (``login_made``).
- **Large objects**: PostgreSQL lets every role create them without limit; a superuser's init
  takes ``lo_create``, ``lo_creat``, ``lo_import`` and ``lo_from_bytea`` back from ``PUBLIC``
  in the club's database.
- **Other databases**: the club's roles are the cluster's, and PostgreSQL grants ``CONNECT`` on
  every database to ``PUBLIC``; a superuser's init revokes it on ``postgres`` and ``template1``
  (where anything a role made would be copied into every new database). ``left_undone`` says,
  as statements, what init could not do itself (a ``CREATEROLE`` admin's init), for the
  organiser to run as a superuser.
"""

from __future__ import annotations

from typing import Any

from companion.club.boundary import PATH

#: What each login kind may hold at once (CREATE ROLE ... CONNECTION LIMIT; a role cannot
#: raise its own): a table's sync thread and a command or two, a wall's board (its listening
#: and its reading connection) and another, the rater's loop and a command.
CONNECTIONS = {"table": 3, "wall": 4, "rater": 2}
#: Seconds a table's session may stay in one transaction before any waiter may end it (a
#: table's honest transaction is one game: milliseconds, a second on a slow network).
STALL = 10
#: What each login kind's sessions start with (a role may change them: the bound is STALL).
TIMEOUTS = {
    "table": {"idle_in_transaction_session_timeout": "10s", "statement_timeout": "30s",
              "lock_timeout": "5s"},
    "wall": {"idle_in_transaction_session_timeout": "10s", "statement_timeout": "30s",
             "lock_timeout": "5s"},
    "rater": {"idle_in_transaction_session_timeout": "60s", "lock_timeout": "2s"},
}
#: The lock wait after which the rater and a table's sync end the stalled sessions and try
#: again (seconds; each sets it on its own session).
LOCK_WAIT = "2s"
#: The large-object functions that make one.
LO_MAKERS = ("lo_creat(integer)", "lo_create(oid)", "lo_import(text)", "lo_import(text, oid)",
             "lo_from_bytea(oid, bytea)")
#: The databases every cluster has that a club role must not reach.
OTHERS = ("postgres", "template1")


def role_settings(role: str, kind: str) -> list[str]:
    """The statements that give ``role`` (a login of ``kind``) the club's defaults."""
    from psycopg import sql

    return [sql.SQL("ALTER ROLE {} SET {} = {}").format(
        sql.Identifier(role), sql.Identifier(name), sql.Literal(value))
        for name, value in TIMEOUTS[kind].items()]


def login_made(conn: Any, role: str, kind: str) -> None:
    """A new login's timeouts, and (a table's) its sessions endable by the club's owner."""
    from psycopg import sql

    for statement in role_settings(role, kind):
        conn.execute(statement)
    if kind == "table":
        conn.execute(sql.SQL("GRANT {} TO club_owner").format(sql.Identifier(role)))


def _ending(signature: str, sessions: str) -> str:
    """A function of the club's that ends every session ``sessions`` (a query of their pids)
    finds, and says how many it ended."""
    return f"""
CREATE FUNCTION club.{signature} RETURNS integer LANGUAGE plpgsql VOLATILE
SECURITY DEFINER {PATH} AS $fn$
DECLARE found integer; ended integer := 0;
BEGIN
  -- the sessions first, ended after: a condition and pg_terminate_backend in one WHERE may be
  -- evaluated in any order
  FOR found IN {sessions}
  LOOP
    IF pg_terminate_backend(found) THEN
      ended := ended + 1;
    END IF;
  END LOOP;
  RETURN ended;
END $fn$"""


#: The rater's and each sync's when a lock waits too long: every stalled table session ended.
_END_STALLED = _ending("club_end_stalled()", f"""SELECT a.pid
     FROM pg_catalog.pg_stat_activity a
   WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
     AND a.backend_type = 'client backend'
     AND pg_has_role(a.usesysid, 'club_table', 'MEMBER')
     AND NOT pg_has_role(a.usesysid, 'club_manager', 'MEMBER')
     AND (a.xact_start < now() - interval '{STALL} seconds'
          OR (a.xact_start IS NULL AND a.state_change < now() - interval '{STALL} seconds'
              AND EXISTS (SELECT FROM pg_catalog.pg_locks l WHERE l.pid = a.pid
                          AND l.locktype = 'advisory' AND l.granted)))""")


def _each_login(body: str) -> str:
    """A DO block running ``body`` (format()'s %I is the role) for each club login of a kind."""
    return f"""DO $$ DECLARE r record; BEGIN
      FOR r IN SELECT m.rolname AS login, substr(g.rolname, 6) AS kind FROM pg_roles m
               JOIN pg_auth_members a ON a.member = m.oid JOIN pg_roles g ON g.oid = a.roleid
               WHERE m.rolcanlogin AND g.rolname IN ('club_table', 'club_wall', 'club_rater')
      LOOP {body} END LOOP; END $$"""


def _limits() -> str:
    cases = " ".join(f"WHEN '{k}' THEN {n}" for k, n in CONNECTIONS.items())
    settings = " ".join(
        f"IF r.kind = '{kind}' THEN " + " ".join(
            f"EXECUTE format('ALTER ROLE %I SET {name} = %L', r.login, '{value}');"
            for name, value in values.items()) + " END IF;"
        for kind, values in TIMEOUTS.items())
    return _each_login(
        f"EXECUTE format('ALTER ROLE %I CONNECTION LIMIT %s', r.login, CASE r.kind {cases} END);"
        f" {settings} IF r.kind = 'table' THEN "
        "EXECUTE format('GRANT %I TO club_owner', r.login); END IF;")


_SUPERUSER_ONLY = """DO $$ DECLARE f text; d text; BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    FOREACH f IN ARRAY ARRAY[{makers}] LOOP
      EXECUTE format('REVOKE EXECUTE ON FUNCTION pg_catalog.%s FROM PUBLIC', f);
    END LOOP;
    FOREACH d IN ARRAY ARRAY[{others}] LOOP
      IF d <> current_database() THEN
        EXECUTE format('REVOKE CONNECT ON DATABASE %I FROM PUBLIC', d);
      END IF;
    END LOOP;
  END IF;
END $$""".format(makers=", ".join(f"'{f}'" for f in LO_MAKERS),
                 others=", ".join(f"'{d}'" for d in OTHERS))

#: The admin's: every session of one table's login ended (its credentials stolen: the login
#: is made NOLOGIN first, companion/club/access.py ``end_table``).
_END_SESSIONS = _ending("club_end_sessions(who name)", """SELECT a.pid
     FROM pg_catalog.pg_stat_activity a JOIN pg_catalog.pg_roles r ON r.oid = a.usesysid
   WHERE r.rolname = who AND pg_has_role(r.oid, 'club_table', 'MEMBER')
     AND NOT pg_has_role(r.oid, 'club_manager', 'MEMBER') AND a.pid <> pg_backend_pid()""")

STATEMENTS: tuple[str, ...] = (
    _limits(),
    _END_STALLED,
    _END_SESSIONS,
    "ALTER FUNCTION club.club_end_sessions(name) OWNER TO club_owner",
    "REVOKE ALL ON FUNCTION club.club_end_sessions(name) FROM PUBLIC",
    "GRANT EXECUTE ON FUNCTION club.club_end_sessions(name) TO club_manager",
    "ALTER FUNCTION club.club_end_stalled() OWNER TO club_owner",
    "REVOKE ALL ON FUNCTION club.club_end_stalled() FROM PUBLIC",
    "GRANT EXECUTE ON FUNCTION club.club_end_stalled() TO club_table, club_rater, club_manager",
    _SUPERUSER_ONLY,
)


def left_undone(conn: Any) -> list[str]:
    """The statements a superuser still has to run for this club (init as a ``CREATEROLE``
    admin cannot): large objects, advisory locks and the other databases' ``CONNECT``."""
    out = []
    makers = [f for f in LO_MAKERS if conn.execute(
        "SELECT has_function_privilege('club_table', %s, 'EXECUTE')",
        (f"pg_catalog.{f}",)).fetchone()[0]]
    if makers:
        out.append("REVOKE EXECUTE ON FUNCTION " + ", ".join(f"pg_catalog.{f}" for f in makers)
                   + " FROM PUBLIC;  -- in the club's database: no role makes large objects")
    if conn.execute("SELECT has_function_privilege('club_table', "
                    "'pg_catalog.pg_advisory_lock(bigint)', 'EXECUTE')").fetchone()[0]:
        out.append("-- in the club's database: run `companion club init` once as a superuser "
                   "(the advisory locks, which the league's title locks are made of)")
    for (name,) in conn.execute(
            "SELECT datname FROM pg_database WHERE datallowconn AND datname <> "
            "current_database() AND has_database_privilege('club_table', oid, 'CONNECT') "
            "ORDER BY datname"):
        out.append(f'REVOKE CONNECT ON DATABASE "{name}" FROM PUBLIC;  -- no club role '
                   "reaches another database (grant it back to whoever needs it)")
    return out


#: PostgreSQL's SQLSTATE for a lock not had within ``lock_timeout``.
LOCK_NOT_AVAILABLE = "55P03"


def end_stalled(conn: Any) -> int:
    """End the club's stalled table sessions (see the module's docstring); how many."""
    return conn.execute("SELECT club.club_end_stalled()").fetchone()[0]


def through_stalls(conn: Any, attempt: Any, tries: int = 8) -> Any:
    """``attempt()`` (one transaction on ``conn``, autocommit), tried again after each lock
    wait past ``lock_timeout``, the stalled sessions ended first: a table that keeps its
    transaction open is ended once it has held it STALL seconds, and the work goes on."""
    for n in range(tries):
        try:
            return attempt()
        except Exception as problem:
            if getattr(problem, "sqlstate", None) != LOCK_NOT_AVAILABLE or n == tries - 1:
                raise
            end_stalled(conn)
    raise AssertionError("unreachable")
