"""Figure 5: undo, redo and resume at 100, 1,000 and 10,000 steps, and a raw SQLite read of
the same rows for the ratio.

Each game is written through ``Store.new_game`` and ``Session.execute`` (benchmarks/logs.py),
built on tmpfs and copied to a disk folder before anything is timed. Resume is what the app
does on "Resume": ``Store(path)`` and ``open_session(game_id)``. The raw read is a plain
``sqlite3`` connection reading every row of that game from every table that has a ``game_id``
column (so it follows the schema as it changes). Undo and redo are ``Session.undo()`` and
``Session.redo()`` on the resumed game, each one transaction on the disk file.

A resume builds only the steps it folds (the others when first read), and the app's game bar
then tells the whole game in words (``Narrator.sync``), which reads every step: that is timed
too ("resume and the log in words", in the notes), so what the table waits for is printed.
"""

from __future__ import annotations

import sqlite3
import statistics
import time
from pathlib import Path

from benchmarks import logs
from benchmarks.common import Figure, alternate
from benchmarks.context import Context

TITLE = "undo / redo / resume by game length, vs a raw SQLite read of the game's rows"


def raw_read(path: Path, game_id: int) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = 0
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            columns = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]
            if "game_id" in columns:
                rows += len(conn.execute(f'SELECT * FROM "{table}" WHERE game_id = ?',
                                         (game_id,)).fetchall())
        return rows
    finally:
        conn.close()


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def measure(ctx: Context) -> Figure:
    from companion.core.narrator import Narrator
    from companion.store import Store

    fig = Figure("undo_redo", TITLE)
    # 5,000 steps: the size the target names
    sizes = ctx.pick((100, 1000, 5000, 10000), (100, 1000, 5000, 10000), (100,))
    reps = ctx.pick(3, 10, 1)
    built = ctx.sandbox.fast / "undo.sqlite3"
    with Store(built) as store:
        games = {n: logs.store_game(store, n) for n in sizes}
    path = ctx.sandbox.path("undo.sqlite3")
    logs.copy_database(built, path)
    for n in sizes:
        game_id = games[n]

        def resume() -> float:
            def go() -> None:
                with Store(path) as store:
                    store.open_session(game_id)
            return timed(go)

        def resume_and_tell() -> float:
            def go() -> None:
                with Store(path) as store:
                    Narrator(store.open_session(game_id)).sync()
            return timed(go)

        resumed, raw = alternate(reps, resume, lambda: timed(lambda: raw_read(path, game_id)))
        told = [resume_and_tell() for _ in range(reps)]
        rows = raw_read(path, game_id)
        with Store(path) as store:
            session = store.open_session(game_id)
            undo, redo = [], []
            for _ in range(reps):
                undo.append(timed(session.undo))
                redo.append(timed(session.redo))
        fig.add(f"{n:,} steps: undo", undo)
        fig.add(f"{n:,} steps: redo", redo)
        fig.add(f"{n:,} steps: resume (Store + open_session)", resumed)
        fig.add(f"{n:,} steps: raw SQLite read", raw, note=f"{rows:,} rows")
        fig.ratio(f"{n:,} steps: ratio resume/raw read", resumed, raw)
        fig.notes.append(f"{n:,} steps: resume and the log in words, median "
                         f"{statistics.median(told) * 1000:.1f} ms "
                         f"({min(told) * 1000:.1f}-{max(told) * 1000:.1f})")
    fig.notes.append(f"a game of N steps: {logs.composition(max(sizes))} (for the largest)")
    return fig
