"""What the store says of a problem with the database file, in players' words: SQLite's result
codes and the system's errors, and which of them mean a damaged file. Apart from opening.py so
that held.py (the folder and the lock, which opening.py builds on) can word a refusal too."""

from __future__ import annotations

import errno
import sqlite3

from companion.core.errors import StoreError

#: SQLite's primary result codes that mean "this file is not a (healthy) database".
DAMAGED = frozenset({sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT})

_LOCKED = "another program holds the database locked: close it (or wait for it)"
#: What to do, in players' words, for each primary result code that is not damage; at opening
#: advice() adds "and start again" (while playing, the press is tried again by itself).
WORDS = {
    sqlite3.SQLITE_FULL: "the SD card (disk) is full: free some space",
    sqlite3.SQLITE_READONLY: "the database is read-only (the file, its folder or the card is "
                             "write-protected): make it writable",
    sqlite3.SQLITE_CANTOPEN: "the database file cannot be opened (its folder may be missing "
                             "or not writable): check the folder",
    sqlite3.SQLITE_BUSY: _LOCKED,
    sqlite3.SQLITE_LOCKED: _LOCKED,
    sqlite3.SQLITE_PERM: "the system does not allow access to the database: check its owner "
                         "and permissions",
    sqlite3.SQLITE_IOERR: "the card (disk) failed while reading or writing: check the card",
}
_ERRNO_CODES = {errno.ENOSPC: sqlite3.SQLITE_FULL, errno.EROFS: sqlite3.SQLITE_READONLY,
                errno.EACCES: sqlite3.SQLITE_PERM, errno.EPERM: sqlite3.SQLITE_PERM,
                errno.EIO: sqlite3.SQLITE_IOERR, errno.EDQUOT: sqlite3.SQLITE_FULL}



class Unreadable(StoreError):
    """The file is damaged or not ours: the writer may copy it aside and start a new one."""


def primary_code(problem: BaseException) -> int | None:
    """SQLite's primary result code of an error (extended codes masked), or None."""
    code = getattr(problem, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def advice(problem: BaseException, then: str = " and start again") -> str | None:
    """What to do about a problem that is not damage, in players' words, or None."""
    if getattr(problem, "sqlite_errorcode", None) == sqlite3.SQLITE_IOERR_SHMSIZE:
        code: int | None = sqlite3.SQLITE_FULL  # the -shm file could not grow: no room
    else:
        code = primary_code(problem)
    if code is None and isinstance(problem, OSError):
        code = _ERRNO_CODES.get(problem.errno or 0)
    words = WORDS.get(code) if code is not None else None
    return words + then if words else None


def refusal(path: str, problem: BaseException) -> StoreError:
    """The error to raise for a problem at opening: Unreadable only for damage SQLite names;
    anything else says what to do and that the file was left as it was."""
    if isinstance(problem, StoreError):
        return problem
    if primary_code(problem) in DAMAGED:
        return Unreadable(f"{problem}")
    words = advice(problem) or f"{problem}; start again, and if it stays, check the card"
    return StoreError(f"The game database {path} cannot be used: {words} "
                      "(the file was left as it was)")


#: what ends the refusal of another user's database: the CLI puts the command it ran after it
AS_OWNER = "run it as its owner: sudo -u {owner} companion ..."


class NotOwner(StoreError):
    """A database (or its folder) of another user: nothing is read, made or changed; the
    command is its owner's to run (``owner``: their login name)."""

    def __init__(self, path: str, why: str, owner: str) -> None:
        self.owner = owner
        super().__init__(f"The game database {path} {why}: nothing was read or changed; "
                         + AS_OWNER.format(owner=owner))
