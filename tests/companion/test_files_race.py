"""A race against every walk of a path: while export, backup, import and restore run again and
again, a second thread swaps a folder on their path for a link to the folder that holds the
database's folder and a folder of victims (so the same path names them), and back, as fast as it can for a few seconds. Nothing outside their own new files
changes: the victims keep their bytes and inodes, the table's history its games, and each run
ends in one line. Figures: runs, swaps, files changed."""

from __future__ import annotations

import hashlib
import shutil
import threading
import time
from pathlib import Path

from tests.companion.test_files_planted import attempt, cli, games
from tests.support.figures import report

SECONDS = 4.0


def _snapshot(folder: Path) -> dict[str, tuple[int, str]]:
    out = {}
    for p in sorted(folder.iterdir()):
        if p.is_file() and not p.is_symlink():
            out[p.name] = (p.stat().st_ino, hashlib.sha256(p.read_bytes()).hexdigest())
    return out


def test_folders_swapped_for_links_meanwhile_change_nothing_outside_new_files(small, tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    db = data / "c.sqlite3"
    shutil.copyfile(small[0], db)
    victims = tmp_path / "victims"
    victims.mkdir()
    for name in ("c.sqlite3", "out.jsonl", "b.sqlite3", "own.jsonl"):
        (victims / name).write_text(f"victim {name}\n")
    shared = tmp_path / "shared"   # shared/data and shared/victims: harmless look-alikes
    for name in ("data", "victims"):
        (shared / name).mkdir(parents=True)
    (shared / "data" / "own.jsonl").write_text("".join(line + "\n" for line in small[1]))
    other = tmp_path / "other"
    other.mkdir(mode=0o700)
    before_victims, before_games = _snapshot(victims), games(db)
    stop, swaps = threading.Event(), [0]

    def swapper() -> None:   # shared, then a link to tmp_path: shared/data is the database's
        real = tmp_path / "shared.real"
        while not stop.is_set():
            try:
                shared.rename(real)
                shared.symlink_to(tmp_path)
                time.sleep(0.0005)
                shared.unlink()
                real.rename(shared)
                swaps[0] += 1
            except OSError:
                pass

    thread = threading.Thread(target=swapper, daemon=True)
    runs = 0
    thread.start()
    try:
        started = time.monotonic()
        while time.monotonic() - started < SECONDS:
            for args in (("export", "--all", "--force", "-o", shared / "data" / "c.sqlite3",
                          "--db", db),
                         ("export", "--all", "--force", "-o", shared / "victims" / "out.jsonl",
                          "--db", db),
                         ("backup", shared / "data" / "b.sqlite3", "--force", "--db", db),
                         ("import", shared / "data" / "own.jsonl", "--db", db),
                         ("restore", shared / "data" / "b.sqlite3", "--db", other / "r.sqlite3")):
                attempt(lambda: cli(*args)[1])
                runs += 1
    finally:
        stop.set()
        thread.join()
    assert _snapshot(victims) == before_victims
    assert games(db) == before_games
    assert not [p.name for p in data.iterdir() if p.name.endswith((".jsonl", ".part"))]
    report("files, round 3", f"race: {runs} runs of export, backup, import and restore while "
                             f"their folder was swapped for a link {swaps[0]} times in "
                             f"{SECONDS:.0f} s; victims changed 0, history changed 0")
