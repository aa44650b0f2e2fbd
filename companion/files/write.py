"""The one way the companion writes a file (an export, a backup, the USB stick's plays, a raw
log, the settings, the hardware config): never in place, never through a link.

A new file is made beside the target with ``O_CREAT|O_EXCL|O_NOFOLLOW`` inside its folder opened
with ``O_DIRECTORY|O_NOFOLLOW``, written, fsync'd, its mode set on the open descriptor, then
renamed over the target by the folder's descriptor (or linked to a free name, which fails rather
than replace anything), and the folder fsync'd. A swapped name is caught by comparing the open
file with what the folder holds after the rename. Refused, with nothing written: the game
database, its -wal, -shm, journal, lock or clean mark as the target, by name or through a link
(device and inode compared); a target that is a folder, a pipe or a device; an existing target
unless the command was told ``force``, and then it is replaced by a whole new file."""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path
from typing import IO, Iterable, Union

from companion.core.errors import CompanionError

#: what a database brings beside it: each is as much the game database as the file itself
FAMILY = ("", "-wal", "-shm", "-journal", ".lock", ".clean")
Data = Union[str, bytes, IO[bytes]]


class FileRefused(CompanionError, OSError):
    """A file the companion will not write; the message names it and says why."""


def family(database: str | os.PathLike[str]) -> list[str]:
    """The database and every file beside it that SQLite or the store treats as part of it."""
    base = os.path.abspath(os.fspath(database))
    return [base + suffix for suffix in FAMILY]


def _identity(path: str, *, follow: bool = True) -> tuple[int, int] | None:
    try:
        st = os.stat(path, follow_symlinks=follow)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def _refuse_protected(target: str, protect: Iterable[str]) -> None:
    names = [os.path.abspath(p) for p in protect]
    if not names:
        return
    here = os.path.abspath(target)
    real = os.path.realpath(target)
    found = {_identity(p) for p in names} - {None}
    if here in names or real in names or _identity(target) in found \
            or _identity(target, follow=False) in found:
        raise FileRefused(f"{target}: cannot be written (it is the game database, or a file "
                          "SQLite keeps beside it); give another file")


def open_folder(folder: str | os.PathLike[str], *, at: int | None = None) -> int:
    """The folder's descriptor, opened without following a link at its last part (``at``: a
    folder descriptor it is inside)."""
    return os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                   dir_fd=at)


def _check_existing(dfd: int, name: str, shown: str, force: bool) -> bool:
    """Whether ``name`` exists in the folder; FileRefused for one that may not be replaced."""
    try:
        st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    if stat.S_ISDIR(st.st_mode):
        raise FileRefused(f"{shown}: cannot be written (it is a folder, not a file)")
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
        raise FileRefused(f"{shown}: cannot be written (it is a pipe, a socket or a device, "
                          "not a file); give a file name")
    if not force:
        raise FileRefused(f"{shown} already exists: give --force to replace it (nothing was "
                          "written)")
    return True


def _pour(fd: int, data: Data) -> None:
    raw = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
    with os.fdopen(os.dup(fd), "wb", closefd=True) as out:
        if isinstance(raw, bytes):
            out.write(raw)
        else:
            while chunk := raw.read(1 << 20):
                out.write(chunk)
        out.flush()


def write_in(dfd: int, name: str, data: Data, *, mode: int = 0o600, force: bool = False,
             shown: str | None = None) -> None:
    """``data`` as the file ``name`` in the open folder ``dfd`` (see the module's docstring)."""
    shown = shown or name
    if not name or "/" in name or name in (".", ".."):
        raise FileRefused(f"{shown}: cannot be written (not a name a file can have)")
    existed = _check_existing(dfd, name, shown, force)
    temp = f".{name[:200]}.{secrets.token_hex(4)}.part"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o600, dir_fd=dfd)
    placed = False
    try:
        _pour(fd, data)
        os.fchmod(fd, mode)
        os.fsync(fd)
        placed = _place(dfd, temp, name, shown, existed or force)
        mine = os.fstat(fd)
        there = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        if (there.st_dev, there.st_ino) != (mine.st_dev, mine.st_ino):
            raise FileRefused(f"{shown}: the folder was changed by someone else while the file "
                              "was written; it was not kept")
        os.fsync(dfd)
    finally:
        os.close(fd)
        if not placed:
            _unlink(dfd, temp)


def _place(dfd: int, temp: str, name: str, shown: str, replace: bool) -> bool:
    """The new file under its name: renamed over it when it may be replaced, else linked to a
    free name (which fails rather than replace what appeared meanwhile)."""
    if replace:
        os.rename(temp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        return True
    try:
        os.link(temp, name, src_dir_fd=dfd, dst_dir_fd=dfd, follow_symlinks=False)
    except FileExistsError:
        raise FileRefused(f"{shown} already exists: give --force to replace it (nothing was "
                          "written)") from None
    except OSError as problem:  # a stick's FAT has no hard links: the name was free a moment ago
        if problem.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS):
            raise
        _check_existing(dfd, name, shown, False)
        os.rename(temp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        return True
    _unlink(dfd, temp)
    return True


def _unlink(dfd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=dfd)
    except OSError:
        pass


def write_whole(target: str | os.PathLike[str], data: Data, *, mode: int = 0o600,
                force: bool = False, protect: Iterable[str] = (),
                folder_mode: int | None = None) -> Path:
    """``data`` as the file ``target`` (see the module's docstring); ``protect``: the game
    database's family (``family``), never written; ``folder_mode``: make the folder if it is
    missing, with that mode. Returns the target."""
    path = Path(target)
    shown = os.fspath(target)
    _refuse_protected(shown, protect)
    if folder_mode is not None:
        path.parent.mkdir(mode=folder_mode, parents=True, exist_ok=True)
    dfd = open_folder(path.parent)
    try:
        write_in(dfd, path.name, data, mode=mode, force=force, shown=shown)
    finally:
        os.close(dfd)
    return path
