"""The air without a radio: smart dice that send the bytes real ones send, for tests, for
``companion dicesim --ble`` and for demo mode.

A :class:`FakeTransport` is shaped like :class:`hardware.dice.ble_link.BleakTransport`: it scans
its :class:`FakeDie` list and hands out clients shaped like ``bleak.BleakClient``. A die is
driven from any thread (``roll``, ``send``, ``drop``, ``away``); what it sends is the make's own
bytes (a Pixels ``RollState``, a GoDice ``R`` then ``S`` + x y z), so the whole path from a
notification to the Inbox runs as with real dice. A GoDice face's x y z vector is found by
asking ``godice`` itself which of the six axis vectors is that face, so nothing of its tables
is copied here.
"""

from __future__ import annotations

import asyncio
import inspect
import random
import threading
from typing import Any, Callable

from .ble_link import Advert
from .ble_protocol import (
    BATTERY_LEVEL, GODICE, GODICE_NOTIFY, GODICE_WRITE, I_AM_A_DIE, LEGACY_I_AM_A_DIE_SIZE,
    PIXELS, PIXELS_CHARACTERISTICS, PIXELS_LEGACY_SERVICE, PIXELS_SERVICE, ROLL_STATE,
)

AXES = [(64, 0, 0), (-64, 0, 0), (0, 64, 0), (0, -64, 0), (0, 0, 64), (0, 0, -64)]
#: frames that are not rolls: Pixels roll state / GoDice header for each unsettled state
PIXELS_STATE = {"rolling": 3, "in a hand": 2, "tilted": 4, "moved": 5}
GODICE_STATE = {"tilted": b"TS", "moved": b"MS"}


def godice_vector(face: int) -> tuple[int, int, int]:
    """The x y z vector godice's D6 shell reads as ``face`` (asked of godice, not copied)."""
    from godice.xyzinterpret import get_rolled_number_d6

    for vector in AXES:
        if get_rolled_number_d6(vector) == face:
            return vector
    raise ValueError(f"a D6 has no face {face}")


def signed_bytes(xyz: tuple[int, int, int]) -> bytes:
    return bytes(v & 0xFF for v in xyz)


class FakeDie:
    """One die on the fake air. ``reachable`` False: connecting to it fails (out of range).
    ``legacy``: a Pixels with the former service and characteristic ids."""

    def __init__(self, address: str, make: str = PIXELS, name: str = "", *,
                 battery: int = 80, colour: int = 1, rssi: int = -60,
                 legacy: bool = False) -> None:
        self.address, self.make, self.legacy = address, make, legacy
        self.name = name or (f"GoDice_{address[-5:].replace(':', '')}_R_v03" if make == GODICE
                             else f"Pixel{address[-2:]}")
        self.battery, self.colour, self.rssi = battery, colour, rssi
        self.reachable = True
        self.connects = 0
        self.written: list[bytes] = []
        self.connected = threading.Event()
        self._client: FakeClient | None = None

    # -- what the die does (any thread) ----------------------------------------------------
    def send(self, data: bytes) -> bool:
        """One notification, as is (garbage included); False if nobody is connected."""
        client = self._client
        if client is None or not client.is_connected:
            return False
        client.deliver(bytes(data))
        return True

    def roll(self, face: int, *, tumble: bool = True) -> bool:
        """Tumble (a rolling frame) and land on ``face`` after a proper roll."""
        frames = [self.unsettled("rolling")] if tumble else []
        return all(self.send(f) for f in [*frames, self.rolled(face)])

    def rolled(self, face: int) -> bytes:
        if self.make == PIXELS:
            return bytes([ROLL_STATE, 1, (face - 1) & 0xFF])
        return b"S" + signed_bytes(godice_vector(face))

    def unsettled(self, state: str) -> bytes:
        if self.make == PIXELS:
            return bytes([ROLL_STATE, PIXELS_STATE[state], 0])
        if state in GODICE_STATE:
            return GODICE_STATE[state] + signed_bytes(godice_vector(1))
        return b"R"

    def battery_frame(self, level: int) -> bytes:
        self.battery = level
        if self.make == PIXELS:
            return bytes([BATTERY_LEVEL, level, 0])
        return b"Bat" + bytes([level])

    def drop(self) -> None:
        """The die goes away (out of range, asleep): the client hears it disconnect."""
        client = self._client
        if client is not None:
            client.lost()

    # -- what the host wrote ---------------------------------------------------------------
    def answer(self, data: bytes) -> None:
        self.written.append(bytes(data))
        if self.make == PIXELS and data == bytes([1]):   # WhoAreYou -> legacy IAmADie
            reply = bytearray(LEGACY_I_AM_A_DIE_SIZE)
            reply[0], reply[1], reply[2] = I_AM_A_DIE, 6, self.colour
            reply[18], reply[19], reply[20] = 1, 0, self.battery
            self.send(bytes(reply))
        elif self.make == GODICE and data == bytes([3]):
            self.send(b"Bat" + bytes([self.battery]))
        elif self.make == GODICE and data == bytes([23]):
            self.send(b"Col" + bytes([self.colour]))

    def advert(self) -> Advert:
        from .ble_link import advert_of

        services = ([PIXELS_LEGACY_SERVICE if self.legacy else PIXELS_SERVICE]
                    if self.make == PIXELS else [])
        manufacturer = ({0xFFFF: bytes([6, self.colour, 1, 0, self.battery])}
                        if self.make == PIXELS else {})
        return advert_of(self.address, self.name, services, manufacturer, self.rssi)


class _Characteristic:
    def __init__(self, uuid: str) -> None:
        self.uuid = uuid


class _Services:
    def __init__(self, uuids: list[str]) -> None:
        self._chars = {u: _Characteristic(u) for u in uuids}

    def get_characteristic(self, uuid: str) -> _Characteristic | None:
        return self._chars.get(uuid)


class FakeClient:
    """A ``bleak.BleakClient`` for one :class:`FakeDie`; delivers on the loop that connected."""

    def __init__(self, die: FakeDie | None, address: str, on_disconnect: Callable[[], None],
                 transport: "FakeTransport") -> None:
        self.die, self.address = die, address
        self._on_disconnect, self._transport = on_disconnect, transport
        self._loop: asyncio.AbstractEventLoop | None = None
        self._callback: Callable[..., Any] | None = None
        self._notify: _Characteristic | None = None
        self.is_connected = False
        if die is not None and die.make == PIXELS:
            uuids = list(PIXELS_CHARACTERISTICS[1 if die.legacy else 0])
        else:
            uuids = [GODICE_NOTIFY, GODICE_WRITE]
        self.services = _Services(uuids)

    async def connect(self, **_kwargs: Any) -> bool:
        transport = self._transport
        if transport.absent:
            raise transport.absent_error()
        await asyncio.sleep(transport.connect_s)
        die = self.die
        if die is None or not die.reachable:
            raise TimeoutError(f"device {self.address} not found")
        if die._client is not None and die._client.is_connected:
            raise ConnectionError(f"{self.address} is connected to another host")
        self._loop = asyncio.get_running_loop()
        self.is_connected = True
        die._client = self
        die.connects += 1
        die.connected.set()
        return True

    async def disconnect(self) -> bool:
        self.lost(tell=False)
        return True

    async def start_notify(self, char: _Characteristic, callback: Callable[..., Any],
                           **_kwargs: Any) -> None:
        self._notify, self._callback = char, callback

    async def write_gatt_char(self, char: _Characteristic, data: bytes,
                              response: bool | None = None) -> None:
        if not self.is_connected:
            raise ConnectionError("not connected")
        if self.die is not None:
            self.die.answer(bytes(data))

    # -- from the die's side ---------------------------------------------------------------
    def deliver(self, data: bytes) -> None:
        loop = self._loop
        if loop is None:
            return

        def run() -> None:
            callback = self._callback
            if callback is None or not self.is_connected:
                return
            result = callback(self._notify, bytearray(data))
            if inspect.isawaitable(result):   # bleak runs an async callback as a task
                loop.create_task(result)

        try:
            loop.call_soon_threadsafe(run)
        except RuntimeError:   # the loop is closed: the source has ended
            pass

    def lost(self, tell: bool = True) -> None:
        if not self.is_connected:
            return
        self.is_connected = False
        die = self.die
        if die is not None:
            die.connected.clear()
            if die._client is self:
                die._client = None
        loop = self._loop
        if tell and loop is not None:
            try:
                loop.call_soon_threadsafe(self._on_disconnect)
            except RuntimeError:
                pass


class FakeTransport:
    """The fake air: ``dice`` to scan and connect to. ``absent`` (a reason) makes it behave
    as a machine without Bluetooth: every scan and connection fails with that reason."""

    def __init__(self, dice: list[FakeDie] | tuple[FakeDie, ...] = (), *,
                 absent: str = "", connect_s: float = 0.0) -> None:
        self.dice = {d.address: d for d in dice}
        self.absent = absent
        self.connect_s = connect_s
        self.scans = 0

    def absent_error(self) -> Exception:
        return RuntimeError(self.absent)

    async def scan(self, timeout: float) -> list[Advert]:
        self.scans += 1
        if self.absent:
            raise self.absent_error()
        await asyncio.sleep(min(timeout, 0.05))
        free = [d for d in self.dice.values()
                if d.reachable and (d._client is None or not d._client.is_connected)]
        return sorted((d.advert() for d in free), key=lambda a: -(a.rssi or -999))

    def client(self, address: str, on_disconnect: Callable[[], None]) -> FakeClient:
        return FakeClient(self.dice.get(address), address, on_disconnect, self)


class AutoRoller:
    """A table that rolls the fake dice by itself (``companion dicesim --ble``, demo mode):
    every ``interval`` seconds one die tumbles and lands; now and then it lands tilted first,
    sends garbage or drops out for ``down`` seconds."""

    def __init__(self, dice: list[FakeDie], *, interval: float = 3.0, garbage: float = 0.0,
                 drops: float = 0.0, down: float = 2.0, seed: int | None = None,
                 say: Callable[[str], None] | None = None) -> None:
        self.dice, self.interval = dice, interval
        self.garbage, self.drops, self.down = garbage, drops, down
        self._random = random.Random(seed)
        self._say = say or (lambda _text: None)
        self.rolls = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="dice roller")
        self._thread.start()

    def _run(self) -> None:
        pick = self._random
        while not self._stop.wait(self.interval):
            die = pick.choice(self.dice)
            if not die.connected.is_set():
                continue
            if pick.random() < self.garbage:
                die.send(bytes(pick.randrange(256) for _ in range(pick.randrange(1, 9))))
                self._say(f"{die.name}: garbage")
                continue
            if pick.random() < self.drops:
                self._say(f"{die.name}: out of range for {self.down:g} s")
                die.reachable = False
                die.drop()
                if self._stop.wait(self.down):
                    return
                die.reachable = True
                continue
            face = pick.randint(1, 6)
            if pick.random() < 0.2:
                die.send(die.unsettled("tilted"))
            die.roll(face)
            self.rolls += 1
            self._say(f"{die.name}: rolled {face}")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2.0)


__all__ = ["AutoRoller", "FakeClient", "FakeDie", "FakeTransport", "godice_vector"]
