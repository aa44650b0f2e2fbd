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

* a six-sided die at rest after a roll -> ``InputEvent("die", address, face)``
* rolling, in a hand, tilted, set down without a roll -> ``InputEvent("die_moving", address)``,
  once per change: never a value
* a die that is not six-sided, or a face the die cannot show -> a ``refused`` status, nothing
  emitted (:mod:`hardware.dice.ble_die` has the rules of which rest is a value)
* what the die is (its type, a GoDice's shell) -> an ``identity`` status; its battery and
  whether it is on the charger -> a ``battery`` status

Without Bluetooth (no adapter, switched off, no system bus, D-Bus refusing) the source says
so in one line for all its dice and keeps trying quietly at the longest backoff; the table
plays on by touch.

Threads: ``emit`` and ``on_status`` are called on the source's thread; hand them to
:meth:`hardware.inbox.Inbox.put` or another thread-safe queue (DESIGN.md, Threads).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from companion.core.model import InputEvent

from ..closing import ClosedOnExit
from .ble_die import SOURCE, DieState
from .ble_godice import DEFAULT_SHELL
from .ble_link import Advert, BluetoothAbsent, Link, absent_line, absent_reason
from .ble_protocol import MAKE_WORDS, Identity
from .protocol import Faces

log = logging.getLogger(__name__)

Emit = Callable[[InputEvent], object]
DEFAULT_BACKOFF = (1.0, 30.0)
LOW_BATTERY = 20            # percent: below this the screen says so
FLOOD = 4                   # values a second one die may send; the rest are dropped and counted
JOIN_S = 3.0


@dataclass(frozen=True)
class BleDie:
    """A paired die: its address (hardware.toml keeps it), its make, the name it advertised
    and, for a GoDice, the shell it wears (a Pixels says its own type)."""

    address: str
    make: str
    name: str = ""
    shell: str = DEFAULT_SHELL

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
    die_type: str = ""           # identity: what the die is; refused: why not six-sided
    charging: bool | None = None

    CONNECTING = "connecting"
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"    # the die went away: "reconnecting in N s"
    UNAVAILABLE = "unavailable"      # cannot reach it (off, out of range, in another app)
    ABSENT = "absent"                # no Bluetooth at all: touch entry plays on
    BATTERY = "battery"              # a new battery level (``battery``) or charging state
    IDENTITY = "identity"            # what the die is (``die_type``, ``colour``)
    REFUSED = "refused"              # not six-sided, or a face it cannot show: not applied
    CLOSED = "closed"

    def __str__(self) -> str:
        return self.text


class BleDiceSource(ClosedOnExit):
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
        self.charging: dict[str, bool] = {}
        self.colour: dict[str, str] = {}
        self.identity: dict[str, Identity] = {}
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
            state = DieState(self, die)
            link = None
            try:
                self._report(BleStatus(BleStatus.CONNECTING, f"{die.label}: connecting",
                                       die.address))
                link = Link(self.transport, die.address, die.make, state.heard, die.shell)
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
                self._report(BleStatus(BleStatus.ABSENT, f"{absent_line(reason)}; "
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
        charging = " (charging)" if self.charging.get(address) else ""
        if level is None:
            return "on the charger" if charging else ""
        return f"battery {level} %" + (" (low)" if level < self.low_battery and not charging
                                       else "") + charging

    # -- what the dice say, from their DieState (the loop's thread) ------------------------
    def identified(self, die: BleDie, identity: Identity) -> None:
        self.identity[die.address] = identity
        if identity.colour:
            self.colour[die.address] = identity.colour
        self._report(BleStatus(BleStatus.IDENTITY, f"{die.label}: {identity.words}",
                               die.address, colour=identity.colour, die_type=identity.die_type))

    def battery_said(self, die: BleDie, level: int | None, charging: bool | None) -> None:
        address = die.address
        before = (self.battery.get(address), self.charging.get(address))
        if level is not None:
            self.battery[address] = level
        if charging is not None:
            self.charging[address] = charging
        if (self.battery.get(address), self.charging.get(address)) != before:
            self._report(BleStatus(BleStatus.BATTERY, f"{die.label}: "
                                   f"{self.battery_words(address)}", address,
                                   self.battery.get(address), self.colour.get(address, ""),
                                   charging=self.charging.get(address)))

    def refuse(self, die: BleDie, text: str, die_type: str = "") -> None:
        self._report(BleStatus(BleStatus.REFUSED, text, die.address, die_type=die_type))


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
