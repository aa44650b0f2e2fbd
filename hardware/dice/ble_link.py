"""One smart die's connection, on the BLE source's asyncio loop: connect, listen, read the
battery, and say when it is gone.

A *transport* is what the radio looks like to this module: ``scan(timeout)`` -> adverts, and
``client(address, on_disconnect)`` -> a client shaped like ``bleak.BleakClient`` (``connect``,
``disconnect``, ``services.get_characteristic``, ``start_notify``, ``write_gatt_char``).
:class:`BleakTransport` is the real one (``bleak`` is imported when it is made, never before);
:mod:`hardware.dice.ble_fake` is the one tests and demo mode use. Every notification goes
through :mod:`hardware.dice.ble_protocol` first, so garbage never reaches ``godice``.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Callable

from .ble_protocol import (
    GODICE, PIXELS, PIXELS_CHARACTERISTICS, WHO_ARE_YOU, Battery, Colour, Garbage,
    Position, Reading, Rolled, Unsettled, godice_frame, godice_name_colour, make_of,
    parse_pixels, pixels_advert,
)

log = logging.getLogger(__name__)

OnReading = Callable[[Reading], None]
ASK_S = 3.0              # seconds to wait for a GoDice's answer (battery, colour)
CONNECT_S = 10.0         # seconds a connection attempt may take (one at a time: BlueZ)
#: godice's StabilityDescriptor names -> what the table is told (STABLE is a value)
GODICE_STATES = {"ROLLING": "rolling", "TILT_STABLE": "tilted", "FAKE_STABLE": "moved",
                 "MOVE_STABLE": "moved"}


@dataclass(frozen=True)
class Advert:
    """A smart die heard in a scan: its address (how hardware.toml keeps it), name, make,
    signal, and the battery and colour it advertises when its make says them."""

    address: str
    name: str
    make: str
    rssi: int | None = None
    battery: int | None = None
    colour: str = ""


class BluetoothAbsent(Exception):
    """No adapter, Bluetooth off, or no BlueZ: the table plays on with touch entry."""


def absent_reason(exc: BaseException) -> str | None:
    """The one line to show if ``exc`` means there is no Bluetooth to use, else None (a die
    that is out of range or off is not that: it is retried)."""
    if isinstance(exc, BluetoothAbsent):
        return str(exc)
    if isinstance(exc, ImportError):
        return f"the ble extra is not installed (no {exc.name or 'bleak'})"
    text = f"{type(exc).__name__}: {exc}"
    lowered = text.lower()
    if isinstance(exc, (FileNotFoundError, PermissionError)) and "bus" in lowered:
        return "no system bus for BlueZ (is bluetoothd running?)"
    for clue, line in (("no bluetooth adapter", "no Bluetooth adapter found"),
                       ("adapter", "the Bluetooth adapter is not available"),
                       ("powered off", "Bluetooth is switched off"),
                       ("not powered", "Bluetooth is switched off"),
                       ("org.bluez", "BlueZ is not running"),
                       ("bluetooth device is turned off", "Bluetooth is switched off")):
        if clue in lowered:
            return line
    return None


# -- the real radio ---------------------------------------------------------------------------
class BleakTransport:
    """Bluetooth LE through ``bleak`` (BlueZ on a Pi). Imports ``bleak`` when made."""

    def __init__(self) -> None:
        import bleak

        self._bleak = bleak

    async def scan(self, timeout: float) -> list[Advert]:
        found = await self._bleak.BleakScanner.discover(timeout=timeout, return_adv=True)
        adverts = []
        for device, adv in found.values():
            name = adv.local_name or device.name or ""
            advert = advert_of(device.address, name, list(adv.service_uuids or ()),
                               dict(adv.manufacturer_data or {}), adv.rssi)
            if advert is not None:
                adverts.append(advert)
        return sorted(adverts, key=lambda a: -(a.rssi or -999))

    def client(self, address: str, on_disconnect: Callable[[], None]) -> Any:
        return self._bleak.BleakClient(address, timeout=CONNECT_S,
                                       disconnected_callback=lambda _client: on_disconnect())


def advert_of(address: str, name: str, services: list[str], manufacturer: dict[int, bytes],
              rssi: int | None) -> Advert | None:
    """An advertisement as a die of a known make, or None for anything else on the air."""
    make = make_of(name, services)
    if make is None:
        return None
    battery, colour = (pixels_advert(manufacturer) if make == PIXELS
                       else (None, godice_name_colour(name)))
    return Advert(address, name[:32], make, rssi, battery, colour)


# -- one die ----------------------------------------------------------------------------------
class Link:
    """One die, connected by :meth:`open` until :attr:`lost` is done. Readings go to
    ``on_reading`` on the loop's thread; garbage is counted in :attr:`garbage`."""

    def __init__(self, transport: Any, address: str, make: str, on_reading: OnReading) -> None:
        self.address, self.make = address, make
        self._on_reading = on_reading
        self.garbage = 0
        self.lost: asyncio.Future = asyncio.get_running_loop().create_future()
        self._client = transport.client(address, self._disconnected)
        self._dice = None          # godice.Dice, for a GoDice
        self._asking = {Battery: 0, Colour: 0}   # GoDice answers godice's queues await

    def _disconnected(self) -> None:
        if not self.lost.done():
            self.lost.set_result("disconnected")

    def _reading(self, reading: Reading) -> None:
        if isinstance(reading, Garbage):
            self.garbage += 1
            log.warning("%s: dropped %s", self.address, reading)
        try:
            self._on_reading(reading)
        except Exception:   # never let the source's bookkeeping end the connection
            log.exception("reading callback failed for %s", reading)

    async def open(self) -> None:
        """Connect and listen; raises if the die cannot be reached (the source retries)."""
        if self.make == GODICE:
            await self._open_godice()
        else:
            await self._open_pixels()

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self._client.disconnect(), ASK_S)
        except Exception:   # already gone: nothing more to close
            log.debug("%s: disconnect failed", self.address, exc_info=True)
        self._disconnected()

    # -- Pixels: the documented messages, read by us ---------------------------------------
    async def _open_pixels(self) -> None:
        await asyncio.wait_for(self._client.connect(), CONNECT_S)
        services = self._client.services
        found = [(services.get_characteristic(n), services.get_characteristic(w))
                 for n, w in PIXELS_CHARACTERISTICS]
        notify, write = next(((n, w) for n, w in found if n is not None and w is not None),
                             (None, None))
        if notify is None:
            raise ConnectionError("not a Pixels die: its message characteristics are missing")

        def heard(_char: Any, data: bytearray) -> None:
            self._reading(parse_pixels(data))

        await self._client.start_notify(notify, heard)
        await self._client.write_gatt_char(write, WHO_ARE_YOU)   # bleak picks the write kind

    # -- GoDice: through the godice package, behind our frame check ------------------------
    async def _open_godice(self) -> None:
        import godice   # the ble extra; imported only when a GoDice is configured

        dice = godice.Dice(_Guarded(self._client, self))
        godice.set_shell(dice, godice.Shell.D6)

        async def number(value: int, descriptor: Any) -> None:
            name = getattr(descriptor, "name", None)
            if name == "STABLE":
                self._reading(Rolled(int(value)))
            else:
                self._reading(Unsettled(GODICE_STATES.get(name, "not settled")))

        await asyncio.wait_for(dice.connect(), CONNECT_S)
        await dice.subscribe_number_notification(number)
        self._dice = dice
        await self._ask(Colour, dice.get_color)     # the answers are reported as they arrive
        await self.read_battery()

    async def read_battery(self) -> None:
        """Ask a GoDice for its battery (a Pixels says it by itself when it changes)."""
        if self._dice is not None:
            await self._ask(Battery, self._dice.get_battery_level)

    async def _ask(self, answer: type, question: Callable[[], Any]) -> Any:
        """One godice request, answered within ASK_S or given up (None)."""
        self._asking[answer] += 1
        try:
            return await asyncio.wait_for(question(), ASK_S)
        except (asyncio.TimeoutError, OSError, EOFError) as exc:
            log.info("%s: no answer: %s", self.address, exc)
            return None
        finally:   # already 0 if the answer came (godice_heard counts it off)
            self._asking[answer] = max(0, self._asking[answer] - 1)

    def godice_heard(self, data: bytes) -> bool:
        """Check one GoDice frame: report what we read ourselves; True to hand it to godice
        (a position frame, or an answer godice is waiting for, so its queues stay bounded)."""
        frame = godice_frame(data)
        if isinstance(frame, Position):
            return True
        if isinstance(frame, Unsettled):
            return True            # godice reports "rolling" through the number callback
        if isinstance(frame, (Battery, Colour)):
            self._reading(frame)
            asked = self._asking[type(frame)]
            if asked:              # one answer per question: godice's queue stays bounded
                self._asking[type(frame)] -= 1
            return bool(asked)
        self._reading(frame)
        return False


class _Guarded:
    """The client as godice sees it: the same, except that its notifications pass the frame
    check first (godice indexes bytes without checking a frame's length)."""

    def __init__(self, client: Any, link: Link) -> None:
        self._client, self._link = client, link

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    async def start_notify(self, char: Any, callback: Callable[..., Any], **kwargs: Any) -> None:
        link = self._link

        async def checked(sender: Any, data: bytearray) -> None:
            try:
                if link.godice_heard(bytes(data)):
                    await callback(sender, data)
            except Exception as exc:   # whatever godice makes of it, the connection lives
                link._reading(Garbage(f"godice could not read it ({type(exc).__name__})"))

        await self._client.start_notify(char, checked, **kwargs)


__all__ = ["Advert", "BleakTransport", "BluetoothAbsent", "Link", "absent_reason", "advert_of"]
