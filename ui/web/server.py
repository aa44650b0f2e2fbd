"""The phones' server: the live table on the local network, and phones as seat buttons.

aiohttp on its own thread with its own asyncio loop. It never touches Kivy, the store or the
session: the main thread hands it snapshots (``companion.view.snapshot.table_view``), and what a seat's
phone presses becomes an :class:`InputEvent` on the one inbox, as a GPIO button's would, so it
passes the same gate and is logged with its source ("Anna's phone"). The server owns the table
as published; each phone gets its audience's view of it (``companion.view.snapshot.audience_view``): a
watcher the public table, a seat's phone that and its own seat's part, nothing of another's.

The controller API (what the app calls, from its main thread)::

    server = PhoneServer(inbox, on_change=trigger, tokens_file=path)
    server.start(port=8765)      # the kept tokens (a restart) or new ones; OSError if no address
    server.publish(snapshot)     # after every change (None: no game at the table)
    server.answered(event, why)  # the table played a phone's press ("") or refused it (why)
    server.links()               # {"watch": [url, ...], "seats": [{"seat", "name", "colour", "urls"}]}
    server.connected()           # {"watching": 2, "seats": [0, 3], "phones": 3, "dropped": 0}
    server.stop()                # Stop sharing: every connection and token ends at once
    server.stop(keep_tokens=True)   # the app closing: phones told, tokens kept for the next start

Tokens (ui.web.passes): one to watch, one per player (never per seat number), 128 random bits,
kept in ``tokens_file`` until Stop sharing. A path without a valid token answers 404, whatever
it is. The limits (ui.web.limits, docs/security.md) hold before a request is read, and what
the server owes each phone is bounded (ui.web.outbox: the newest snapshot, a few answers).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from aiohttp import web

from companion.core.model import InputEvent
from companion.view.snapshot import audience_view
from ui.web import passes as kept
from ui.web.addresses import join_links, local_addresses
from ui.web.clients import (  # noqa: F401 (the tests')
    BURST, RATE, WATCH, Client, press_key, seat_input,
)
from ui.web import fates as told
from ui.web.limits import (
    ACCEPT_BURST, Gate, GuardedHandler, Tally, handler_args, loop_problems,
)
from ui.web.messages import Refused, parse, reply
from ui.web.outbox import close_within
from ui.web.messages import (  # noqa: F401 (the tests' too)
    BEAT_S, CLOSE_TIMEOUT_S, ENDED, FULL, HEARTBEAT_S, RESTARTING, STOPPED,
)
from ui.web.routes import HEADERS, Routes, with_headers  # noqa: F401 (the club wall's too)

log = logging.getLogger(__name__)

#: WebSockets on the watch link at once; a seat's own are kept apart (SEAT_SOCKETS each).
MAX_CONNECTIONS = MAX_WATCHING = 32
#: WebSockets one seat's link may hold: a new one ends the oldest (a reload, a second tab).
SEAT_SOCKETS = 2
MAX_SEATS = 6


class PhoneServer:
    """``on_change``: called (from the server's thread, with no argument) whenever a phone
    connects or goes away, so the Pi's screen can ask ``connected()`` without polling; it must
    only hand over (a Kivy ``Clock.create_trigger`` is made for that). ``tokens_file``: where
    the tokens are kept across restarts (None: in memory only)."""

    def __init__(self, inbox: Any, on_change: Callable[[], Any] | None = None,
                 tokens_file: Path | None = None) -> None:
        self.inbox = inbox
        self.on_change = on_change
        self.tokens_file = tokens_file
        self.port: int | None = None
        self.addresses: list[str] = []
        self.passes: kept.Passes | None = None
        self.tally = Tally()
        self._lock = threading.Lock()
        self._snapshot: dict[str, Any] | None = None
        self._built = 0.0
        self._clients: set[Client] = set()
        self.fates = told.Fates()            # what became of each press (ui.web.fates)
        self._pending: dict[str, Any] = {}   # press key -> the page's id, the table owes them
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._listening: list[asyncio.AbstractServer] = []
        self._beat: asyncio.TimerHandle | None = None
        self._dropped_before = 0       # messages dropped by connections since closed
        self.routes = Routes(self)

    # -- the controller API (main thread) --------------------------------------------------
    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def watch_token(self) -> str | None:
        return self.passes.watch if self.passes is not None else None

    @property
    def seat_tokens(self) -> list[str]:
        """The token of each seat of the table now (its player's pass), in seat order."""
        return [p.token for p in self._seat_passes()]

    def start(self, port: int = 8765, addresses: Sequence[str] | None = None, *,
              keep_tokens: bool = False) -> None:
        """Listen on ``addresses`` (default: every local one) at ``port`` (0: a free one, the
        same on every address), with the tokens kept in ``tokens_file`` (the app restarted) or
        new ones. OSError when none can be listened on. ``keep_tokens``: the tokens
        ``stop(keep_tokens=True)`` kept in memory (RuntimeError if there are none)."""
        if self.running:
            raise RuntimeError("The phones' server is already running")
        if keep_tokens and self.passes is None:
            raise RuntimeError("No tokens kept to start with: stop(keep_tokens=True) keeps them")
        if not keep_tokens:
            self.passes = kept.load(self.tokens_file) or kept.Passes.new()
            kept.save(self.tokens_file, self.passes)
            self.fates = told.Fates(told.fates_path(self.tokens_file)
                                    if self.tokens_file is not None else None)
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
        """End every connection and every token (Stop sharing: the kept file goes too).
        ``keep_tokens``: the app closing or restarting; the phones are told so (they reconnect
        by themselves) and the tokens stay, in memory and in the file."""
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None and thread.is_alive():
            closing = self._shutdown(*(RESTARTING if keep_tokens else STOPPED))
            asyncio.run_coroutine_threadsafe(closing, loop).result(timeout=10)
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=10)
        self._thread = self._loop = None
        self._forget_tokens(keep_tokens)

    def publish(self, snapshot: dict[str, Any] | None) -> None:
        """The table as it is now (from any thread; None: no game at the table): kept for
        phones that connect later, and each connected phone gets its audience's view. A new
        game's players take their passes; a pass whose player left ends (its page told)."""
        with self._lock:
            before = self.passes
            if snapshot is not None and self.passes is not None:
                names = [s["name"] for s in snapshot.get("seats", [])][:MAX_SEATS]
                self.passes = self.passes.seated(names, snapshot.get("play"))
            self._snapshot, self._built = snapshot, time.monotonic()
            changed = self.passes is not before
        if changed and self.passes is not None:
            kept.save(self.tokens_file, self.passes)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._broadcast)
            except RuntimeError:     # the loop closed meanwhile: nobody to tell
                pass

    def answered(self, event: InputEvent, why: str = "", step: int | None = None) -> None:
        """The table played a phone's press (``why`` empty; ``step``: its number) or refused
        it (``why``, the words the Pi showed), main thread, after playing it: its fate is kept
        (a resend or a page that asks learns it) and every page of its link is told (the one
        that pressed may have reconnected since; the others pass over an id not theirs)."""
        key = getattr(event, "press", "")
        with self._lock:
            press = self._pending.pop(key, None)
        if press is None:
            return
        self.fates.settle(key, told.REFUSED if why else told.PLAYED, why or step)
        answer = reply("answer", id=press, applied=not why, why=why or None)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._tell_link, key.partition(":")[0], answer)
                loop.call_soon_threadsafe(loop.run_in_executor, None, self.fates.save)
            except RuntimeError:
                pass

    def _tell_link(self, token: str, answer: str) -> None:
        with self._lock:
            clients = [c for c in self._clients
                       if not c.watching and c.seat.token == token and not c.ws.closed]
        for client in clients:
            client.outbox.answer(answer)

    def links(self) -> dict[str, Any]:
        """The join links: one per address for watching, and per seat of the table now."""
        if self.passes is None or self.port is None:
            return {"watch": [], "seats": []}
        seats = (self._snapshot or {}).get("seats", [])[:MAX_SEATS]
        return {"watch": join_links(self.addresses, self.port, self.passes.watch),
                "seats": [{"seat": i, "name": seat["name"], "colour": seat.get("colour"),
                           "urls": join_links(self.addresses, self.port, p.token)}
                          for i, (seat, p) in enumerate(zip(seats, self._seat_passes()))]}

    def connected(self) -> dict[str, Any]:
        """Who has the page open: watchers, the seats with a phone, messages dropped."""
        with self._lock:
            clients = list(self._clients)
            dropped = self._dropped_before + sum(c.dropped for c in clients)
        seats = sorted({s for c in clients if (s := self.seat_of(c)) is not None})
        return {"watching": sum(c.watching for c in clients), "seats": seats,
                "phones": len(clients), "dropped": dropped}

    # -- passes and seats -----------------------------------------------------------------
    def _seat_passes(self) -> list[kept.SeatPass]:
        names = [s["name"] for s in (self._snapshot or {}).get("seats", [])][:MAX_SEATS]
        if self.passes is None:
            return []
        return [p for name in names if (p := self.passes.for_player(name)) is not None]

    def seat_of(self, client: Client, snapshot: dict[str, Any] | None = None) -> int | None:
        """The seat ``client``'s player holds at the table now (None: watching, or away)."""
        if client.watching:
            return None
        table = snapshot if snapshot is not None else self._snapshot
        names = [kept.player_key(s["name"]) for s in (table or {}).get("seats", [])]
        return names.index(client.seat.player) if client.seat.player in names else None

    def _forget_tokens(self, keep_tokens: bool = False) -> None:
        if not keep_tokens:
            self.passes = None
            kept.forget(self.tokens_file)
            self.fates.forget()
        self.port, self.addresses = None, []

    def hosts(self) -> set[str]:
        """The Host headers a page of this server may send: its addresses at its port."""
        if self.port is None:
            return set()
        return {link.split("/")[2] for link in join_links(self.addresses, self.port, "x")}

    # -- the application (its own loop) ----------------------------------------------------
    def make_app(self) -> web.Application:
        if self.passes is None:
            self.passes = kept.Passes.new()
        return self.routes.app()

    # -- what a phone sends ----------------------------------------------------------------
    def received(self, client: Client, text: str) -> str | None:
        """A reply for the phone, or None (a flood's drop); a press allowed goes to the inbox
        and is answered "received" now, then applied or refused once the table played it."""
        if not client.allowed(time.monotonic()):
            return None                      # dropped and counted: no answer to a flood
        press = None
        try:
            message = parse(text)
            press = message["id"]
            if message["type"] == "ask":
                return self._asked(client, press, message["boot"])
            key = press_key(client, press)
            known = self.fates.get(key)
            if known is not None:             # a resend: never played twice, its fate told
                return fate_answer(press, known)
            snapshot = self._snapshot          # one table for the whole check
            event = seat_input(snapshot, client, self.seat_of(client, snapshot), message)
            if self.fates.arrive(key) is not None:   # the same press, just now on another page
                return fate_answer(press, self.fates.get(key))
            with self._lock:
                self._pending[key] = press
                while len(self._pending) > told.KEPT:
                    self._pending.pop(next(iter(self._pending)))
            self.inbox.put(event)
        except Refused as refusal:
            if press is not None and not client.watching:
                self.fates.settle(press_key(client, press), told.REFUSED, str(refusal))
            return reply("answer", id=press, applied=False, why=str(refusal))
        return reply("answer", id=press, received=True)

    def _asked(self, client: Client, press: Any, boot: str) -> str:
        """A page back after a lost connection asks what became of ``press``."""
        if client.watching:
            raise Refused("This page watches the table: it has no buttons")
        fate = self.fates.ask(press_key(client, press), boot)
        return fate_answer(press, fate)

    # -- what the phones get ---------------------------------------------------------------
    def view_text(self, client: Client) -> str:
        """The snapshot as ``client`` sees it; ``age`` says how old its clocks are."""
        with self._lock:
            snapshot, built = self._snapshot, self._built
        seat = self.seat_of(client)
        age = round(max(0.0, time.monotonic() - built), 2)
        table = audience_view(snapshot, seat) if snapshot is not None else None
        return json.dumps({"type": "snapshot", "age": age, "table": table},
                          separators=(",", ":"))

    def ended_words(self, client: Client) -> str | None:
        """Why ``client``'s pass no longer presses (it ended), or None."""
        if client.watching or self.passes is None:
            return None
        found = self.passes.find(client.seat.token)
        return found.why if isinstance(found, kept.Ended) else None

    def _broadcast(self) -> None:
        with self._lock:
            clients = list(self._clients)
        for client in clients:
            if client.ws.closed:
                continue
            why = self.ended_words(client)
            if why is not None:
                asyncio.ensure_future(self.routes.end(client, why))
            else:
                client.outbox.table(self.view_text(client))   # the newest replaces one waiting

    def beat(self) -> None:
        """Every BEAT_S while a phone is connected: each hears the table is there (nothing
        runs while no phone is)."""
        self._beat = None
        with self._lock:
            clients = list(self._clients)
            n = self._snapshot["n"] if self._snapshot is not None else None
        for client in clients:
            client.outbox.beat(reply("beat", n=n))
        self.keep_beating()

    def keep_beating(self) -> None:
        if self._beat is None and self._clients and self._loop is not None:
            self._beat = self._loop.call_later(BEAT_S, self.beat)

    def joined(self, client: Client) -> list[Client] | None:
        """Count ``client`` in, or None when the watchers are full. A seat's link keeps at
        most SEAT_SOCKETS that have not been told to go: the oldest beyond that are marked
        ``leaving`` and returned (to be closed), so the newest phone always gets in and a burst
        of pages cannot pick the same one to close twice (each leaves the count at once)."""
        with self._lock:
            leaving: list[Client] = []
            if client.watching:
                if sum(c.watching for c in self._clients) >= MAX_WATCHING:
                    return None
            else:
                own = sorted((c for c in self._clients if not c.watching and not c.leaving
                              and c.seat.token == client.seat.token), key=lambda c: c.opened)
                leaving = own[:max(0, len(own) + 1 - SEAT_SOCKETS)]
                for old in leaving:
                    old.leaving = True
            self._clients.add(client)
        self._changed()
        self.keep_beating()
        return leaving

    def left(self, client: Client) -> None:
        with self._lock:
            self._clients.discard(client)
            self._dropped_before += client.dropped
        self._changed()

    def _changed(self) -> None:
        """Tell the app who is connected changed; a failing callback never ends a phone."""
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:                 # noqa: BLE001 (the app's problem, logged)
                log.exception("phones: on_change failed")

    # -- running and stopping --------------------------------------------------------------
    def _run(self, wanted: list[str], port: int, ready: threading.Event,
             failed: list[BaseException]) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        loop.set_exception_handler(loop_problems(self.tally))
        self.tally.loop = loop
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
            self.tally.flush()
            loop.close()

    async def _listen(self, wanted: list[str], port: int) -> None:
        self._runner = web.AppRunner(self.make_app(), handle_signals=False,
                                     access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        loop = self._loop = asyncio.get_running_loop()
        gate, manager, args = Gate(self.tally), self._runner.server, handler_args()

        def connection() -> GuardedHandler:
            return GuardedHandler(manager, gate, loop=loop, **args)

        self.routes.gate = gate
        bound: list[str] = []
        for address in wanted:
            try:
                listening = await loop.create_server(connection, address, port,
                                                     reuse_address=True, backlog=ACCEPT_BURST)
            except OSError as problem:
                log.warning("phones: cannot listen on %s: %s", address, problem)
                continue
            self._listening.append(listening)
            if port == 0:                                   # the free port it got
                port = listening.sockets[0].getsockname()[1]
            bound.append(address)
        if not bound:
            raise OSError(f"The phones' server can listen on none of {', '.join(wanted)} "
                          f"(port {port})")
        self.port, self.addresses = port, bound

    async def _shutdown(self, code: int = STOPPED[0], why: bytes = STOPPED[1]) -> None:
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None
        for listening in self._listening:
            listening.close()
        self._listening = []
        with self._lock:
            clients = list(self._clients)
        await asyncio.gather(*(close_within(c.ws, code, why) for c in clients),
                             return_exceptions=True)     # a phone that reads nothing: aborted
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


def fate_answer(press: Any, fate: tuple[str, Any] | None) -> str:
    """The answer a page gets for a press whose fate is known (or not: ``None``)."""
    if fate is None:
        return reply("answer", id=press, applied=None, unknown=True,
                     why="The table restarted before it answered: look at the table to see "
                         "whether it was played")
    kind, detail = fate
    if kind == told.RECEIVED:
        return reply("answer", id=press, received=True)
    if kind == told.PLAYED:
        return reply("answer", id=press, applied=True, why=None)
    if kind == told.LOST:
        return reply("answer", id=press, applied=False, lost=True, why=told.LOST_WORDS)
    return reply("answer", id=press, applied=False, why=detail)
