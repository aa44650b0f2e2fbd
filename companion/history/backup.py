"""``companion backup`` and ``companion restore``: the whole game database copied out to a file
and back, with SQLite's online backup API (never a file copy: a copy of a WAL database taken
while the app writes can miss what its -wal holds, or catch a page half written).

A backup reads through a read-only connection and takes no lock, so it works while the app
plays; the copy is made in a folder only this user can enter, checked (``quick_check``, our
application id) and only then written as the target by the one writer (companion/files/),
readable by its owner only. A restore checks the
file first (ours, not from a newer companion, sound) and says why it refuses; it takes the
writer's lock (so it refuses while the app runs, naming its pid, and no app can start in the
middle), keeps the current database aside under a dated name (never deleted), and puts the
restored copy in place with one rename. An older schema is brought up to date when the
companion next opens the file, as for any older file.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from companion.core.errors import StoreError
from companion.files.read import FileTooBig, NotAFile, open_regular
from companion.files.write import FileRefused, family, write_whole
from companion.store.aside import dated_name, sync
from companion.store.opening import WriterLock, connect_reader, primary_code, refuse_odd_path
from companion.store.schema import APPLICATION_ID, SCHEMA_VERSION
from companion.store.shape import listed, read_schema, strangers, trusting_nothing, what_to_do


@dataclass(frozen=True)
class Copied:
    """What a backup or restore wrote: where, how many games, the file's schema version."""

    path: str
    games: int
    schema: int
    #: restore only: where the database that was in place now is (None: there was none).
    aside: str | None = None


def _why_not_ours(conn: sqlite3.Connection, path: str) -> tuple[str | None, int, int]:
    """(why this is not a sound companion database or None, its schema, its games)."""
    try:
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if app_id != APPLICATION_ID:
            if not tables:
                return "it is an empty file or database, not a companion database", 0, 0
            return (f"it is not a companion database (its application id is 0x{app_id:08X}; "
                    f"a companion database has 0x{APPLICATION_ID:08X})"), 0, 0
        schema = conn.execute("PRAGMA user_version").fetchone()[0]
        if schema > SCHEMA_VERSION:
            return (f"it was written by a newer companion (schema {schema}; this one reads up "
                    f"to schema {SCHEMA_VERSION}): update the companion first"), schema, 0
        odd = strangers(read_schema(conn))
        if odd:
            return f"this file carries {listed(odd)} ({what_to_do(odd, path)})", schema, 0
        found = conn.execute("PRAGMA quick_check").fetchone()[0]
        if found != "ok":  # its first finding, without SQLite's "*** in database main ***"
            first = [line for line in found.splitlines() if not line.startswith("***")]
            return (f"it fails SQLite's integrity check ({(first or [found])[0].strip()}, "
                    "...)"), schema, 0
        games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error as problem:
        if primary_code(problem) == sqlite3.SQLITE_NOTADB:
            return "it is not a database at all (SQLite does not recognise the file)", 0, 0
        return f"it cannot be read as a companion database ({problem})", 0, 0
    return None, schema, games


def _open_source(path: str) -> sqlite3.Connection:
    """A read-only connection to a file to restore; it writes nothing beside it (a file on
    a write-protected stick is read as one that cannot change)."""
    uri = "file:" + quote(os.fsencode(os.path.abspath(path))) + "?mode=ro"
    conn = trusting_nothing(sqlite3.connect(uri, uri=True, isolation_level=None))
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as problem:
        if primary_code(problem) in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY):
            conn.close()
            return trusting_nothing(sqlite3.connect(uri + "&immutable=1", uri=True,
                                                    isolation_level=None))
    return conn


def _copy(source: sqlite3.Connection, temp: str, label: str) -> tuple[int, int]:
    """The source's pages into a new owner-only ``temp`` (one file, no -wal), on the card and
    checked before returning (schema, games); StoreError naming ``label`` if the copy fails
    its check."""
    os.close(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
    target = trusting_nothing(sqlite3.connect(temp, isolation_level=None))
    try:
        source.backup(target)  # every page in one step: one consistent snapshot
        target.execute("PRAGMA journal_mode = DELETE")  # self-contained: no -wal beside it
        why, schema, games = _why_not_ours(target, label)
    finally:
        target.close()
    if why:
        raise StoreError(f"The copy {label} failed its check: {why}; it was not kept")
    sync(temp)   # made owner-only by its os.open above; never chmod'ed by name
    return schema, games


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def _private_folder(database: str) -> str:
    """A folder only this user can enter, for SQLite's copy before it is placed: beside the
    database when its folder can be written, else in the system's temporary folder. (SQLite
    opens a file by its name, so it never writes into the target's folder, where another
    user might swap a name for a link.)"""
    try:
        return tempfile.mkdtemp(prefix=".backup-", dir=os.path.dirname(os.path.abspath(database)))
    except OSError:
        return tempfile.mkdtemp(prefix="companion-backup-")


def backup(database: str, target: str, *, force: bool = False) -> Copied:
    """The database, as it stands now, into ``target``; StoreError (nothing written) if the
    target exists without ``force``, or the database cannot be read. The copy is checked in a
    private folder, then written as ``target`` by the one writer (companion/files/write.py):
    owner-only, its mode set on the open file, never through a link."""
    if os.path.abspath(target) == os.path.abspath(database):
        raise StoreError(f"{target} is the game database itself: give another file")
    if os.path.lexists(target + "-wal"):  # SQLite would replay that -wal into the copy
        raise StoreError(f"{target} is a database in use (its -wal is beside it): give another "
                         "file (nothing was written)")
    source = connect_reader(database)  # read-only, no lock: the app may be playing
    folder = _private_folder(database)
    temp = os.path.join(folder, "copy.sqlite")
    try:
        schema, games = _copy(source, temp, target)
        with open(temp, "rb") as copy:
            write_whole(target, copy, mode=0o600, force=force, protect=family(database))
    except FileRefused as problem:
        raise StoreError(str(problem)) from None
    finally:
        source.close()
        shutil.rmtree(folder, ignore_errors=True)
    return Copied(target, games, schema)


def check_restorable(source: str) -> tuple[int, int]:
    """(schema, games) of a file to restore; StoreError saying why it is refused."""
    try:
        open_regular(source, "backup").close()  # a pipe or a device refused, never waited on
    except FileNotFoundError:
        raise StoreError(f"{source}: no such file; nothing was restored") from None
    except (NotAFile, FileTooBig) as problem:
        raise StoreError(f"{problem}; nothing was restored") from None
    try:
        conn = _open_source(source)
    except sqlite3.Error as problem:
        raise StoreError(f"{source} cannot be restored: it cannot be opened ({problem}); "
                         "nothing was changed") from None
    try:
        why, schema, games = _why_not_ours(conn, source)
    finally:
        conn.close()
    if why:
        raise StoreError(f"{source} cannot be restored: {why}; nothing was changed")
    return schema, games


def _keep_aside(database: str) -> str:
    """The current database's steps all in its main file (a checkpoint), then a second name
    for that file, dated; a -wal a damaged file leaves goes with it under the same name."""
    try:
        conn = trusting_nothing(sqlite3.connect(database, isolation_level=None))
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()  # the last connection to close removes an emptied -wal
    except sqlite3.Error:
        pass  # a damaged current file keeps its -wal beside its new name below
    aside = dated_name(database, "before-restore")
    try:
        os.link(database, aside)  # the database keeps its name until the restored one takes it
    except OSError:
        os.rename(database, aside)  # a file system without hard links; the lock is held
    if os.path.exists(database + "-wal"):
        os.rename(database + "-wal", aside + "-wal")
    _remove(database + "-shm")
    return aside


def restore(database: str, source: str) -> Copied:
    """``source`` becomes the game database; the one in place is kept aside. StoreError, with
    nothing changed, if the file is refused or the app is running."""
    if os.path.abspath(source) == os.path.abspath(database):
        raise StoreError(f"{source} is the game database itself: nothing to restore")
    check_restorable(source)
    refuse_odd_path(database)
    Path(database).parent.mkdir(parents=True, exist_ok=True)
    try:
        lock = WriterLock.take(database)
    except StoreError as problem:
        raise StoreError(f"{problem}; nothing was restored") from None
    temp = f"{database}.restoring-{os.getpid()}"
    try:
        conn = _open_source(source)
        try:
            schema, games = _copy(conn, temp, source)
        finally:
            conn.close()
        aside = _keep_aside(database) if os.path.exists(database) else None
        os.replace(temp, database)
        sync(str(Path(database).parent))
    finally:
        _remove(temp)
        lock.release()
    return Copied(database, games, schema, aside)
