"""The dice tray on a serial port -> :class:`InputEvent`, surviving unplugging.

    reader = DiceReader("/dev/serial/by-id/usb-Table_dicetray-if00", inbox.put,
                        on_status=show_on_screen)
    ...
    reader.close()

``serial.serial_for_url`` picks the backend from the URL; only what
:func:`hardware.dice.urls.check_tray_url` allows is opened (a device path, a
``/dev/serial/by-id/`` link, a pseudo-terminal, ``loop://``, ``socket://host:port``), and the
reader refuses anything else when it is made, whoever made it. Reading runs in pySerial's :class:`serial.threaded.ReaderThread` with
:class:`DiceProtocol` (a ``LineReader`` with a bounded line buffer; both in
:mod:`hardware.dice.port`); a small supervisor thread here opens the port, waits for the reader
thread to end, and reopens with exponential backoff after an unplug, so the app never restarts
for it.

Threads: ``emit`` and ``on_status`` are called on those threads (the supervisor's or the reader's);
hand them to :meth:`hardware.inbox.Inbox.put` or another thread-safe queue (DESIGN.md, Threads).
"""

from __future__ import annotations

import itertools
import logging
import threading
from dataclasses import dataclass
from typing import Callable

import serial

from companion.core.model import InputEvent

from ..closing import ClosedOnExit
from .port import DiceProtocol, DiceReaderThread, open_port, port_error_reason
from .protocol import (
    ButtonPress, Comment, DeviceError, DieSettled, Faces, Hello, HelloQuery, Malformed, Moving,
    Parsed, Ping, Pong, Refused, Roll,
)
from .urls import check_tray_url

log = logging.getLogger(__name__)

Emit = Callable[[InputEvent], object]
SOURCE = "serial"
DEFAULT_BAUDRATE = 115200
DEFAULT_BACKOFF = (0.5, 8.0)
JOIN_S = 2.0
_PING_TOKENS = itertools.count(1)


# -- status ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class DiceStatus:
    """What the dice reader is doing, for the screen. ``state`` is one of the constants below;
    ``text`` is a sentence to show as is (``str(status)`` gives it)."""

    state: str
    text: str

    CONNECTED = "connected"          # port open; the greeting may follow
    READY = "ready"                  # the tray said HELLO: "dice reader connected: NAME VERSION"
    UNAVAILABLE = "unavailable"      # cannot open the port (not plugged in, in use, no permission)
    DISCONNECTED = "disconnected"    # the open port went away (unplugged)
    RECONNECTING = "reconnecting"    # waiting before the next attempt: "reconnecting in N s"
    REFUSED = "refused"              # a value no die can show; nothing was applied
    DEVICE_ERROR = "device_error"    # the tray sent ERR <text>
    CLOSED = "closed"                # close() was called

    def __str__(self) -> str:
        return self.text


# -- the reader -----------------------------------------------------------------------------
class DiceReader(ClosedOnExit):
    """Reads the dice tray at ``url`` and emits what it reports; while the port is missing or
    gone it keeps trying to open it again, until :meth:`close`. Starts at once.

    Emits, always with ``source="serial"``:

    * ``DIE d1 4``  -> ``InputEvent("die", "d1", 4)``
    * ``ROLL a=3 b=5`` -> ``InputEvent("die", "a", 3)``, then ``InputEvent("die", "b", 5)``,
      back to back in the order of the line (all or nothing: one impossible value refuses the
      whole roll)
    * ``MOVING d1`` -> ``InputEvent("die_moving", "d1")``: show it; it is never a result
    * ``BTN seat2.claim`` -> ``InputEvent("button", "seat2.claim")``;
      ``BTN undo HOLD`` -> ``InputEvent("button", "undo", "hold")`` (as the GPIO buttons do)

    Reports :class:`DiceStatus` through ``on_status``. Malformed lines are logged and dropped.
    ``emit`` and ``on_status`` are called on the reader's own threads (``on_status`` also on
    the caller's, for ``closed``): they must be thread-safe and quick, like ``Inbox.put``.

    ``backoff`` is (first delay, longest delay) in seconds between attempts to open; the delay
    doubles after each failure and starts over after a successful connection.

    A URL :func:`check_tray_url` refuses (``spy://``, options after ``?``...) raises
    :class:`hardware.errors.ConfigError` here, before anything is opened.
    """

    def __init__(self, url: str, emit: Emit, *, baudrate: int = DEFAULT_BAUDRATE,
                 faces: Faces | None = None,
                 on_status: Callable[[DiceStatus], object] | None = None,
                 backoff: tuple[float, float] = DEFAULT_BACKOFF,
                 ask_greeting: bool = True, name: str = "dice reader") -> None:
        first, longest = backoff
        if not 0 < first <= longest:
            raise ValueError(f"backoff must be (first, longest) with 0 < first <= longest, "
                             f"got {backoff!r}")
        self.url = check_tray_url(url)      # before any thread: a refused URL is never opened
        self.baudrate = baudrate
        self.faces = faces or Faces()
        self.backoff = (float(first), float(longest))
        self.ask_greeting = ask_greeting
        self._emit = emit
        self._on_status = on_status
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: DiceReaderThread | None = None
        self._greeting: Hello | None = None
        self._status: DiceStatus | None = None
        self._pongs: dict[str, threading.Event] = {}
        self._supervisor = threading.Thread(target=self._supervise, daemon=True,
                                            name=f"{name} {url}")
        self._supervisor.start()

    @classmethod
    def from_config(cls, dice, emit: Emit, **kwargs) -> "DiceReader":
        """From a :class:`hardware.config.DiceConfig`."""
        kwargs.setdefault("baudrate", dice.baudrate)
        kwargs.setdefault("faces", Faces(dice.faces, dict(dice.die_faces)))
        return cls(dice.url, emit, **kwargs)

    # -- state -----------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        """The port is open now."""
        with self._lock:
            return self._thread is not None and self._thread.alive

    @property
    def greeting(self) -> Hello | None:
        """What the tray said in its last ``HELLO`` on this connection, or None."""
        return self._greeting

    @property
    def status(self) -> DiceStatus | None:
        """The last status reported."""
        return self._status

    @property
    def closed(self) -> bool:
        return self._stop.is_set()

    # -- host -> device --------------------------------------------------------------------
    def send(self, line: str) -> bool:
        """Write one line (``PING``, ``HELLO?``) to the tray; False if not connected.
        On ``loop://`` the line comes back and is read like the tray's own."""
        with self._lock:
            thread = self._thread
        protocol = thread.protocol if thread is not None else None
        if protocol is None or protocol.transport is None:
            return False
        try:
            protocol.write_line(line)
        except (serial.SerialException, OSError, UnicodeError) as exc:
            log.warning("%s: cannot send %r: %s", self.url, line, exc)
            return False
        return True

    def ping(self, timeout: float = 1.0, token: str = "") -> bool:
        """Send ``PING`` and wait for the tray's ``PONG``: True if it answered in time."""
        token = token or f"p{next(_PING_TOKENS)}"
        answered = threading.Event()
        with self._lock:
            self._pongs[token] = answered
        try:
            return self.send(f"PING {token}") and answered.wait(timeout)
        finally:
            with self._lock:
                self._pongs.pop(token, None)

    # -- lifecycle -------------------------------------------------------------------------
    def close(self) -> None:
        """Stop reading and close the port; returns promptly (at most a couple of seconds
        even while a ``socket://`` connect hangs). Safe to call twice; nothing is emitted
        after it returns, except from a call already under way."""
        if self._stop.is_set():
            return
        self._stop.set()
        with self._lock:
            thread = self._thread
        here = threading.current_thread()
        if thread is not None:
            if thread is here:   # close() from inside emit: the loop ends when we return
                thread.alive = False
            else:
                # Only stop the reading; the supervisor owns the port and closes it, so it is
                # never closed from two threads at once.
                thread.stop()
        if here is not self._supervisor and here is not thread:
            self._supervisor.join(JOIN_S)
        self._report(DiceStatus.CLOSED, "dice reader closed")

    def __repr__(self) -> str:
        state = self._status.state if self._status else "starting"
        return f"<DiceReader {self.url} {state}>"

    # -- the supervisor thread -------------------------------------------------------------
    def _supervise(self) -> None:
        first, longest = self.backoff
        delay = first
        failing = False
        headline = ""
        while not self._stop.is_set():
            try:
                port = open_port(self.url, self.baudrate)
            except (serial.SerialException, OSError, ValueError) as exc:
                if not failing:   # say it once per outage, not at every attempt
                    headline = headline or f"dice reader not available at {self.url}"
                    self._report(DiceStatus.UNAVAILABLE,
                                 f"dice reader not available at {self.url}: "
                                 f"{port_error_reason(exc)}")
                    failing = True
                else:
                    log.debug("%s: still not available: %s", self.url, exc)
            else:
                failing = False
                delay = first
                lost = self._run_connection(port)
                if self._stop.is_set():
                    break
                headline = "dice reader disconnected"
                log.info("%s: connection lost: %s", self.url, lost)
                self._report(DiceStatus.DISCONNECTED, headline)
            if self._stop.is_set():
                break
            self._report(DiceStatus.RECONNECTING, f"{headline}: reconnecting in {delay:g} s")
            if self._stop.wait(delay):
                break
            delay = min(delay * 2, longest)

    def _run_connection(self, port: serial.SerialBase) -> BaseException | None:
        """Read until the port goes away or close(); return why it ended."""
        ended = threading.Event()
        why: list[BaseException | None] = [None]

        def lost(exc: BaseException | None) -> None:
            why[0] = exc
            ended.set()

        thread = DiceReaderThread(port, lambda: DiceProtocol(
            self._handle, faces=self.faces, on_made=self._made, on_lost=lost))
        thread.name = f"dice reader thread {self.url}"
        with self._lock:
            if self._stop.is_set():
                port.close()
                return None
            self._greeting = None
            self._thread = thread
            thread.start()
        ended.wait()
        thread.join(JOIN_S)
        with self._lock:
            self._thread = None
        try:
            port.close()
        except Exception:  # closing a port that is gone: nothing more to do
            log.debug("%s: close after loss failed", self.url, exc_info=True)
        return why[0]

    # -- the reader thread -----------------------------------------------------------------
    def _made(self, protocol: DiceProtocol) -> None:
        self._report(DiceStatus.CONNECTED, f"dice reader connected on {self.url}")
        if self.ask_greeting:
            try:
                protocol.write_line("HELLO?")
            except (serial.SerialException, OSError) as exc:
                log.debug("%s: cannot ask for the greeting: %s", self.url, exc)

    def _handle(self, parsed: Parsed) -> None:
        if self._stop.is_set():
            return
        if isinstance(parsed, DieSettled):
            self._send(InputEvent("die", parsed.die, parsed.value, source=SOURCE))
        elif isinstance(parsed, Roll):
            for die, value in parsed.dice:
                self._send(InputEvent("die", die, value, source=SOURCE))
        elif isinstance(parsed, Moving):
            self._send(InputEvent("die_moving", parsed.die, source=SOURCE))
        elif isinstance(parsed, ButtonPress):
            self._send(InputEvent("button", parsed.input_id, "hold" if parsed.hold else None,
                                  source=SOURCE))
        elif isinstance(parsed, Hello):
            self._greeting = parsed
            self._report(DiceStatus.READY, f"dice reader connected: {parsed}")
        elif isinstance(parsed, Refused):
            log.warning("%s: refused %s", self.url, parsed)
            self._report(DiceStatus.REFUSED, parsed.reason)
        elif isinstance(parsed, DeviceError):
            self._report(DiceStatus.DEVICE_ERROR, f"dice reader reports: {parsed.text}")
        elif isinstance(parsed, Pong):
            with self._lock:
                answered = self._pongs.get(parsed.token)
            if answered is not None:
                answered.set()
        elif isinstance(parsed, Malformed):
            log.warning("%s: ignored %s", self.url, parsed)
        elif isinstance(parsed, (Comment, HelloQuery, Ping)):
            # Comments are for people; a query or ping here is our own echo (loop://).
            log.debug("%s: %r", self.url, parsed)

    def _send(self, event: InputEvent) -> None:
        # On the reader thread: an exception here would end the connection; log it instead.
        try:
            self._emit(event)
        except Exception:
            log.exception("emit failed for %s", event)

    def _report(self, state: str, text: str) -> None:
        status = DiceStatus(state, text)
        self._status = status
        log.info("%s", text)
        if self._on_status is not None:
            try:
                self._on_status(status)
            except Exception:
                log.exception("status callback failed for %s", status)


__all__ = ["DiceProtocol", "DiceReader", "DiceReaderThread", "DiceStatus"]
