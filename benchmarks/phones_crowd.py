"""Part of figure 9 (the phones): a crowd of sockets against the table. The app (the probe's
``phones_crowd`` scenario: a Witch's Brew table shared on 127.0.0.1, drawing continuously) is
measured with no hostile connection and with 1,200 open: half idle, half with a request half
sent, from one address (127.0.0.2) and from 75 (127.0.0.2-76, 16 each: every one of them
within the per-address limit, so the total and its room-making are what hold). In each state:
how long a seat's phone takes from connecting to its first snapshot, and the frames the Pi
draws a second; the crowd is opened from this process, never the app's."""

from __future__ import annotations

import asyncio
import json
import queue
import resource
import signal
import socket
import threading
import time

from benchmarks.common import Figure, app_argv, reap, spawn
from benchmarks.context import Context

CROWD = 1200


class Lines(threading.Thread):
    """The app's BENCH lines as they come (the frame counts), on a queue."""

    def __init__(self, proc) -> None:
        super().__init__(daemon=True)
        self.proc, self.got = proc, queue.Queue()
        self.start()

    def run(self) -> None:
        for line in self.proc.stdout:
            if line.startswith("BENCH "):
                self.got.put(json.loads(line[6:]))

    def first(self, key: str, timeout: float = 120) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            item = self.got.get(timeout=max(0.1, deadline - time.monotonic()))
            if key in item:
                return item

    def fps(self, window: float) -> float:
        """Frames a second over ``window`` seconds from now (the app's own counts)."""
        while not self.got.empty():
            self.got.get()
        start = self.first("frames")
        end = start
        while end["at"] - start["at"] < window:
            end = self.first("frames")
        return (end["frames"] - start["frames"]) / (end["at"] - start["at"])


def hostile(port: int, sources: list[str], count: int = CROWD,
            settle: float = 0.5) -> list[socket.socket]:
    """``count`` connections from ``sources`` in turn (tests/web/test_limits.py opens the same
    crowd): half stay idle, half send a request that never ends its headers."""
    opened = []
    for n in range(count):
        s = socket.socket()
        s.setblocking(False)
        s.bind((sources[n % len(sources)], 0))
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        opened.append(s)
    time.sleep(settle)
    for n, s in enumerate(opened):
        if n % 2:
            try:
                s.send(b"GET /t/" + b"0" * 32 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            except OSError:
                pass                       # closed by the server already: as it should be
    return opened


async def join(url: str) -> float:
    import aiohttp

    origin = "/".join(url.split("/")[:3])
    began = time.monotonic()
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(url + "/ws", origin=origin) as ws:
            while (await ws.receive_json(timeout=30))["type"] != "snapshot":
                pass
    return time.monotonic() - began


def crowd(ctx: Context, fig: Figure) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, CROWD + 512)), hard))
    window, joins, rounds = ctx.pick(4.0, 8.0, 1.0), ctx.pick(5, 10, 2), ctx.pick(1, 2, 1)
    db = ctx.sandbox.path("phones-crowd.sqlite3")
    db.unlink(missing_ok=True)
    proc = spawn(app_argv("--scenario", "phones_crowd", "--db", str(db)), ctx.sandbox.env())
    started, lines = time.monotonic(), Lines(proc)
    states = {"none": [], "one address": ["127.0.0.2"],
              "75 addresses": [f"127.0.0.{n}" for n in range(2, 77)]}
    got = {name: {"join": [], "fps": []} for name in states}
    try:
        url = lines.first("seat_url")["seat_url"]
        port = int(url.split(":")[2].split("/")[0])
        lines.fps(1.0)                                       # the first frames settled
        for _ in range(rounds):
            for name, sources in states.items():
                crowd_open = hostile(port, sources) if sources else []
                try:
                    got[name]["join"] += [asyncio.run(join(url)) for _ in range(joins)]
                    got[name]["fps"].append(lines.fps(window))
                finally:
                    for s in crowd_open:
                        s.close()
                time.sleep(0.5)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        done = reap(proc, started, timeout=30)
    if done.status not in (0, -signal.SIGTERM):
        fig.notes.append(f"crowd: the app ended with {done.status}: {done.stderr[-300:]}")
    for name in states:
        fig.add(f"a seat's phone joins, {CROWD:,} hostile from {name}" if name != "none"
                else "a seat's phone joins, no hostile connection", got[name]["join"], p99=True,
                note="connect -> its first snapshot")
    for name in states:
        fig.add(f"the Pi's frames a second, {name}" if name != "none" else
                "the Pi's frames a second, no hostile connection", got[name]["fps"], "fps",
                note=f"drawing continuously, {window:.0f} s windows")
    for name in list(states)[1:]:
        fig.ratio(f"join time, {name} / none", got[name]["join"], got["none"]["join"])
        fig.ratio(f"frame rate, {name} / none", got[name]["fps"], got["none"]["fps"])
    fig.notes.append(f"crowd: {rounds * 2 * CROWD:,} hostile connections in all; the log they "
                     f"make is held by tests/web/test_limits.py (fewer than 50 records)")
