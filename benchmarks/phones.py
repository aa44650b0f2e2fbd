"""Figure 9: the phones at the table.

- A publish to 20 phones: a PhoneServer in this process on 127.0.0.1 and 20 WebSocket clients
  in a child (benchmarks/phones_clients.py); each ``publish`` of a real Witch's Brew snapshot
  is timed to when each client got it (the system-wide monotonic clock both share), and to when
  the 20th had it.
- Idle: the app with a game open (its 1 Hz turn clock running) and the phones' server on with
  20 clients connected (the probe's ``phones`` scenario), next to the same app with the server
  off (``game``), started together, CPU read over the same window as benchmarks/idle_cpu.py
  does; the pings each client got (the server's heartbeat) over the time it was connected.
- Memory: the app's resident memory with the server and its 20 clients, less what it held just
  before the server was imported and started (read inside), and less the app beside it
  with the server off.
- A seat's press -> the Pi's frame showing it, a phone's and a GPIO button's in the same run of
  the app (benchmarks/phones_probe.py): a phone's ``press`` over a loopback WebSocket, a GPIO
  press by the demo table's mock pin, alternating; the phone's against the GPIO's in frames.
- A crowd of hostile sockets (benchmarks/phones_crowd.py): a seat's join time and the Pi's frame rate
  with 1,200 hostile idle and half-sent connections open, from one address and from 75,
  against none.
- The snapshot (``companion.view.snapshot.table_view``) of a game of 100 and of 10,000 steps: the time
  one build takes once the table's narrator is in step (as after each press), and its size.
"""

from __future__ import annotations

import json
import signal
import statistics
import sys
import time

from benchmarks import logs
from benchmarks.common import (
    Figure, app_argv, cpu_seconds, percentile, read_until, reap, run, spawn,
)
from benchmarks.context import Context
from benchmarks.frames import vm_rss_mib
from benchmarks.phones_crowd import crowd

TITLE = ("a publish to 20 phones; a phone's press -> frame against a GPIO press's; idle CPU "
         "and memory with the server on; the snapshot's cost")
CLIENTS = 20
SETTLE = 1.5


def clients(ctx: Context, url: str, count: int = CLIENTS):
    """The child with ``count`` phones on ``url``, once every one has its first snapshot."""
    out = ctx.sandbox.path(f"phones-{time.monotonic_ns()}.json")
    proc = spawn([sys.executable, "-m", "benchmarks.phones_clients", url, "--clients",
                  str(count), "--out", str(out)], ctx.sandbox.env())
    read_until(proc, "connected")
    return proc, time.monotonic(), out


def stop(proc, started: float, out) -> dict:
    """What the phones saw: ``received``, ``pings``, ``seconds`` (benchmarks/phones_clients)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    done = reap(proc, started, timeout=20)
    if "done" not in done.report:
        raise RuntimeError(f"benchmarks: the phones ended without reporting: {done.stderr[-600:]}")
    return json.loads(out.read_text())


def session_of(steps: int):
    from companion.core import Session
    from companion.games import get_rules

    session = Session(get_rules("witchs_brew"), dict(logs.SETUP))
    for command in logs.commands(steps):
        session.execute(command)
    return session


def publish_latency(ctx: Context, fig: Figure) -> None:
    from companion.core.narrator import Narrator
    from companion.view.snapshot import table_view
    from hardware.inbox import Inbox
    from ui.web.server import PhoneServer

    session = session_of(100)
    view = table_view(session, 1, Narrator(session))
    publishes, gap = ctx.pick(100, 300, 10), ctx.pick(0.02, 0.02, 0.005)
    server = PhoneServer(Inbox())
    server.start(port=0, addresses=["127.0.0.1"])
    try:
        server.publish(view)
        phones = clients(ctx, server.links()["watch"][0])
        sent = {}
        try:
            for n in range(2, publishes + 2):
                snapshot = dict(view, n=n)
                sent[n] = time.monotonic()
                server.publish(snapshot)
                time.sleep(gap)
            time.sleep(0.3)
        finally:
            got = stop(*phones)["received"]
    finally:
        server.stop()
    # a phone that is behind is sent the newest table, not every one (ui/web/outbox.py): a
    # snapshot replaced before it went is skipped, not missing; the last must reach every phone
    each, last, skipped = [], [], 0
    for n, at in sent.items():
        times = got.get(str(n), [])
        skipped += CLIENTS - len(times)
        each.extend(t - at for t in times)
        if len(times) == CLIENTS:
            last.append(max(times) - at)
    newest = len(got.get(str(max(sent)), []))
    fig.add(f"publish -> each of {CLIENTS} clients has it", each, p99=True)
    fig.add(f"publish -> all {CLIENTS} have it", last, p99=True,
            note=f"{publishes} publishes {gap * 1000:.0f} ms apart, "
                 f"{len(json.dumps(view)):,} bytes each, {skipped} skipped for a newer one, "
                 f"{CLIENTS - newest} phones without the last")


def idle_pair(ctx: Context, window: float, first_phones: bool) -> dict[str, dict[str, float]]:
    """The app with the server and 20 phones next to the app without; both settled."""
    env = ctx.sandbox.env()
    specs = [("phones", "phones_url"), ("game", "game_started")]
    if not first_phones:
        specs.reverse()
    procs = {}
    for name, ready in specs:
        db = ctx.sandbox.path(f"phones-{name}.sqlite3")
        db.unlink(missing_ok=True)
        procs[name] = (spawn(app_argv("--scenario", name, "--db", str(db)), env),
                       time.monotonic(), ready)
    phones = None
    try:
        for proc, _, ready in procs.values():
            read_until(proc, ready)
        phones = clients(ctx, procs["phones"][0].bench["phones_url"])
        time.sleep(SETTLE)
        before = {name: cpu_seconds(proc.pid) for name, (proc, _, _) in procs.items()}
        time.sleep(window)
        out = {name: {"cpu": cpu_seconds(proc.pid) - before[name],
                      "rss": vm_rss_mib(proc.pid)} for name, (proc, _, _) in procs.items()}
        out["phones"]["rss_before"] = procs["phones"][0].bench["phones_rss_before_mib"]
    finally:
        if phones is not None:
            seen = stop(*phones)
        for proc, _, _ in procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc, started, _ in procs.values():
            reap(proc, started, timeout=20)
    out["clients"] = {"pings": max(seen["pings"]), "seconds": seen["seconds"]}
    return out


def idle(ctx: Context, fig: Figure) -> None:
    window, rounds = ctx.pick(10.0, 25.0, 1.0), ctx.pick(2, 3, 1)
    runs = [idle_pair(ctx, window, i % 2 == 0) for i in range(rounds)]
    on = [100 * r["phones"]["cpu"] / window for r in runs]
    off = [100 * r["game"]["cpu"] / window for r in runs]
    fig.add(f"idle: app, server on, {CLIENTS} clients, % of one core", on, "%")
    fig.add("idle: app, server off, % of one core", off, "%")
    fig.ratio("idle: ratio on/off", on, off)
    fig.add("memory: added by the server and its clients (inside)",
            [r["phones"]["rss"] - r["phones"]["rss_before"] for r in runs], "MiB")
    fig.add("memory: app with the server less the app without",
            [r["phones"]["rss"] - r["game"]["rss"] for r in runs], "MiB")
    per_minute = [60 * r["clients"]["pings"] / r["clients"]["seconds"] for r in runs]
    fig.add("heartbeat: pings per client (most of any)", per_minute, "/min",
            note=f"over {runs[-1]['clients']['seconds']:.0f} s connected")
    fig.notes.append(f"idle: {window:.0f} s window after both drew, the phones connected and "
                     f"{SETTLE} s settled; the server pings each phone every 20 s")


def snapshot_cost(ctx: Context, fig: Figure) -> None:
    from companion.core.narrator import Narrator
    from companion.view.snapshot import table_view

    reps = ctx.pick(50, 200, 5)
    for steps in ctx.pick((100, 10000), (100, 10000), (100, 1000)):
        session = session_of(steps)
        narrator = Narrator(session)
        table_view(session, 1, narrator)                     # the narrator in step
        times = []
        for n in range(reps):
            start = time.perf_counter()
            view = table_view(session, n + 2, narrator)
            times.append(time.perf_counter() - start)
        size = len(json.dumps(view, separators=(",", ":")).encode())
        fig.add(f"snapshot at {steps:,} steps: build", times)
        fig.add(f"snapshot at {steps:,} steps: size", [size], "bytes")


def press_frames(ctx: Context, fig: Figure) -> None:
    presses = ctx.pick(20, 60, 3)
    db = ctx.sandbox.path("phones-press.sqlite3")
    db.unlink(missing_ok=True)
    got = run(app_argv("--scenario", "phone_press", "--presses", str(presses), "--db", str(db)),
              ctx.sandbox.env(), timeout=300).report
    phone, gpio = sorted(got["phone_to_frame"]), sorted(got["gpio_to_frame"])
    frame = 1 / got["maxfps"]
    fig.add("a phone's seat press -> frame showing it", phone, p99=True,
            note="press message sent on a loopback WebSocket -> the Pi's frame")
    fig.add("the same GPIO press -> frame showing it", gpio, p99=True,
            note="mock pin's low edge -> the Pi's frame, in the same run")
    fig.add("phone less GPIO, medians, in frames",
            [(statistics.median(phone) - statistics.median(gpio)) / frame], "frames",
            note=f"one frame is {frame * 1000:.0f} ms (maxfps {got['maxfps']})")
    fig.add("phone less GPIO, p99s, in frames",
            [(percentile(phone, 99) - percentile(gpio, 99)) / frame], "frames")
    if got.get("missed"):
        fig.notes.append(f"{got['missed']} seat presses drew no frame within 5 s")


def measure(ctx: Context) -> Figure:
    fig = Figure("phones", TITLE)
    snapshot_cost(ctx, fig)
    publish_latency(ctx, fig)
    press_frames(ctx, fig)
    crowd(ctx, fig)
    idle(ctx, fig)
    return fig

