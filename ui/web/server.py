"""The phones' server: the live table on the local network, and phones as seat buttons.

aiohttp on its own thread with its own asyncio loop. It never touches Kivy, the store or the
session: the main thread hands it snapshots (``companion.view.table_view``), and what a seat's
phone presses becomes an :class:`InputEvent` on the one inbox, as a GPIO button's would, so it
passes the same gate and is logged with its source ("Anna's phone").

The controller API (what the app calls, from its main thread)::

    server = PhoneServer(inbox, on_change=trigger)   # trigger(): from the server's thread
    server.start(port=8765)      # new tokens; listens on the local addresses; OSError if none
    server.publish(snapshot)     # after every change: every phone gets it whole
    server.links()               # {"watch": [url, ...], "seats": [{"seat", "name", "urls"}]}
    server.connected()           # {"watching": 2, "seats": [0, 3], "phones": 3, "dropped": 0}
    server.stop()                # Stop sharing: every connection and token ends at once
    server.stop(keep_tokens=True); server.start(port, keep_tokens=True)   # a restart: the
                                 # phones are told so, reconnect by themselves, links still work

Each sharing session has a watch token and one token per seat, 128 random bits each; a path
without a valid one answers 404, whatever it is. A watch token can send nothing; a seat token
only what that seat's buttons can do now (the snapshot's ``controls``), pressed on the table
the phone showed (``seen``). The WebSocket checks Origin against Host; messages are at most
4 KB and declared (ui.web.messages); at most 32 connections; each connection a few messages a
second (the rest dropped and counted); the server pings each phone once every 20 s.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Sequence

from aiohttp import WSMsgType, web

from companion.core.model import InputEvent
from ui.web.addresses import join_links, local_addresses
from ui.web.messages import MAX_BYTES, Refused, parse, reply

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 32
#: The messages a connection may send: a burst of BURST, then RATE a second.
RATE, BURST = 3.0, 6
HEARTBEAT_S = 20.0
#: How long a closing phone may take to answer (Stop sharing waits no longer).
CLOSE_TIMEOUT_S = 2.0
MAX_SEATS = 6
STATIC = Path(__file__).with_name("static")
ASSETS = {"table.css": "text/css", "table.js": "text/javascript"}
WATCH = -1
#: How a connection is closed (code, reason): on Stop sharing (the page stops trying) and on a
#: restart (the page reconnects by itself, as after any other close).
STOPPED, RESTARTING = (1001, b"Sharing stopped"), (1012, b"Restarting")
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self'; "
                               "style-src 'self'; script-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",     # the token is in the address
}
ROLE = web.RequestKey("role", int)
_PATH = re.compile(r"/t/([0-9a-f]{32})(?:/(ws|table\.css|table\.js))?")


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


@dataclass(eq=False)
class Client:
    """One phone's WebSocket: its seat (WATCH for a watcher) and its message allowance."""

    ws: web.WebSocketResponse
    seat: int
    allowance: float = float(BURST)
    since: float = field(default_factory=time.monotonic)
    dropped: int = 0

    def allowed(self, now: float) -> bool:
        self.allowance = min(float(BURST), self.allowance + (now - self.since) * RATE)
        self.since = now
        if self.allowance < 1:
            self.dropped += 1
            return False
        self.allowance -= 1
        return True


class PhoneServer:
    """``on_change``: called (from the server's thread, with no argument) whenever a phone
    connects or goes away, so the Pi's screen can ask ``connected()`` without polling; it must
    only hand over (a Kivy ``Clock.create_trigger`` is made for that)."""

    def __init__(self, inbox: Any, on_change: Callable[[], Any] | None = None) -> None:
        self.inbox = inbox
        self.on_change = on_change
        self.port: int | None = None
        self.addresses: list[str] = []
        self.watch_token: str | None = None
        self.seat_tokens: list[str] = []
        self._lock = threading.Lock()
        self._snapshot: dict[str, Any] | None = None
        self._built = 0.0
        self._clients: set[Client] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._dropped_before = 0       # messages dropped by connections since closed

    # -- the controller API (main thread) --------------------------------------------------
    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, port: int = 8765, addresses: Sequence[str] | None = None, *,
              keep_tokens: bool = False) -> None:
        """New tokens, then listen on ``addresses`` (default: every local one) at ``port``
        (0: a free one, the same on every address). OSError when none can be listened on.
        ``keep_tokens``: the tokens ``stop(keep_tokens=True)`` kept, so the phones' links and
        open pages work again (a restart, not a new sharing session)."""
        if self.running:
            raise RuntimeError("The phones' server is already running")
        if not keep_tokens:
            self.new_tokens()
        elif self.watch_token is None:
            raise RuntimeError("No tokens kept to start with: stop(keep_tokens=True) keeps them")
        wanted = list(addresses) if addresses is not None else local_addresses()
        ready, failed = threading.Event(), []
        self._thread = threading.Thread(target=self._run, args=(wanted, port, ready, failed),
                                        name="phones-server", daemon=True)
        self._thread.start()
        ready.wait()
        if failed:
            self._thread.join()
            self._thread = None
            self._forget_tokens(keep_tokens)
            raise failed[0]

    def stop(self, *, keep_tokens: bool = False) -> None:
        """End every connection and every token (Stop sharing). ``keep_tokens``: a restart;
        the phones are told the server restarts (they reconnect by themselves) and the tokens
        are kept for ``start(keep_tokens=True)``."""
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None and thread.is_alive():
            closing = self._shutdown(*(RESTARTING if keep_tokens else STOPPED))
            asyncio.run_coroutine_threadsafe(closing, loop).result(timeout=10)
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=10)
        self._thread = self._loop = None
        self._forget_tokens(keep_tokens)

    def publish(self, snapshot: dict[str, Any]) -> None:
        """The table as it is now (from any thread): kept for phones that connect later and
        sent whole to every connected one."""
        with self._lock:
            self._snapshot, self._built = snapshot, time.monotonic()
        loop = self._loop
        if loop is not None and not loop.is_closed():
            text = self._snapshot_text()
            try:
                loop.call_soon_threadsafe(self._broadcast, text)
            except RuntimeError:     # the loop closed meanwhile: nobody to tell
                pass

    def links(self) -> dict[str, Any]:
        """The join links: one per address for watching, and per seat of the table now."""
        if self.watch_token is None or self.port is None:
            return {"watch": [], "seats": []}
        names = [s["name"] for s in (self._snapshot or {}).get("seats", [])]
        return {"watch": join_links(self.addresses, self.port, self.watch_token),
                "seats": [{"seat": i, "name": name,
                           "urls": join_links(self.addresses, self.port, self.seat_tokens[i])}
                          for i, name in enumerate(names[:MAX_SEATS])]}

    def connected(self) -> dict[str, Any]:
        """Who has the page open: watchers, the seats with a phone, messages dropped."""
        with self._lock:
            clients = list(self._clients)
            dropped = self._dropped_before + sum(c.dropped for c in clients)
        seats = sorted({c.seat for c in clients if c.seat != WATCH})
        return {"watching": sum(c.seat == WATCH for c in clients), "seats": seats,
                "phones": len(clients), "dropped": dropped}

    # -- tokens ---------------------------------------------------------------------------
    def new_tokens(self) -> None:
        self.watch_token = secrets.token_hex(16)
        self.seat_tokens = [secrets.token_hex(16) for _ in range(MAX_SEATS)]

    def _forget_tokens(self, keep_tokens: bool = False) -> None:
        if not keep_tokens:
            self.watch_token, self.seat_tokens = None, []
        self.port, self.addresses = None, []

    def _role(self, token: str) -> int | None:
        """WATCH, the seat the token is bound to, or None for anything else."""
        found = None
        if self.watch_token is not None and secrets.compare_digest(token, self.watch_token):
            found = WATCH
        for seat, mine in enumerate(self.seat_tokens):
            if secrets.compare_digest(token, mine):
                found = seat
        if found is not None and found != WATCH:
            seats = (self._snapshot or {}).get("seats")
            if seats is not None and found >= len(seats):
                return None          # no such seat at this table
        return found

    # -- the application (its own loop) ----------------------------------------------------
    def make_app(self) -> web.Application:
        """The aiohttp application (tests serve it on their own loop)."""
        if self.watch_token is None:
            self.new_tokens()
        app = web.Application(middlewares=[self._guard], client_max_size=MAX_BYTES)
        app.router.add_get("/t/{token}", self._page)
        app.router.add_get("/t/{token}/ws", self._socket)
        app.router.add_get("/t/{token}/{asset}", self._asset)
        app.on_startup.append(self._started)
        return app

    async def _started(self, _app: web.Application) -> None:
        self._loop = asyncio.get_running_loop()

    @web.middleware
    async def _guard(self, request: web.Request, handler):
        """404 for every path without a valid token (before routing: a wrong method on a
        known path answers 404 too), and the headers on every answer."""
        match = _PATH.fullmatch(request.path)
        role = self._role(match.group(1)) if match else None

        async def checked() -> web.StreamResponse:
            if role is None or request.method not in ("GET", "HEAD"):
                raise web.HTTPNotFound(text="Not found")
            request[ROLE] = role
            return await handler(request)

        return await with_headers(checked())

    async def _page(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        html = (STATIC / "table.html").read_text(encoding="utf-8").replace("{{token}}", token)
        return web.Response(text=html, content_type="text/html", charset="utf-8")

    async def _asset(self, request: web.Request) -> web.Response:
        name = request.match_info["asset"]
        if name not in ASSETS:
            raise web.HTTPNotFound(text="Not found")
        return web.Response(body=(STATIC / name).read_bytes(), content_type=ASSETS[name],
                            charset="utf-8")

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin, host = request.headers.get("Origin"), request.headers.get("Host")
        if not origin or not host or origin != f"http://{host}":
            raise web.HTTPForbidden(text="This page opens only from the table's own link")
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT_S, max_msg_size=MAX_BYTES,
                                   compress=False, timeout=CLOSE_TIMEOUT_S)
        ws.headers.update(HEADERS)
        if not ws.can_prepare(request).ok:
            raise web.HTTPNotFound(text="Not found")
        with self._lock:
            if len(self._clients) >= MAX_CONNECTIONS:
                raise web.HTTPServiceUnavailable(
                    text=f"At most {MAX_CONNECTIONS} phones can watch at once")
            client = Client(ws, request[ROLE])
            self._clients.add(client)
        self._changed()
        try:
            await ws.prepare(request)
            await ws.send_str(reply("hello", seat=None if client.seat == WATCH else client.seat))
            if self._snapshot is not None:
                await ws.send_str(self._snapshot_text())
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    answer = self._received(client, message.data)
                elif message.type == WSMsgType.BINARY:
                    answer = reply("refused", why="Messages are JSON text")
                else:
                    break
                if answer is not None and not ws.closed:
                    await ws.send_str(answer)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            with self._lock:
                self._clients.discard(client)
                self._dropped_before += client.dropped
            self._changed()
        return ws

    def _changed(self) -> None:
        """Tell the app who is connected changed; a failing callback never ends a phone."""
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:                 # noqa: BLE001 (the app's problem, logged)
                log.exception("phones: on_change failed")

    # -- what a phone sends ----------------------------------------------------------------
    def _received(self, client: Client, text: str) -> str | None:
        """A reply for the phone (a refusal), or None; a press allowed goes to the inbox."""
        if not client.allowed(time.monotonic()):
            return None                      # dropped and counted: no answer to a flood
        try:
            message = parse(text)
            self.inbox.put(self._input(client.seat, message))
        except Refused as refusal:
            return reply("refused", why=str(refusal))
        return None

    def _input(self, seat: int, message: dict[str, Any]) -> InputEvent:
        """The InputEvent a seat's message stands for, or Refused with the reason."""
        if seat == WATCH:
            raise Refused("This page watches the table: it has no buttons")
        snapshot = self._snapshot
        if snapshot is None:
            raise Refused("No game at the table yet")
        if message["seen"] != snapshot["n"]:
            raise Refused("The table has moved on: look again, then press")
        if seat >= len(snapshot["controls"]):
            raise Refused("This seat is not at the table now")
        controls = snapshot["controls"][seat]
        name = snapshot["seats"][seat]["name"]
        source = f"{name}'s phone"
        if message["type"] == "press":
            offered = [b["button"] for b in controls["buttons"]]
            if message["button"] not in offered:
                raise Refused(f"button: {name}'s buttons can do "
                              f"{', '.join(offered) or 'nothing'} now, not {message['button']!r}")
            return InputEvent("button", f"seat{seat + 1}.{message['button']}", source=source)
        dice = {d["die"]: d["faces"] for d in controls["dice"]}
        if message["die"] not in dice:
            raise Refused(f"die: the game asks {name} for no die {message['die']!r} now")
        if message["value"] not in dice[message["die"]]:
            raise Refused(f"value: {message['die']} has no face {message['value']!r}")
        return InputEvent("die", message["die"], message["value"], source=source)

    # -- what the phones get ---------------------------------------------------------------
    def _snapshot_text(self) -> str:
        """The snapshot as sent: ``age`` says how old its clocks are (a phone adds it)."""
        with self._lock:
            snapshot, built = self._snapshot, self._built
        age = round(max(0.0, time.monotonic() - built), 2)
        return json.dumps({"type": "snapshot", "age": age, "table": snapshot},
                          separators=(",", ":"))

    def _broadcast(self, text: str) -> None:
        with self._lock:
            clients = list(self._clients)
        for client in clients:
            if not client.ws.closed:
                asyncio.ensure_future(self._send(client, text))

    async def _send(self, client: Client, text: str) -> None:
        try:
            await client.ws.send_str(text)
        except (ConnectionError, RuntimeError):
            pass                             # it went away: its handler cleans up

    # -- running and stopping --------------------------------------------------------------
    def _run(self, wanted: list[str], port: int, ready: threading.Event,
             failed: list[BaseException]) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._listen(wanted, port))
        except BaseException as problem:      # noqa: BLE001 (handed to start())
            failed.append(problem)
            ready.set()
            loop.run_until_complete(self._shutdown())
            loop.close()
            return
        ready.set()
        try:
            loop.run_forever()
        finally:
            loop.close()

    async def _listen(self, wanted: list[str], port: int) -> None:
        self._runner = web.AppRunner(self.make_app(), handle_signals=False,
                                     access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        self._loop = asyncio.get_running_loop()
        bound: list[str] = []
        for address in wanted:
            site = web.TCPSite(self._runner, address, port, reuse_address=True)
            try:
                await site.start()
            except OSError as problem:
                log.warning("phones: cannot listen on %s: %s", address, problem)
                continue
            if port == 0:                                   # the free port it got
                port = self._runner.addresses[-1][1]
            bound.append(address)
        if not bound:
            raise OSError(f"The phones' server can listen on none of {', '.join(wanted)} "
                          f"(port {port})")
        self.port, self.addresses = port, bound

    async def _shutdown(self, code: int = STOPPED[0], why: bytes = STOPPED[1]) -> None:
        with self._lock:
            clients = list(self._clients)
        await asyncio.gather(*(c.ws.close(code=code, message=why)
                               for c in clients), return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
