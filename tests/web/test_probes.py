"""Probes no issue named (issue 31's class rule), sent as a hostile device on the table's network
would, byte for byte, to the real server on loopback. Each guards a rule of docs/security.md
("The phones' network"); the first ones found a fault each (fixed in ui/web/: outbox.py,
routes.py, limits.py, server.py), the others found nothing wrong and keep it so. Every probe
also holds the log's rule: no traceback, a handful of records (the ``quiet_log`` fixture)."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import socket
import struct
import time

import aiohttp
import pytest

from hardware.inbox import Inbox
from tests.web import tables
from tests.web.serving import _connected, _read, origin, raw, request, serve, upgrade
from ui.web import outbox
from ui.web.messages import MAX_BYTES
from ui.web.passes import Passes
from ui.web.server import BURST, SEAT_SOCKETS, WATCH, Client, PhoneServer

SNAPSHOT = tables.snapshot(tables.brew_answering(), 7)      # Anna answers Dora's Witch
PRESS = '{"type":"press","button":"claim","seen":7,"id":1}'


@pytest.fixture(autouse=True)
def quiet_log(caplog):
    """Whatever a probe sends: no traceback, and a handful of records (counted, never one per
    event): the log's rule, over every probe of this file."""
    caplog.set_level(logging.INFO)
    yield
    ours = [r for r in caplog.records if r.name.split(".")[0] in ("ui", "aiohttp", "asyncio")]
    assert not [r.getMessage() for r in ours if r.exc_info or "Traceback" in r.getMessage()]
    assert len(ours) <= 6, [r.getMessage() for r in ours]


# -- raw WebSocket frames ------------------------------------------------------------------------
def frame(opcode: int, payload: bytes, fin: bool = True, rsv: int = 0,
          length: int | None = None) -> bytes:
    """A client's frame (masked, as a browser's), ``length`` announced if given."""
    n = len(payload) if length is None else length
    first = (0x80 if fin else 0) | rsv | opcode
    if n < 126:
        head = struct.pack("!BB", first, 0x80 | n)
    elif n < 65536:
        head = struct.pack("!BBH", first, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", first, 0x80 | 127, n)
    key = b"\x11\x22\x33\x44"
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def frames(data: bytes) -> list[tuple[int, bytes]]:
    """The server's frames (unmasked) in ``data``: (opcode, payload)."""
    out, i = [], 0
    while len(data) - i >= 2:
        n, j = data[i + 1] & 0x7F, i + 2
        if n in (126, 127):
            width = 2 if n == 126 else 8
            n, j = int.from_bytes(data[j:j + width], "big"), j + width
        if len(data) - j < n:
            break
        out.append((data[i] & 0x0F, data[j:j + n]))
        i = j + n
    return out


class Page:
    """A WebSocket opened by hand on ``token``'s link, past the upgrade's answer."""

    def __init__(self, port: int, token: str, *headers: str, rcvbuf: int | None = None):
        self.s = _connected(port, rcvbuf)
        self.s.sendall(upgrade(port, token, *headers))
        got = b""
        while b"\r\n\r\n" not in got:
            got += self.s.recv(65536)
        self.head, self.rest = got.split(b"\r\n\r\n", 1)

    def send(self, *sent: bytes, wait: float = 1.0) -> list[tuple[int, bytes]]:
        """Send ``sent``; every frame the server sent (hello and snapshot first), read until it
        closed or was quiet for ``wait`` s."""
        for data in sent:
            try:
                self.s.sendall(data)
            except (BrokenPipeError, ConnectionResetError):
                break
        found = frames(self.rest + _read(self.s, wait))
        self.rest = b""
        return found

    def close(self) -> None:
        self.s.close()


def _closed_with(found: list[tuple[int, bytes]]) -> int | None:
    """The code of the close frame among ``found``, None if none."""
    return next((struct.unpack("!H", data[:2])[0] for op, data in found if op == 8), None)


def _answers(found: list[tuple[int, bytes]]) -> list[dict]:
    texts = [json.loads(data) for op, data in found if op == 1]
    return [t for t in texts if t["type"] == "answer"]


async def on_server(server: PhoneServer, work) -> object:
    """``work()`` run on the server's own loop (after everything handed to it before)."""
    async def run():
        await asyncio.sleep(0.2)
        return work()
    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(run(), server._loop))


def _buffered(server: PhoneServer) -> list[int]:
    """Bytes waiting in each phone's socket buffer, on the server's side."""
    return [c.ws._req.transport.get_write_buffer_size() for c in server._clients
            if c.ws._req is not None and c.ws._req.transport is not None]


# -- the faults these probes found ---------------------------------------------------------------
def test_pages_that_never_read_hold_the_newest_snapshot_not_every_one_and_stop_is_at_once():
    """Three watchers that read nothing while the table changes 3,000 times: each held every
    snapshot in its buffer (7 MB after 6,000, growing), and Stop sharing waited for them and
    raised TimeoutError after 10 s. Now one frame is in flight and the newest waits."""
    async def check(server, client, inbox):
        pages = [Page(client.port, server.watch_token, rcvbuf=4096) for _ in range(3)]
        for n in range(8, 3008):
            server.publish(dict(SNAPSHOT, n=n))
        buffered = await on_server(server, lambda: _buffered(server))
        assert len(buffered) == 3 and max(buffered) < 256 * 1024, buffered
        got = pages[0].send(wait=1.0)                    # it reads at last: the newest table
        tables_seen = [json.loads(d)["table"]["n"] for op, d in got
                       if op == 1 and json.loads(d)["type"] == "snapshot"]
        assert tables_seen[-1] == 3007 and len(tables_seen) < 100, tables_seen[-5:]
        began = time.monotonic()
        await asyncio.to_thread(server.stop)              # Stop sharing, two pages unread
        assert time.monotonic() - began < outbox.CLOSE_S + 2
        for page in pages:
            page.close()
    serve(check, SNAPSHOT)


def test_a_page_that_takes_nothing_for_stuck_s_is_let_go(monkeypatch):
    """Its buffers full (at most aiohttp's 256 KB a socket beyond the kernel's), the next frame
    waits: after STUCK_S the connection is aborted and its slot is free. It never was."""
    monkeypatch.setattr(outbox, "STUCK_S", 0.5, raising=False)

    async def check(server, client, inbox):
        page = Page(client.port, server.watch_token, rcvbuf=4096)

        def small_send_buffers() -> None:          # the kernel's share full at once, as a
            for c in server._clients:               # phone's window closed for good
                c.ws._req.transport.get_extra_info("socket").setsockopt(
                    socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        await on_server(server, small_send_buffers)
        deadline, n = time.monotonic() + 10, 8
        while server.connected()["watching"] and time.monotonic() < deadline:
            n += 1
            server.publish(dict(SNAPSHOT, n=n))   # each one sent: the page read none
            await asyncio.sleep(0.005)
        assert server.connected()["watching"] == 0       # its slot is free again
        page.close()
    serve(check, SNAPSHOT)


def test_a_burst_of_pages_on_one_seat_link_keeps_two_and_the_newest_gets_in():
    """Ten pages at once on Anna's link: each closed the *same* oldest page, so the link held
    ten sockets (SEAT_SOCKETS is 2). Now each page beyond two closes one other, once."""
    async def check(server, client, inbox):
        url = f"/t/{server.seat_tokens[0]}/ws"
        burst = await asyncio.gather(*(client.ws_connect(url, origin=origin(client))
                                       for _ in range(10)))

        async def told(ws) -> int | None:            # the close code within 2.5 s, or None
            try:
                while True:
                    message = await ws.receive(timeout=2.5)
                    if message.type == aiohttp.WSMsgType.CLOSE:
                        return message.data
            except asyncio.TimeoutError:
                return None
        codes = await asyncio.gather(*(told(ws) for ws in burst))
        assert sorted(codes, key=str) == [4001] * 8 + [None] * 2, codes
        newest = await client.ws_connect(url, origin=origin(client))
        assert (await newest.receive_json(timeout=5))["seat"] == 0
        assert (await newest.receive_json(timeout=5))["type"] == "snapshot"
        await asyncio.sleep(0.5)
        held = [c for c in server._clients if not c.watching and not c.leaving]
        assert len(held) == SEAT_SOCKETS and not newest.closed
        for ws in (*burst, newest):
            await ws.close()
    serve(check, SNAPSHOT)


def test_binary_frames_pass_the_same_allowance_as_text():
    async def check(server, client, inbox):
        page = Page(client.port, server.seat_tokens[0])
        answers = _answers(page.send(*(frame(2, b"x" * 100) for _ in range(50)), wait=0.7))
        assert BURST <= len(answers) <= BURST + 3, len(answers)    # was one answer each
        assert all("JSON text" in a["why"] for a in answers) and len(inbox) == 0
        page.close()
    serve(check, SNAPSHOT)


def test_expect_is_never_answered_before_the_guard():
    async def check(server, client, inbox):
        port, watch = client.port, server.watch_token
        misdirected = raw(port, request(port, f"/t/{watch}", "Expect: 100-continue",
                                        host="evil.example"))
        assert misdirected.startswith(b"HTTP/1.1 421"), misdirected[:40]   # was 100 Continue
        odd = raw(port, request(port, "/anything", "Expect: a-miracle"))
        assert odd.startswith(b"HTTP/1.1 404") and b"no-store" in odd, odd[:40]  # was a bare 417
    serve(check, SNAPSHOT)


def test_the_answers_aiohttp_makes_itself_carry_the_headers_too():
    async def check(server, client, inbox):
        port, watch = client.port, server.watch_token
        for sent in (request(port, f"/t/{watch}", method="get"),
                     request(port, f"/t/{watch}", "Content-Length: 4",
                             "Transfer-Encoding: chunked", body=b"0\r\n\r\n"),
                     request(port, f"/t/{watch}", "Host: evil.example"),
                     b"\x00\x01 nonsense\r\n\r\n"):
            answer = raw(port, sent).lower()
            assert answer.split(b" ")[1] == b"400", answer[:60]
            assert b"cache-control: no-store" in answer and b"default-src 'self'" in answer
            assert b"x-content-type-options: nosniff" in answer and b"\r\nserver:" not in answer
    serve(check, SNAPSHOT)


def test_an_origin_sent_twice_is_no_origin():
    async def check(server, client, inbox):
        for extra in ("Origin: http://evil.example", f"Origin: {origin(client)}"):
            answer = raw(client.port, upgrade(client.port, server.watch_token, extra), 0.5)
            assert answer.startswith(b"HTTP/1.1 403"), answer[:40]       # was 101
    serve(check, SNAPSHOT)
