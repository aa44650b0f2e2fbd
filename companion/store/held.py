"""Where the game database lives, held: its folder walked and held open (``place_of``), what
may be there (``refuse_odd``: the file and the -wal, -shm and -journal SQLite opens beside it by
name), and the one-writer lock (``WriterLock``): created once (O_EXCL), else opened O_NOFOLLOW
and used only if it is a regular file of this user with one link; then only flocked, its pid
written in place (padded: never a truncation) and blanked at release. A planted link, a hard
link to the database, a pipe or a folder at any of those names is refused in words, and the
file is left as it was."""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import time
from dataclasses import dataclass

from companion.core.errors import StoreError
from companion.files import names
from companion.files.walk import PathRefused, Place, user_name
from companion.store.said import NotOwner, refusal


def me() -> str:
    return user_name(os.geteuid())


def place_of(path: str, *, make: bool = False, private: bool = True) -> Place:
    """The database's place (its folder walked and held, see walk.py); StoreError in words
    for a link on the way or a folder another user may change (NotOwner when that user owns
    it: the command is theirs to run)."""
    try:
        place = Place.of(path, make=0o700 if make else None, private=private)
    except PathRefused as problem:
        if problem.owner is not None:
            owner = user_name(problem.owner)
            raise NotOwner(path, f"is in {problem.shown_as}, which belongs to {owner} "
                                 f"({me()} may not use it: {owner} could swap what is in it)",
                           owner) from None
        if problem.shown_as != path:   # a folder on the way: named as a folder, not the database
            raise StoreError(f"The game database {path} cannot be used (its folder "
                             f"{problem.shown_as}: {problem.reason}); nothing was changed") from None
        raise StoreError(f"The game database {problem}; nothing was changed") from None
    except OSError as problem:
        raise refusal(path, problem) from None
    _refuse_long(place)
    return place


def _refuse_long(place: Place) -> None:
    """A database whose name leaves no room for the names kept beside it (its -journal, the
    copies set aside before a repair or restore) would fail halfway through some command:
    refused at once, in words."""
    try:
        most = os.fpathconf(place.folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        most = 255
    need, longest = names.longest_beside(place.name)
    if need > most:
        place.close()
        own = len(place.name.encode("utf-8", "surrogateescape"))
        raise StoreError(f"The game database {place.shown} cannot be used: its name is {own} "
                         f"bytes, and the names kept beside it (such as {longest}) "
                         f"need {need}, over the {most} a name may have there; give "
                         "it a shorter name. Nothing was changed")


def refuse_odd(place: Place) -> bool:
    """StoreError for a link, a folder, a device or a pipe; True when a regular file is
    there, False when nothing is."""
    st = place.lstat()
    if st is None:
        return False
    path = place.shown
    if stat.S_ISLNK(st.st_mode):
        raise StoreError(f"{path} is a link, not a game database: the companion never opens "
                         "a database through a link; give the real file")
    if stat.S_ISDIR(st.st_mode):
        raise StoreError(f"{path} is a folder, not a game database; give a file name")
    if not stat.S_ISREG(st.st_mode):
        raise StoreError(f"{path} is not a regular file (a device or a pipe), not a game "
                         "database; give a file name")
    if st.st_uid != os.geteuid():   # judged as its side files are: this user's, one name
        owner = user_name(st.st_uid)
        raise NotOwner(path, f"belongs to {owner}, not to {me()} (SQLite would make its -wal "
                             "and -shm beside it, which its owner's companion then refuses)",
                       owner)
    if st.st_nlink > 1:
        raise StoreError(f"The game database {path} cannot be used: it is another name of "
                         f"another file (a hard link, {st.st_nlink} names), which SQLite would "
                         "write into too; nothing was read or changed. Make it a file of its "
                         "own (cp -p it to a new name, then mv that over it)")
    refuse_odd_sides(place)
    return True


def refuse_odd_sides(place: Place) -> None:
    """SQLite opens the -wal, -shm and -journal beside a database by name (O_NOFOLLOW, so
    never through a link): each that is there must be a regular file of this user with one
    link, or SQLite would write into a pipe, or into another file through a hard link. A
    count of no links is a file another writer is removing at this moment (Linux's ``lstat``
    can find the name and then read the count after the unlink dropped it): it is gone, not a
    hard link. A refused side file is named with what it holds and kept: a -wal or -journal
    may hold a game's acknowledged steps, so no advice ever removes one."""
    for side in (names.WAL, names.SHM, names.JOURNAL):
        name = side.of(place.name)
        st = place.lstat(name)
        if st is None or st.st_nlink == 0:   # none, or one another writer is removing now
            continue
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
            what = "a link" if stat.S_ISLNK(st.st_mode) else "not a regular file"
            do = ("it holds none of this database's steps (SQLite never writes through a link "
                  "or into a pipe): move it aside, then start again")
        elif st.st_uid != os.geteuid():
            what = f"it belongs to {user_name(st.st_uid)}"
            do = (f"{holds(place, name, st)}: give it to the database's owner (sudo chown "
                  f"{me()} {place.path(name)}), then start again")
        elif st.st_nlink > 1:
            what = "it is another name of another file (a hard link)"
            do = (f"{holds(place, name, st)}: make it a file of its own (cp -p it to a new "
                  "name, then mv that over it), then start again")
        else:
            continue
        raise StoreError(f"The game database {place.shown} cannot be used: "
                         f"{place.path(name)} beside it is refused ({what}); it was kept and "
                         f"the database left as it was; {do}")


def holds(place: Place, name: str, st: os.stat_result) -> str:
    """What a side file holds, in words: a -wal's pages written after the file's last
    checkpoint (maybe steps not yet in the file), a -journal's pages of an unfinished write
    (to be put back), a -shm's index of the -wal (nothing of its own)."""
    if name.endswith("-shm"):
        return "it is only SQLite's index of the -wal"
    if st.st_size == 0:
        return "it is empty"
    if name.endswith("-journal"):
        return (f"it holds {st.st_size:,} bytes of an unfinished write, which SQLite puts back "
                "into the file")
    try:
        fd = place.open_file(name)
        try:
            head = os.pread(fd, 32, 0)
        finally:
            os.close(fd)
    except OSError:
        head = b""
    size = int.from_bytes(head[8:12], "big") if head[:4] in (b"\x37\x7f\x06\x82",
                                                              b"\x37\x7f\x06\x83") else 0
    if not size:
        return f"it holds {st.st_size:,} bytes that are not a -wal SQLite wrote"
    pages = max(0, (st.st_size - 32) // (24 + size))
    return (f"it holds {pages:,} page(s) written after the file's last checkpoint (steps that "
            "may not be in the file yet)")


def refuse_odd_path(path: str) -> bool:
    """refuse_odd for a path (walked, not held); False also when its folder is missing."""
    try:
        place = Place.of(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except PathRefused as problem:
        raise StoreError(str(problem)) from None
    with place:
        return refuse_odd(place)


# -- one writer ------------------------------------------------------------------------------
#: the pid is written in place at the lock's start, padded: never a truncation
PID_WIDTH = 20


@dataclass(frozen=True)
class WriterLock:
    """An exclusive ``flock`` on NAME.lock, held by the writing process for its life."""

    path: str
    fd: int

    @classmethod
    def take(cls, database: str | Place) -> "WriterLock":
        mine = not isinstance(database, Place)
        place = place_of(database) if mine else database
        try:
            return cls._take(place)
        finally:
            if mine:
                place.close()

    @classmethod
    def _take(cls, place: Place) -> "WriterLock":
        database = place.shown
        name = names.LOCK.of(place.name)
        try:
            fd = _open_lock(place, name)
        except StoreError:
            raise
        except OSError as problem:
            raise refusal(database, problem) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            deadline = time.monotonic() + 0.5  # the holder writes its pid just after locking
            while not _alive(holder := os.pread(fd, PID_WIDTH, 0).decode("ascii", "replace")):
                if time.monotonic() > deadline:   # blank, or a holder before it (now gone)
                    holder = "unknown"
                    break
                time.sleep(0.01)
            holder = holder.strip()
            os.close(fd)
            raise StoreError(f"The game database {database} is in use: the companion is already "
                             f"running (pid {holder}). Close it first; companion history and "
                             "export can read the games meanwhile") from None
        except OSError as problem:
            os.close(fd)
            raise refusal(database, problem) from None
        try:  # a full card refuses even the pid: say so, and hold no lock (a retry may work)
            os.pwrite(fd, f"{os.getpid():<{PID_WIDTH - 1}}\n".encode("ascii"), 0)
        except OSError as problem:
            os.close(fd)
            raise refusal(database, problem) from None
        return cls(place.path(name), fd)

    def release(self) -> None:
        try:   # the pid blanked in place (never a truncation), then the flock dropped
            os.pwrite(self.fd, b" " * (PID_WIDTH - 1) + b"\n", 0)
        except OSError:
            pass
        try:
            os.close(self.fd)  # closing the only descriptor drops the flock
        except OSError:
            pass


def _alive(text: str) -> bool:
    """Whether ``text`` (read from a lock) names a running process."""
    if not text.strip().isdigit():
        return False
    try:
        os.kill(int(text), 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True
    return True


def _open_lock(place: Place, name: str) -> int:
    """The lock file, made once (O_EXCL) or opened without following a link; StoreError for
    one that is not a regular file of this user's with one link (a planted link, a hard link
    to the database, a pipe): it would be written to."""
    flags = os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        return os.open(name, flags | os.O_CREAT | os.O_EXCL, 0o600, dir_fd=place.folder)
    except FileExistsError:
        pass
    try:
        fd = os.open(name, flags, dir_fd=place.folder)
    except OSError as problem:
        if problem.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO, errno.EMLINK):
            raise _bad_lock(place, name, "it is not a regular file (a link, a folder or a "
                                         "pipe)") from None
        raise
    st = os.fstat(fd)
    why = ("it is not a regular file" if not stat.S_ISREG(st.st_mode)
           else "it belongs to another user" if st.st_uid != os.geteuid()
           else "it is another name of another file (a hard link)" if st.st_nlink > 1
           else "it was removed while it was being opened" if st.st_nlink == 0
           else None)
    if why:
        os.close(fd)
        raise _bad_lock(place, name, why)
    return fd


def _bad_lock(place: Place, name: str, why: str) -> StoreError:
    return StoreError(f"The game database {place.shown} cannot be used: its lock "
                      f"{place.path(name)} is refused ({why}); remove it and start again "
                      "(the file was left as it was)")


