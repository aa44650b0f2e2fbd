"""The wall screen's server: one page for the club's wall (1920x1080, read across a room) with
the tables now, the season's standings and the latest games, pushed to the page as Server-Sent
Events whenever PostgreSQL notifies a change (LISTEN club_games, club_status, club_league):
nothing polls. The one timer is the moment the next table would turn offline (three heartbeats
missed, by the server's clock), when the board reads the tables again.

It accepts nothing from the page: GET and HEAD only (anything else 405), no request body (1 KB
at most), the phones' server's headers (CSP 'self', no-store, nosniff, no referrer), at most
MAX_CONNECTIONS pages at once. It reads with the role of its settings (a wall screen's
``club_wall``: SELECT only). Given the rater's settings too (``rater``: a ``club_rater`` role, the
one that writes the league's ratings), it folds each new game into them as games arrive
(companion/club/rater.py) on a connection of that role's own; without, it shows the ratings as
the club's rater left them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path
from typing import Any

from aiohttp import web

from companion.club.access import words
from companion.club.league import MIN_GAMES
from companion.club.sync import Backoff
from ui.web.server import HEADERS, HEARTBEAT_S, MAX_CONNECTIONS, with_headers

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
FILES = {"/": ("board.html", "text/html"), "/board.css": ("board.css", "text/css"),
         "/board.js": ("board.js", "text/javascript")}
CHANNELS = ("club_games", "club_status", "club_league")
MAX_BYTES = 1024


class BoardServer:
    """``conninfo``: the wall's connection string; ``season``: a season's name (None: today's,
    else the latest). ``make_app()`` for aiohttp; the board's work starts with the app."""

    def __init__(self, conninfo: str, season: str | None = None, club: str = "",
                 rater: str | None = None) -> None:
        self.conninfo, self.season, self.club = conninfo, season, club
        self.rater = rater                       # the rater's connection string, or None
        self._rating: Any = None                 # its connection, used from one thread
        self.n = 0
        self.snapshot: dict[str, Any] | None = None
        self.refreshed = 0.0                     # time.monotonic() of the latest snapshot
        self._clients: set[asyncio.Queue[str]] = set()
        self._wake = asyncio.Event()
        self._rate = asyncio.Event()
        self._reader: Any = None                 # a sync connection, used from one thread
        self._tasks: list[asyncio.Task] = []
        self.season_name: str | None = None      # the season shown, for the rater

    def make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=MAX_BYTES)
        app.router.add_get("/events", self._events)
        app.router.add_get("/snapshot.json", self._json)
        for path in FILES:
            app.router.add_get(path, self._file)
        app.on_startup.append(self._started)
        app.on_cleanup.append(self._stopped)
        return app

    # -- the answers ------------------------------------------------------------------------
    @web.middleware
    async def _guard(self, request: web.Request, handler):
        async def checked() -> web.StreamResponse:
            if request.method not in ("GET", "HEAD"):
                raise web.HTTPMethodNotAllowed(request.method, ["GET", "HEAD"],
                                               text="This page only shows")
            if request.content_length or request.can_read_body:
                raise web.HTTPRequestEntityTooLarge(max_size=0, actual_size=1,
                                                    text="This page takes nothing")
            return await handler(request)

        return await with_headers(checked())

    async def _file(self, request: web.Request) -> web.Response:
        name, kind = FILES[request.path]
        return web.Response(body=(STATIC / name).read_bytes(), content_type=kind,
                            charset="utf-8")

    async def _json(self, _request: web.Request) -> web.Response:
        return web.Response(text=self._text(), content_type="application/json")

    def _text(self) -> str:
        return json.dumps(self.snapshot, separators=(",", ":"), ensure_ascii=False)

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """The snapshots as Server-Sent Events: the one now, then each new one."""
        if len(self._clients) >= MAX_CONNECTIONS:
            raise web.HTTPServiceUnavailable(text=f"At most {MAX_CONNECTIONS} screens at once")
        response = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream"})
        await response.prepare(request)
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=4)
        self._clients.add(queue)
        try:
            if self.snapshot is not None:
                await response.write(f"data: {self._text()}\n\n".encode())
            while True:
                try:
                    text = await asyncio.wait_for(queue.get(), HEARTBEAT_S)
                    await response.write(f"data: {text}\n\n".encode())
                except asyncio.TimeoutError:      # a comment: a screen gone is noticed
                    await response.write(b": still here\n\n")
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self._clients.discard(queue)
        return response

    def _broadcast(self) -> None:
        text = self._text()
        for queue in list(self._clients):
            if queue.full():                     # a screen that reads no more: the newest only
                queue.get_nowait()
            queue.put_nowait(text)

    # -- the board's work -------------------------------------------------------------------
    async def _started(self, _app: web.Application) -> None:
        self._wake = asyncio.Event()
        self._rate = asyncio.Event()
        self._tasks = [asyncio.ensure_future(self._listen()),
                       asyncio.ensure_future(self._refresh())]
        if self.rater is not None:
            self._tasks.append(asyncio.ensure_future(self._rater()))

    async def _stopped(self, _app: web.Application) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for conn in (self._reader, self._rating):
            if conn is not None:
                await asyncio.to_thread(conn.close)

    async def _listen(self) -> None:
        """LISTEN on the club's channels; each notice wakes a refresh (a game: the rater too).
        The server away: said on the page, tried again with a backoff."""
        import psycopg

        backoff = Backoff(1, 30)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self.conninfo, autocommit=True, connect_timeout=10) as conn:
                    for channel in CHANNELS:
                        await conn.execute(f"LISTEN {channel}")
                    backoff.reset()
                    self._wake.set()             # what changed while not listening
                    self._rate.set()
                    async for notice in conn.notifies():
                        self._wake.set()
                        if notice.channel == "club_games":
                            self._rate.set()
            except asyncio.CancelledError:
                raise
            except Exception as problem:         # noqa: BLE001 (the server away: in words)
                self._unreachable(problem)
                await asyncio.sleep(backoff.next())

    async def _refresh(self) -> None:
        """Read the board again when woken, or when the next table turns offline."""
        while True:
            self._wake.clear()
            try:
                snapshot, soonest = await asyncio.to_thread(self._read)
            except Exception as problem:         # noqa: BLE001
                self._unreachable(problem)
                soonest = None
            else:
                self._publish(snapshot)
            try:
                await asyncio.wait_for(self._wake.wait(), soonest)
            except asyncio.TimeoutError:
                pass

    async def _rater(self) -> None:
        """Fold each new game into the season's ratings (its commit notifies club_league)."""
        from companion.club.rater import rate_due

        while True:
            await self._rate.wait()
            self._rate.clear()
            try:
                await asyncio.to_thread(self._rate_now, lambda c: rate_due(c, self.season_name))
            except Exception as problem:         # noqa: BLE001 (said; the counts still show)
                log.warning("board: the ratings could not be folded: %s",
                            words(problem, self.rater or ""))

    def _rate_now(self, work: Any) -> Any:
        """``work(conn)`` on the rater's own connection."""
        return self._on("_rating", self.rater, work)

    def _with_reader(self, work: Any) -> Any:
        """``work(conn)`` on the board's own (the wall's) connection."""
        return self._on("_reader", self.conninfo, work)

    def _on(self, kept: str, conninfo: str, work: Any) -> Any:
        """``work(conn)`` on the connection kept in ``self.<kept>``, opened again after a
        failure."""
        import psycopg

        conn = getattr(self, kept)
        if conn is None or conn.closed:
            conn = psycopg.connect(conninfo, autocommit=True, connect_timeout=10)
            setattr(self, kept, conn)
        try:
            return work(conn)
        except psycopg.OperationalError:
            conn.close()
            raise

    def _read(self) -> tuple[dict[str, Any], float | None]:
        from companion.club.board import board

        return self._with_reader(lambda conn: board(conn, self.season, self.club))

    def _publish(self, snapshot: dict[str, Any]) -> None:
        if self.snapshot is not None and {**self.snapshot, "n": 0} == {**snapshot, "n": 0}:
            return
        self.n += 1
        self.snapshot = {**snapshot, "n": self.n}
        self.season_name = (snapshot.get("season") or {}).get("name")
        self.refreshed = time.monotonic()
        self._broadcast()

    def _unreachable(self, problem: BaseException) -> None:
        said = words(problem, self.conninfo)
        log.warning("board: the club cannot be reached: %s", said)
        if self.snapshot is not None and self.snapshot.get("unreachable") == said:
            return
        self.n += 1
        shown = self.snapshot or {"club": self.club, "season": None, "min_games": MIN_GAMES,
                                  "tables": [], "standings": [], "recent": []}
        self.snapshot = {**shown, "n": self.n, "unreachable": said}
        self._broadcast()
