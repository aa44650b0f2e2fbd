"""Figure 1: cold start to the first frame of the home screen, against a bare Kivy hello-world.

Both run through benchmarks/probe.py, which reports the first frame drawn after the app
started (seconds from the spawn: interpreter start, imports, build, first draw). The wall time
covers start, first frame and exit (the probe stops the app at its first frame, as the bare
hello stops itself). A warm-up pair is run first and not counted (disk cache, Kivy's home).
"""

from __future__ import annotations

from benchmarks.common import Figure, alternate, app_argv, bare_argv, run
from benchmarks.context import Context

TITLE = "cold start to the first frame of the home screen, vs bare Kivy hello"


def cold_runs(ctx: Context) -> tuple[list, list]:
    """(app runs, bare hello runs), alternating; shared with the peak memory figure."""

    def make() -> tuple[list, list]:
        env = ctx.sandbox.env()
        db = str(ctx.sandbox.path("cold.sqlite3"))
        app = lambda: run(app_argv("--exit", "--db", db), env)  # noqa: E731
        bare = lambda: run(bare_argv("hello.py"), env)  # noqa: E731
        app(), bare()   # warm-up, not counted
        return alternate(ctx.pick(3, 8, 1), app, bare)

    return ctx.memo("cold_runs", make)


def measure(ctx: Context) -> Figure:
    fig = Figure("cold_start", TITLE)
    app, bare = cold_runs(ctx)
    first_a = [r.report["first_frame"] for r in app]
    first_b = [r.report["first_frame"] for r in bare]
    fig.add("app: spawn to first frame", first_a)
    fig.add("bare hello: spawn to first frame", first_b)
    fig.ratio("ratio app/bare, first frame", first_a, first_b)
    cpu_a = [r.report["first_frame_cpu"] for r in app]
    cpu_b = [r.report["first_frame_cpu"] for r in bare]
    fig.add("app: CPU to first frame", cpu_a)
    fig.add("bare hello: CPU to first frame", cpu_b)
    fig.ratio("ratio app/bare, CPU to first frame", cpu_a, cpu_b)
    fig.add("app: start + first frame + exit (wall)", [r.wall for r in app])
    fig.add("bare hello: start + first frame + exit", [r.wall for r in bare])
    fig.ratio("ratio app/bare, start+frame+exit", [r.wall for r in app], [r.wall for r in bare])
    fig.add("app: whole-process CPU (start to exit)", [r.cpu for r in app])
    fig.add("bare hello: whole-process CPU", [r.cpu for r in bare])
    fig.ratio("ratio app/bare, whole-process CPU", [r.cpu for r in app], [r.cpu for r in bare])
    fig.notes.append("CPU is steadier than wall time on a shared machine; the app runs as "
                     "`companion run --demo --size 800x480` (maxfps 30), without the CLI's "
                     "argument parsing")
    return fig
