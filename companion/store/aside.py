"""Files kept beside the game database: the dated copies a damaged file or a repair leaves
(``NAME.word-DATE``, never over another), and the mark a clean close leaves (``NAME.clean``)
that lets the next start skip the whole-file check. Only the os and the file system: the
opening (opening.py) decides when either is made or trusted."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from datetime import datetime
from typing import Any


# -- copies kept aside -------------------------------------------------------------------------
def _copy_file(source: str, target: str) -> None:
    """``source`` to a new owner-only ``target``, on the card before returning."""
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    with open(source, "rb") as src, os.fdopen(fd, "wb") as dst:
        shutil.copyfileobj(src, dst)
        dst.flush()
        os.fsync(dst.fileno())


def dated_name(path: str, word: str) -> str:
    """``NAME.word-DATE`` beside the file (``-2``, ``-3``... after it when that name, or its
    -wal, is taken): where a file is kept aside, never over another."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target, n = f"{path}.{word}-{stamp}", 1
    while os.path.lexists(target) or os.path.lexists(target + "-wal"):
        n += 1
        target = f"{path}.{word}-{stamp}-{n}"
    return target


def sync(path: str) -> None:
    """A file, or a folder's names, on the card before returning."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def keep_copy(path: str, word: str) -> str:
    """Copy the file (and its -wal) to ``NAME.word-DATE``; OSError, with the file untouched
    and no partial copy left, if that cannot be done."""
    target = dated_name(path, word)
    made: list[str] = []
    try:
        for suffix in ("", "-wal"):
            if suffix and not os.path.exists(path + suffix):
                continue
            made.append(target + suffix)
            _copy_file(path + suffix, target + suffix)
    except OSError:
        for name in made:
            with contextlib.suppress(OSError):
                os.remove(name)
        raise
    return target


# -- a clean close -----------------------------------------------------------------------------
#: What the home screen, the history lists and the setups' player picker read: checked on every
#: opening, however the last run ended (small: a row per game, per seat, per player), while the
#: logs' tables are not. A file from before a table has none to check.
LISTED_TABLES = ("games", "players", "results", "clocks", "profiles", "meta")

# The integrity check reads the whole file: with years of games on a card it would make every
# start slower. A file is damaged by a power cut or a crash, not while it rests closed, so the
# writer that closes cleanly leaves NAME.clean with the file's size, time and inode; the next
# writer checks only the tables the lists read (LISTED_TABLES) when the file is exactly that (no
# -wal beside it), and removes the mark before writing anything. After a crash or a pulled plug
# there is no mark, and the whole file is checked. Damage in a game's log that appears while the
# file rests is still found: SQLite reports it when those pages are read, and the store names
# the game (its damaged card) instead of crashing.

def _fingerprint(path: str) -> dict[str, int] | None:
    try:
        if os.path.getsize(path + "-wal") > 0:  # a writer is open, or crashed
            return None
    except OSError:
        pass   # no -wal; an empty one is what a reader leaves behind
    try:
        st = os.stat(path)
    except OSError:
        return None
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "inode": st.st_ino}


def mark_clean(path: str) -> None:
    """After the writer's connection closed: the mark the next start trusts. Never fails: a
    start without it only checks the file."""
    found = _fingerprint(path)
    if found is None:
        return
    temp = f"{path}.clean.{os.getpid()}"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump(found, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path + ".clean")
    except OSError:
        with contextlib.suppress(OSError):
            os.remove(temp)


def _said(mark: str) -> Any:
    """The fingerprint a clean close left in ``mark``; None when there is none to read."""
    try:
        with open(mark, encoding="utf-8") as kept:
            return json.load(kept)
    except (OSError, ValueError):
        return None


def rests_clean(path: str) -> bool:
    """Whether the file is exactly as the last writer closed it, for a reader: the mark stays
    (a reader changes nothing, so the next writer may still trust it)."""
    said = _said(path + ".clean")
    return said is not None and said == _fingerprint(path)


def was_closed_clean(path: str) -> bool:
    """Whether the file is exactly as the last writer closed it; the mark is removed either
    way (the writer that opens now may not close cleanly)."""
    mark = path + ".clean"
    said = _said(mark)
    if said is None:
        return False
    try:
        os.remove(mark)
        sync(os.path.dirname(os.path.abspath(path)))   # gone for good before anything is written
    except OSError:
        return False   # a mark that may outlive a crash: check the whole file instead
    return said == _fingerprint(path)
