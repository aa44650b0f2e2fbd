"""Figure 8: replay throughput, commands per second replaying table scripts
(``companion.script.replay``, no database) of 100, 1,000 and 10,000 commands, and an
undo-heavy script where undo and redo follow most commands. Flat in game length is the target:
a command late in a long game should cost what one early in a short game does."""

from __future__ import annotations

import time

from benchmarks import logs
from benchmarks.common import Figure
from benchmarks.context import Context

TITLE = "replay throughput (commands/s) by script length, and an undo-heavy script"


def script(commands) -> list[str]:
    import json

    return [json.dumps(logs.SETUP)] + [json.dumps(c.to_dict()) for c in commands]


def throughput(lines: list[str], reps: int) -> list[float]:
    from companion.script import replay

    out = []
    for _ in range(reps):
        start = time.perf_counter()
        result = replay(lines, strict=True)
        seconds = time.perf_counter() - start
        if result.rejected:
            raise RuntimeError(f"benchmarks: the replay refused {result.rejected[0]}")
        out.append((len(lines) - 1) / seconds)
    return out


def measure(ctx: Context) -> Figure:
    fig = Figure("replay", TITLE)
    reps = ctx.pick(1, 3)
    for n in ctx.pick((100, 1000, 10000), (100, 1000, 10000), (100,)):
        fig.add(f"{n:,} commands", throughput(script(logs.commands(n)), reps), "cmd/s",
                note=logs.composition(n))
    heavy = ctx.pick(1000, 3000, 60)
    commands = logs.undo_heavy(heavy)
    undos = sum(c.do == "undo" for c in commands)
    fig.add(f"undo-heavy, {heavy:,} commands", throughput(script(commands), reps), "cmd/s",
            note=f"{undos} undos")
    return fig
