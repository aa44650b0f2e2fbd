"""What the phones' server answers: the page, its two files and the WebSocket, each behind the
same guard.

The guard's rules, for every request, before any handler (docs/security.md):

- ``Host`` must be sent once and be one of the addresses served at the port served (``421``
  otherwise): a page reached through another name (DNS rebinding) gets nothing, token or not.
- ``Expect:`` is never answered ("100 Continue" or 417) before the guard has judged the request.
- The path, as sent, must be ``/t/TOKEN``, ``/t/TOKEN/ws``, ``/t/TOKEN/table.css``,
  ``/t/TOKEN/table.js``, ``/t/TOKEN/hand.css``, ``/t/TOKEN/hand.js`` or ``/t/TOKEN/forms.js``
  with a live token, by GET or HEAD; anything else (a percent-escape such as ``%2f`` included: nothing is decoded
  before matching) answers 404.
- No answer carries ``Server``; every one carries :data:`HEADERS`.
- An error of ours is logged (counted, once per minute) and answered 500: no traceback reaches
  a phone, and none is written per request.

A WebSocket must come from the page's own origin (one ``Origin``, equal to ``http://`` + Host).
A seat's link that has ended is let in only to be told why, then closed.
"""

from __future__ import annotations

import asyncio
import re
import time
import traceback
from pathlib import Path
from typing import Any, Awaitable

from aiohttp import WSMsgType, web

from ui.web import passes as kept
from ui.web.clients import WATCH, Client
from ui.web.messages import CLOSE_TIMEOUT_S, ENDED, FULL, HEARTBEAT_S, MAX_BYTES, reply
from ui.web.outbox import CLOSE_S, abort, close_within

STATIC = Path(__file__).with_name("static")
ASSETS = {"table.css": "text/css", "table.js": "text/javascript",
          "hand.css": "text/css", "hand.js": "text/javascript",        # the seat's hand
          "forms.js": "text/javascript"}                              # its entries
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self'; "
                               "style-src 'self'; script-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",     # the token is in the address
}
_PATH = re.compile(r"/t/([0-9a-f]{32})(?:/(ws|table\.css|table\.js|hand\.css|hand\.js|forms\.js))?")


async def with_headers(answering: Awaitable[web.StreamResponse]) -> web.StreamResponse:
    """The answer (an HTTPException raised: a plain answer of its status, never aiohttp's
    page), with HEADERS on it unless it is already streaming (those set their own)."""
    try:
        response = await answering
    except web.HTTPException as answer:
        response = web.Response(status=answer.status, text=answer.text or answer.reason)
    if not response.prepared:
        response.headers.update(HEADERS)
    return response


async def _no_server_header(_request: web.Request, response: web.StreamResponse) -> None:
    response.headers.popall("Server", None)


class Routes:
    """The server's aiohttp application; ``gate``: the connections' (None on a test's loop)."""

    def __init__(self, server: Any) -> None:   # the PhoneServer (server.py imports this module)
        self.server = server
        self.gate: Any = None

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=MAX_BYTES)
        app.router.add_route("*", "/{tail:.*}", self._answer, expect_handler=_no_expectation)
        app.on_response_prepare.append(_no_server_header)
        app.on_startup.append(self._started)
        return app

    async def _started(self, _app: web.Application) -> None:
        self.server._loop = asyncio.get_running_loop()

    @web.middleware
    async def _guard(self, request: web.Request, handler):
        async def checked() -> web.StreamResponse:
            hosts = request.headers.getall("Host", [])     # none, or sent twice: misdirected
            if len(hosts) != 1 or request.host not in self.server.hosts():
                raise web.HTTPMisdirectedRequest(
                    text="This page opens only at the table's own address")
            path = request.raw_path.split("?", 1)[0]
            match = _PATH.fullmatch(path)
            found = self.server.passes.find(match.group(1)) if match and self.server.passes \
                else None
            if found is None or request.method not in ("GET", "HEAD"):
                raise web.HTTPNotFound(text="Not found")
            return await self._serve(request, match.group(1), match.group(2), found)

        busy = self.gate.busy if self.gate is not None else set()
        busy.add(request.protocol)         # serving: never closed to make room for another
        try:
            return await with_headers(checked())
        except (ConnectionError, asyncio.CancelledError):
            raise
        except Exception as problem:            # noqa: BLE001 (ours: counted, never shown)
            self.server.tally.note("server error", "".join(
                traceback.format_exception_only(type(problem), problem)).strip()[:200])
            return await with_headers(_raise(web.HTTPInternalServerError(text="Server error")))
        finally:
            busy.discard(request.protocol)

    async def _answer(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPNotFound(text="Not found")       # the guard answers everything

    async def _serve(self, request: web.Request, token: str, part: str | None,
                     found: Any) -> web.StreamResponse:
        if part is None:
            html = (STATIC / "table.html").read_text(encoding="utf-8").replace("{{token}}", token)
            return web.Response(text=html, content_type="text/html", charset="utf-8")
        if part != "ws":
            return web.Response(body=(STATIC / part).read_bytes(), content_type=ASSETS[part],
                                charset="utf-8")
        return await self._socket(request, found)

    async def _socket(self, request: web.Request, found: Any) -> web.StreamResponse:
        origins = request.headers.getall("Origin", [])     # sent twice: judged as not sent
        if len(origins) != 1 or origins[0] != f"http://{request.host}":
            raise web.HTTPForbidden(text="This page opens only from the table's own link")
        # one byte more than MAX_BYTES: aiohttp refuses a message *at* its limit
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT_S, max_msg_size=MAX_BYTES + 1,
                                   compress=False, timeout=CLOSE_TIMEOUT_S, autoping=False)
        ws.headers.update(HEADERS)
        if not ws.can_prepare(request).ok:
            raise web.HTTPNotFound(text="Not found")
        server = self.server
        await ws.prepare(request)
        if isinstance(found, kept.Ended):
            await self._close(ws, reply("ended", why=found.why), ENDED)
            return ws
        client = Client(ws, WATCH if found == "watch" else found)
        leaving = server.joined(client)
        if leaving is None:
            await self._close(ws, reply("full", why="Too many phones watch the table now: "
                                                    "this one tries again in a minute"), FULL)
            return ws
        for old in leaving:                     # this link's older pages give way
            asyncio.ensure_future(close_within(old.ws, 4001, b"Opened elsewhere"))
        try:
            seat = server.seat_of(client)
            client.outbox.answer(reply("hello", seat=seat, name=None if client.watching
                                       else client.seat.name, boot=server.fates.boot))
            client.outbox.table(server.view_text(client))
            async for message in ws:
                if message.type == WSMsgType.PING:      # a browser never sends one: a flood's
                    if client.allowed(time.monotonic()):   # beyond the allowance, unanswered
                        await ws.pong(message.data)
                    continue
                if message.type == WSMsgType.PONG:      # the page's answer to the heartbeat
                    continue
                if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                # every message, text or not, through the same allowance and the same parse
                answer = server.received(client, message.data)
                if answer is not None:
                    client.outbox.answer(answer)
        except (ConnectionError, RuntimeError, asyncio.CancelledError):
            pass                                # the phone went: nothing to tell anyone
        finally:
            server.left(client)
        return ws

    async def end(self, client: "Client", why: str) -> None:
        """A connected phone whose pass ended: told why, then closed."""
        await self._close(client.ws, reply("ended", why=why), ENDED)

    @staticmethod
    async def _close(ws: web.WebSocketResponse, words: str, how: tuple[int, bytes]) -> None:
        """Say ``words``, then close: within CLOSE_S, or aborted (a phone that reads nothing)."""
        try:
            await asyncio.wait_for(ws.send_str(words), CLOSE_S)
        except asyncio.TimeoutError:
            abort(ws)
            return
        except (ConnectionError, RuntimeError):
            return
        await close_within(ws, *how)


async def _raise(answer: web.HTTPException) -> web.StreamResponse:
    raise answer


async def _no_expectation(_request: web.Request) -> None:
    """``Expect:`` is answered by nothing (aiohttp's own handler would send "100 Continue",
    or a bare 417, before the guard sees the request): no route takes a body, so the guard's
    final answer is all a request gets (RFC 9110 allows a server to skip the 100)."""
    return None
