"""Plays to a USB stick, from the History screen: every finished game as JSON lines with each
game's ``stored`` record (so another table's ``companion import`` takes the file) and as a csv
for spreadsheets, in a folder ``table-companion/`` on the stick.

The kiosk has no desktop and so no automounter: a stick is whatever a udev rule (README, "On a
Raspberry Pi") mounted under /media or /run/media. ``sticks`` finds those mount points in the
text of /proc/mounts, with the roots given as parameters, so tests use a fake tree.

A stick can be pulled out or fill up in the middle of a write: each file is written under a
hidden temporary name, flushed and fsync'd, and only then renamed to its final name (and the
folder fsync'd), so a name the table sees always holds a whole file. Nothing here imports the
UI; the History screen runs ``export`` off the main thread."""

from __future__ import annotations

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
from companion.store.opening import sync

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


def free_stem(folder: Path, stem: str) -> str:
    """``stem``, or ``stem-2``, ``stem-3``... the first whose jsonl and csv are both free: a
    second export the same day never overwrites the first."""
    n, chosen = 1, stem
    while (folder / f"{chosen}.jsonl").exists() or (folder / f"{chosen}.csv").exists():
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


def _write_whole(target: Path, text: str) -> Path:
    """``text`` to a hidden temporary name beside ``target``, fsync'd; returns that name."""
    part = target.with_name(f".{target.name}.part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        _remove(part)
        raise
    return part


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def export(conn: sqlite3.Connection, stick: str | os.PathLike[str], device: str,
           day: dt.date | None = None) -> Written:
    """Every finished game from ``conn`` to ``stick``/table-companion/ as ``<stem>.jsonl``
    (with the stored records) and ``<stem>.csv``. StickError, naming the stick and why, when
    they cannot be written; then no file is left under a final name by this export."""
    root = Path(stick)
    if not root.is_dir():
        raise StickError(f"{root}: {_WORDS[errno.ENOENT]}; nothing was written")
    plays = read_plays(conn)
    jsonl_text = as_jsonl(plays, stored_records(conn, plays))
    csv_text = as_csv(plays)
    folder = root / FOLDER
    left: list[Path] = []     # what to take away again if the stick fails before the end
    try:
        folder.mkdir(exist_ok=True)
        stem = free_stem(folder, file_stem(day or dt.date.today(), device))
        jsonl, csv = folder / f"{stem}.jsonl", folder / f"{stem}.csv"
        for target, text in ((jsonl, jsonl_text), (csv, csv_text)):
            left.append(_write_whole(target, text))
        for part, target in zip(list(left), (jsonl, csv)):
            os.rename(part, target)
            left[left.index(part)] = target
        sync(str(folder))
    except OSError as problem:
        for path in left:
            _remove(path)
        raise StickError(f"{folder}: {why(problem)}; nothing was written") from None
    return Written(len(plays), jsonl, csv)


def said(written: Written) -> str:
    """What the screen says after an export."""
    games = f"{written.games} game{'' if written.games == 1 else 's'}"
    return f"{games} to {written.jsonl} (and {written.csv.name} for spreadsheets)"
