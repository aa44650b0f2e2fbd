"""What keeps a crowd of sockets from locking the table out: limits per connection, per address
and in all, enforced where a connection is accepted, before a byte of it is read.

The rules (docs/security.md, "The phones' network"):

- Three limits, each with the same give-way: a device (one address) holds at most
  :data:`PER_ADDRESS` connections, a network (an IPv6 address's /64, which every phone of one
  home shares) :data:`PER_NETWORK`, and the server :func:`total_for` (kept below the process's
  file limit). A connection past a limit closes the oldest connection inside that limit that is
  not serving a request (idle, or still sending its headers); only when every one there is
  serving is the new one closed at once. A browser's keep-alive connections and other tabs
  never shut a page out of its own script: idle ones give way to the page.
- A connection must finish its request's headers within :data:`UNFINISHED_S` of connecting or
  of its last answer (aiohttp's keep-alive timer, which a half-sent request does not reset).
- Headers are at most :data:`MAX_HEADER_BYTES` a line; a longer one is answered 400.
- Nothing a client does writes a traceback or a log line per event: bad requests, refused
  connections and the loop's accept errors are counted by a :class:`Tally`, which logs the first
  of each kind, then one line per :data:`TALLY_S` with how many more there were.
- No answer carries a ``Server`` header.
- At most :data:`ACCEPT_BURST` connections are accepted in one turn of the loop, so a crowd
  never runs the process out of files (asyncio would stop accepting for a second).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
import time
from collections import OrderedDict
from typing import Any, Callable

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from ui.web.routes import HEADERS

log = logging.getLogger("ui.web.server")

#: TCP connections (HTTP and WebSocket alike) one address may hold: a phone's browser opens up
#: to six for a page and keeps one for its WebSocket; a second tab or a reload fits too.
PER_ADDRESS = 16
#: ...and one IPv6 /64 in all: a home network's phones share their /64 (SLAAC), each with
#: addresses of its own, so the prefix is a household, not a device: eight phones' worth.
PER_NETWORK = 8 * PER_ADDRESS
#: At most this many connections in all, whatever the file limit allows.
MAX_OPEN = 256
#: File descriptors never given to phones: the app's own (SQLite, Kivy, input devices, sound,
#: the dice tray, the listening sockets).
KEPT_FDS = 128
#: Seconds a connection may take to finish its request headers (from connecting, or from its
#: last answer): idle and half-sent connections are closed after that.
UNFINISHED_S = 10.0
#: The longest request line or header line taken (aiohttp answers 400 above it).
MAX_HEADER_BYTES = 8190
#: How often the counts of what was refused or failed are logged (one line per kind).
TALLY_S = 60.0
#: Connections accepted at most in one turn of the loop (asyncio's accept loop takes the
#: listening socket's backlog, so it is that too). Each holds a file until the Gate closes it
#: on the next turn: a burst of 128 from a crowd ran past the file limit's head-room
#: (KEPT_FDS), asyncio then stops accepting for a whole second, and a seat's phone waited
#: through one or two of those (2.06 s in a CI run). A burst within the head-room never does.
ACCEPT_BURST = 32


def total_for(soft_limit: int | None = None) -> int:
    """How many connections may be open at once: MAX_OPEN, or fewer when the process's file
    limit (``RLIMIT_NOFILE``, ``LimitNOFILE=`` in the unit) leaves less after KEPT_FDS."""
    if soft_limit is None:
        soft_limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft_limit == resource.RLIM_INFINITY:
        return MAX_OPEN
    return max(8, min(MAX_OPEN, soft_limit - KEPT_FDS))


def address_key(address: str) -> str:
    """The device a connection comes from: its IPv4 address (an IPv4-mapped IPv6 one's too), or
    its IPv6 address without the zone."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


def network_key(device: str) -> str | None:
    """The network a device's limit shares with its neighbours: an IPv6 address's /64; none
    for IPv4 (a home's phones have addresses of their own, a NAT's are one address)."""
    try:
        ip = ipaddress.ip_address(device)
    except ValueError:
        return None
    if ip.version == 4:
        return None
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


class Tally:
    """Counted events logged at most once per ``every`` seconds per kind: the first at once,
    then ``"... (N more in the last 60 s)"`` when the interval has passed (at the next event or
    by a timer on ``loop``), so a flood of any size makes a handful of log lines."""

    def __init__(self, every: float = TALLY_S, clock: Callable[[], float] = time.monotonic):
        self.every, self.clock = every, clock
        self.loop: asyncio.AbstractEventLoop | None = None
        self.counts: dict[str, int] = {}        # since the process started, for the Pi
        self._held: dict[str, tuple[int, str]] = {}   # kind -> (not logged yet, last words)
        self._since: dict[str, float] = {}
        self._timer: asyncio.TimerHandle | None = None

    def note(self, kind: str, words: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        now = self.clock()
        since = self._since.get(kind)
        if since is None or now - since >= self.every:
            self._flush(kind)
            self._since[kind] = now
            log.warning("phones: %s (%s)", kind, words)
            return
        held, _ = self._held.get(kind, (0, ""))
        self._held[kind] = (held + 1, words)
        if self._timer is None and self.loop is not None and not self.loop.is_closed():
            self._timer = self.loop.call_later(self.every, self.flush)

    def flush(self) -> None:
        """Log what is held (the timer's end, or the server's stop)."""
        self._timer = None
        for kind in list(self._held):
            self._flush(kind)

    def _flush(self, kind: str) -> None:
        held, words = self._held.pop(kind, (0, ""))
        if held:
            log.warning("phones: %s: %d more in the last %d s (the last: %s)", kind, held,
                        round(self.every), words)


class Gate:
    """The connections open now: per device, per network, in all, and which are serving a
    request."""

    def __init__(self, tally: Tally, total: int | None = None,
                 per_address: int = PER_ADDRESS, per_network: int = PER_NETWORK) -> None:
        self.tally = tally
        self.total = total_for() if total is None else total
        self.per_address, self.per_network = per_address, per_network
        self.open: OrderedDict[RequestHandler, str] = OrderedDict()   # oldest first
        self.by_address: dict[str, int] = {}
        self.by_network: dict[str, int] = {}
        self.busy: set[RequestHandler] = set()

    def admit(self, handler: RequestHandler, address: str) -> bool:
        """Whether ``handler``'s new connection from the device ``address`` may stay (counted
        if so): at each full limit, the oldest waiting connection inside it makes room."""
        network = network_key(address)
        limits = [(self.by_address.get(address, 0) >= self.per_address,
                   lambda a: a == address, f"{address} holds {self.per_address} already")]
        if network is not None:
            limits.append((self.by_network.get(network, 0) >= self.per_network,
                           lambda a: network_key(a) == network,
                           f"{network} holds {self.per_network} already"))
        limits.append((len(self.open) >= self.total, lambda a: True,
                       f"all {self.total} in use"))
        for full, inside, words in limits:
            if full and not self._make_room(inside):
                self.tally.note("connection refused", f"{words}, every one serving")
                return False
        self.open[handler] = address
        self.by_address[address] = self.by_address.get(address, 0) + 1
        if network is not None:
            self.by_network[network] = self.by_network.get(network, 0) + 1
        return True

    def _make_room(self, inside: Callable[[str], bool]) -> bool:
        for handler, address in self.open.items():     # the oldest waiting one goes
            if handler not in self.busy and inside(address):
                self.tally.note("waiting connection closed", "to make room for a new one")
                self.left(handler)
                handler.force_close()
                return True
        return False

    def left(self, handler: RequestHandler) -> None:
        address = self.open.pop(handler, None)
        self.busy.discard(handler)
        if address is None:
            return
        _count_off(self.by_address, address)
        network = network_key(address)
        if network is not None:
            _count_off(self.by_network, network)


def _count_off(counts: dict[str, int], key: str) -> None:
    left = counts.get(key, 1) - 1
    if left:
        counts[key] = left
    else:
        counts.pop(key, None)


class Bare(web.Response):
    """An answer without a ``Server`` header (aiohttp adds one while preparing; this takes it
    off again): the error answers aiohttp makes itself, before any application sees them.
    They carry the guard's HEADERS too (``handle_error``), so no answer of this server lacks
    its CSP, ``no-store`` and ``nosniff``, whoever made it."""

    async def _prepare_headers(self) -> None:
        await super()._prepare_headers()
        self.headers.popall("Server", None)


class GuardedHandler(RequestHandler):
    """aiohttp's connection, admitted by the :class:`Gate` first and counted off it when it
    goes; its protocol errors (a request line too long, garbage, a reset) counted, not logged
    with a traceback."""

    def __init__(self, manager: Any, gate: Gate, **kwargs: Any) -> None:
        super().__init__(manager, **kwargs)
        self.gate = gate
        self.admitted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = address_key(str(peer[0])) if isinstance(peer, (tuple, list)) and peer else "?"
        if not self.gate.admit(self, address):
            transport.abort()          # no answer, no buffer: the file handle is free at once
            return
        self.admitted = True
        super().connection_made(transport)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.gate.left(self)
        if self.admitted:
            super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.admitted:              # an aborted connection reads nothing
            super().data_received(data)

    def log_exception(self, *args: Any, **kw: Any) -> None:
        problem = kw.get("exc_info")
        words = (f"{type(problem).__name__}: {str(problem)[:80]}"
                 if isinstance(problem, BaseException) else str(args[0] if args else ""))
        self.gate.tally.note("bad request", words)

    def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        self.log_exception("bad request", exc_info=exc)
        if request.writer.output_size > 0:
            raise ConnectionError("The answer was under way: the connection is closed")
        answer = Bare(status=status, text="Bad request" if status < 500 else "Server error")
        answer.headers.update(HEADERS)   # the same headers as every answer the guard makes
        answer.force_close()
        return answer


def handler_args() -> dict[str, Any]:
    """aiohttp's per-connection settings that carry the limits above."""
    return {"keepalive_timeout": UNFINISHED_S, "max_line_size": MAX_HEADER_BYTES,
            "max_field_size": MAX_HEADER_BYTES, "max_headers": 64, "access_log": None,
            "lingering_time": 1.0}


def loop_problems(tally: Tally) -> Callable[[asyncio.AbstractEventLoop, dict[str, Any]], None]:
    """The server loop's exception handler: what asyncio would log (an accept() out of file
    handles, a callback's error) counted by the tally; asyncio itself retries an accept after
    a second, and nothing here logs once per event."""

    def handler(_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        problem = context.get("exception")
        words = context.get("message", "")
        if problem is not None:
            words = f"{words}: {type(problem).__name__}: {str(problem)[:80]}"
        kind = "accept failed" if "accept" in context.get("message", "") else "loop error"
        tally.note(kind, words)

    return handler
