"""One smart die's connection, on the BLE source's asyncio loop: connect, ask what it is and
its battery, listen, and say when it is gone.

A *transport* is what the radio looks like to this module: ``scan(timeout)`` -> adverts, and
``client(address, on_disconnect)`` -> a client shaped like ``bleak.BleakClient`` (``connect``,
``disconnect``, ``services.get_characteristic``, ``start_notify``, ``write_gatt_char``).
:class:`BleakTransport` is the real one (``bleak`` is imported when it is made, never before);
:mod:`hardware.dice.ble_fake` is the one tests and demo mode use.

Both makes are read the same way: the notification callback is a plain function that reads
the bytes (:mod:`hardware.dice.ble_pixels`, :mod:`hardware.dice.ble_godice`) and hands the
reading on at once, so readings leave in the order the notifications came, whichever make
sent them (bleak runs a coroutine callback as a task, which would run after a notification
that came later).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Callable

from .ble_godice import ASK_BATTERY, ASK_COLOUR, DEFAULT_SHELL, godice_frame, godice_name_colour, reader_of
from .ble_pixels import REQUEST_BATTERY_LEVEL, WHO_ARE_YOU, parse_pixels, pixels_advert
from .ble_protocol import (
    GODICE, GODICE_NOTIFY, GODICE_WRITE, PIXELS, PIXELS_CHARACTERISTICS, Garbage, Identity,
    Reading, make_of,
)

log = logging.getLogger(__name__)

OnReading = Callable[[Reading], None]
ASK_S = 3.0              # seconds a write may take
CONNECT_S = 10.0         # seconds a connection attempt may take (one at a time: BlueZ)
NOT_AVAILABLE = "Bluetooth is not available on this machine"


@dataclass(frozen=True)
class Advert:
    """A smart die heard in a scan: its address (how hardware.toml keeps it), name, make,
    signal, and what its make advertises: battery, colour, die type ("" when not said)."""

    address: str
    name: str
    make: str
    rssi: int | None = None
    battery: int | None = None
    colour: str = ""
    die_type: str = ""


class BluetoothAbsent(Exception):
    """No adapter, Bluetooth off, no system bus or no access: touch entry plays on. Its text
    is the reason alone; :func:`absent_line` makes the sentence."""


def absent_line(reason: str) -> str:
    """The one line a person sees: 'Bluetooth is not available on this machine: REASON'."""
    return f"{NOT_AVAILABLE}: {reason}"


_BLEAK_REASONS = {
    "NO_BLUETOOTH": "no Bluetooth adapter",
    "NO_BLE_CENTRAL_ROLE": "the Bluetooth adapter cannot read dice (no Bluetooth LE)",
    "POWERED_OFF": "Bluetooth is switched off",
    "DENIED_BY_USER": "D-Bus refuses this user access to Bluetooth",
    "DENIED_BY_SYSTEM": "D-Bus refuses this user access to Bluetooth",
}
_DENIED = "D-Bus refuses this user access to Bluetooth (is it in the bluetooth group?)"


def absent_reason(exc: BaseException) -> str | None:
    """The reason to show if ``exc`` means there is no Bluetooth to use, else None (a die that
    is out of range or off is not that: it is retried). bleak's own reason when it gives one
    (``BleakBluetoothNotAvailableError``); with no system bus bleak raises a bare
    ``FileNotFoundError`` (``hardware/dice/recorded/air.py``)."""
    if isinstance(exc, BluetoothAbsent):
        return str(exc)
    if isinstance(exc, ImportError):
        return f"the ble extra is not installed (no {exc.name or 'bleak'})"
    reason = getattr(getattr(exc, "reason", None), "name", None)
    if isinstance(reason, str) and reason in _BLEAK_REASONS:
        return _DENIED if reason.startswith("DENIED") else _BLEAK_REASONS[reason]
    if isinstance(exc, (FileNotFoundError, ConnectionRefusedError)):
        return "no system bus (D-Bus is not running)"
    if isinstance(exc, PermissionError):
        return _DENIED
    lowered = f"{type(exc).__name__}: {exc}".lower()
    for clue, line in (("accessdenied", _DENIED), ("authentication failed", _DENIED),
                       ("no bluetooth adapter", "no Bluetooth adapter"),
                       ("no powered bluetooth", "Bluetooth is switched off"),
                       ("powered off", "Bluetooth is switched off"),
                       ("not powered", "Bluetooth is switched off"),
                       ("org.bluez.error.notready", "Bluetooth is switched off"),
                       ("serviceunknown", "BlueZ is not running (start bluetoothd)"),
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
            advert = advert_of(device.address, adv.local_name or device.name or "",
                               list(adv.service_uuids or ()), dict(adv.manufacturer_data or {}),
                               adv.rssi, dict(adv.service_data or {}))
            if advert is not None:
                adverts.append(advert)
        return sorted(adverts, key=lambda a: -(a.rssi or -999))

    def client(self, address: str, on_disconnect: Callable[[], None]) -> Any:
        return self._bleak.BleakClient(address, timeout=CONNECT_S,
                                       disconnected_callback=lambda _client: on_disconnect())


def advert_of(address: str, name: str, services: list[str], manufacturer: dict[int, bytes],
              rssi: int | None, service_data: dict[str, bytes] | None = None) -> Advert | None:
    """An advert as a die of a known make, or None for anything else on the air: a Pixels
    only with its manufacturer and service data (or the legacy form), so a Nordic UART
    board or a charger is never listed."""
    make = make_of(name, services)
    if make == GODICE:
        return Advert(address, name[:32], make, rssi, None, godice_name_colour(name))
    if make == PIXELS:
        said = pixels_advert(manufacturer, service_data or {})
        if said is not None:
            return Advert(address, name[:32], make, rssi, said.battery, said.colour,
                          said.die_type)
    return None


# -- one die ----------------------------------------------------------------------------------
class Link:
    """One die, connected by :meth:`open` until :attr:`lost` is done. Readings go to
    ``on_reading`` on the loop's thread, in the order the die sent them; garbage is counted
    in :attr:`garbage`. ``shell``: the shell a GoDice wears (a Pixels says its own type)."""

    def __init__(self, transport: Any, address: str, make: str, on_reading: OnReading,
                 shell: str = DEFAULT_SHELL) -> None:
        self.address, self.make, self.shell = address, make, shell
        self._on_reading = on_reading
        self.garbage = 0
        self.identity: Identity | None = None
        self.lost: asyncio.Future = asyncio.get_running_loop().create_future()
        self._client = transport.client(address, self._disconnected)
        self._write: Any = None

    def _disconnected(self) -> None:
        if not self.lost.done():
            self.lost.set_result("disconnected")

    def _reading(self, reading: Reading) -> None:
        if isinstance(reading, Garbage):
            self.garbage += 1
            log.warning("%s: dropped %s", self.address, reading)
        elif isinstance(reading, Identity):
            self.identity = reading
        try:
            self._on_reading(reading)
        except Exception:   # never let the source's bookkeeping end the connection
            log.exception("reading callback failed for %s", reading)

    def heard(self, _char: Any, data: bytearray) -> None:
        """The notification callback: read at once, in arrival order (see the module)."""
        try:
            if self.make == GODICE:
                reading = godice_frame(data, self.shell)
            else:
                reading = parse_pixels(data, self.identity)
        except Exception as exc:   # whatever a frame holds, the connection lives
            reading = Garbage(f"could not be read ({type(exc).__name__})")
        self._reading(reading)

    async def open(self) -> None:
        """Connect, listen, ask what the die is and its battery; raises if the die cannot be
        reached (the source retries)."""
        if self.make == GODICE:
            reader_of(self.shell)    # godice (the ble extra) before anything else
        await asyncio.wait_for(self._client.connect(), CONNECT_S)
        services = self._client.services
        pairs = PIXELS_CHARACTERISTICS if self.make == PIXELS else ((GODICE_NOTIFY, GODICE_WRITE),)
        found = [(services.get_characteristic(n), services.get_characteristic(w)) for n, w in pairs]
        notify, self._write = next(((n, w) for n, w in found if n is not None and w is not None),
                                   (None, None))
        if notify is None:
            raise ConnectionError(f"not a {self.make} die: its characteristics are missing")
        await self._client.start_notify(notify, self.heard)
        if self.make == GODICE:
            self._reading(Identity(self.shell))     # the shell is what the die is
            await self._send(ASK_COLOUR)
        else:
            await self._send(WHO_ARE_YOU)
        await self.read_battery()

    async def read_battery(self) -> None:
        """Ask the die for its battery (answered by a notification)."""
        await self._send(ASK_BATTERY if self.make == GODICE else REQUEST_BATTERY_LEVEL)

    async def _send(self, data: bytes) -> None:
        try:
            await asyncio.wait_for(self._client.write_gatt_char(self._write, data), ASK_S)
        except Exception as exc:   # bleak's errors, a timeout: the die is going; lost says so
            log.info("%s: could not ask %s: %s", self.address, data.hex(), exc)

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self._client.disconnect(), ASK_S)
        except Exception:   # already gone: nothing more to close
            log.debug("%s: disconnect failed", self.address, exc_info=True)
        self._disconnected()


__all__ = ["Advert", "BleakTransport", "BluetoothAbsent", "Link", "absent_line", "absent_reason",
           "advert_of"]
