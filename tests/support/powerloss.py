"""The power-loss simulation behind tests/companion/test_store_power_loss.py.

SIGKILL (tests/companion/test_store_kills.py) leaves the operating system's page cache, so it
cannot lose a write that was never synced; a pulled plug can. ``fsync_recorder.c`` records the
database, its -wal and its -journal at every fsync the child makes, and here the files a
power cut could leave at each of those points are rebuilt and opened like the companion would.

The model (ext4-like): creating and deleting a file reach the card in order, but a file's bytes
are durable only up to its last fsync. For point k, where file X was just synced:

* ``durable``: every file as it stood at its own last fsync (a file created and never synced is
  empty): the cut came right after the fsync returned, and nothing unsynced reached the card;
* ``torn``: the cut came during that fsync: X holds, sector by sector (512 bytes), a random mix
  of its previous durable bytes and its new ones (new space not written reads as zeros);
* ``prefix``: the same, but the first half of the changed sectors reached the card in order;
* ``cache``: everything written so far reached the card (what SIGKILL leaves).

Each must open with ``Store`` (nothing moved aside), pass ``PRAGMA integrity_check`` and
``companion check``, hold every step whose ``ACK`` was printed before ``FSYNC k`` (and the undo
if ``UNDONE`` was), fold like a replay of its exported steps, and take the next command.
``dropped_fsync`` is the control the test expects to fail: X keeps its previous bytes though
the step its fsync made durable was acknowledged (a card that drops an fsync)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from companion.store.check import check
from companion.core import Command
from companion.script import export_lines, replay
from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]
SHIM = Path(__file__).with_name("fsync_recorder.c")
NAMES = ("db", "db-wal", "db-journal")
SUFFIX = {"db": "", "db-wal": "-wal", "db-journal": "-journal"}
SECTOR = 512
MODELS = ("durable", "torn", "prefix", "cache")


def compile_shim(target: Path) -> Path | None:
    """The shim built into ``target`` (a folder), or None when there is no C compiler."""
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        return None
    out = target / "fsync_recorder.so"
    built = subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(out), str(SHIM), "-ldl"],
                           capture_output=True, text=True)
    assert built.returncode == 0, f"{cc} could not build {SHIM.name}:\n{built.stderr}"
    return out


@dataclass
class Point:
    """One fsync: the file synced, each file there (name -> incarnation), the last ACK before
    it, and whether ``UNDONE`` came before it."""

    k: int
    synced: str
    files: dict[str, int]
    acked: int
    undone: bool
    folder: Path

    def copy(self, name: str) -> bytes:
        return (self.folder / name).read_bytes()


@dataclass
class Record:
    """Every point of every run of the child, in order, and the last step acknowledged.
    ``incarnations``: each file there now, as (incarnation number, inode)."""

    points: list[Point] = field(default_factory=list)
    acked: int = 0
    undone: bool = False
    incarnations: dict[str, tuple[int, int] | None] = field(default_factory=dict)
    born: int = 0

    def read_point(self, k: int, folder: Path) -> Point:
        """Reads the shim's INFO. A file whose inode changed, or that was gone at a point or
        between runs, is a new incarnation: inode numbers are reused (the -wal often gets the
        -journal's), and within a run the store deletes its -wal only when it closes."""
        synced, seen = "", {}
        for line in (folder / "INFO").read_text().splitlines():
            word, *rest = line.split()
            if word == "synced":
                synced = rest[0]
            else:
                seen[rest[0]] = int(rest[1])
        files = {}
        for name in NAMES:
            if name not in seen:
                self.incarnations[name] = None
                continue
            current = self.incarnations.get(name)
            if current is None or current[1] != seen[name]:
                self.born += 1
                current = self.incarnations[name] = (self.born, seen[name])
            files[name] = current[0]
        return Point(k, synced, files, self.acked, self.undone, folder)

    def gone(self, db: Path) -> None:
        """Between runs: a file the last run deleted is a new one if it comes back."""
        for name in NAMES:
            if not Path(f"{db}{SUFFIX[name]}").exists():
                self.incarnations[name] = None


def record(shim: Path, db: Path, record_dir: Path, script: Path, rec: Record,
           *flags: str) -> None:
    """One run of tests/support/store_child.py with the shim, its points added to ``rec``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LD_PRELOAD": str(shim),
           "FSYNC_RECORD_DIR": str(record_dir), "FSYNC_RECORD_DB": str(db.resolve()),
           "FSYNC_RECORD_FIRST": str(len(rec.points) + 1)}
    done = subprocess.run([sys.executable, "-m", "tests.support.store_child", str(db),
                           str(script), *flags], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    for line in done.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word == "ACK":
            rec.acked = max(rec.acked, int(rest))
        elif word == "UNDONE":
            rec.undone = True
        elif word == "FSYNC":
            k = int(rest)
            assert k == len(rec.points) + 1, f"point {k} out of order"
            rec.points.append(rec.read_point(k, record_dir / f"{k:06d}"))
    assert "DONE" in done.stdout.splitlines(), done.stdout[-200:]  # its close syncs after
    rec.gone(db)


def durable(points: list[Point], k: int) -> dict[str, bytes]:
    """Each file at point k (1-based) as of its own last fsync (empty if never synced)."""
    here = points[k - 1]
    files = {}
    for name, born in here.files.items():
        files[name] = b""
        for p in reversed(points[:k]):
            if p.synced == name and p.files.get(name) == born:
                files[name] = p.copy(name)
                break
    return files


def _mix(old: bytes, new: bytes, keep: list[bool]) -> bytes:
    """``new`` where ``keep`` says the changed sector reached the card, else ``old`` (zeros
    beyond its end)."""
    old = old[: len(new)].ljust(len(new), b"\0")
    out, changed = bytearray(old), 0
    for at in range(0, len(new), SECTOR):
        if old[at:at + SECTOR] != new[at:at + SECTOR]:
            if keep[changed]:
                out[at:at + SECTOR] = new[at:at + SECTOR]
            changed += 1
    return bytes(out)


def _changed(old: bytes, new: bytes) -> int:
    old = old[: len(new)].ljust(len(new), b"\0")
    return sum(old[a:a + SECTOR] != new[a:a + SECTOR] for a in range(0, len(new), SECTOR))


def _before(points: list[Point], k: int) -> bytes:
    """The durable bytes of the file synced at point k just before that fsync (empty if it
    was made since the previous point)."""
    x = points[k - 1].synced
    if k == 1 or points[k - 2].files.get(x) != points[k - 1].files.get(x):
        return b""
    return durable(points, k - 1)[x]


def images(points: list[Point], k: int, rng: random.Random) -> dict[str, dict[str, bytes]]:
    """The files a cut at point k may leave, by model (see the module's docstring)."""
    here, now = points[k - 1], durable(points, k)
    x, old = here.synced, _before(points, k)
    n = _changed(old, now[x])
    torn = [rng.random() < 0.5 for _ in range(n)]
    prefix = [i < n // 2 for i in range(n)]
    return {"durable": now,
            "torn": {**now, x: _mix(old, now[x], torn)},
            "prefix": {**now, x: _mix(old, now[x], prefix)},
            "cache": {name: here.copy(name) for name in here.files}}


def dropped_fsync(points: list[Point], k: int) -> dict[str, bytes]:
    """The control: the files as if point k's fsync had not happened, all others kept."""
    return {**durable(points, k), points[k - 1].synced: _before(points, k)}


def fingerprint(files: dict[str, bytes], *required: object) -> str:
    """One image with what it must hold, so that each is checked once."""
    digest = hashlib.sha256(repr(required).encode())
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()


@dataclass(frozen=True)
class Outcome:
    """What one rebuilt image showed: steps stored, steps lost, and the first problem."""

    stored: int
    lost: int
    problem: str | None


def rebuild(files: dict[str, bytes], folder: Path, commands: list[Command], acked: int,
            statuses: list[str] | None = None) -> Outcome:
    """Writes the image under its original names in a fresh ``folder`` and checks it all:
    ``acked`` steps must be there, with exactly ``statuses`` once an undo was acknowledged."""
    folder.mkdir(parents=True)
    db = folder / "c.sqlite3"
    for name, data in files.items():
        (folder / f"c.sqlite3{SUFFIX[name]}").write_bytes(data)
    stored = 0
    try:
        with Store(db) as store:
            if store.notice:
                return Outcome(0, acked, f"moved aside: {store.notice}")
            integrity = [r[0] for r in store.conn.execute("PRAGMA integrity_check")]
            if integrity != ["ok"]:
                return Outcome(0, acked, f"integrity_check: {integrity[:3]}")
            problems = check(store.conn)
            if problems:
                return Outcome(0, acked, f"companion check: {[str(p) for p in problems[:3]]}")
            games = store.games()
            if not games:
                return Outcome(0, acked, "no game stored" if acked else None)
            game_id = games[0].id
            steps = list(store.steps(game_id))
            stored, lost = len(steps), max(0, acked - len(steps))
            if lost or stored > acked + 1:
                return Outcome(stored, lost, f"{stored} steps stored, {acked} acknowledged")
            if [s.command for s in steps] != commands[:stored]:
                return Outcome(stored, 0, "stored commands differ from the ones played")
            if statuses is not None and [s.status for s in steps] != statuses:
                return Outcome(stored, 0, "the acknowledged undo was lost")
            live = sum(s.status == "done" for s in steps)
            resumed = store.open_session(game_id)
            fresh = replay(export_lines(resumed), strict=True).session
            if fresh.state != resumed.state:
                return Outcome(stored, 0, "the stored fold differs from a replay")
            if not resumed.over and live < len(commands):
                if resumed.prompt() != fresh.prompt():
                    return Outcome(stored, 0, "the prompt differs from a replay's")
                resumed.execute(commands[live])
    except Exception as problem:  # any crash on an image is a finding, named
        return Outcome(stored, 0, f"{type(problem).__name__}: {problem}")
    return Outcome(stored, 0, None)


def write_script(path: Path, setup: dict, commands: list[Command]) -> None:
    path.write_text("\n".join([json.dumps(setup)] + [json.dumps(c.to_dict()) for c in commands]))
