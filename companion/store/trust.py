"""What makes a game database trusted beyond its games' folds: the file's own schema (no object
a companion never makes, shape.py) and results rows that are what each log gives. Kept apart
from check.py, which migrate.py reads at opening: these take the writer's lock and write."""

from __future__ import annotations

import os
import sqlite3
from urllib.parse import quote

from companion.core.errors import StoreError
from companion.store.check import Problem, fold_rows, log_results
from companion.store.journal import Tx, settle, utc_now
from companion.files import names
from companion.store.aside import keep_copy
from companion.store.held import WriterLock, place_of, refuse_odd
from companion.store.schema import APPLICATION_ID
from companion.store.shape import (
    Untrusted, declared_problem, drop_strangers, read_schema, strangers, trusting_nothing,
)


def stranger_problems(path: str) -> list[Problem]:
    """The objects in the file at ``path`` no companion makes, each a problem of the file;
    read through a read-only connection that changes nothing (a file the store cannot open at
    all is left to it to name)."""
    try:   # a link, or a pipe beside it that SQLite would wait on: the store names it
        with place_of(path, private=False) as place:
            refuse_odd(place)
            uri = "file:" + quote(os.fsencode(place.for_sqlite())) + "?mode=ro"
            conn = trusting_nothing(sqlite3.connect(uri, uri=True, isolation_level=None))
    except (StoreError, sqlite3.Error):
        return []
    try:
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            return []
        found = [f"it carries {s}" for s in strangers(read_schema(conn))]
        if not found:   # what it declares against what it holds (shape.declared_problem)
            declared = declared_problem(conn, conn.execute("PRAGMA user_version").fetchone()[0])
            found = [declared] if declared else []
    except sqlite3.Error:
        return []
    finally:
        conn.close()
    return [Problem(None, None, what) for what in found]


def remove_strangers(path: str) -> tuple[str | None, list[str]]:
    """``check --repair`` of a file carrying objects no companion makes: holding the writer's
    lock, a copy of the file is kept (``NAME.before-repair-DATE``), then every one is removed
    in one transaction. (the copy or None when there was nothing to remove, what was done);
    Untrusted, with nothing changed, if one cannot be removed without losing rows (a table
    of ours changed)."""
    place = place_of(path)
    try:
        if not refuse_odd(place):
            return None, []
        return _remove_strangers(place)
    finally:
        place.close()


def _remove_strangers(place) -> tuple[str | None, list[str]]:
    lock = WriterLock.take(place)   # never through a planted NAME.lock (held._open_lock)
    try:
        conn = trusting_nothing(sqlite3.connect(place.for_sqlite(), isolation_level=None))
        try:
            if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                return None, []
            found = strangers(read_schema(conn))
            if not found:
                return None, []
            if not all(s.removable for s in found):
                raise Untrusted(place.shown, [s for s in found if not s.removable])
            kept = keep_copy(place, names.BEFORE_REPAIR)
            with Tx(conn):
                done = drop_strangers(conn, found)
        finally:
            conn.close()
    finally:
        lock.release()
    return kept, done


def write_log_results(conn: sqlite3.Connection, problems: list[Problem]) -> list[str]:
    """``check --repair`` of results rows that differ from a game's log: the log is the
    record, so its status and results are written again from its fold (one transaction per
    game); what was done."""
    done: list[str] = []
    for game_id in sorted({p.game_id for p in problems
                           if p.kind == "results" and p.game_id is not None}):
        with Tx(conn):
            settle(conn, game_id, log_results(fold_rows(conn, game_id)), utc_now())
        done.append(f"game #{game_id}: its status and results written again as its log "
                    "gives them")
    return done
