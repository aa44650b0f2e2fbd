"""The one way the companion writes a file (an export, a backup, the USB stick's plays, a raw
log, the settings, the hardware config): never in place, never through a link.

The target's folder is walked one part at a time without following a link (walk.py) and held
open; a new file is made there with ``O_CREAT|O_EXCL|O_NOFOLLOW`` under a random name
(names.PART), flocked while it is written, fsync'd, its mode set on the open descriptor, then
renamed over the target by the folder's descriptor (or linked to a free name, which fails rather
than replace anything), and the folder fsync'd. A swapped name is caught by comparing the open
file with what the folder holds after the rename. Refused, with nothing written: the game
database or a file of its family (names.FAMILY) as the target, known by its folder's
(st_dev, st_ino) and its name, or by its own (st_dev, st_ino), whatever path named it; a target
that is a link, a folder, a pipe or a device (even with ``force``); an existing file unless the
command was told ``force``, and then it is replaced by a whole new file. A temporary a killed
writer left (no one holds its flock) is removed the next time that name is written."""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Union

from companion.core.errors import CompanionError
from companion.files import names
from companion.files.walk import Place, walk

Data = Union[str, bytes, IO[bytes]]


class FileRefused(CompanionError, OSError):
    """A file the companion will not write; the message names it and says why."""


class LinkRefused(FileRefused):
    """The target's name is a link: neither followed nor replaced, even with ``force``."""


@dataclass(frozen=True)
class Family:
    """The game database and every file SQLite or the store keeps beside it, as the folder
    and names they are, not as a path spells them: ``folder`` the (st_dev, st_ino) of the
    database's folder (None while it does not exist), ``names`` the family's names in it,
    ``files`` the (st_dev, st_ino) of those that exist (a hard link to one is the same file)."""

    folder: tuple[int, int] | None
    names: frozenset[str]
    files: frozenset[tuple[int, int]]

    def holds(self, place: Place, existing: os.stat_result | None) -> bool:
        if self.folder is not None and place.identity() == self.folder \
                and place.name in self.names:
            return True
        return existing is not None and stat.S_ISREG(existing.st_mode) \
            and (existing.st_dev, existing.st_ino) in self.files


def family(database: str | os.PathLike[str]) -> Family:
    """The database's family (see Family). Its folder is found following links here: this
    is only ever used to refuse more, never to write."""
    text = os.path.abspath(os.fspath(database))
    folder, base = os.path.split(text)
    wanted = frozenset(name.of(base) for name in names.FAMILY)
    try:
        fd = walk(folder)
    except OSError:
        try:
            fd = os.open(os.path.realpath(folder), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            return Family(None, wanted, frozenset())
    try:
        st = os.fstat(fd)
        files = set()
        for name in wanted:
            try:
                found = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISREG(found.st_mode):
                files.add((found.st_dev, found.st_ino))
        return Family((st.st_dev, st.st_ino), wanted, frozenset(files))
    finally:
        os.close(fd)


def _refuse_protected(place: Place, protect: Family | None) -> None:
    """FileRefused when the target is of the database's family; a link at the name is
    looked through only to say so (it is refused as a link anyway)."""
    if protect is None:
        return
    try:
        through = os.stat(place.name, dir_fd=place.folder)
    except (OSError, ValueError):
        through = None
    if protect.holds(place, place.lstat()) or protect.holds(place, through):
        raise FileRefused(f"{place.shown}: cannot be written (it is the game database, or a "
                          "file SQLite keeps beside it); give another file")


def open_folder(folder: str | os.PathLike[str], *, at: int | None = None) -> int:
    """The folder's descriptor, opened without following a link at its last part (``at``: a
    folder descriptor it is inside)."""
    return os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                   dir_fd=at)


def _check_existing(dfd: int, name: str, shown: str, force: bool) -> bool:
    """Whether ``name`` exists in the folder; FileRefused for one that may not be replaced:
    anything but a regular file, even with ``force`` (a link is neither followed nor
    replaced: as root, ``-o /dev/stdout --force`` would otherwise replace /dev's link)."""
    try:
        st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    if stat.S_ISDIR(st.st_mode):
        raise FileRefused(f"{shown}: cannot be written (it is a folder, not a file)")
    if stat.S_ISLNK(st.st_mode):
        raise LinkRefused(f"{shown}: cannot be written (it is a link; the companion never "
                          "writes through a link or over one): give the real file's name")
    if not stat.S_ISREG(st.st_mode):
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
    temp, fd = _new_temp(dfd, name)
    placed = False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)   # held while written: not a leftover
        remove_leftovers(dfd, name)
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


def _new_temp(dfd: int, name: str) -> tuple[str, int]:
    """A new temporary beside ``name`` (names.PART): a name someone planted is passed over
    for the next random one, never opened (a fourth taken name: FileExistsError)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for _ in range(3):
        temp = names.PART.of(name[:200])
        try:
            return temp, os.open(temp, flags, 0o600, dir_fd=dfd)
        except FileExistsError:
            continue
    temp = names.PART.of(name[:200])
    return temp, os.open(temp, flags, 0o600, dir_fd=dfd)


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


def remove_leftovers(dfd: int, name: str) -> list[str]:
    """The temporaries (names.PART) a killed writer of ``name`` left in the folder: regular
    files of this user that no one holds (their flock is free), removed; their names."""
    head, tail = names.PART.pattern.split("{token}")
    head, tail = head.format(name=name[:200]), tail
    gone = []
    for entry in os.listdir(dfd):
        if not (entry.startswith(head) and entry.endswith(tail)) \
                or len(entry) != len(head) + 8 + len(tail):
            continue
        try:
            fd = os.open(entry, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                         dir_fd=dfd)
        except OSError:
            continue
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid():
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue   # being written now
            there = os.stat(entry, dir_fd=dfd, follow_symlinks=False)
            if (there.st_dev, there.st_ino) == (st.st_dev, st.st_ino):
                _unlink(dfd, entry)
                gone.append(entry)
        finally:
            os.close(fd)
    return gone


def _unlink(dfd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=dfd)
    except OSError:
        pass


def write_whole(target: str | os.PathLike[str], data: Data, *, mode: int = 0o600,
                force: bool = False, protect: Family | None = None,
                folder_mode: int | None = None) -> Path:
    """``data`` as the file ``target`` (see the module's docstring); ``protect``: the game
    database's family (``family``), never written; ``folder_mode``: make the folder if it is
    missing, with that mode. Returns the target."""
    with Place.of(target, make=folder_mode) as place:
        _refuse_protected(place, protect)
        write_in(place.folder, place.name, data, mode=mode, force=force, shown=place.shown)
    return Path(target)
