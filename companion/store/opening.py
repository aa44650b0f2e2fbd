"""Opening the game database: decided by SQLite's own error code, never by guessing.

A file is moved aside only when SQLite says it is not a database or is damaged (NOTADB,
CORRUPT), or it holds another program's tables, or it fails the integrity check; and only once
a copy of it has been written beside it. A full card, a read-only file, a lock held by another
program or a failing card are not a damaged file: the companion stops with words that say what
to do, and the file keeps its bytes and its name. A file written by a newer companion is left
alone too (that companion can still read it).

The database's folder and what may be beside it, and the one-writer lock, are in held.py. The
database's folder is walked one part at a time without following a link, and must be one no
other user can change a name in (companion/files/walk.py, ``private``): SQLite opens the file and
its -wal by name, everything else here goes by the held folder's descriptor. A file that
declares a schema no companion writes, or tables that are not its schema's, is refused
(shape.declared_problem) and left as it is.

One process writes a database at a time: the writer holds an exclusive ``flock`` on
``NAME.lock`` (holding its pid) for as long as it runs; the lock is created once (O_EXCL), else
opened O_NOFOLLOW and used only if it is a regular file of this user with one link, and is then
only flocked and its pid written in place (never truncated, never through a link), so two tables cannot interleave their
steps and two starts cannot both move a file aside. Readers (``companion history``/``export``)
take no lock, open the file with ``mode=ro`` and create, move or change nothing. A new file is
made readable by its owner only, and its schema is created inside ``BEGIN IMMEDIATE`` after
checking again that no other process made it first.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import time
from urllib.parse import quote

from companion.core.errors import StoreError
from companion.files import names
from companion.files.walk import Place

from companion.store.aside import (
    LISTED_TABLES, keep_copy, rests_clean, was_closed_clean,
)
from companion.store.held import place_of, refuse_odd
from companion.store.migrate import migrate
from companion.store.schema import APPLICATION_ID, SCHEMA, SCHEMA_VERSION, new_device
from companion.store.said import (  # the words, in a module of their own: held.py uses them
    _ERRNO_CODES, WORDS, Unreadable, advice, primary_code, refusal,
)
from companion.store.shape import (
    declared_problem, read_schema, refuse_strangers, trusting_nothing,
)

#: How long a writer waits for another connection's transaction (seconds).
BUSY_SECONDS = 10.0

#: What SQLite answers a reader that cannot make a WAL database's -shm file.
_NO_SHM = frozenset({sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY})


# -- connections -----------------------------------------------------------------------------
def _check_ours(conn: sqlite3.Connection, path: str, integrity: bool = True) -> int:
    """The number of schema objects; Unreadable if the file is not ours or damaged (the
    integrity check only with ``integrity``), Untrusted if it carries an object no companion
    makes (shape.py), StoreError if a newer companion wrote it. Read in one transaction:
    another process may be creating the schema meanwhile."""
    conn.execute("BEGIN")
    try:
        rows = read_schema(conn)
        tables = len(rows)
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if tables and app_id != APPLICATION_ID:
            raise Unreadable("it is not a table-companion database")
        if app_id == APPLICATION_ID:
            refuse_strangers(conn, path, rows)
            checked = [""] if integrity else [f"({name})" for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN "
                f"({', '.join('?' * len(LISTED_TABLES))})", LISTED_TABLES)]
            if not all(conn.execute(f"PRAGMA quick_check{table}").fetchone()[0] == "ok"
                       for table in checked):
                raise Unreadable("the integrity check failed")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"The game database {path} was written by a newer companion "
                                 f"(schema {version}): update the companion; the file was left "
                                 "as it was")
            declared = declared_problem(conn, version) if tables else None
            if declared:
                raise StoreError(f"The game database {path} is refused: {declared}. Nothing "
                                 "was changed; restore a backup of it (companion restore "
                                 "FILE)")
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    return tables


def _switch_to_wal(conn: sqlite3.Connection) -> None:
    """WAL journal. Switching needs the file to itself for a moment, and SQLite answers BUSY at
    once (without waiting) while another process starting at the same time holds it: wait for
    that process, as long as any other lock."""
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as problem:
            if primary_code(problem) != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _create_schema(conn: sqlite3.Connection) -> None:
    """The tables, once: inside an IMMEDIATE transaction, after checking again that no other
    process created them while this one was opening."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            new_device(conn)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        elif conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            raise Unreadable("it is not a table-companion database")
        else:
            migrate(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _refuse_write_protected(place: Place) -> None:
    """SQLite opens a write-protected file read-only without a word: refuse it now."""
    try:
        os.close(place.open_file(flags=os.O_RDWR))
    except OSError as problem:
        if problem.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise StoreError(f"The game database {place.shown} cannot be used: "
                             f"{WORDS[sqlite3.SQLITE_READONLY]} and start again (the file was "
                             "left as it was)") from None
        raise refusal(place.shown, problem) from None


def connect_writer(path: str | Place) -> sqlite3.Connection:
    """A read-write connection with the schema in place. Raises Unreadable for a damaged or
    foreign file, StoreError for anything else; the file is never changed before it is known
    to be ours. A file as the last writer closed it (:func:`was_closed_clean`) has only the
    tables the lists read checked, not the whole file."""
    if path == ":memory:":
        return _connect(":memory:", False)
    mine = not isinstance(path, Place)
    place = place_of(path, make=True) if mine else path
    try:
        if not refuse_odd(place):
            try:  # owner-only; SQLite gives its -wal and -shm the database's permissions
                os.close(place.create(place.name))
            except FileExistsError:
                refuse_odd(place)
            except OSError as problem:
                if problem.errno not in _ERRNO_CODES:
                    raise
                raise refusal(place.shown, problem) from None
        _refuse_write_protected(place)
        return _connect(place.for_sqlite(), was_closed_clean(place), place.shown)
    finally:
        if mine:
            place.close()


def _connect(path: str, closed_clean: bool, shown: str | None = None) -> sqlite3.Connection:
    """SQLite's connection to ``path`` (the held folder's name for it), named ``shown``."""
    memory = path == ":memory:"
    shown = shown or path
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                               timeout=BUSY_SECONDS)
    except sqlite3.Error as problem:
        raise refusal(shown, problem) from None
    try:
        trusting_nothing(conn).execute("PRAGMA foreign_keys = ON")
        _check_ours(conn, shown, integrity=not closed_clean)
        if not memory:
            _switch_to_wal(conn)
        conn.execute("PRAGMA synchronous = FULL")
        _create_schema(conn)
    except BaseException as problem:
        conn.close()
        if isinstance(problem, (sqlite3.Error, StoreError)):
            raise refusal(shown, problem) from None
        raise
    return conn


def connect_reader(path: str, *, immutable: bool = False) -> sqlite3.Connection:
    """A read-only connection to an existing companion database; StoreError (naming the file,
    which is left exactly as it is) if it is missing, empty, damaged or not ours. A file exactly
    as its last writer closed it (:func:`rests_clean`) has only the lists' tables checked, as
    the app's start does: ``companion stats`` over years of games does not read the whole file
    twice."""
    try:
        place = place_of(path, private=False)
    except StoreError:
        if not os.path.lexists(os.path.dirname(os.path.abspath(path))):
            raise StoreError(f"{path}: no such file (no game was ever stored there)") from None
        raise
    with place:
        if not refuse_odd(place):
            raise StoreError(f"{path}: no such file (no game was ever stored there)")
        clean = rests_clean(place)
        wal = place.lstat(names.WAL.of(place.name)) is not None
        uri = ("file:" + quote(os.fsencode(place.for_sqlite())) + "?mode=ro"
               + ("&immutable=1" if immutable else ""))
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False,
                                   timeout=BUSY_SECONDS)
            try:
                if _check_ours(trusting_nothing(conn), path, integrity=not clean) == 0:
                    raise StoreError(f"{path} holds no games yet (the companion never wrote it)")
            except BaseException:
                conn.close()
                raise
        except (sqlite3.Error, StoreError) as problem:
            if not immutable and primary_code(problem) in _NO_SHM and not wal:
                # A write-protected folder or card: SQLite cannot make the -shm it reads a WAL
                # database with. With no -wal beside it no writer is running and the file alone
                # holds every game, so it is read as a file that cannot change.
                return connect_reader(path, immutable=True)
            found = refusal(path, problem)
            if isinstance(found, Unreadable):
                raise StoreError(f"The game database {path} cannot be read ({found}); it was "
                                 "left as it is, and the companion moves it aside when it "
                                 "starts") from None
            raise found from None
    return conn


# -- moving a damaged file aside -------------------------------------------------------------
def copy_aside(path: str | Place, why: StoreError) -> str:
    """Copy the file (and its -wal) to ``NAME.unreadable-DATE``; StoreError, with the file
    untouched and no partial copy left, if that cannot be done."""
    shown = path.shown if isinstance(path, Place) else path
    try:
        return keep_copy(path, names.UNREADABLE)
    except OSError as problem:
        words = advice(problem) or "free some space and start again"
        raise StoreError(f"The game database {shown} could not be read ({why}) and could not "
                         f"be copied aside ({problem.strerror or problem}), so it was left as "
                         f"it was: {words}") from None


def open_writer(path: str | Place) -> tuple[sqlite3.Connection, str | None]:
    """The writer's connection and a notice when a damaged or foreign file was moved aside."""
    try:
        return connect_writer(path), None
    except Unreadable as bad:
        if path == ":memory:":
            raise
        mine = not isinstance(path, Place)
        place = place_of(path) if mine else path
        try:
            moved = copy_aside(place, bad)
            for suffix in ("-wal", "-shm", ""):  # the old -wal first: never replayed into a new file
                place.unlink(place.name + suffix)
            notice = (f"The game database {place.shown} could not be read ({bad}); it was moved "
                      f"to {moved} and a new one was started")
            return connect_writer(place), notice
        finally:
            if mine:
                place.close()
