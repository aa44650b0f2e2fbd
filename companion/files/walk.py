"""Every path the companion did not just create itself is walked here, one part at a time,
from a folder it holds open: ``os.open(part, O_NOFOLLOW | O_DIRECTORY, dir_fd=...)``.

A path is never resolved twice: what was checked is the open descriptor, and what is then
read, written, renamed or removed is reached through that descriptor by a single name. A link
anywhere in the path is refused in words (the companion never writes, reads or removes
through one), so a folder swapped for a link between a check and its use changes nothing: the
swap is either before the walk (refused) or after it (the walk holds the old folder).

``private=True`` also asks that nobody but this user (or root) can change a name where the
folder really is: from the folder reached, every folder up to ``/`` is judged by its ``..``
(never by how the path was spelled, so ``c.sqlite3``, ``./c.sqlite3``, ``a/../c.sqlite3`` and
the absolute path are one judgment, the current folder's parents included). A folder writable
by others is refused unless it is sticky (``/tmp``) and the next one down is this user's own; a
folder of another user is refused naming that user (``owner``). SQLite opens a database and its
-wal by name, so it is handed the held folder itself (``Place.for_sqlite``:
``/proc/self/fd/N/NAME``, which the kernel resolves to the folder held, wherever it has been
moved and whatever link now has its old name); everything the companion itself opens goes by
descriptor.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass

from companion.core.errors import CompanionError

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
#: how every file the companion makes is created: a new name, never a link, never truncated
CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
#: how every existing file the companion reads is opened: never a link, never waited on
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


class PathRefused(CompanionError, OSError):
    """A path the companion will not walk: a link in it, a part that is not a folder, or a
    folder another user may change: ``shown: cannot be used (reason)``."""

    def __init__(self, shown: str, reason: str, owner: int | None = None) -> None:
        super().__init__(f"{shown}: cannot be used ({reason})")
        self.reason = reason
        #: the path or folder refused, as a message names it
        self.shown_as = shown
        #: the user a refused folder belongs to, when that is why (the command is theirs to run)
        self.owner = owner


def _parts(path: str) -> tuple[str, list[str]]:
    start = "/" if path.startswith("/") else "."
    return start, [part for part in path.split("/") if part not in ("", ".")]


def user_name(uid: int) -> str:
    """A user as a person types it in ``sudo -u``: the login name, else ``#uid``."""
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (KeyError, ImportError):
        return f"#{uid}"


def folder_name(fd: int) -> str:
    """Where the held folder ``fd`` is now, for a message (the kernel's name for it)."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return "a folder above it"


def _refuse_shared(st: os.stat_result, shown: str, next_owner: int | None) -> None:
    """A folder another user could change a name in: refused, unless it is sticky and the
    next part belongs to this user or root."""
    me = os.geteuid()
    if st.st_uid not in (me, 0):
        raise PathRefused(shown, f"the folder belongs to {user_name(st.st_uid)}, who could "
                                 "swap what is in it", owner=st.st_uid)
    if st.st_mode & 0o022:
        sticky = st.st_mode & stat.S_ISVTX
        if not sticky or next_owner not in (me, 0):
            raise PathRefused(shown, "other users may write in that folder and swap what is "
                                     "in it; use a folder of your own")


UP_FLAGS = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def judge_up(fd: int) -> None:
    """The held folder ``fd`` and every folder above it up to ``/``, as they really are
    (each reached by its ``..``, never by a spelling): PathRefused, naming the folder, for one
    another user could change a name in (see ``_refuse_shared``)."""
    here = os.fstat(fd)
    _refuse_shared(here, folder_name(fd), os.geteuid())
    child = os.open(".", UP_FLAGS, dir_fd=fd)
    try:
        while True:
            parent = os.open("..", UP_FLAGS, dir_fd=child)
            above = os.fstat(parent)
            if (above.st_dev, above.st_ino) == (here.st_dev, here.st_ino):   # / itself
                os.close(parent)
                return
            try:
                _refuse_shared(above, folder_name(parent), here.st_uid)
            except BaseException:
                os.close(parent)
                raise
            os.close(child)
            child, here = parent, above
    finally:
        os.close(child)


def walk(path: str | os.PathLike[str], *, make: int | None = None, private: bool = False,
         shown: str | None = None) -> int:
    """The open descriptor of the folder ``path``, reached one part at a time without following
    a link (``make``: missing parts are made with that mode). PathRefused for a link or a part
    that is not a folder; OSError as the system gives it otherwise (no such folder)."""
    text = os.fspath(path)
    shown = shown or text
    start, parts = _parts(text)
    fd = os.open(start, DIR_FLAGS)
    done = start if start == "/" else ""
    try:
        for part in parts:
            done = os.path.join(done, part) if done else part
            try:
                nxt = os.open(part, DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if make is None:
                    raise
                try:
                    os.mkdir(part, make, dir_fd=fd)
                except FileExistsError:
                    pass
                nxt = os.open(part, DIR_FLAGS, dir_fd=fd)
            except OSError as problem:
                raise _refused(fd, part, done, shown, problem) from None
            os.close(fd)
            fd = nxt
        if private:   # where it really is, however it was spelled: one judgment for all
            judge_up(fd)
        return fd
    except BaseException:
        os.close(fd)
        raise


def _refused(fd: int, part: str, done: str, shown: str, problem: OSError) -> OSError:
    if problem.errno not in (errno.ELOOP, errno.ENOTDIR):
        return problem
    try:
        st = os.stat(part, dir_fd=fd, follow_symlinks=False)
    except OSError:
        return problem
    if stat.S_ISLNK(st.st_mode):
        return PathRefused(shown, f"{done} is a link; the companion never goes through a "
                                  "link: give the real path")
    return PathRefused(shown, f"{done} is not a folder")


@dataclass(frozen=True)
class Place:
    """A name in a folder the companion holds open: everything done to the file is done by
    this descriptor and this one name (``shown``: the path as a person gave it)."""

    folder: int
    name: str
    shown: str

    @classmethod
    def of(cls, path: str | os.PathLike[str], *, make: int | None = None,
           private: bool = False) -> "Place":
        """The place of ``path``: its folder walked (see :func:`walk`), its last part a name.
        A path ending in "/" names a folder (the system would refuse it as a file's): never
        taken for the file before the slash, which it would replace."""
        text = os.fspath(path)
        if text.endswith("/") and text.rstrip("/"):
            raise PathRefused(text, "it ends with '/', so it names a folder, not a file")
        head, name = os.path.split(text)
        if not name or name in (".", ".."):
            raise PathRefused(text, "not a name a file can have")
        return cls(walk(head or ".", make=make, private=private, shown=text), name, text)

    def close(self) -> None:
        try:
            os.close(self.folder)
        except OSError:
            pass

    def __enter__(self) -> "Place":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def beside(self, suffix: str) -> str:
        return self.name + suffix

    def lstat(self, name: str | None = None) -> os.stat_result | None:
        """The entry ``name`` (default: this place's) as it is, a link not followed; None
        when there is none."""
        try:
            return os.stat(name or self.name, dir_fd=self.folder, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def create(self, name: str, mode: int = 0o600) -> int:
        """A new file ``name`` in the folder, open for writing: O_EXCL and O_NOFOLLOW, so a
        name that exists (a link, a pipe, anything) is never opened, never truncated."""
        return os.open(name, CREATE_FLAGS, mode, dir_fd=self.folder)

    def open_file(self, name: str | None = None, flags: int = READ_FLAGS) -> int:
        """An existing regular file ``name`` opened without following a link or waiting on a
        pipe; OSError (ELOOP for a link) or PathRefused for anything but a regular file."""
        try:
            fd = os.open(name or self.name, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                         dir_fd=self.folder)
        except OSError as problem:       # a socket cannot be opened at all: said as what it is
            if problem.errno == errno.ENXIO:
                raise PathRefused(self.path(name), "it is a socket or a device, not a regular "
                                                   "file") from None
            raise
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise PathRefused(self.path(name), "it is not a regular file")
        return fd

    def unlink(self, name: str) -> bool:
        """``name`` removed from the folder (a link itself, never its target); False if absent."""
        try:
            os.unlink(name, dir_fd=self.folder)
        except FileNotFoundError:
            return False
        return True

    def rename(self, old: str, new: str) -> None:
        os.rename(old, new, src_dir_fd=self.folder, dst_dir_fd=self.folder)

    def sync(self) -> None:
        os.fsync(self.folder)

    def path(self, name: str | None = None) -> str:
        """The path of ``name`` in this folder as the person gave it: for messages only."""
        return os.path.join(os.path.dirname(self.shown), name or self.name)

    def for_sqlite(self, name: str | None = None) -> str:
        """The name SQLite opens ``name`` (and its -wal, -shm, -journal) by: the held folder
        itself (``/proc/self/fd/N/NAME``; SQLite resolves the link the kernel gives to the
        folder's real place, so a folder on the spelled path swapped for a link after the walk
        is never followed). Where there is no /proc, the path as given (a folder walked
        ``private``: no other user can swap a part of it)."""
        proc = f"/proc/self/fd/{self.folder}"
        if os.path.isdir(proc):
            return os.path.join(proc, name or self.name)
        return self.path(name)

    def identity(self) -> tuple[int, int]:
        """The folder's (st_dev, st_ino): the same folder whatever path named it."""
        st = os.fstat(self.folder)
        return st.st_dev, st.st_ino
