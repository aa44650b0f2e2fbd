"""The phones' server on loopback: tokens and 404s, headers, the Origin check, the limits, and
a seat's press arriving on the inbox as that seat's InputEvent."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

import aiohttp
import pytest
from yarl import URL

from companion.core import InputEvent
from companion.view.snapshot import audience_view
from hardware.inbox import Inbox
from tests.web import tables
from tests.web.serving import origin, serve, socket
from ui.web.messages import MAX_BYTES
from ui.web.server import BURST, MAX_CONNECTIONS, PhoneServer

SNAPSHOT = tables.snapshot(tables.brew_answering(), 7)     # Anna answers Dora's Witch


def test_without_a_valid_token_every_path_is_404():
    async def check(server, client, inbox):
        good = server.watch_token
        paths = ["/", "/t/", "/t/" + "0" * 32, "/t/" + good.upper(), "/t/" + good[:-1],
                 f"/t/{good}x", "/static/table.js", "/t/" + "0" * 32 + "/table.js",
                 "/t/" + "0" * 32 + "/ws", "/favicon.ico"]
        for path in paths:
            answer = await client.get(path)
            assert answer.status == 404, path
            assert answer.headers["Cache-Control"] == "no-store"
        assert (await client.post(f"/t/{good}")).status == 404
        assert (await client.get(f"/t/{good}/secret.py")).status == 404
        assert (await client.get(f"/t/{good}/table.html")).status == 404
    serve(check, SNAPSHOT)


def test_the_page_and_its_files_with_their_headers():
    async def check(server, client, inbox):
        for token in (server.watch_token, server.seat_tokens[2]):
            page = await client.get(f"/t/{token}")
            assert page.status == 200 and page.content_type == "text/html"
            html = await page.text()
            assert f"/t/{token}/table.js" in html and "{{" not in html
            for name, kind in (("table.css", "text/css"), ("table.js", "text/javascript")):
                asset = await client.get(f"/t/{token}/{name}")
                assert asset.status == 200 and asset.content_type == kind
            for answer in (page, asset):
                assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
                assert answer.headers["Cache-Control"] == "no-store"
                assert answer.headers["Referrer-Policy"] == "no-referrer"
                assert not any(h.lower().startswith("access-control") for h in answer.headers)
                assert "Server" not in answer.headers
    serve(check, SNAPSHOT)


def test_the_websocket_checks_origin_against_host():
    async def check(server, client, inbox):
        path = f"/t/{server.watch_token}/ws"
        for bad in (None, "http://evil.example", f"https://{client.host}:{client.port}",
                    f"http://{client.host}:{client.port + 1}", "null"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(path, origin=bad)
            assert refused.value.status == 403, bad
        ws = await client.ws_connect(path, origin=origin(client))
        assert (await ws.receive_json())["type"] == "hello"
        await ws.close()
    serve(check, SNAPSHOT)


def test_a_seat_press_arrives_on_the_inbox_as_that_seats_button():
    async def check(server, client, inbox):
        ws, hello, first = await socket(client, server.seat_tokens[0])
        assert hello["seat"] == 0 and first["table"]["n"] == 7
        await ws.send_json({"type": "press", "button": "so_be_it", "seen": 7, "id": 1})
        for _ in range(50):
            if len(inbox):
                break
            await asyncio.sleep(0.02)
        (event,) = inbox.drain()
        assert InputEvent(event.kind, event.id, event.value, event.source) == \
            InputEvent("button", "seat1.so_be_it", source="Anna's phone")
        # bound to its seat, its player and the table it was made on (ui.web.commands)
        assert (event.seat, event.player, event.seen) == (0, "Anna", 7)
        assert event.press == f"{server.seat_tokens[0]}:1"
        assert server.connected() == {"watching": 0, "seats": [0], "phones": 1, "dropped": 0}
        await ws.close()
    serve(check, SNAPSHOT)


def test_a_phone_gets_every_new_snapshot_whole():
    async def check(server, client, inbox):
        ws, _, first = await socket(client, server.watch_token)
        later = dict(SNAPSHOT, n=8)
        server.publish(later)
        message = await ws.receive_json(timeout=5)
        assert message["type"] == "snapshot" and message["table"] == audience_view(later, None)
        assert 0 <= message["age"] < 5 and first["table"] == audience_view(SNAPSHOT, None)
        assert "controls" not in message["table"]       # no seat's part reaches a watcher
        await ws.close()
    serve(check, SNAPSHOT)


async def _refusal(ws) -> str:
    message = await ws.receive_json(timeout=5)
    assert message["type"] == "answer" and message["applied"] is False
    return message["why"]


@pytest.mark.parametrize("token, message, named", [
    ("watch", {"type": "press", "button": "claim", "seen": 7, "id": 1}, "watches"),
    (1, {"type": "press", "button": "claim", "seen": 7, "id": 1}, "Barb's buttons can do nothing"),
    (0, {"type": "press", "button": "claim", "seen": 6, "id": 1}, "moved on"),
    (0, {"type": "press", "button": "undo", "seen": 7, "id": 1}, "'undo'"),
    (0, {"type": "press", "button": "claim", "seen": 7, "seat": 1}, "'seat'"),
    (0, {"type": "die", "die": "die", "value": 3, "seen": 7, "id": 1}, "no die"),
    (0, {"type": "redo"}, "'redo'"),
    (0, "not json", "JSON"),
])
def test_what_a_phone_may_not_send_is_refused_naming_why(token, message, named):
    async def check(server, client, inbox):
        chosen = server.watch_token if token == "watch" else server.seat_tokens[token]
        ws, _, _ = await socket(client, chosen)
        await (ws.send_str(message) if isinstance(message, str) else ws.send_json(message))
        assert named in await _refusal(ws)
        await ws.send_bytes(b"\x00")
        assert "JSON text" in await _refusal(ws)
        assert len(inbox) == 0
        await ws.close()
    serve(check, SNAPSHOT)


def test_a_message_over_4_kb_closes_that_connection_only():
    async def check(server, client, inbox):
        ws, _, _ = await socket(client, server.seat_tokens[0])
        other, _, _ = await socket(client, server.watch_token)
        await ws.send_str('{"type":"press","button":"' + "x" * 5000 + '","seen":7}')
        assert await _closes(ws)
        assert ws.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
        assert len(inbox) == 0
        server.publish(dict(SNAPSHOT, n=8))
        assert (await other.receive_json(timeout=5))["table"]["n"] == 8
        await other.close()
    serve(check, SNAPSHOT)


def test_a_flood_is_dropped_and_counted():
    async def check(server, client, inbox):
        ws, _, _ = await socket(client, server.seat_tokens[0])
        for n in range(60):
            await ws.send_json({"type": "press", "button": "pass", "seen": 7, "id": n})
        await ws.send_json({"type": "ping"})     # answered (refused) once the flood is read
        for _ in range(250):
            if server.connected()["dropped"] + len(inbox) >= 60:
                break
            await asyncio.sleep(0.02)
        passed = inbox.drain()
        assert BURST <= len(passed) <= BURST + 6   # the burst, and what a second refills
        assert {(e.kind, e.id, e.source) for e in passed} == {
            ("button", "seat1.pass", "Anna's phone")}
        assert server.connected()["dropped"] >= 60 - len(passed)
        await ws.close()
    serve(check, SNAPSHOT)


async def _closes(ws) -> bool:
    """Whether ``ws`` is closed by the server (its beats and snapshots read past)."""
    for _ in range(20):
        message = await ws.receive(timeout=5)
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            return True
    return False


async def _close_code(ws) -> int | None:
    """The code of the close frame the server sent ``ws`` (what a page's ``onclose`` reports,
    whether or not the client's own reply got out before the server closed the connection)."""
    for _ in range(20):
        message = await ws.receive(timeout=5)
        if message.type == aiohttp.WSMsgType.CLOSE:
            return message.data
        if message.type == aiohttp.WSMsgType.CLOSED:
            return None
    return None


def test_at_most_32_watching_pages_and_each_seat_keeps_its_own():
    """Watchers from four addresses (8 each: under the per-address limit) fill the watching
    slots; the 33rd is told so in words; a seat's phone still joins, and a seat's second
    phone takes over from its first rather than being turned away."""
    async def check(server, client, inbox):
        sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(
            local_addr=(f"127.0.0.{2 + n}", 0), limit=0)) for n in range(5)]
        url = client.url(f"/t/{server.watch_token}/ws")
        try:
            sockets = [await sessions[n // 8].ws_connect(url, origin=origin(client))
                       for n in range(MAX_CONNECTIONS)]
            for ws in sockets:
                assert (await ws.receive_json(timeout=5))["type"] == "hello"
            full = await sessions[4].ws_connect(url, origin=origin(client))
            told = await full.receive_json(timeout=5)
            assert told["type"] == "full" and "Too many phones watch" in told["why"]
            assert await _closes(full)
            assert server.connected()["watching"] == MAX_CONNECTIONS
            first, hello, _ = await socket(client, server.seat_tokens[0])
            assert hello["seat"] == 0
            second, hello, _ = await socket(client, server.seat_tokens[0])
            third, hello, _ = await socket(client, server.seat_tokens[0])
            assert await _close_code(first) == 4001      # the oldest of three gives way
            for ws in (*sockets, second, third):
                await ws.close()
        finally:
            for session in sessions:
                await session.close()
    serve(check, SNAPSHOT)


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code


def test_start_links_and_stop_on_its_own_thread():
    server = PhoneServer(Inbox())
    server.start(port=0, addresses=["127.0.0.1"])
    try:
        assert server.running and server.port
        server.publish(SNAPSHOT)
        links = server.links()
        assert links["watch"] == [f"http://127.0.0.1:{server.port}/t/{server.watch_token}"]
        assert [s["name"] for s in links["seats"]] == ["Anna", "Barb", "Carl", "Dora"]
        assert len({server.watch_token, *server.seat_tokens}) == 5
        assert all(len(t) == 32 for t in server.seat_tokens)    # 128 bits, in hex
        assert _get(links["watch"][0]) == 200 and _get(links["seats"][1]["urls"][0]) == 200
        first = links["watch"][0]
    finally:
        server.stop()
    assert not server.running and server.links() == {"watch": [], "seats": []}
    with pytest.raises(OSError):
        urllib.request.urlopen(first, timeout=2)
    server.start(port=0, addresses=["127.0.0.1"])       # a new sharing session: new tokens
    try:
        assert server.links()["watch"][0] != first
    finally:
        server.stop()


def _closed_by(url: str, stopping) -> tuple[aiohttp.WSMsgType, int, str]:
    """A watcher on ``url`` while ``stopping()`` runs: how its connection was closed."""
    host = url.split("/")[2]

    async def watch():
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(url + "/ws", origin=f"http://{host}") as ws:
                await ws.receive_json(timeout=5)
                await ws.receive_json(timeout=5)
                closing = asyncio.ensure_future(ws.receive(timeout=10))
                await asyncio.get_running_loop().run_in_executor(None, stopping)
                closing = await closing
                return closing.type, ws.close_code, closing.extra

    return asyncio.run(watch())


def test_stop_ends_every_connection():
    server = PhoneServer(Inbox())
    server.start(port=0, addresses=["127.0.0.1"])
    server.publish(SNAPSHOT)
    kind, code, why = _closed_by(server.links()["watch"][0], server.stop)
    assert kind in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED) and code == 1001
    assert why == "Sharing stopped"


def test_no_local_address_to_listen_on_is_an_error():
    server = PhoneServer(Inbox())
    with pytest.raises(OSError, match="listen on none"):
        server.start(port=0, addresses=["192.0.2.1"])    # not this machine's
    assert not server.running and server.watch_token is None


def test_a_restart_keeps_the_tokens_and_tells_the_phones():
    server = PhoneServer(Inbox())
    with pytest.raises(RuntimeError, match="No tokens kept"):
        server.start(port=0, addresses=["127.0.0.1"], keep_tokens=True)
    server.start(port=0, addresses=["127.0.0.1"])
    server.publish(SNAPSHOT)
    url, port, tokens = server.links()["watch"][0], server.port, list(server.seat_tokens)
    try:
        _, code, why = _closed_by(url, lambda: server.stop(keep_tokens=True))
        assert (code, why) == (1012, "Restarting")
        assert not server.running and server.links() == {"watch": [], "seats": []}
        server.start(port=port, addresses=["127.0.0.1"], keep_tokens=True)
        assert server.links()["watch"] == [url] and server.seat_tokens == tokens
        assert _get(url) == 200
    finally:
        server.stop()
    assert server.watch_token is None and _get_refused(url)


def _get_refused(url: str) -> bool:
    try:
        urllib.request.urlopen(url, timeout=2)
    except OSError:
        return True
    return False


def test_host_must_be_an_address_served():
    """DNS rebinding: a page reached by another name gets nothing, with a valid token too."""
    async def check(server, client, inbox):
        good = f"/t/{server.watch_token}"
        for host in ("evil.example", f"evil.example:{client.port}", "127.0.0.1",
                     f"127.0.0.1:{client.port + 1}", f"localhost:{client.port}", ""):
            answer = await client.get(good, headers={"Host": host})
            assert answer.status in (400, 421), host
            assert "Server" not in answer.headers
        assert (await client.get(good)).status == 200
    serve(check, SNAPSHOT)


def test_a_percent_escape_in_the_path_is_refused_cleanly():
    async def check(server, client, inbox):
        token = server.watch_token
        for path in (f"/t/{token}%2ftable.js", f"/t/{token}%2Fws", f"/t/{token}/table%2ejs",
                     f"/t/%{token[:2]}{token[2:]}", f"/t/{token}/%2e%2e/table.js"):
            answer = await client.session.get(URL(client.url(path), encoded=True))
            assert answer.status == 404, path
            assert await answer.text() == "Not found"
    serve(check, SNAPSHOT)


def test_a_message_of_exactly_4_kb_is_read_and_answered():
    async def check(server, client, inbox):
        ws, _, _ = await socket(client, server.seat_tokens[0])
        head = '{"type":"press","seen":7,"id":5,"button":"'
        text = head + "x" * (MAX_BYTES - len(head) - 2) + '"}'
        assert len(text.encode()) == MAX_BYTES
        await ws.send_str(text)
        answer = await ws.receive_json(timeout=5)
        assert answer["id"] == 5 and answer["applied"] is False and "button:" in answer["why"]
        await ws.send_str(text[:-2] + 'x"}')               # one byte more: closed
        assert await _closes(ws)
        assert ws.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    serve(check, SNAPSHOT)


def test_every_press_is_answered_received_then_applied_or_refused_with_the_words():
    async def check(server, client, inbox):
        ws, _, _ = await socket(client, server.seat_tokens[0])
        await ws.send_json({"type": "press", "button": "so_be_it", "seen": 7, "id": 41})
        assert await ws.receive_json(timeout=5) == {"type": "answer", "id": 41, "received": True}
        for _ in range(100):
            if len(inbox):
                break
            await asyncio.sleep(0.01)
        (event,) = inbox.drain()
        server.answered(event, "Anna has answered already")          # the table refused it
        assert await ws.receive_json(timeout=5) == {
            "type": "answer", "id": 41, "applied": False, "why": "Anna has answered already"}
        await ws.send_json({"type": "press", "button": "pass", "seen": 7, "id": 42})
        await ws.receive_json(timeout=5)
        for _ in range(100):
            if len(inbox):
                break
            await asyncio.sleep(0.01)
        server.answered(inbox.drain()[0])                            # played
        assert (await ws.receive_json(timeout=5))["applied"] is True
    serve(check, SNAPSHOT)


def test_the_server_beats_while_a_phone_listens(monkeypatch):
    import ui.web.server as phones

    monkeypatch.setattr(phones, "BEAT_S", 0.2)

    async def check(server, client, inbox):
        ws, _, _ = await socket(client, server.watch_token)
        beats = [await ws.receive_json(timeout=2) for _ in range(3)]
        assert all(b == {"type": "beat", "n": 7} for b in beats)
    serve(check, SNAPSHOT)


def test_a_choice_the_pi_offers_reaches_the_inbox_only_as_offered():
    snapshot = tables.snapshot(tables.brew(0), 7)          # Anna announces a role
    async def check(server, client, inbox):
        anna, _, first = await socket(client, server.seat_tokens[0])
        assert {"choice": "role:witch", "label": "The Witch"} in first["table"]["you"]["choices"]
        barb, _, _ = await socket(client, server.seat_tokens[1])
        await barb.send_json({"type": "choose", "choice": "role:witch", "seen": 7, "id": 1})
        refused = await barb.receive_json(timeout=5)
        assert refused["applied"] is False and "offers Barb no choice" in refused["why"]
        await anna.send_json({"type": "choose", "choice": "role:witch", "seen": 7, "id": 2})
        assert (await anna.receive_json(timeout=5))["received"] is True
        await anna.send_json({"type": "choose", "choice": "role:nobody", "seen": 7, "id": 3})
        assert "not 'role:nobody'" in (await anna.receive_json(timeout=5))["why"]
        return inbox.drain()
    assert [(e.kind, e.id, e.source, e.seat) for e in serve(check, snapshot)] == [
        ("choice", "seat1.role:witch", "Anna's phone", 0)]
