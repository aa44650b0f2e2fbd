"""Probes nobody asked for (a probe that breaks a rule is a class to close), sent as a hostile
device on the table's network would, byte for byte, to the real server on loopback. Each guards a rule of docs/security.md
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

from tests.web import tables
from tests.web.serving import Page, connect, frame, origin, raw, read_all, request, serve, upgrade
from tests.web.serving import socket as socket_page
from ui.web import outbox
from ui.web.messages import MAX_BYTES
from ui.web.passes import Passes
from ui.web.server import BURST, SEAT_SOCKETS, Client, PhoneServer

SNAPSHOT = tables.snapshot(tables.brew_answering(), 7)      # Anna answers Dora's Witch
PRESS = '{"type":"press","button":"claim","seen":7,"id":1}'
HEAD = b"\r\n\r\n"                      # an answer's head, read up to its end


@pytest.fixture(autouse=True)
def quiet_log(caplog):
    """Whatever a probe sends: no traceback, and a handful of records (counted, never one per
    event): the log's rule, over every probe of this file."""
    caplog.set_level(logging.INFO)
    yield
    ours = [r for r in caplog.records if r.name.split(".")[0] in ("ui", "aiohttp", "asyncio")]
    assert not [r.getMessage() for r in ours if r.exc_info or "Traceback" in r.getMessage()]
    assert len(ours) <= 6, [r.getMessage() for r in ours]


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
        # What was already in the socket's buffers when it began to read arrives too (how much
        # depends on how fast the loop ran beside the kernel): far fewer than every one
        assert tables_seen[-1] == 3007 and len(tables_seen) < 3000 // 4, tables_seen[-5:]
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
            answer = raw(client.port, upgrade(client.port, server.watch_token, extra), 5,
                         upto=HEAD)
            assert answer.startswith(b"HTTP/1.1 403"), answer[:40]       # was 101
    serve(check, SNAPSHOT)


# -- probes that found nothing wrong, kept so ------------------------------------------------------
def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0


def test_no_method_but_get_and_head_reaches_a_live_link():
    async def check(server, client, inbox):
        port, watch = client.port, server.watch_token
        for method in ("OPTIONS", "TRACE", "PUT", "DELETE", "PATCH", "PROPFIND", "BREW"):
            answer = raw(port, request(port, f"/t/{watch}", method=method))
            assert _status(answer) in (400, 404) and b"TRACE" not in answer, (method, answer[:40])
        posted = raw(port, request(port, f"/t/{watch}", "Content-Length: 20",
                                   method="POST", body=b'{"type":"press"}    '))
        assert _status(posted) == 404
        assert _status(raw(port, request(port, "*", method="OPTIONS"))) == 404
        assert _status(raw(port, request(port, f"127.0.0.1:{port}", method="CONNECT"))) in (
            400, 404, 421)
        assert len(inbox) == 0
    serve(check, SNAPSHOT)


def test_only_the_links_own_targets_are_served():
    """Absolute-form, other cases, slashes, dot segments, parameters, escapes: never the page.
    A query string is not part of the path (the page's own reloads may carry one)."""
    async def check(server, client, inbox):
        port, t = client.port, server.watch_token
        for target in (f"http://evil.example/t/{t}", f"http://127.0.0.1:{port}/t/{t}",
                       f"/t/{t.upper()}", f"/t/{t}/", f"/t/{t}/../{t}", f"/t/{t}/./table.js",
                       f"//t/{t}", f"/t/{t};x=1", f"/t/{t}%00", f"/T/{t}", f"/t/{t}#top",
                       f"/t/{t}/table.js/", f"/t/{t}/TABLE.JS", f"/t/{t}%2Fws", f"/t//{t}"):
            answer = raw(port, request(port, target))
            assert _status(answer) in (400, 404, 421) and b"<html" not in answer, target
        assert _status(raw(port, request(port, f"/t/{t}?from=qr"))) == 200
    serve(check, SNAPSHOT)


def test_smuggling_shapes_are_refused_and_answered_once():
    async def check(server, client, inbox):
        port, t = client.port, server.watch_token
        smuggled = f"GET /t/{t}/table.js HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        for headers, body in ((("Content-Length: 4", "Transfer-Encoding: chunked"), b"0\r\n\r\n"),
                              (("Transfer-Encoding: chunked", "Transfer-Encoding: identity"),
                               b"0\r\n\r\n"),
                              (("Content-Length: 0", "Content-Length: 40"), b""),
                              (("Transfer-Encoding: xchunked",), b"0\r\n\r\n"),
                              (("Content-Length: -1",), b""),
                              (("Content-Length: 99999999999999999999999",), b"")):
            answer = raw(port, request(port, f"/t/{t}", *headers, body=body + smuggled))
            assert _status(answer) == 400 and answer.count(b"HTTP/1.") == 1, (headers, answer)
        chunked = raw(port, request(port, f"/t/{t}", "Transfer-Encoding: chunked",
                                    body=b"5\r\nhello\r\n0\r\n\r\n"))
        assert _status(chunked) == 200 and chunked.count(b"HTTP/1.") == 1
    serve(check, SNAPSHOT)


def test_pipelined_requests_are_answered_in_order_and_a_pipeliner_that_never_reads_is_bounded():
    async def check(server, client, inbox):
        port, t = client.port, server.watch_token
        one = f"GET /t/{t}/table.css HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        assert raw(port, one * 5 + request(port, "/nothing"), 1.0).count(b"HTTP/1.1 200") == 5
        flood = connect(port, rcvbuf=4096)
        flood.setblocking(False)
        sent, began = 0, time.monotonic()
        while time.monotonic() - began < 1.5:          # megabytes of requests, none read
            try:
                sent += flood.send(one * 2000)
            except BlockingIOError:
                await asyncio.sleep(0.01)
        queued = await on_server(server, lambda: [len(h._messages) for h in server.routes.gate.open])
        assert sent > 10 * len(one) * 32 and max(queued) <= 32, (sent, queued)
        flood.close()
    serve(check, SNAPSHOT)


def test_hosts_that_are_not_the_served_address_are_misdirected():
    async def check(server, client, inbox):
        port, t = client.port, server.watch_token
        for host in (f"[::1]:{port}", f"[::ffff:127.0.0.1]:{port}", f"[fe80::1%25eth0]:{port}",
                     f"127.0.0.1.:{port}", f"127.0.0.1:{port}.", f"127.0.0.1:0{port}",
                     f"127.1:{port}", f"0x7f.0.0.1:{port}", f"2130706433:{port}",
                     f"127.0.0.1:+{port}", f"user@127.0.0.1:{port}", "127.0.0.1", f"LOCALHOST:{port}"):
            assert _status(raw(port, request(port, f"/t/{t}", host=host))) == 421, host
        assert _status(raw(port, request(port, f"/t/{t}", host="", version="HTTP/1.0"))) == 421
        assert _status(raw(port, request(port, f"/t/{t}", host=""))) == 400   # 1.1 needs one
    serve(check, SNAPSHOT)


def test_only_the_pages_own_origin_opens_a_socket():
    async def check(server, client, inbox):
        port, t = client.port, server.watch_token
        own = f"Origin: http://127.0.0.1:{port}"
        for other in ("null", f"http://127.0.0.1:{port + 1}", f"https://127.0.0.1:{port}",
                      f"http://127.0.0.1:{port}/", f"HTTP://127.0.0.1:{port}", "http://127.0.0.1",
                      f"http://localhost:{port}", ""):
            sent = upgrade(port, t).replace(own.encode(), f"Origin: {other}".encode())
            assert _status(raw(port, sent, 5, upto=HEAD)) == 403, other
    serve(check, SNAPSHOT)


def test_upgrades_to_anything_but_a_websocket_are_not_switched():
    async def check(server, client, inbox):
        port, t = client.port, server.watch_token
        for kind in ("h2c", "websocket2", "TLS/1.0", "IRC/6.9"):
            headers = (f"Upgrade: {kind}", "Connection: Upgrade, HTTP2-Settings",
                       "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA")
            page = raw(port, request(port, f"/t/{t}", *headers) + b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
            assert _status(page) == 200, kind                 # the page, over HTTP/1.1
            ws = raw(port, upgrade(port, t).replace(b"Upgrade: websocket",
                                                    f"Upgrade: {kind}".encode()), 5, upto=HEAD)
            assert _status(ws) in (400, 404), kind
        no_key = upgrade(port, t).replace(b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", b"")
        assert _status(raw(port, no_key, 5, upto=HEAD)) in (400, 404)
    serve(check, SNAPSHOT)


def test_frames_outside_the_protocol_close_that_socket_and_nothing_reaches_the_inbox():
    """Compressed without permessage-deflate (offered, never agreed), fragments adding up past
    4 KB, a continuation first, an unknown opcode, a length of 2^63, text that is not UTF-8, a
    ping over 125 bytes, a close with a 2,000-byte reason or a bad code."""
    big = json.dumps({"type": "press", "button": "x" * 1000, "seen": 7, "id": 1}).encode()
    probes = {
        "compressed": ([frame(1, b"\xab\x56\xca\x2c", rsv=0x40)], 1002),
        "fragments past 4 KB": ([frame(1, big, fin=False), *(frame(0, big, fin=False)
                                                              for _ in range(3)), frame(0, big)], 1009),
        "continuation first": ([frame(0, PRESS.encode())], 1002),
        "opcode 3": ([frame(3, b"x")], 1002),
        "length 2^63": ([frame(1, b"", length=2 ** 63 - 1)[:14]], 1009),
        "not UTF-8": ([frame(1, b'{"type":"\xff\xfe"}')], 1007),
        "ping of 126 bytes": ([frame(9, b"p" * 126)], 1002),
        "close with 2,000 bytes": ([frame(8, struct.pack("!H", 1000) + b"r" * 2000)], 1002),
        "close code 999": ([frame(8, struct.pack("!H", 999))], 1002),
        "close code 1005": ([frame(8, struct.pack("!H", 1005))], 1002),
        "close of one byte": ([frame(8, b"\x03")], 1002),
    }

    async def check(server, client, inbox):
        for name, (sent, code) in probes.items():
            page = Page(client.port, server.seat_tokens[0],
                        "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits")
            assert b"permessage-deflate" not in page.head.lower()   # never agreed
            found = page.send(*sent, wait=2.0)
            assert _closed_with(found) == code, (name, found[2:])
            page.close()
        assert len(inbox) == 0
        ws, _, _ = await socket_page(client, server.watch_token)   # it still serves
        await ws.close()
    serve(check, SNAPSHOT)


def test_a_ping_flood_passes_the_same_allowance_and_pongs_cost_nothing():
    """A browser never pings (its script cannot): pings are answered within the allowance of
    messages, the rest dropped and counted (all 1,000 were answered, at four times the cost of
    a dropped message); pongs, the page's answers to the heartbeat, are passed over."""
    async def check(server, client, inbox):
        page = Page(client.port, server.seat_tokens[0])
        found = page.send(*(frame(10, b"q" * 125) for _ in range(1000)), wait=0.5)
        assert not [op for op, _ in found[2:] if op != 1]           # pongs: nothing back
        answers = _answers(page.send(frame(1, PRESS.encode()), wait=0.5))
        assert answers[0].get("received") is True                   # they spent nothing
        found = page.send(*(frame(9, b"p" * 125) for _ in range(1000)), wait=1.0)
        assert 1 <= sum(op == 10 for op, _ in found) <= BURST + 3 and len(inbox) == 1
        assert server.connected()["dropped"] >= 1000 - BURST - 3
        page.close()
    serve(check, SNAPSHOT)


def test_odd_values_in_a_message_are_refused_naming_what():
    """Numbers a page never sends, duplicated keys (the last one is the one judged, as the
    parser reads it), text no keyboard makes, nesting: each refused, nothing on the inbox.
    Each is a press of its own id: the same id again is a resend, answered by its first fate."""
    class Recorder(list):
        put = list.append

    inbox = Recorder()
    server = PhoneServer(inbox)
    server.passes = Passes.new()
    server.publish(SNAPSHOT)
    anna = Client(ws=None, seat=server.passes.for_player("Anna"))        # type: ignore[arg-type]
    move_on = "The table has moved on"
    for n, (text, words) in enumerate((
            ('{"type":"press","button":"claim","seen":99999999,"id":1}', move_on),
            ('{"type":"press","button":"claim","seen":-7,"id":1}', move_on),
            ('{"type":"press","button":"claim","seen":' + "9" * 4000 + ',"id":1}', move_on),
            ('{"type":"press","button":"claim","seen":7.0,"id":1}', "press.seen: must be"),
            ('{"type":"press","button":"claim","seen":7e0,"id":1}', "press.seen: must be"),
            ('{"type":"press","button":"claim","seen":NaN,"id":1}', "press.seen: must be"),
            ('{"type":"press","button":"claim","seen":7,"id":-Infinity}', "press.id: must be"),
            ('{"type":"press","button":"claim","seen":7,"seen":6,"id":1}', move_on),
            ('{"type":"press","type":"die","button":"claim","seen":7,"id":1}', "die: unknown key"),
            ('{"type":"press","button":"\\ud800","seen":7,"id":1}', "button: Anna's buttons"),
            ('{"type":"press","button":"claim\\u0000","seen":7,"id":1}', "button: Anna's buttons"),
            ('{"type":"press","button":"\\u202eclaim","seen":7,"id":1}', "button: Anna's buttons"),
            ('{"type":"press","\\udfff":1,"button":"claim","seen":7,"id":1}', "unknown key"),
            ('{"type":"press","button":' + "[" * 2000 + "]" * 2000 + ',"seen":7,"id":1}',
             "must be JSON"),
            ('{"type":"choose","choice":"brew:{\\"x\\":1}","seen":7,"id":1}', "choice: the table"),
    ), start=1):
        text = text.replace('"id":1}', f'"id":{n}}}')   # a press of its own: a resend is
        anna.allowance = BURST                    # answered by its first fate; never a flood
        answer = json.loads(server.received(anna, text))
        assert answer["applied"] is False and words in answer["why"], (text[:60], answer)
    assert inbox == []


def test_4096_bytes_of_multi_byte_text_is_one_message_and_a_byte_more_closes():
    async def check(server, client, inbox):
        head, tail = '{"type":"press","button":"', '","seen":7,"id":1}'
        room = MAX_BYTES - len(head) - len(tail)
        text = (head + "é" * (room // 2) + "a" * (room % 2) + tail).encode()
        assert len(text) == MAX_BYTES
        page = Page(client.port, server.seat_tokens[0])
        assert "buttons can do" in _answers(page.send(frame(1, text)))[0]["why"]
        assert _closed_with(page.send(frame(1, text[:-1] + b"aa"))) == 1009
        page.close()
    serve(check, SNAPSHOT)


def test_a_token_is_compared_whole_with_every_token_in_constant_time(monkeypatch):
    """Passes.find compares the token sent with every live and ended one by compare_digest,
    however early one matches: how long an answer takes says nothing of how much matched."""
    passes = Passes.new().seated(["Anna", "Barb", "Carl"], "game")
    compared = []
    real = secrets.compare_digest
    monkeypatch.setattr(secrets, "compare_digest", lambda a, b: compared.append(b) or real(a, b))
    counts = []
    for token in (passes.watch, passes.seats[0].token, passes.seats[-1].token, "0" * 32,
                  passes.watch[:-1] + "x"):
        compared.clear()
        passes.find(token)
        counts.append(len(compared))
    assert len(set(counts)) == 1 and counts[0] == 1 + len(passes.seats) + len(passes.ended)


def test_answers_outside_the_links_own_do_not_say_whether_a_token_is_live():
    """A wrong Host, method or file is answered the same for a live and a dead token. (A
    live token's socket from a foreign Origin is 403, a dead one's 404: that tells no more
    than the page's own GET, which any holder of the link may make.)"""
    async def check(server, client, inbox):
        port, live, dead = client.port, server.seat_tokens[0], secrets.token_hex(16)

        def answers(token: str) -> list[bytes]:
            got = [raw(port, request(port, f"/t/{token}", host="evil.example")),
                   raw(port, request(port, f"/t/{token}", method="POST")),
                   raw(port, request(port, f"/t/{token}/table.html")),
                   raw(port, request(port, f"/t/{token}/", method="HEAD")),
                   raw(port, request(port, f"/t/{token}/ws", host="evil.example"))]
            return [b"\r\n".join(line for line in a.split(b"\r\n")
                                 if not line.startswith(b"Date:")) for a in got]
        assert answers(live) == answers(dead)
    serve(check, SNAPSHOT)


def test_the_heartbeat_keeps_a_page_that_answers_and_ends_one_that_does_not(monkeypatch):
    """Pings are ours to answer now (autoping off): the server's own heartbeat still sees a
    page's pongs, and still ends a socket that never answers one."""
    monkeypatch.setattr("ui.web.routes.HEARTBEAT_S", 0.4)

    async def check(server, client, inbox):
        silent = Page(client.port, server.watch_token)            # reads, never pongs
        ws, _, _ = await socket_page(client, server.watch_token)  # aiohttp's client pongs
        async def listen() -> None:
            while True:
                message = await ws.receive()
                assert message.type == aiohttp.WSMsgType.TEXT, message
        with pytest.raises(asyncio.TimeoutError):        # 2 s of pings and pongs, no close
            await asyncio.wait_for(listen(), 2.0)
        found = silent.send(wait=1.0)
        assert any(op == 9 for op, _ in found)            # it was pinged, and let go:
        assert server.connected()["watching"] == 1 and not ws.closed
        await ws.close()
        silent.close()
    serve(check, SNAPSHOT)


def test_a_body_is_never_waited_for():
    """A POST announcing 100 MB and sending 64 KB, or a GET with a body trickled: answered at
    once (no route reads a body) and the connection closed within aiohttp's lingering second,
    never held open for the rest."""
    async def check(server, client, inbox):
        port, t = client.port, server.watch_token
        began = time.monotonic()
        answer = raw(port, request(port, f"/t/{t}", "Content-Length: 100000000", method="POST",
                                   body=b"x" * 65536), wait=4.0)
        assert _status(answer) == 404 and time.monotonic() - began < 3.5
        page = connect(port)
        page.sendall(request(port, f"/t/{t}", "Content-Length: 4000", body=b"{"))
        began = time.monotonic()
        assert _status(read_all(page, 4.0)) == 200 and time.monotonic() - began < 3.5
        page.close()
    serve(check, SNAPSHOT)
