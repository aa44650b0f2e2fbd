"""Figure 6: the home screen with history: databases of 0, 50 and 500 finished games (and three
unfinished ones in each), the app's start-up, the time from "back to home" to the next frame,
and the database's size per game.

The games are written through ``Store.new_game`` and ``Session.execute`` (whole autoplayed
Witch's Brew games, benchmarks/logs.py), built on tmpfs and copied to a disk folder. The app
(benchmarks/probe.py, scenario ``history``) opens an unfinished game, goes home with
``app.go_home()`` (the menu button's path) and waits for the next frame, several times.
"""

from __future__ import annotations

import os
from pathlib import Path

from benchmarks import logs
from benchmarks.common import Figure, app_argv, run
from benchmarks.context import Context

TITLE = "home screen with history: back to home -> frame, start-up, size per game"
UNFINISHED, UNFINISHED_STEPS = 3, 100
#: Whole games of about 220 commands (a five-seat game's mean is about 250) ...
SEEDS = tuple(range(2, 10))
#: ... and, for --quick, the shortest of the first 40 seeds (92-102 commands): writing 500
#: games through the store is most of this figure's time.
SHORT_SEEDS = (11, 29, 31, 39)


def build(ctx: Context, sizes: tuple[int, ...],
          seeds: tuple[int, ...]) -> tuple[dict[int, Path], int]:
    """One database per size (the same games, growing), copied to disk; the id of an
    unfinished game to open."""
    from companion.store import Store

    fast = ctx.sandbox.fast / "history.sqlite3"
    copies, made, resume_id = {}, 0, 0
    for size in sorted(sizes):
        with Store(fast) as store:
            if not made and not resume_id:
                resume_id = min(logs.store_game(store, UNFINISHED_STEPS)
                                for _ in range(UNFINISHED))
            while made < size:
                logs.store_game(store, 0, finished=True, seed=seeds[made % len(seeds)])
                made += 1
        copies[size] = ctx.sandbox.path(f"history-{size}.sqlite3")
        logs.copy_database(fast, copies[size])
    return copies, resume_id


def size_mib(path: Path) -> float:
    return sum(os.path.getsize(p) for p in (path, Path(f"{path}-wal")) if p.exists()) / 2**20


def measure(ctx: Context) -> Figure:
    fig = Figure("history", TITLE)
    sizes = ctx.pick((0, 50, 500), (0, 50, 500), (0, 2))
    rounds, procs = ctx.pick(2, 5, 1), ctx.pick(1, 3, 1)
    seeds = ctx.pick(SHORT_SEEDS, SEEDS)
    copies, resume_id = build(ctx, sizes, seeds)
    env = ctx.sandbox.env()
    startup: dict[int, list[float]] = {n: [] for n in sizes}
    home: dict[int, list[float]] = {n: [] for n in sizes}
    call: dict[int, list[float]] = {n: [] for n in sizes}
    for n in sizes:   # the table's companion has run before: its last run closed the file
        run(app_argv("--exit", "--db", str(copies[n])), env, timeout=300)
    for i in range(procs):
        order = sizes if i % 2 == 0 else tuple(reversed(sizes))
        for n in order:
            done = run(app_argv("--scenario", "history", "--rounds", str(rounds), "--resume-id",
                                str(resume_id), "--db", str(copies[n])), env, timeout=300)
            startup[n].append(done.report["first_frame"])
            home[n] += done.report["home_to_frame"]
            call[n] += done.report["home_call"]
    for n in sizes:
        fig.add(f"{n} finished: start-up to first frame", startup[n])
        fig.add(f"{n} finished: back to home -> frame", home[n])
        fig.add(f"{n} finished: go_home() call", call[n])
    base = min(sizes)
    for n in sizes:
        if n != base:
            fig.ratio(f"{n} vs {base} finished: ratio back to home", home[n], home[base])
            fig.ratio(f"{n} vs {base} finished: ratio start-up", startup[n], startup[base])
    for n in sizes:
        if n:
            total = size_mib(copies[n]) - size_mib(copies[base])
            fig.add(f"{n} finished: database per finished game", [total * 1024 / n], "KiB",
                    note=f"{size_mib(copies[n]):.1f} MiB in all")
    steps = sum(len(logs.played(seed)) for seed in seeds) / len(seeds)
    fig.notes.append(f"each database also holds {UNFINISHED} unfinished games of "
                     f"{UNFINISHED_STEPS} steps; finished games are whole autoplayed games of "
                     f"{steps:.0f} steps on average (seeds {', '.join(map(str, seeds))} in turn)")
    return fig
