"""The one registry of the names the companion creates, opens or renames beside a file it keeps:
the game database, an export, a backup, a USB stick's folder, the settings and the hardware
config. The code makes each name from here (``LOCK.of("companion.sqlite3")``) and the hostile
folder test plants a link, a hard link, a pipe, a folder and a dangling link at every one of
them (tests/companion/test_files_hostile.py): a name added here is tried there at once.

``stamp`` and ``token`` are the only changing parts of a name (a date, a random word); the
test fixes them so it can plant the exact names a run is about to make."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime


def stamp() -> str:
    """The date in a dated copy's name (``NAME.unreadable-20261201-153000``)."""
    return datetime.now().strftime("%Y%m%d-%H%M%S")


def token() -> str:
    """The random word in a temporary name: no other process guesses it in advance."""
    return secrets.token_hex(4)


@dataclass(frozen=True)
class Name:
    """One name beside a kept file: ``pattern`` with ``{name}`` (the kept file's name),
    ``{stamp}`` and ``{token}``; ``beside`` which kind of file; ``how`` what the companion does
    with it, in words (docs/security.md lists them)."""

    beside: str
    pattern: str
    how: str

    def of(self, name: str, **parts: str) -> str:
        values = dict(parts)
        if "{stamp}" in self.pattern and "stamp" not in values:
            values["stamp"] = stamp()
        if "{token}" in self.pattern and "token" not in values:
            values["token"] = token()
        return self.pattern.format(name=name, **values)


DATABASE = Name("database", "{name}", "opened by SQLite (O_NOFOLLOW), created O_EXCL by the store")
WAL = Name("database", "{name}-wal", "SQLite's, opened O_NOFOLLOW; removed by name with the file")
SHM = Name("database", "{name}-shm", "SQLite's, opened O_NOFOLLOW; removed by name with the file")
JOURNAL = Name("database", "{name}-journal", "SQLite's, opened O_NOFOLLOW")
LOCK = Name("database", "{name}.lock",
            "created once O_EXCL, else opened O_NOFOLLOW and checked (regular, ours, one link); "
            "then only flocked")
CLEAN = Name("database", "{name}.clean", "read O_NOFOLLOW (a regular file only); replaced by "
                                         "rename, removed by name")
CLEAN_TEMP = Name("database", ".{name}.clean-{token}", "created O_EXCL|O_NOFOLLOW, renamed to "
                                                       "the mark")
UNREADABLE = Name("database", "{name}.unreadable-{stamp}", "a copy kept aside, created O_EXCL")
BEFORE_RESTORE = Name("database", "{name}.before-restore-{stamp}", "the database kept aside by "
                                                                   "a restore (a hard link)")
BEFORE_REPAIR = Name("database", "{name}.before-repair-{stamp}", "a copy kept aside, created "
                                                                 "O_EXCL")
RESTORING = Name("database", ".{name}.restore-{token}",
                 "a restore's private folder (0700, flocked); removed at the next start once no "
                 "one holds it")
BACKING_UP = Name("database", ".{name}.backup-{token}",
                  "a backup's private folder (0700, flocked); removed at the next start once no "
                  "one holds it")
#: what a restore before this round left and nothing removed: removed at the next start
OLD_RESTORING = Name("database", "{name}.restoring-{pid}", "an older companion's leftover: "
                                                           "removed at the next start")
#: a file the writer (companion/files/write.py) makes: its temporary name beside it
PART = Name("file", ".{name}.{token}.part", "created O_EXCL|O_NOFOLLOW, flocked while written, "
                                            "renamed or linked to the name")
TARGET = Name("file", "{name}", "refused unless a regular file (with --force) or free")
BAK = Name("hardware", "{name}.bak", "the unreadable config kept, by the writer (never through "
                                     "a link)")
STICK_FOLDER = Name("stick", "table-companion", "opened O_NOFOLLOW, on the stick's own drive")
STICK_PLAYS = Name("stick", "plays-{stamp}", "a free stem: .jsonl and .csv by the writer")

#: every name, for the hostile folder test and docs/security.md
NAMES = (DATABASE, WAL, SHM, JOURNAL, LOCK, CLEAN, CLEAN_TEMP, UNREADABLE, BEFORE_RESTORE,
         BEFORE_REPAIR, RESTORING, BACKING_UP, OLD_RESTORING, PART, TARGET, BAK, STICK_FOLDER,
         STICK_PLAYS)
#: what SQLite and the store treat as the database itself
FAMILY = (DATABASE, WAL, SHM, JOURNAL, LOCK, CLEAN)
#: a killed restore's or backup's leftovers, removed at the next start when no one holds them
LEFTOVERS = (RESTORING, BACKING_UP, OLD_RESTORING)


def longest_beside(name: str, beside: str = "database") -> tuple[int, str]:
    """The longest name (in bytes) made beside the file ``name`` of kind ``beside``, and its
    pattern: a file whose own name fits may still leave no room for its side files and copies."""
    widest = {"stamp": "20261201-153000", "token": "0badf00d", "pid": "4194304"}   # as made
    made = [(len(n.of(name, **widest).encode("utf-8", "surrogateescape")), n.pattern)
            for n in NAMES if n.beside == beside]
    return max(made)
