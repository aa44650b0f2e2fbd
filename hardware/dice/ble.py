"""Smart dice over Bluetooth LE (GoDice, Pixels) -> :class:`InputEvent`, beside the serial tray.

    source = BleDiceSource([BleDie(d.address, d.make, d.name) for d in config.ble.dice],
                           inbox.put, on_status=show_on_screen)
    ...
    source.close()

One thread runs one asyncio loop (``bleak`` is asyncio); on it each configured die has a task
that connects, listens and, when the die goes (out of range, asleep, battery), reconnects with
exponential backoff, for as long as the source runs. What the dice say becomes the same events
the tray's reader puts on the one Inbox, with ``source="ble"`` and the die's address as its id
(:mod:`hardware.dice.route` gives it the game's die on the main thread):

* a die at rest after a proper roll -> ``InputEvent("die", address, face)``
* rolling, in a hand, tilted, set down without a roll -> ``InputEvent("die_moving", address)``,
  once per change: never a value
* a face the die cannot show -> a ``refused`` status, nothing emitted (the tray's rule)

A die that floods (more than ``FLOOD`` values a second) has the rest dropped and counted, as
garbage bytes are. Without Bluetooth (no adapter, switched off, no BlueZ) the source says so
in one line and keeps trying quietly at the longest backoff; the table plays on by touch.

Threads: ``emit`` and ``on_status`` are called on the source's thread; hand them to
:meth:`hardware.inbox.Inbox.put` or another thread-safe queue (DESIGN.md, Threads).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from companion.core.model import InputEvent

from .ble_link import Advert, BluetoothAbsent, Link, absent_reason
from .ble_protocol import MAKE_WORDS, Battery, Colour, Garbage, Rolled, Unsettled
from .protocol import Faces

log = logging.getLogger(__name__)

Emit = Callable[[InputEvent], object]
SOURCE = "ble"
DEFAULT_BACKOFF = (1.0, 30.0)
LOW_BATTERY = 20            # percent: below this the screen says so
BATTERY_EVERY_S = 600.0     # a GoDice's battery is asked again after a roll, at most this often
FLOOD = 4                   # values a second one die may send; the rest are dropped and counted
JOIN_S = 3.0


@dataclass(frozen=True)
class BleDie:
    """A paired die: its address (hardware.toml keeps it), its make, the name it advertised."""

    address: str
    make: str
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or f"{MAKE_WORDS.get(self.make, self.make)} {self.address}"


@dataclass(frozen=True)
class BleStatus:
    """What one die (``address``) or the whole source (``address == ""``) is doing, for the
    screen; ``text`` is a sentence to show as is."""

    state: str
    text: str
    address: str = ""
    battery: int | None = None
    colour: str = ""

    CONNECTING = "connecting"
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"    # the die went away: "reconnecting in N s"
    UNAVAILABLE = "unavailable"      # cannot reach it (off, out of range, in another app)
    ABSENT = "absent"                # no Bluetooth at all: touch entry plays on
    BATTERY = "battery"              # a new battery level (``battery``), or a colour
    REFUSED = "refused"              # a face the die cannot show; nothing was applied
    CLOSED = "closed"

    def __str__(self) -> str:
        return self.text


class BleDiceSource:
    """Reads the paired dice until :meth:`close`; starts at once. See the module's doc."""

    def __init__(self, dice: Sequence[BleDie], emit: Emit, *, transport: Any = None,
                 on_status: Callable[[BleStatus], object] | None = None,
                 faces: Faces | None = None, backoff: tuple[float, float] = DEFAULT_BACKOFF,
                 low_battery: int = LOW_BATTERY, flood: int = FLOOD) -> None:
        first, longest = backoff
        if not 0 < first <= longest:
            raise ValueError(f"backoff must be (first, longest) with 0 < first <= longest, "
                             f"got {backoff!r}")
        if transport is None:
            from .ble_link import BleakTransport   # bleak: only when a ble source is made

            try:
                transport = BleakTransport()
            except ImportError as exc:
                raise BluetoothAbsent(absent_reason(exc)) from None
        self.dice = tuple(dice)
        self.transport = transport
        self.faces = faces or Faces()
        self.backoff = (float(first), float(longest))
        self.low_battery = low_battery
        self.flood = flood
        self._emit, self._on_status = emit, on_status
        self.garbage = 0            # notifications dropped as not the make's protocol
        self.flooded = 0            # values dropped for coming too fast
        self.battery: dict[str, int] = {}
        self.colour: dict[str, str] = {}
        self.connected: set[str] = set()
        self._absent = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="smart dice")
        self._thread.start()
        self._ready.wait(JOIN_S)

    # -- lifecycle -------------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._stopped.is_set()

    def close(self) -> None:
        """Disconnect every die and end the thread (within a few seconds); safe twice."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None:
            try:
                loop.call_soon_threadsafe(stopping.set)
            except RuntimeError:   # the loop has ended already
                pass
        if threading.current_thread() is not self._thread:
            self._thread.join(JOIN_S)
        self._report(BleStatus(BleStatus.CLOSED, "smart dice closed"))

    def __enter__(self) -> "BleDiceSource":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception:   # a bug here must not take the app with it
            log.exception("smart dice thread ended")

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        self._connecting = asyncio.Lock()
        self._ready.set()
        if self._stopped.is_set():
            return
        tasks = [asyncio.create_task(self._keep(die)) for die in self.dice]
        await self._stopping.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- one die ---------------------------------------------------------------------------
    async def _keep(self, die: BleDie) -> None:
        """Connect, listen until the die goes, wait, again: for as long as the source runs."""
        first, longest = self.backoff
        delay = first
        said = ""
        while True:
            state = _DieState(self, die)
            link = None
            try:
                self._report(BleStatus(BleStatus.CONNECTING, f"{die.label}: connecting",
                                       die.address))
                link = Link(self.transport, die.address, die.make, state.heard)
                state.link = link
                async with self._connecting:   # BlueZ takes one connection attempt at a time
                    await link.open()
            except asyncio.CancelledError:
                if link is not None:
                    await link.close()
                raise
            except Exception as exc:   # bleak's errors, a timeout, a die that is not one
                await _quietly(link)
                said = self._cannot(die, exc, said)
                delay = longest if self._absent else delay
                if not self._absent:
                    self._report(BleStatus(BleStatus.DISCONNECTED, f"{die.label}: not "
                                           f"connected: trying again in {delay:g} s",
                                           die.address))
            else:
                self._absent, said = False, ""
                delay = first
                self.connected.add(die.address)
                self._report(BleStatus(BleStatus.CONNECTED, f"{die.label}: connected",
                                       die.address, self.battery.get(die.address)))
                try:
                    await link.lost
                except asyncio.CancelledError:
                    await link.close()
                    raise
                finally:
                    self.connected.discard(die.address)
                said = f"{die.label}: disconnected"
                self._report(BleStatus(BleStatus.DISCONNECTED, f"{said}: reconnecting in "
                                       f"{delay:g} s", die.address))
            await asyncio.sleep(delay)
            delay = min(delay * 2, longest)

    def _cannot(self, die: BleDie, exc: BaseException, said: str) -> str:
        """Say why a die cannot be reached, once per outage; return what was said."""
        reason = absent_reason(exc)
        if reason is not None:
            if not self._absent:    # one line for the whole source, not one per die
                self._absent = True
                self._report(BleStatus(BleStatus.ABSENT, f"Bluetooth not available: {reason}; "
                                       "enter dice by touch"))
            return said
        text = f"{die.label}: not reachable ({type(exc).__name__}: {exc})"[:160]
        if not said:
            self._report(BleStatus(BleStatus.UNAVAILABLE, text, die.address))
        else:
            log.debug("%s", text)
        return text

    # -- reporting -------------------------------------------------------------------------
    def send(self, event: InputEvent) -> None:
        try:
            self._emit(event)
        except Exception:
            log.exception("emit failed for %s", event)

    def _report(self, status: BleStatus) -> None:
        log.info("%s", status.text)
        if self._on_status is not None:
            try:
                self._on_status(status)
            except Exception:
                log.exception("status callback failed for %s", status)

    def battery_words(self, address: str) -> str:
        level = self.battery.get(address)
        if level is None:
            return ""
        return f"battery {level} %" + (" (low)" if level < self.low_battery else "")


class _DieState:
    """What one connection of one die has said so far: its last state (a moving die is shown
    once per change), its flood bucket, when its battery was last asked."""

    def __init__(self, source: BleDiceSource, die: BleDie) -> None:
        self.source, self.die = source, die
        self.link: Link | None = None
        self.moving = False
        self.window = (0.0, 0)          # (start of this second, values in it)
        self.battery_asked = time.monotonic()

    def heard(self, reading: Any) -> None:
        source, address = self.source, self.die.address
        if isinstance(reading, Rolled):
            self.moving = False
            if self._flooding():
                source.flooded += 1
                return
            reason = source.faces.check(address, reading.face)
            if reason:
                source._report(BleStatus(BleStatus.REFUSED,
                                         f"{self.die.label}: {reason.split(': ', 1)[-1]}",
                                         address))
                return
            source.send(InputEvent("die", address, reading.face, source=SOURCE))
            self._maybe_ask_battery()
        elif isinstance(reading, Unsettled):
            if not self.moving:
                self.moving = True
                source.send(InputEvent("die_moving", address, reading.state, source=SOURCE))
        elif isinstance(reading, Battery):
            if source.battery.get(address) != reading.level:
                source.battery[address] = reading.level
                source._report(BleStatus(BleStatus.BATTERY, f"{self.die.label}: "
                                         f"{source.battery_words(address)}", address,
                                         reading.level, source.colour.get(address, "")))
        elif isinstance(reading, Colour):
            source.colour[address] = reading.name
        elif isinstance(reading, Garbage):
            source.garbage += 1   # logged by the link

    def _flooding(self) -> bool:
        now = time.monotonic()
        start, count = self.window
        if now - start >= 1.0:
            start, count = now, 0
        self.window = (start, count + 1)
        return count + 1 > self.source.flood

    def _maybe_ask_battery(self) -> None:
        if self.link is None or time.monotonic() - self.battery_asked < BATTERY_EVERY_S:
            return
        self.battery_asked = time.monotonic()
        asyncio.get_running_loop().create_task(self.link.read_battery())


def scan(timeout: float = 5.0, transport: Any = None) -> list[Advert]:
    """The smart dice in range, loudest first (blocking: call it off the main thread).
    Raises :class:`BluetoothAbsent` with the one line to show when there is no Bluetooth."""
    try:
        if transport is None:
            from .ble_link import BleakTransport

            transport = BleakTransport()
        return asyncio.run(transport.scan(timeout))
    except ImportError as exc:
        raise BluetoothAbsent(f"the ble extra is not installed ({exc.name})") from None
    except Exception as exc:
        reason = absent_reason(exc)
        if reason is None:
            raise
        raise BluetoothAbsent(reason) from None


async def _quietly(link: Link | None) -> None:
    if link is not None:
        await link.close()


__all__ = ["Advert", "BleDiceSource", "BleDie", "BleStatus", "BluetoothAbsent", "SOURCE", "scan"]
