"""The one way the companion opens a file it reads (a script to replay, a file to import, a
backup to restore, a hardware config): a regular file only, and no bigger than its kind allows.

The path is walked one part at a time without following a link (walk.py), the file opened
``O_NOFOLLOW`` (a link is refused, never read: a notice could otherwise quote another file) and
``O_NONBLOCK`` (a FIFO then opens at once instead of waiting for a writer) and ``fstat``'d
before a byte is read: a pipe, a device (``/dev/zero``), a socket or a
folder is refused with one line naming it, never a hang or a MemoryError. Each kind has a
limit that fits a Raspberry Pi 3's 1 GB (an import is read a game at a time, so its limit is
the file's, not memory's); an environment variable raises or lowers it."""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from typing import BinaryIO

from companion.core.errors import CompanionError
from companion.files.walk import READ_FLAGS, PathRefused, walk

MB = 1 << 20
#: kind -> (limit in MB, the environment variable that overrides it)
LIMITS = {
    "script": (16, "COMPANION_MAX_SCRIPT_MB"),
    "import": (2048, "COMPANION_MAX_IMPORT_MB"),
    "game": (16, "COMPANION_MAX_GAME_MB"),      # one game (a line) of an import
    "backup": (4096, "COMPANION_MAX_BACKUP_MB"),
    "config": (1, "COMPANION_MAX_CONFIG_MB"),
}


class Unreadable(CompanionError, OSError):
    """A file refused before reading: ``label: cannot be read (reason)``."""

    def __init__(self, label: str, reason: str) -> None:
        super().__init__(f"{label}: cannot be read ({reason})")
        self.reason = reason


class NotAFile(Unreadable):
    """Not a regular file (a pipe, a device, a socket, a folder)."""


class FileTooBig(Unreadable):
    """Bigger than the companion reads for its kind; the reason says the limit and how to
    raise it."""


def limit(kind: str) -> int:
    """The limit in bytes for ``kind``: its default, or its environment variable (in MB)."""
    default, variable = LIMITS[kind]
    try:
        return max(1, int(float(os.environ.get(variable, default)) * MB))
    except (ValueError, OverflowError):     # not a number, "nan", "inf": the default
        return default * MB


def too_big(label: str, kind: str) -> FileTooBig:
    megabytes = limit(kind) / MB
    return FileTooBig(label, f"it is bigger than the {megabytes:g} MB the companion reads for "
                             f"a {kind}; set {LIMITS[kind][1]} to allow more")


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "it is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "it is a pipe (FIFO), not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a file"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a file"
    return "it is not a regular file"


def open_regular(path: str | os.PathLike[str], kind: str, label: str | None = None) -> BinaryIO:
    """``path`` opened for reading; NotAFile or FileTooBig (named ``label``) before a byte is
    read. OSError as the system gives it (no such file, permission denied)."""
    label = label or os.fspath(path)
    fd = open_nofollow(path, label)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotAFile(label, _kind_of(st.st_mode))
        if st.st_size > limit(kind):
            raise too_big(label, kind)
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def open_nofollow(path: str | os.PathLike[str], label: str) -> int:
    """``path`` opened for reading, its folder walked and its last part not followed:
    NotAFile for a link anywhere on the way."""
    text = os.fspath(path)
    head, name = os.path.split(text)
    if not name:
        raise NotAFile(label, "it is a folder, not a file")
    try:
        folder = walk(head or ".")
    except PathRefused as refused:
        raise NotAFile(label, refused.reason) from None
    try:
        return os.open(name, READ_FLAGS, dir_fd=folder)
    except OSError as problem:
        if problem.errno == errno.ELOOP or (problem.errno == errno.ENOTDIR and os.path.islink(
                os.path.join(head or ".", name))):
            raise NotAFile(label, "it is a link; the companion reads no link: give the file "
                                  "itself") from None
        if problem.errno == errno.ENXIO:   # a socket (or a device without its driver)
            try:
                mode = os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
            except OSError:
                mode = 0
            raise NotAFile(label, _kind_of(mode)) from None
        raise
    finally:
        os.close(folder)


def read_regular(path: str | os.PathLike[str], kind: str, label: str | None = None) -> bytes:
    """The whole of a small file (a script, a config), bounded by its kind's limit even if it
    grows while read."""
    label = label or os.fspath(path)
    with open_regular(path, kind, label) as file:
        return read_bounded(file, kind, label)


def read_bounded(file: BinaryIO, kind: str, label: str) -> bytes:
    """At most the kind's limit from an open stream (standard input too); FileTooBig past it."""
    most = limit(kind)
    data = file.read(most + 1)
    if len(data) > most:
        raise too_big(label, kind)
    return data
