"""Figure 4: input to the next frame showing it, and the rules + commit part alone.

In the app (benchmarks/latency_probe.py, run by benchmarks/probe.py): seat button presses and
die reads put on the app's Inbox from a thread, as the devices put them, timed from the put to
the first frame drawn after the game changed (Window on_flip); commands from the screen
(``app.send``) from the call to the next frame. Alone: ``Session.execute`` of the same kind of
commands with a real ``Store`` on a disk file (rules, gate, flow and one SQLite transaction with
synchronous=FULL), and without a store (rules only). The yardstick: a bare Kivy window
(benchmarks/bare/idle.py) whose label a thread changes through the Clock. Medians and p99.
"""

from __future__ import annotations

import random
import statistics
import time

from benchmarks import logs
from benchmarks.common import Figure, app_argv, bare_argv, run
from benchmarks.context import Context

TITLE = "input (button or die) -> next frame, and the rules + commit part alone"


def execute_times(store, count: int) -> list[float]:
    """Seconds per ``Session.execute`` over autoplayed Witch's Brew games (new game at each end)."""
    from companion.core import Session
    from companion.games import get_rules
    from tests.support import autoplay

    rules, rng, out, session = get_rules("witchs_brew"), random.Random(7), [], None
    while len(out) < count:
        if session is None or session.over:
            session = (store.new_game(rules, dict(logs.SETUP)) if store is not None
                       else Session(rules, dict(logs.SETUP)))
        command = autoplay.next_command(session, rng)
        start = time.perf_counter()
        session.execute(command, "gpio")
        out.append(time.perf_counter() - start)
    return out


LONG = 2000


def long_game(path) -> int:
    """A Witch's Brew game of ``LONG`` steps that is still at its start: pairs of corrections
    (a counter down one, then up again), as a long evening of fixes would leave it."""
    from companion.games import get_rules
    from companion.store import Store

    with Store(path) as store:
        session = store.new_game(get_rules("witchs_brew"), dict(logs.SETUP))
        for command in logs.corrections(session.state, LONG):
            session.execute(command, "touch")
        return session.game_id


def measure(ctx: Context) -> Figure:
    from companion.store import Store

    fig = Figure("latency", TITLE)
    presses, dice = ctx.pick(16, 120, 3), ctx.pick(6, 60, 2)
    db = ctx.sandbox.path("latency.sqlite3")
    done = run(app_argv("--scenario", "latency", "--presses", str(presses), "--dice", str(dice),
                        "--db", str(db)), ctx.sandbox.env(), timeout=300)
    long_db = ctx.sandbox.path("latency_long.sqlite3")
    late = run(app_argv("--scenario", "latency", "--presses", str(presses), "--dice", "0",
                        "--db", str(long_db), "--resume-id", str(long_game(long_db))),
               ctx.sandbox.env(), timeout=300).report
    bare = run(bare_argv("idle.py", "--scenario", "latency", "--presses", str(presses)),
               ctx.sandbox.env(), timeout=120).report
    early = run(bare_argv("idle.py", "--scenario", "latency", "--presses", str(presses),
                          "--early"), ctx.sandbox.env(), timeout=120).report
    got = done.report
    fig.add("button -> frame showing it", got["button_to_frame"], p99=True)
    fig.add("  of which put -> game changed", got["button_to_change"], p99=True,
            note="drain on the next tick, rules, commit, the app's refresh")
    fig.add("  of which changed -> frame", got["change_to_frame"], p99=True,
            note="layout, text, GL, flip")
    if got.get("drawing"):
        fig.add("    changed -> Kivy's layout and text pass", got["change_to_layout"],
                note="the app's refresh, then the rest of the tick")
        fig.add("    layout and text (Clock.tick_draw)", got["layout_and_text"])
        fig.add("    drawing (on_draw to on_flip)", got["drawing"], note="GL")
    fig.add("bare idle.py: thread -> label -> frame", bare["bare_to_frame"], p99=True,
            note="Clock.schedule_once from a thread, one label's text")
    fig.add("  of which put -> label changed", bare["bare_to_change"], p99=True)
    fig.add("ratio of medians, button/bare", [statistics.median(got["button_to_frame"])
                                              / statistics.median(bare["bare_to_frame"])], "x")
    fig.add("bare idle.py, its frame's sleep cut short as the app's (--early)",
            early["bare_to_frame"], p99=True, note="ui/table/frame_wait.py in a bare script")
    fig.add("ratio of medians, button/bare with the same early frame",
            [statistics.median(got["button_to_frame"])
             / statistics.median(early["bare_to_frame"])], "x")
    fig.add(f"button -> frame, a game {LONG:,} steps long", late["button_to_frame"], p99=True,
            note=f"{min(late['steps_before']):,}-{max(late['steps_before']):,} steps before")
    fig.add("  of which put -> game changed", late["button_to_change"], p99=True)
    fig.add("ratio of medians, long game/new game",
            [statistics.median(late["button_to_frame"]) / statistics.median(got["button_to_frame"])],
            "x")
    fig.add("die (tray) -> frame showing it", got["die_to_frame"], p99=True)
    fig.add("  of which put -> game changed", got["die_to_change"], p99=True)
    if got.get("die_drawing"):
        fig.add("  of which drawing (on_draw to on_flip)", got["die_drawing"], note="GL")
    fig.add("command from the screen -> frame", got["touch_to_frame"], p99=True)
    fig.add("  of which app.send (synchronous)", got["touch_call"], p99=True)
    if got.get("missed"):
        fig.notes.append(f"{got['missed']} inputs drew no frame within 5 s (refused or lost)")
    count = ctx.pick(300, 1000, 20)
    with Store(ctx.sandbox.path("execute.sqlite3")) as store:
        fig.add("Session.execute, Store on disk (rules + commit)", execute_times(store, count),
                p99=True)
    fig.add("Session.execute, no store (rules only)", execute_times(None, count), p99=True)
    fig.notes.append("maxfps 30: one frame is 33 ms; the bare script's put waits for the next "
                     "Clock tick, the app's Inbox cuts that wait short (ui/table/frame_wait.py)")
    return fig
