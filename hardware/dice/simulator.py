"""A dice tray that is not there: speaks the dice protocol on a pseudo-terminal.

For demos and tests. The tray's end is the pty master; the app opens the slave like any serial
port. A real unplug makes the port vanish and a replug brings a new one; :meth:`unplug` and
:meth:`replug` do the same with a fresh pty, which gets a new ``/dev/pts/N`` path. So the
simulator keeps a symlink (``link``) pointing at the current slave, as udev keeps
``/dev/serial/by-id/...`` for a real tray; point the reader's URL at the link. While unplugged
the link is removed, exactly like the by-id link.

    with DiceSimulator(link=tmp / "dicetray") as sim:
        reader = DiceReader(str(sim.link), inbox.put)
        sim.roll({"d1": 3, "d2": 5})
        sim.unplug(); sim.replug()

Faults to inject: ``garbage`` (odd lines between the good ones: unknown words, bad UTF-8,
control bytes, an overlong line, impossible values) and ``partial`` (every line written in
random pieces with short pauses).
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import random
import select
import struct
import termios
import threading
import time
import tty
from collections import deque
from pathlib import Path
from typing import Callable, Iterable, Mapping

from ..closing import ClosedOnExit
from .protocol import (
    ButtonPress,
    DieSettled,
    Hello,
    HelloQuery,
    LineSplitter,
    Moving,
    Ping,
    Pong,
    Roll,
    format_line,
    parse_line,
)

log = logging.getLogger(__name__)

WRITE_TIMEOUT_S = 0.5   # a line nobody reads for this long is dropped (the pty buffer is full)
HISTORY = 1000          # lines kept in ``sent`` and ``received``
SETTLE_S = 0.03         # how long the reader's queue must stay empty to count as drained

GARBAGE = (
    b"FOO bar\n",
    b"DIE d1\n",
    b"DIE d1 banana\n",
    b"ROLL d1=3 d1=4\n",
    b"\xff\xfe\xc3(DIE d1 2\n",
    b"\x00\x01\x02\x1b[2J\n",
    b"X" * 200 + b"\n",
    b"DIE d1 9\n",
    b"MOVING\n",
)


class DiceSimulator(ClosedOnExit):
    """A pseudo-terminal that behaves like a dice tray (greeting, rolls, buttons, PING).

    ``rng`` drives random faces and fault injection (seed it for repeatable runs). ``sleep``
    is used only for the pauses of ``partial`` writes. Everything it writes is also kept in
    ``sent`` and what the host wrote in ``received`` (the last 1000 lines each).
    """

    def __init__(self, *, link: str | os.PathLike[str] | None = None, name: str = "dicesim",
                 version: str = "1.0", garbage: float = 0.0, partial: bool = False,
                 rng: random.Random | None = None,
                 sleep: Callable[[float], object] = time.sleep,
                 greet_on_plug: bool = True) -> None:
        self.link = Path(link) if link is not None else None
        self.hello = Hello(name, version)
        self.garbage = float(garbage)
        self.partial = partial
        self.rng = rng or random.Random()
        self.sent: deque[bytes] = deque(maxlen=HISTORY)       # the last lines written
        self.received: deque[str] = deque(maxlen=HISTORY)     # the last lines the host sent
        self.greet_on_plug = greet_on_plug
        self._sleep = sleep
        self._lock = threading.RLock()
        self._host_here = False    # a host has written on the current pty
        self._master: int | None = None
        self._slave: int | None = None
        self._path: str | None = None
        self._closed = False
        self._wake_r, self._wake_w = os.pipe()
        self._plugged = threading.Event()
        self.host_seen = threading.Event()   # set at the first line the host sends
        self._service = threading.Thread(target=self._serve, daemon=True, name="dicesim")
        self.replug()
        self._service.start()

    # -- plugging --------------------------------------------------------------------------
    @property
    def path(self) -> str | None:
        """The slave's path now (``/dev/pts/N``), or None while unplugged."""
        return self._path

    @property
    def url(self) -> str:
        """What a reader should open: the link if there is one, else the current path."""
        if self.link is not None:
            return str(self.link)
        if self._path is None:
            raise RuntimeError("unplugged and no link")
        return self._path

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def replug(self) -> str:
        """Plug in (again): a fresh pty, the link pointed at it, the greeting sent.
        Returns the new path."""
        with self._lock:
            if self._closed:
                raise RuntimeError("simulator closed")
            if self._master is not None:
                return self._path or ""
            master, slave = os.openpty()
            # Raw from the start: no echo of what the tray writes, no CR/LF translation. The
            # simulator keeps the slave open so writes never fail while no reader is there.
            tty.setraw(slave)
            os.set_blocking(master, False)
            self._master, self._slave, self._path = master, slave, os.ttyname(slave)
            self._host_here = False
            if self.link is not None:
                _point_link(self.link, self._path)
            self._plugged.set()
        self._wake()
        log.info("dicesim: plugged in at %s", self._path)
        if self.greet_on_plug:
            self.send(self.hello)
        return self._path

    def unplug(self, drain_s: float = 0.5) -> None:
        """Pull the cable: the pty goes away (a reader gets an I/O error), the link is removed.

        A pty drops what its reader has not read yet when it closes; first wait up to
        ``drain_s`` for the reader to take everything sent, so a script is repeatable
        (``drain_s=0`` pulls at once, losing what is in flight as a real unplug can). Only
        done once a host has spoken on this pty: with nobody reading, nothing would drain."""
        if self._host_here:
            self._drain(drain_s)
        with self._lock:
            master, slave = self._master, self._slave
            self._master = self._slave = self._path = None
            self._plugged.clear()
            if self.link is not None:
                try:
                    self.link.unlink()
                except FileNotFoundError:
                    pass
            for fd in (master, slave):
                if fd is not None:
                    os.close(fd)
        self._wake()
        log.info("dicesim: unplugged")

    def _drain(self, timeout: float) -> bool:
        """Wait until the reader has read all we wrote (or ``timeout``); True if it has.

        The tty's input queue (TIOCINQ) does not count bytes still in the kernel's flip
        buffer on their way from the master, so "empty" must hold for ``SETTLE_S`` first."""
        deadline = time.monotonic() + timeout
        pause = threading.Event()
        empty_since = None
        while True:
            with self._lock:
                slave = self._slave
                if slave is None:
                    return True
                try:
                    unread = struct.unpack("i", fcntl.ioctl(slave, termios.TIOCINQ,
                                                            b"\0\0\0\0"))[0]
                except OSError:
                    return True
            now = time.monotonic()
            if unread:
                empty_since = None
            elif empty_since is None:
                empty_since = now
            elif now - empty_since >= SETTLE_S:
                return True
            if now >= deadline:
                return False
            pause.wait(0.003)

    # -- what the tray says ----------------------------------------------------------------
    def send(self, message) -> bool:
        """Write one protocol message (or a str line) as the tray would; False if unplugged
        or nobody read it in time. Adds garbage before it and splits it, if asked to."""
        text = message if isinstance(message, str) else format_line(message)
        if self.garbage and self.rng.random() < self.garbage:
            self.send_raw(self.rng.choice(GARBAGE))
        return self.send_raw(text.encode("ascii") + b"\n", split=self.partial)

    def die(self, die: str, value: int) -> bool:
        return self.send(DieSettled(die, value))

    def moving(self, die: str) -> bool:
        return self.send(Moving(die))

    def roll(self, dice: Mapping[str, int]) -> bool:
        return self.send(Roll(tuple(dice.items())))

    def button(self, input_id: str, hold: bool = False) -> bool:
        return self.send(ButtonPress(input_id, hold))

    def random_roll(self, dice: Iterable[str], faces: tuple[int, int] = (1, 6),
                    moving_s: float | None = None) -> dict[str, int]:
        """Roll ``dice``: with ``moving_s``, first ``MOVING`` for each and a pause; then one
        ``DIE`` line for a single die or one ``ROLL`` line for several. Returns the faces."""
        dice = list(dice)
        if moving_s is not None:
            for die in dice:
                self.moving(die)
            self._sleep(moving_s)
        result = {die: self.rng.randint(*faces) for die in dice}
        if len(result) == 1:
            self.die(*next(iter(result.items())))
        else:
            self.roll(result)
        return result

    def send_raw(self, data: bytes, split: bool = False) -> bool:
        """Write bytes as they are. With ``split``, in 1-4 random pieces with pauses of up to
        20 ms, so a line arrives cut at arbitrary bytes."""
        pieces = [data]
        if split and len(data) > 1:
            cuts = sorted(self.rng.sample(range(1, len(data)), min(len(data) - 1,
                                                                   self.rng.randint(1, 3))))
            pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]
        with self._lock:
            self.sent.append(data)
            for n, piece in enumerate(pieces):
                if n:
                    self._sleep(self.rng.uniform(0.001, 0.02))
                if not self._write_all(piece):
                    return False
        return True

    def _write_all(self, data: bytes) -> bool:
        deadline = time.monotonic() + WRITE_TIMEOUT_S
        view = memoryview(data)
        while view:
            fd = self._master
            if fd is None:
                return False
            try:
                n = os.write(fd, view)
                view = view[n:]
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    log.warning("dicesim: nobody reads the port; dropped %d bytes", len(view))
                    return False
                select.select([], [fd], [], min(left, 0.05))
            except OSError as exc:
                log.warning("dicesim: write failed: %s", exc)
                return False
        return True

    # -- what the host says (HELLO?, PING) -------------------------------------------------
    def _serve(self) -> None:
        splitter = LineSplitter()
        current = None
        while not self._closed:
            fd = self._master
            if fd is None:
                self._plugged.wait(0.2)
                continue
            if fd != current:
                splitter.reset()
                current = fd
            try:
                ready, _, _ = select.select([fd, self._wake_r], [], [], 0.5)
            except (OSError, ValueError):
                continue  # the fd was closed under us by unplug(): look again
            if self._wake_r in ready:
                os.read(self._wake_r, 512)
            if fd not in ready:
                continue
            with self._lock:
                if fd != self._master:
                    continue
                try:
                    data = os.read(fd, 512)
                except BlockingIOError:
                    continue
                except OSError as exc:
                    if exc.errno != errno.EIO:
                        log.warning("dicesim: read failed: %s", exc)
                    continue
            for line in splitter.feed(data):
                if isinstance(line, bytes):
                    self._answer(line)

    def _answer(self, line: bytes) -> None:
        text = line.decode("ascii", "replace")
        self.received.append(text)
        self._host_here = True
        self.host_seen.set()
        parsed = parse_line(line)
        if isinstance(parsed, HelloQuery):
            self.send(self.hello)
        elif isinstance(parsed, Ping):
            self.send(Pong(parsed.token))
        else:
            log.debug("dicesim: host said %r", text)

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"!")
        except OSError:
            pass

    # -- lifecycle -------------------------------------------------------------------------
    def close(self) -> None:
        """Unplug for good and stop the service thread. Safe to call twice."""
        if self._closed:
            return
        self.unplug()
        self._closed = True
        self._wake()
        self._plugged.set()
        self._service.join(2)
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)


def _point_link(link: Path, target: str) -> None:
    """Point ``link`` at ``target`` atomically (a reader never sees it missing mid-update)."""
    tmp = link.with_name(f".{link.name}.{os.getpid()}.tmp")
    try:
        tmp.unlink()
    except FileNotFoundError:
        pass
    os.symlink(target, tmp)
    os.replace(tmp, link)


# -- scripts --------------------------------------------------------------------------------
def run_script(sim: DiceSimulator, lines: Iterable[str], *, interval: float,
               stop: threading.Event,
               echo: Callable[[str], object] = lambda text: None) -> int:
    """Play a script: each line is a protocol line sent as is, ``interval`` seconds apart,
    except the directives ``@wait SECONDS``, ``@unplug`` and ``@replug``. Blank lines are
    skipped; lines starting with ``#`` are sent (they are protocol comments). Returns the
    number of lines sent."""
    count = 0
    for raw in lines:
        if stop.is_set():
            break
        line = raw.strip()
        if not line:
            continue
        if line.startswith("@"):
            word, *rest = line[1:].split()
            if word == "wait" and len(rest) == 1:
                stop.wait(float(rest[0]))
            elif word == "unplug":
                sim.unplug()
                echo("unplugged")
            elif word == "replug":
                echo(f"plugged in at {sim.replug()}")
            else:
                raise ValueError(f"unknown directive {line!r} (use @wait S, @unplug, @replug)")
            continue
        if count:
            stop.wait(interval)
        if stop.is_set():
            break
        sim.send(line)
        echo(line)
        count += 1
    return count
