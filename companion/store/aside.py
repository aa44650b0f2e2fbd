"""Files kept beside the game database: the dated copies a damaged file or a repair leaves
(``NAME.word-DATE``, never over another), and the mark a clean close leaves (``NAME.clean``)
that lets the next start skip the whole-file check. Only the os and the file system: the
opening (opening.py) decides when either is made or trusted."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import stat
from typing import Any

from companion.files import names
from companion.files.walk import Place


# -- copies kept aside -------------------------------------------------------------------------
def _copy_file(place: Place, source: str, target: str) -> None:
    """``source`` to a new owner-only ``target`` in the same held folder (O_EXCL|O_NOFOLLOW:
    a planted name is never opened), on the card before returning."""
    src_fd = place.open_file(source)
    try:
        fd = place.create(target)
    except BaseException:
        os.close(src_fd)
        raise
    try:
        with os.fdopen(src_fd, "rb") as src, os.fdopen(fd, "wb") as dst:
            shutil.copyfileobj(src, dst)
            dst.flush()
            os.fsync(dst.fileno())
    except BaseException:
        place.unlink(target)   # the new file made above, never one found there
        raise


def dated_name(place: Place, word: Any) -> str:
    """``NAME.word-DATE`` beside the file (``-2``, ``-3``... after it when that name, or its
    -wal, is taken): where a file is kept aside, never over another. ``word``: a names.Name."""
    base = word.of(place.name)
    target, n = base, 1
    while place.lstat(target) is not None or place.lstat(target + "-wal") is not None:
        n += 1
        target = f"{base}-{n}"
    return target


def sync(path: str) -> None:
    """A file, or a folder's names, on the card before returning (a path the companion just
    made itself, in a folder of its own)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def at(path: str | Place) -> tuple[Place, bool]:
    """The database's place and whether it was opened here (then the caller closes it)."""
    if isinstance(path, Place):
        return path, False
    return Place.of(path, private=True), True


def keep_copy(path: str | Place, word: Any) -> str:
    """Copy the file (and its -wal) to ``NAME.word-DATE`` (``word`` a names.Name); OSError,
    with the file untouched and no partial copy left, if that cannot be done. The copy's
    path."""
    place, mine = at(path)
    try:
        target = dated_name(place, word)
        made: list[str] = []
        try:
            for suffix in ("", "-wal"):
                if suffix and place.lstat(place.name + suffix) is None:
                    continue
                _copy_file(place, place.name + suffix, target + suffix)
                made.append(target + suffix)
            place.sync()
        except OSError:
            for name in made:
                place.unlink(name)
            raise
        return place.path(target)
    finally:
        if mine:
            place.close()


def remove_leftovers(place: Place) -> list[str]:
    """What a killed restore or backup left beside the database (names.LEFTOVERS): a private
    folder of this user's that no one holds (its flock is free), or an older companion's
    ``NAME.restoring-PID`` copy whose process is gone, removed; their names, for the notice."""
    heads = [(kind, _head(kind, place.name)) for kind in names.LEFTOVERS]
    gone = []
    for entry in os.listdir(place.folder):
        found = next(((k, h) for k, h in heads if entry.startswith(h) and entry != h), None)
        if found is None:
            continue
        kind, head = found
        st = place.lstat(entry)
        if st is None or st.st_uid != os.geteuid():
            continue
        if kind is names.OLD_RESTORING:
            rest = entry[len(head):]
            if stat.S_ISREG(st.st_mode) and rest.isdigit() and not _alive(int(rest)):
                place.unlink(entry)
                gone.append(entry)
        elif stat.S_ISDIR(st.st_mode) and _free(place, entry):
            remove_tree(place, entry)
            gone.append(entry)
    if gone:
        place.sync()
    return gone


def _head(kind: names.Name, name: str) -> str:
    """What every name of ``kind`` beside ``name`` starts with (up to its changing part)."""
    return kind.pattern.format(name=name, token="\0", stamp="\0", pid="\0").split("\0")[0]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return pid != os.getpid()


def _free(place: Place, entry: str) -> bool:
    """Whether no process holds the flock of the folder ``entry`` (its maker was killed)."""
    try:
        fd = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                     dir_fd=place.folder)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def remove_tree(place: Place, entry: str) -> None:
    """A private folder of the companion's and the files in it, by descriptor (no link in it
    is followed: each is removed as a name)."""
    fd = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                 dir_fd=place.folder)
    try:
        for inner in os.listdir(fd):
            with contextlib.suppress(OSError):
                os.unlink(inner, dir_fd=fd)
    finally:
        os.close(fd)
    with contextlib.suppress(OSError):
        os.rmdir(entry, dir_fd=place.folder)


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

def _fingerprint(place: Place) -> dict[str, int] | None:
    wal = place.lstat(names.WAL.of(place.name))
    if wal is not None and wal.st_size > 0:   # a writer is open, or crashed
        return None                            # (an empty one is what a reader leaves)
    st = place.lstat()
    if st is None or not stat.S_ISREG(st.st_mode):
        return None
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "inode": st.st_ino}


def mark_clean(path: str | Place) -> None:
    """After the writer's connection closed: the mark the next start trusts, written under a
    new random name (O_EXCL|O_NOFOLLOW in the held folder: never a planted link, never a
    truncation) and renamed to ``NAME.clean``. Never fails: a start without it only checks
    the file."""
    place, mine = at(path)
    temp = ""
    try:
        found = _fingerprint(place)
        if found is None:
            return
        for _ in range(3):   # a name someone planted is passed over, never opened
            temp = names.CLEAN_TEMP.of(place.name)
            try:
                fd = place.create(temp)
                break
            except FileExistsError:
                temp = ""
        else:
            return
        with os.fdopen(fd, "w") as out:
            json.dump(found, out)
            out.flush()
            os.fsync(out.fileno())
        place.rename(temp, names.CLEAN.of(place.name))
    except OSError:
        if temp:
            with contextlib.suppress(OSError):
                place.unlink(temp)
    finally:
        if mine:
            place.close()


def _said(place: Place) -> Any:
    """The fingerprint a clean close left in the mark; None when there is none to read (or
    it is a link, a pipe, anything but a small regular file)."""
    try:
        fd = place.open_file(names.CLEAN.of(place.name))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as kept:
            return json.loads(kept.read(4096))
    except (OSError, ValueError):
        return None


def rests_clean(path: str | Place) -> bool:
    """Whether the file is exactly as the last writer closed it, for a reader: the mark stays
    (a reader changes nothing, so the next writer may still trust it)."""
    place, mine = (path, False) if isinstance(path, Place) else (Place.of(path), True)
    try:
        said = _said(place)
        return said is not None and said == _fingerprint(place)
    finally:
        if mine:
            place.close()


def was_closed_clean(place: Place) -> bool:
    """Whether the file is exactly as the last writer closed it; the mark is removed either
    way (the writer that opens now may not close cleanly)."""
    said = _said(place)
    if said is None:
        return False
    try:
        place.unlink(names.CLEAN.of(place.name))
        place.sync()   # gone for good before anything is written
    except OSError:
        return False   # a mark that may outlive a crash: check the whole file instead
    return said == _fingerprint(place)
