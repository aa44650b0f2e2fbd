"""Figure 2: peak resident memory at the home screen and in play, against a bare Kivy hello.

The peak is the kernel's high-water mark of the reaped child (rusage ru_maxrss, the counter
/proc/<pid>/status shows as VmHWM while it runs; the probe also prints VmHWM itself). At the
home screen: the cold-start runs (they exit at the first frame). In play: a Witch's Brew game
opened and a few commands played from the screen (tests/support/autoplay.py), a frame after each.
"""

from __future__ import annotations

from benchmarks.cold_start import cold_runs
from benchmarks.common import Figure, alternate, app_argv, bare_argv, run
from benchmarks.context import Context

TITLE = "peak RSS at the home screen and in play, vs bare Kivy hello"


def measure(ctx: Context) -> Figure:
    fig = Figure("peak_rss", TITLE)
    env = ctx.sandbox.env()
    home, bare = cold_runs(ctx)
    commands = ctx.pick(20, 40, 3)
    db = ctx.sandbox.path("play.sqlite3")

    def play():
        db.unlink(missing_ok=True)
        return run(app_argv("--scenario", "play", "--commands", str(commands), "--db", str(db)),
                   env)

    played, bare_again = alternate(ctx.pick(2, 4, 1), play,
                                   lambda: run(bare_argv("hello.py"), env))
    bare_peak = [r.peak_mib for r in bare]
    fig.add("app at the home screen (first frame)", [r.peak_mib for r in home], "MiB")
    fig.add("bare hello", bare_peak, "MiB")
    fig.ratio("ratio home/bare", [r.peak_mib for r in home], bare_peak)
    fig.add(f"app in play ({commands} commands)", [r.peak_mib for r in played], "MiB")
    fig.add("bare hello (runs next to play)", [r.peak_mib for r in bare_again], "MiB")
    fig.ratio("ratio play/bare", [r.peak_mib for r in played], [r.peak_mib for r in bare_again])
    fig.add("app in play, VmHWM read inside", [r.report["play_hwm_mib"] for r in played], "MiB")
    return fig
