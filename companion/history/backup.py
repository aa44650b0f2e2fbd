"""``companion backup`` and ``companion restore``: the whole game database copied out to a file
and back, with SQLite's online backup API (never a file copy: a copy of a WAL database taken
while the app writes can miss what its -wal holds, or catch a page half written).

A backup reads through a read-only connection and takes no lock, so it works while the app
plays; the copy is made in a folder only this user can enter (names.BACKING_UP beside the
database, flocked while in use, so a killed backup's is removed at the next start), checked (``quick_check``, our
application id) and only then written as the target by the one writer (companion/files/),
readable by its owner only. A restore checks the
file first (ours, not from a newer companion, declaring a schema its tables are, sound) and
says why it refuses; it takes the writer's lock (so it refuses while the app runs, naming its
pid, and no app can start in the middle), copies the file into a private folder beside the
database (names.RESTORING, flocked: a killed restore's is removed at the next start, and said),
checks that copy again, keeps the current database aside under a dated name (never deleted),
and puts the restored copy in place with one rename by the folders' descriptors. An older schema is brought up to date when the
companion next opens the file, as for any older file.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from typing import Iterator
from urllib.parse import quote

from companion.core.errors import StoreError
from companion.files import names
from companion.files.read import FileTooBig, NotAFile, open_regular
from companion.files.walk import DIR_FLAGS, Place, PathRefused
from companion.files.write import FileRefused, family, write_whole
from companion.store.aside import dated_name, remove_tree, sync
from companion.store.held import WriterLock, place_of, refuse_odd
from companion.store.opening import connect_reader, primary_code
from companion.store.schema import APPLICATION_ID, SCHEMA_VERSION
from companion.store.shape import (
    declared_problem, listed, read_schema, strangers, trusting_nothing, what_to_do,
)


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
        declared = declared_problem(conn, schema)
        if declared:
            return declared, schema, 0
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
    os.close(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600))
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


@contextlib.contextmanager
def _private_folder(place: Place | None, kind: names.Name) -> Iterator[str]:
    """A new folder only this user can enter, for SQLite's copy (it opens files by name):
    ``kind`` beside the database when its folder is one only this user can change (``place``
    walked private), else in the system's temporary folder. Flocked while in use, so the next
    start removes it only when its maker was killed (aside.remove_leftovers); removed after."""
    if place is not None:
        for tries in range(4):   # a planted name is passed over, never entered
            name = kind.of(place.name)
            try:
                os.mkdir(name, 0o700, dir_fd=place.folder)
                break
            except FileExistsError:
                if tries == 3:
                    raise
        fd = os.open(name, DIR_FLAGS, dir_fd=place.folder)
        path = place.for_sqlite(name)
    else:
        path = tempfile.mkdtemp(prefix="companion-backup-")
        fd = os.open(path, DIR_FLAGS)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield path
    finally:
        os.close(fd)
        if place is not None:
            remove_tree(place, name)
        else:
            shutil.rmtree(path, ignore_errors=True)


def _database_place(database: str, *, make: bool = False) -> Place | None:
    """The database's folder, walked and held when only this user can change it; None (a
    shared folder: the copy goes to the system's temporary folder) otherwise."""
    try:
        return place_of(database, make=make)
    except StoreError:
        return None


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
    protect = family(database)
    source = connect_reader(database)  # read-only, no lock: the app may be playing
    place = _database_place(database)
    try:
        with _private_folder(place, names.BACKING_UP) as folder:
            temp = os.path.join(folder, "copy.sqlite")
            schema, games = _copy(source, temp, target)
            with open(temp, "rb") as copy:
                write_whole(target, copy, mode=0o600, force=force, protect=protect)
    except (FileRefused, PathRefused) as problem:
        raise StoreError(str(problem)) from None
    finally:
        source.close()
        if place is not None:
            place.close()
    return Copied(target, games, schema)


def check_restorable(source: str) -> tuple[int, int]:
    """(schema, games) of a file to restore; StoreError saying why it is refused."""
    try:
        open_regular(source, "backup").close()  # a pipe or a device refused, never waited on
        with place_of(source, private=False) as place:
            refuse_odd(place)   # and its -wal, -shm, -journal: never a pipe SQLite waits on
    except FileNotFoundError:
        raise StoreError(f"{source}: no such file; nothing was restored") from None
    except (NotAFile, FileTooBig, StoreError) as problem:
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


def _keep_aside(place: Place) -> str:
    """The current database's steps all in its main file (a checkpoint), then a second name
    for that file, dated; a -wal a damaged file leaves goes with it under the same name."""
    try:
        conn = trusting_nothing(sqlite3.connect(place.for_sqlite(), isolation_level=None))
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()  # the last connection to close removes an emptied -wal
    except sqlite3.Error:
        pass  # a damaged current file keeps its -wal beside its new name below
    aside = dated_name(place, names.BEFORE_RESTORE)
    try:  # the database keeps its name until the restored one takes it
        os.link(place.name, aside, src_dir_fd=place.folder, dst_dir_fd=place.folder,
                follow_symlinks=False)
    except OSError:
        place.rename(place.name, aside)  # a file system without hard links; the lock is held
    wal = names.WAL.of(place.name)
    if place.lstat(wal) is not None:
        place.rename(wal, aside + "-wal")
    place.unlink(names.SHM.of(place.name))
    return place.path(aside)


def restore(database: str, source: str) -> Copied:
    """``source`` becomes the game database; the one in place is kept aside. StoreError, with
    nothing changed, if the file is refused or the app is running."""
    if os.path.abspath(source) == os.path.abspath(database):
        raise StoreError(f"{source} is the game database itself: nothing to restore")
    check_restorable(source)
    place = place_of(database, make=True)
    try:
        refuse_odd(place)
        try:
            lock = WriterLock.take(place)
        except StoreError as problem:
            raise StoreError(f"{problem}; nothing was restored") from None
        try:
            with _private_folder(place, names.RESTORING) as folder:
                conn = _open_source(source)
                try:
                    schema, games = _copy(conn, os.path.join(folder, "copy.sqlite"), source)
                finally:
                    conn.close()
                aside = _keep_aside(place) if place.lstat() is not None else None
                inner = os.open(os.path.basename(folder), DIR_FLAGS, dir_fd=place.folder)
                try:
                    os.rename("copy.sqlite", place.name, src_dir_fd=inner,
                              dst_dir_fd=place.folder)
                finally:
                    os.close(inner)
                place.sync()
        finally:
            lock.release()
    finally:
        place.close()
    return Copied(database, games, schema, aside)
