"""The phones for the phones figure (benchmarks/phones.py): N WebSocket clients on loopback,
in a process of their own so the table's process is timed alone.

    python -m benchmarks.phones_clients URL --out FILE [--clients 20]

Each client opens the page's socket as the page does (``URL/ws``, its Origin; eight clients a
source address, 127.0.0.2 and up, under the server's per-address limit), answers the
server's pings by hand (so they are counted) and notes when each snapshot arrived, on the
system-wide monotonic clock the parent shares. It reports ``connected`` once every client has
its first snapshot, then on SIGTERM writes to FILE (JSON: too long for a pipe's line)
``received`` ({snapshot number: [monotonic times]}), ``pings`` (every client's count) and
``seconds`` connected, and reports ``done``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import time
from collections import defaultdict
from pathlib import Path

import aiohttp

from benchmarks.frames import report


async def phone(session: aiohttp.ClientSession, url: str, origin: str, ready: asyncio.Event,
                received: dict[int, list[float]], pings: list[int], index: int,
                connected: list[int]) -> None:
    async with session.ws_connect(url + "/ws", origin=origin, autoping=False) as ws:
        first = True
        async for message in ws:
            if message.type == aiohttp.WSMsgType.PING:
                pings[index] += 1
                await ws.pong(message.data)
                continue
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            if data["type"] != "snapshot":
                continue
            received[data["table"]["n"]].append(time.monotonic())
            if first:
                first = False
                connected[0] += 1
                if connected[0] == len(pings):
                    ready.set()


async def main(url: str, clients: int, out: Path) -> None:
    origin = "/".join(url.split("/")[:3])
    received: dict[int, list[float]] = defaultdict(list)
    pings, connected = [0] * clients, [0]
    ready, stop = asyncio.Event(), asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    # The server takes at most 16 connections from one address (ui/web/limits.py): the
    # phones come from 127.0.0.2, .3, ... as phones at a table come from their own addresses.
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(
        local_addr=(f"127.0.0.{2 + n}", 0), limit=0)) for n in range((clients + 7) // 8)]
    try:
        tasks = [asyncio.ensure_future(phone(sessions[i // 8], url, origin, ready, received,
                                             pings, i, connected)) for i in range(clients)]
        waiting = asyncio.ensure_future(ready.wait())
        await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
        if not ready.is_set():               # a phone turned away or gone: say so, never hang
            failed = next(t for t in tasks if t.done())
            raise RuntimeError(f"benchmarks: a phone ended before all connected: "
                               f"{failed.exception() if not failed.cancelled() else 'cancelled'}")
        since = time.monotonic()
        report(connected=clients)
        await stop.wait()
        seconds = time.monotonic() - since
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for session in sessions:
            await session.close()
    out.write_text(json.dumps({"received": {str(n): t for n, t in received.items()},
                               "pings": pings, "seconds": seconds}))
    report(done=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="a watch link: http://127.0.0.1:PORT/t/TOKEN")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--out", type=Path, required=True, help="where the times are written")
    args = parser.parse_args()
    asyncio.run(main(args.url, args.clients, args.out))
