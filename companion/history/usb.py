"""Plays to a USB stick, from the History screen: every finished game as JSON lines with each
game's ``stored`` record (so another table's ``companion import`` takes the file) and as a csv
for spreadsheets, in a folder ``table-companion/`` on the stick.

The kiosk has no desktop and so no automounter: a stick is whatever a udev rule (docs/pi.md, "A USB
stick") mounted under /media or /run/media. ``sticks`` finds those mount points in the
text of /proc/mounts, with the roots given as parameters, so tests use a fake tree.

A stick can be pulled out or fill up in the middle of a write, and what is on it was put there by
anyone: each file is written by the one writer (companion/files/write.py) under a new hidden
name, fsync'd, and only then given a free final name (and the folder fsync'd), so a name the
table sees always holds a whole file; the folder is opened without following a link and must be
on the stick itself, so a planted link or a FIFO sends nothing elsewhere and never hangs. Nothing here imports the
UI; the History screen runs ``export`` off the main thread."""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import os
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from companion.core.errors import CompanionError
from companion.history.export_all import as_csv, as_jsonl, stored_records
from companion.history.plays import read_plays
from companion.files.walk import PathRefused, walk
from companion.files.write import FileRefused, open_folder, write_in

#: where a removable drive is mounted: /media/<user>/<label>, /run/media/<user>/<label> (udisks)
#: and /media/<label> (a udev rule with systemd-mount)
ROOTS = ("/media", "/run/media")
#: the folder on the stick the files go into
FOLDER = "table-companion"
#: file systems that are not a drive (an automount's placeholder until it is opened)
NOT_A_DRIVE = frozenset({"autofs", "tmpfs", "proc", "sysfs", "devtmpfs", "overlay"})


class StickError(CompanionError, OSError):
    """The export could not be written; the message says why in the table's words."""


@dataclass(frozen=True)
class Stick:
    path: Path
    writable: bool


@dataclass(frozen=True)
class Written:
    games: int
    jsonl: Path
    csv: Path


def _unescape(field: str) -> str:
    """/proc/mounts writes a space, tab, newline and backslash in a path as octal (\\040)."""
    return re.sub(r"\\([0-7]{3})", lambda octal: chr(int(octal[1], 8)), field)


def sticks(mounts: str, roots: Sequence[str | os.PathLike[str]] = ROOTS) -> list[Stick]:
    """The removable drives mounted one or two folders below a root (``/media/usb``,
    ``/media/anna/KINGSTON``), in the order mounted, each once; ``writable`` when it is not
    mounted read-only and this user may write its top folder. A mount point that is gone from
    the file system (a stick just pulled) is left out."""
    bases = [Path(r) for r in roots]
    found: dict[Path, Stick] = {}
    for line in mounts.splitlines():
        fields = line.split()
        if len(fields) < 4 or fields[2] in NOT_A_DRIVE:
            continue
        point = Path(_unescape(fields[1]))
        if not any(base in point.parents and len(point.relative_to(base).parts) <= 2
                   for base in bases):
            continue
        if not point.is_dir():
            continue
        read_only = "ro" in fields[3].split(",")
        found[point] = Stick(point, not read_only and os.access(point, os.W_OK | os.X_OK))
    return list(found.values())


def read_mounts(path: str = "/proc/mounts") -> str:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read()
    except OSError:
        return ""


def file_stem(day: dt.date, device: str) -> str:
    """``plays-2026-11-30-ab12``: the date and the first four letters of this device's id."""
    short = "".join(c for c in device if c.isalnum())[:4].lower() or "table"
    return f"plays-{day.isoformat()}-{short}"


def free_stem(folder: Path | int, stem: str) -> str:
    """``stem``, or ``stem-2``, ``stem-3``... the first whose jsonl and csv are both free (a
    link, even a dangling one, or a pipe takes a name too): a second export the same day never
    overwrites the first. ``folder``: a path or an open folder's descriptor."""
    def taken(name: str) -> bool:
        try:
            if isinstance(folder, int):
                os.stat(name, dir_fd=folder, follow_symlinks=False)
            else:
                os.lstat(folder / name)
        except FileNotFoundError:
            return False
        return True

    n, chosen = 1, stem
    while taken(f"{chosen}.jsonl") or taken(f"{chosen}.csv"):
        n += 1
        chosen = f"{stem}-{n}"
    return chosen


#: what a failed write means at the table, by errno
_WORDS = {
    errno.EROFS: "the stick is read-only (is its lock switch on?)",
    errno.EACCES: "the stick may not be written by the companion (read-only or another "
                  "user's)",
    errno.EPERM: "the stick may not be written by the companion (read-only or another user's)",
    errno.ENOSPC: "the stick is full",
    errno.EDQUOT: "the stick is full",
    errno.ENOENT: "the stick is not there any more (pulled out?)",
    errno.ENODEV: "the stick is not there any more (pulled out?)",
    errno.EIO: "the stick stopped answering (pulled out while writing?)",
}


def why(problem: OSError) -> str:
    return _WORDS.get(problem.errno or 0) or problem.strerror or str(problem)


def _open_stick_folder(root: Path) -> int:
    """The stick's ``table-companion`` folder, made if missing, opened without following a link
    (neither the stick's top folder nor this one may be a link) and on the stick's own drive."""
    top = walk(root)   # part by part: no link anywhere on the way to the stick
    try:
        with contextlib.suppress(FileExistsError):
            os.mkdir(FOLDER, 0o755, dir_fd=top)
        try:
            folder = open_folder(FOLDER, at=top)
        except OSError as problem:
            if problem.errno == errno.ELOOP or os.path.islink(root / FOLDER):
                raise StickError(f"{root / FOLDER} is a link on the stick, not a folder: the "
                                 "companion writes only into a real folder there; nothing was "
                                 "written") from None
            if problem.errno == errno.ENOTDIR:
                raise StickError(f"{root / FOLDER} on the stick is a file, not a folder: "
                                 "rename it; nothing was written") from None
            raise
        if os.fstat(folder).st_dev != os.fstat(top).st_dev:
            os.close(folder)
            raise StickError(f"{root / FOLDER} is on another drive than the stick (something is "
                             "mounted there); nothing was written")
        return folder
    finally:
        os.close(top)


def export(conn: sqlite3.Connection, stick: str | os.PathLike[str], device: str,
           day: dt.date | None = None) -> Written:
    """Every finished game from ``conn`` to ``stick``/table-companion/ as ``<stem>.jsonl``
    (with the stored records) and ``<stem>.csv``, each by the one writer (companion/files/):
    a new file under a free name, never through a link. StickError, naming the stick and why,
    when they cannot be written; then no file is left under a final name by this export."""
    root = Path(stick)
    if not root.is_dir():
        raise StickError(f"{root}: {_WORDS[errno.ENOENT]}; nothing was written")
    plays = read_plays(conn)
    jsonl_text = as_jsonl(plays, stored_records(conn, plays))
    csv_text = as_csv(plays)
    folder = root / FOLDER
    try:
        dfd = _open_stick_folder(root)
    except OSError as problem:
        if isinstance(problem, StickError):
            raise
        if isinstance(problem, PathRefused):
            raise StickError(f"{problem}; nothing was written") from None
        raise StickError(f"{folder}: {why(problem)}; nothing was written") from None
    left: list[str] = []     # what to take away again if the stick fails before the end
    try:
        stem = free_stem(dfd, file_stem(day or dt.date.today(), device))
        for name, text in ((f"{stem}.jsonl", jsonl_text), (f"{stem}.csv", csv_text)):
            write_in(dfd, name, text, mode=0o644, shown=str(folder / name))
            left.append(name)
    except OSError as problem:
        for name in left:
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=dfd)
        reason = str(problem) if isinstance(problem, (FileRefused, PathRefused)) else why(problem)
        raise StickError(f"{folder}: {reason}; nothing was written") from None
    finally:
        os.close(dfd)
    return Written(len(plays), folder / f"{stem}.jsonl", folder / f"{stem}.csv")


def said(written: Written) -> str:
    """What the screen says after an export."""
    games = f"{written.games} game{'' if written.games == 1 else 's'}"
    return f"{games} to {written.jsonl} (and {written.csv.name} for spreadsheets)"
