"""Bringing a file written by an older companion up to date, inside the writer's opening
transaction: each version's statements (companion/store/schema.py), then the rows they need
made from what the file holds (summaries from a fold, profiles from the seat names, the club's
outbox from the games this device finished)."""

from __future__ import annotations

import sqlite3

import companion.store.profiles as profiles
from companion.store.check import summarize
from companion.store.schema import MIGRATIONS, SCHEMA_VERSION


def migrate(conn: sqlite3.Connection) -> int:
    """Inside an open transaction: bring an older file of ours to SCHEMA_VERSION; returns the
    version it had. Rows already stored are kept as they are."""
    found = conn.execute("PRAGMA user_version").fetchone()[0]
    for version in range(found + 1, SCHEMA_VERSION + 1):
        for statement in MIGRATIONS[version]:
            conn.execute(statement)
    if found < SCHEMA_VERSION:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    if 0 < found < 3:
        fill_summaries(conn)
    if 0 < found < 4:
        profiles.fill_profiles(conn)
    if 0 < found < 5:
        fill_outbox(conn)
    return found


def fill_outbox(conn: sqlite3.Connection) -> None:
    """A file from before version 5: every game this device finished waits for the club (a
    table that never joins one keeps a row per game, a few bytes each)."""
    conn.execute("INSERT INTO outbox (game_id, queued_at) SELECT id, COALESCE(finished_at, "
                 "updated_at) FROM games WHERE status = 'finished' AND device = "
                 "(SELECT value FROM meta WHERE key = 'device_id')")


def fill_summaries(conn: sqlite3.Connection) -> None:
    """A file from before version 3 has no summaries: each running game (the ones the home
    screen offers with where they stand) is folded once, here, in the opening transaction.
    Finished and abandoned games show their results, players and step count, which the file
    already holds; their summary is kept the next time one is opened (Store.open_session)."""
    for (game_id,) in conn.execute("SELECT id FROM games WHERE status = 'running' "
                                   "AND summary IS NULL").fetchall():
        summarize(conn, game_id)
