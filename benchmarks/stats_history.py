"""``python -m benchmarks.stats_history [--games 1000] [--keep FILE]``: how long ``companion
stats`` takes over a history of 1,000 finished games of the three titles, next to a plain SQL
query that reads the same rows (the list rows every game keeps, and the events the figures
from the logs need), so the cost of what stats adds to reading is plain.

The history: games played to their ends by the tests' rule-abiding autoplay tables
(tests/support/history.py, with undos and corrections among their steps), then
copied whole (game, seats, results, clock, steps and events; each copy a new uuid) until
``--games`` are finished, in the titles' proportions. Built in a temporary folder, which is
removed unless ``--keep`` names where to copy the database. A figure to read, never a test.
"""

from __future__ import annotations

import argparse
import io
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import redirect_stdout
from pathlib import Path
from typing import Callable

from benchmarks.common import REPO

#: Games autoplayed per title before copying (Cauldron's are the slowest to play).
PLAYED = {"witchs_brew": 45, "quest": 45, "cauldron": 15}
#: The events the figures from the logs read (companion/history/tally.py).
TYPES = ("omen_drawn", "brewed", "magik_adjusted", "bought", "milestone_reached",
         "market_closed", "game_over", "effect_applied", "effect_skipped", "effect_abstained",
         "adjusted", "spell_announced", "spell_judged", "path_blocked", "obstacle_removed")
RUNS = 5


def build(path: Path, games: int) -> dict[str, int]:
    """The history in ``path``; finished games per title."""
    from companion.store import Store
    from tests.support.history import build_history

    with Store(path) as store:
        store.conn.execute("PRAGMA synchronous = OFF")
        build_history(store, PLAYED, seed=7, mess=0.02)
        copy_games(store.conn, games)
        return dict(store.conn.execute(
            "SELECT game, count(*) FROM games WHERE status = 'finished' GROUP BY game"))


def copy_games(conn: sqlite3.Connection, total: int) -> None:
    """Whole copies of the finished games, round the list, until ``total`` are finished."""
    ids = [r[0] for r in conn.execute("SELECT id FROM games WHERE status = 'finished' "
                                      "ORDER BY id")]
    conn.execute("BEGIN IMMEDIATE")
    for i in range(total - len(ids)):
        source = ids[i % len(ids)]
        new = conn.execute(
            "INSERT INTO games (game, setup, status, created_at, updated_at, finished_at, "
            "summary, done_steps, uuid, device) SELECT game, setup, status, created_at, "
            "updated_at, finished_at, summary, done_steps, ?, device FROM games WHERE id = ?",
            (str(uuid.uuid4()), source)).lastrowid
        for table, columns in (("players", "seat, name, profile_id"),
                               ("results", "seat, name, score, winner, detail"),
                               ("clocks", "data, updated_at"),
                               ("steps", "n, command, status, created_at, source"),
                               ("events", "step, seq, type, data, automatic, undoable")):
            conn.execute(f"INSERT INTO {table} (game_id, {columns}) SELECT ?, {columns} "
                         f"FROM {table} WHERE game_id = ?", (new, source))
    conn.execute("COMMIT")


def medians_ms(calls: dict[str, Callable[[], object]], runs: int = RUNS) -> dict[str, float]:
    """Each call's median time in ms, the calls taken in turn in each round, so that a load
    that comes and goes (a shared machine) weighs on all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(runs):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
    return {name: sorted(t)[runs // 2] * 1000 for name, t in times.items()}


def plain(conn: sqlite3.Connection) -> int:
    """The same rows as stats reads, as one would read them by hand: no JSON parsed."""
    rows = conn.execute("SELECT id, game, setup, created_at, finished_at FROM games "
                        "WHERE status = 'finished'").fetchall()
    rows += conn.execute("SELECT r.game_id, r.seat, r.name, r.score, r.winner, r.detail, "
                         "p.profile_id FROM results r JOIN players p USING (game_id, seat) "
                         "JOIN games g ON g.id = r.game_id WHERE g.status = 'finished'"
                         ).fetchall()
    rows += conn.execute("SELECT game_id, data FROM clocks").fetchall()
    kinds = ", ".join("?" * len(TYPES))
    rows += conn.execute(
        "SELECT e.game_id, e.type, e.data FROM events e JOIN steps s ON s.game_id = e.game_id "
        "AND s.n = e.step JOIN games g ON g.id = e.game_id WHERE g.status = 'finished' AND "
        f"s.status = 'done' AND e.type IN ({kinds})", TYPES).fetchall()
    return len(rows)


def measure(path: Path) -> list[str]:
    from companion.cli.main import main
    from companion.history.plays import read_plays
    from companion.history.stats import compute, gather, profile_names, select
    from companion.history.tally import tally

    def command() -> None:
        with redirect_stdout(io.StringIO()):
            main(["stats", "--db", str(path), "--json"])

    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = plain(conn)
    plays = read_plays(conn)
    chosen = select(plays)
    figures = medians_ms({
        "plain SQL, the same rows (list rows + the events read)": lambda: plain(conn),
        "read the plays (read_plays)": lambda: read_plays(conn),
        "the logs' figures (tally)": lambda: tally(conn, chosen),
        "the results' figures (compute)": lambda: compute(plays, names=profile_names(conn)),
        "all of it (gather)": lambda: gather(conn),
        "companion stats --json, in-process (opening checks the file)": command,
    })
    conn.close()
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "companion", "stats", "--db", str(path), "--json"],
                   cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    whole = (time.perf_counter() - started) * 1000
    out = [f"{rows} rows read by the plain query"]
    out += [f"{name}: {ms:.1f} ms" for name, ms in figures.items()]
    out.append(f"companion stats --json as a command (Python's start and imports too): "
               f"{whole:.0f} ms")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stats_history",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="finished games (1000)")
    parser.add_argument("--keep", metavar="FILE", help="copy the database built here")
    args = parser.parse_args(argv)
    if args.games < sum(PLAYED.values()):
        parser.error(f"--games: at least {sum(PLAYED.values())} (the games played to copy)")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stats.sqlite3"
        started = time.perf_counter()
        titles = build(path, args.games)
        size = path.stat().st_size / 2**20
        mix = ", ".join(f"{n} {g}" for g, n in sorted(titles.items()))
        print(f"history: {sum(titles.values())} finished games ({mix}), {size:.1f} MiB, built "
              f"in {time.perf_counter() - started:.0f} s")
        for line in measure(path):
            print(f"  {line}")
        if args.keep:
            shutil.copyfile(path, args.keep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
