"""Figure 3: idle CPU, the app against a bare Kivy app, both started together.

The app must sleep when nothing happens. Home screen: the app (demo mode: mock buttons) next to
benchmarks/bare/idle.py. A game screen: the app with a Witch's Brew game open, its 1 Hz turn
clock running, next to benchmarks/bare/ticking.py (one label updated once a second), and next to
benchmarks/bare/ticking_full.py (the same label over a picture of the whole window: what Kivy's
own redraw of the window costs on each tick, whatever the app buffers). Each pair
is started at the same time; once both have drawn (and the app opened its game) and settled,
their CPU seconds (the scheduler's sum over their threads, /proc/<pid>/task/*/sched) are read
over the same window, with the frames each drew (Window on_flip, counted by benchmarks/probe.py)
and how often their threads woke (context switches summed over /proc/<pid>/task). Which one is
started first alternates.
"""

from __future__ import annotations

import signal
import time

from benchmarks.common import (
    Figure, app_argv, bare_argv, cpu_seconds, read_until, reap, spawn, wakeups,
)
from benchmarks.context import Context

TITLE = "idle CPU: home screen vs bare idle; game screen (1 Hz clock) vs bare ticking"
SETTLE = 1.5


def pair(ctx: Context, app_args: list[str], app_ready: str, bare: str, first_app: bool,
         window: float) -> dict[str, dict[str, float]]:
    env = ctx.sandbox.env()
    specs = [("app", app_argv(*app_args), app_ready), ("bare", bare_argv(bare), "first_frame")]
    if not first_app:
        specs.reverse()
    procs = {name: (spawn(argv, env), time.monotonic(), ready) for name, argv, ready in specs}
    try:
        for proc, _, ready in procs.values():
            read_until(proc, ready)
        time.sleep(SETTLE)
        before = {}
        for name, (proc, _, _) in procs.items():
            proc.send_signal(signal.SIGUSR1)
            before[name] = (cpu_seconds(proc.pid), *wakeups(proc.pid))
        time.sleep(window)
        out = {}
        for name, (proc, _, _) in procs.items():
            threads, switches = wakeups(proc.pid)
            out[name] = {"cpu": cpu_seconds(proc.pid) - before[name][0], "threads": threads,
                         "wakeups": (switches - before[name][2]) / window}
    finally:
        for proc, _, _ in procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
    for name, (proc, started, _) in procs.items():
        done = reap(proc, started, timeout=20)
        if name in out:
            out[name]["frames"] = done.report.get("frames", float("nan")) / window
    return out


def measure(ctx: Context) -> Figure:
    fig = Figure("idle_cpu", TITLE)
    window = ctx.pick(4.0, 10.0, 1.0)
    rounds = ctx.pick(2, 4, 1)
    db = ctx.sandbox.path("idle.sqlite3")
    for label, app_args, ready, bare in (
            ("home", ["--db", str(db)], "first_frame", "idle.py"),
            ("game", ["--scenario", "game", "--db", str(db)], "game_started", "ticking.py"),
            ("game vs a full-window picture", ["--scenario", "game", "--db", str(db)],
             "game_started", "ticking_full.py")):
        runs = [pair(ctx, app_args, ready, bare, i % 2 == 0, window) for i in range(rounds)]
        a = [100 * r["app"]["cpu"] / window for r in runs]
        b = [100 * r["bare"]["cpu"] / window for r in runs]
        fig.add(f"{label}: app, % of one core", a, "%")
        fig.add(f"{label}: bare {bare}, % of one core", b, "%")
        fig.ratio(f"{label}: ratio app/bare", a, b)
        fig.add(f"{label}: app frames drawn", [r["app"]["frames"] for r in runs], "/s")
        fig.add(f"{label}: bare frames drawn", [r["bare"]["frames"] for r in runs], "/s")
        fig.add(f"{label}: app thread wake-ups", [r["app"]["wakeups"] for r in runs], "/s",
                note=f"{runs[-1]['app']['threads']} threads")
        fig.add(f"{label}: bare thread wake-ups", [r["bare"]["wakeups"] for r in runs], "/s",
                note=f"{runs[-1]['bare']['threads']} threads")
    fig.notes.append(f"{window:.0f} s window after both drew and settled {SETTLE} s")
    return fig
