"""The simulated air between processes: ``companion dicesim --ble`` serves fake smart dice on
a Unix socket, and an app whose ``[ble] air`` names that socket reads them as if they were on
the radio, so a demo table rolls smart dice without hardware.

The wire is lines of ASCII, each at most :data:`MAX_LINE` bytes (a longer one ends the
connection): the app sends ``SCAN`` (answered by ``A <address> <make> <battery|-> <rssi>
<colour|-> <name>`` lines and ``END``) or ``CONNECT <address>`` (answered ``OK <make>`` or
``ERR <why>``), then ``W <hex>`` for each write; the simulator sends ``N <hex>`` for each
notification, and closing the connection is the die going away. The bytes in ``N`` are the
make's own messages, so the app's whole path from a notification on runs as with real dice.
The socket lives in a folder only its user may enter (mode 0700, the socket 0600).
"""

from __future__ import annotations

import asyncio
import errno
import inspect
import logging
import os
import re
import stat
import threading
from pathlib import Path
from typing import Any, Callable

from .ble_link import Advert
from .ble_protocol import (
    GODICE_NOTIFY, GODICE_WRITE, MAKES, MAX_NOTIFICATION, PIXELS_CHARACTERISTICS,
)

log = logging.getLogger(__name__)

MAX_LINE = 2 * MAX_NOTIFICATION + 64
_ADDRESS = re.compile(r"[0-9A-F]{2}(:[0-9A-F]{2}){5}\Z")
_HEX = re.compile(r"([0-9a-f]{2})*\Z")


def _hex(data: bytes) -> str:
    return bytes(data).hex()


def _unhex(text: str) -> bytes | None:
    text = text.strip()
    if len(text) > 2 * MAX_NOTIFICATION or not _HEX.match(text):
        return None
    return bytes.fromhex(text)


async def _line(reader: asyncio.StreamReader) -> str | None:
    """One line, or None at the end or past MAX_LINE (the peer is then dropped)."""
    try:
        raw = await reader.readuntil(b"\n")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        return None
    if len(raw) > MAX_LINE:
        return None
    try:
        return raw.decode("ascii").rstrip("\r\n")
    except UnicodeDecodeError:
        return None


# -- the app's side ---------------------------------------------------------------------------
class AirTransport:
    """The simulated air at ``path``, shaped like :class:`hardware.dice.ble_link.BleakTransport`."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)

    async def _open(self):
        try:
            return await asyncio.open_unix_connection(self.path, limit=MAX_LINE + 1)
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            raise ConnectionError(f"no simulated air at {self.path} (is companion dicesim "
                                  f"--ble running?): {exc.strerror or exc}") from None

    async def scan(self, timeout: float) -> list[Advert]:
        reader, writer = await self._open()
        try:
            writer.write(b"SCAN\n")
            await writer.drain()
            adverts = []
            while (line := await asyncio.wait_for(_line(reader), timeout + 1)) not in (None, "END"):
                advert = _advert(line)
                if advert is not None:
                    adverts.append(advert)
            return adverts
        finally:
            writer.close()

    def client(self, address: str, on_disconnect: Callable[[], None]) -> "AirClient":
        return AirClient(self, address, on_disconnect)


def _advert(line: str) -> Advert | None:
    parts = line.split(" ", 6)
    if len(parts) != 7 or parts[0] != "A" or not _ADDRESS.match(parts[1]) \
            or parts[2] not in MAKES:
        return None
    try:
        battery = None if parts[3] == "-" else max(0, min(100, int(parts[3])))
        rssi = int(parts[4])
    except ValueError:
        return None
    return Advert(parts[1], parts[6][:32], parts[2], rssi, battery,
                  "" if parts[5] == "-" else parts[5].replace("_", " ")[:20])


class _Char:
    def __init__(self, uuid: str) -> None:
        self.uuid = uuid


class AirClient:
    """A ``BleakClient`` for one die on the simulated air."""

    def __init__(self, air: AirTransport, address: str, on_disconnect: Callable[[], None]):
        self.air, self.address = air, address
        self._on_disconnect = on_disconnect
        self._reader = self._writer = None
        self._task: asyncio.Task | None = None
        self.is_connected = False
        self.services = self

    def get_characteristic(self, uuid: str) -> _Char | None:
        known = {GODICE_NOTIFY, GODICE_WRITE, *PIXELS_CHARACTERISTICS[0]}   # today's Pixels
        return _Char(uuid) if uuid in known else None

    async def connect(self, **_kwargs: Any) -> bool:
        self._reader, self._writer = await self.air._open()
        self._writer.write(f"CONNECT {self.address}\n".encode("ascii"))
        await self._writer.drain()
        answer = await asyncio.wait_for(_line(self._reader), 5.0)
        if answer is None or not answer.startswith("OK "):
            self._writer.close()
            raise ConnectionError(f"{self.address}: {(answer or 'no answer')[4:] or answer}")
        self.is_connected = True
        return True

    async def start_notify(self, char: _Char, callback: Callable[..., Any], **_kw: Any) -> None:
        self._task = asyncio.get_running_loop().create_task(self._listen(char, callback))

    async def _listen(self, char: _Char, callback: Callable[..., Any]) -> None:
        try:
            while (line := await _line(self._reader)) is not None:
                data = _unhex(line[2:]) if line.startswith("N ") else None
                if data is None:
                    log.warning("%s: not a notification from the air: %.40r", self.address, line)
                    continue
                result = callback(char, bytearray(data))
                if inspect.isawaitable(result):
                    await result
        finally:
            self._lost()

    def _lost(self) -> None:
        if self.is_connected:
            self.is_connected = False
            self._on_disconnect()

    async def write_gatt_char(self, char: _Char, data: bytes, response: bool | None = None
                              ) -> None:
        if not self.is_connected or self._writer is None:
            raise ConnectionError("not connected")
        self._writer.write(f"W {_hex(data)}\n".encode("ascii"))
        await self._writer.drain()

    async def disconnect(self) -> bool:
        if self._writer is not None:
            self._writer.close()
        if self._task is not None:
            self._task.cancel()
        self._lost()
        return True


# -- the simulator's side ---------------------------------------------------------------------
def _private_folder(folder: Path) -> None:
    """The socket's folder: made 0700 when missing; one that exists must already be a folder
    of this user that no one else may enter. Never chmod a folder it did not make (``--air
    /tmp/air`` as root would otherwise close /tmp to everyone); PermissionError names why."""
    try:
        folder.mkdir(mode=0o700, parents=True)
    except FileExistsError:
        pass
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode):
        raise PermissionError(errno.ENOTDIR, "the socket's folder is not a folder (a link?)")
    if info.st_uid != os.geteuid() or info.st_mode & 0o077:
        raise PermissionError(errno.EACCES, f"the socket's folder {folder} must be this user's "
                              "own, closed to others (mode 0700): choose a new folder")


class AirServer:
    """Serves ``dice`` (:class:`hardware.dice.ble_fake.FakeDie`) at ``path`` on a thread of its
    own until :meth:`close`. A die is connected to one app at a time, as a real one is."""

    def __init__(self, dice: list[Any], path: str | os.PathLike[str]) -> None:
        self.dice = {d.address: d for d in dice}
        self.path = Path(path)
        _private_folder(self.path.parent)
        if self.path.is_socket():
            self.path.unlink()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="simulated air")
        self._thread.start()
        if not self._ready.wait(5.0):
            raise RuntimeError(f"the simulated air did not start at {self.path}")

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        old = os.umask(0o177)   # the socket 0600: only its user may connect
        try:
            self._server = loop.run_until_complete(asyncio.start_unix_server(
                self._peer, str(self.path), limit=MAX_LINE + 1))
        finally:
            os.umask(old)
        self._ready.set()
        loop.run_forever()
        loop.close()

    async def _peer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await _line(reader)
            if line == "SCAN":
                for die in self.dice.values():
                    if die.reachable and (die._client is None or not die._client.is_connected):
                        writer.write(_advert_line(die).encode("ascii"))
                writer.write(b"END\n")
            elif line is not None and line.startswith("CONNECT "):
                await self._connect(line[8:].strip().upper(), reader, writer)
            await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()

    async def _connect(self, address: str, reader, writer) -> None:
        die = self.dice.get(address)
        if die is None or not die.reachable:
            writer.write(b"ERR device not found\n")
            return
        if die._client is not None and die._client.is_connected:
            writer.write(b"ERR connected to another host\n")
            return
        peer = _Peer(writer, asyncio.get_running_loop())
        die._client = peer
        die.connects += 1
        die.connected.set()
        writer.write(f"OK {die.make}\n".encode("ascii"))
        await writer.drain()
        while peer.is_connected and (line := await _line(reader)) is not None:
            data = _unhex(line[2:]) if line.startswith("W ") else None
            if data is not None:
                die.answer(data)
        peer.is_connected = False
        die.connected.clear()

    def close(self) -> None:
        loop = self._loop
        if loop is not None and loop.is_running():
            async def stop() -> None:
                if self._server is not None:
                    self._server.close()
                for die in self.dice.values():
                    die.drop()
                here = asyncio.current_task()
                peers = [t for t in asyncio.all_tasks() if t is not here]
                for task in peers:
                    task.cancel()
                await asyncio.gather(*peers, return_exceptions=True)
                loop.stop()

            asyncio.run_coroutine_threadsafe(stop(), loop)
            self._thread.join(3.0)
        if self.path.is_socket():
            self.path.unlink()


class _Peer:
    """The app's end, as a die's client: notifications go down the socket."""

    def __init__(self, writer: asyncio.StreamWriter, loop: asyncio.AbstractEventLoop) -> None:
        self.writer, self.loop = writer, loop
        self.is_connected = True

    def deliver(self, data: bytes) -> None:
        line = f"N {_hex(data[:MAX_NOTIFICATION])}\n".encode("ascii")
        try:
            self.loop.call_soon_threadsafe(self.writer.write, line)
        except RuntimeError:
            pass

    def lost(self, tell: bool = True) -> None:
        self.is_connected = False
        try:
            self.loop.call_soon_threadsafe(self.writer.close)
        except RuntimeError:
            pass


def _advert_line(die: Any) -> str:
    advert = die.advert()
    battery = "-" if advert.battery is None else str(advert.battery)
    colour = advert.colour.replace(" ", "_") or "-"
    return f"A {advert.address} {advert.make} {battery} {advert.rssi} {colour} {advert.name}\n"


__all__ = ["AirClient", "AirServer", "AirTransport", "MAX_LINE"]
