"""The air without a radio: smart dice that send the bytes real ones send, for tests, for
``companion dicesim --ble`` and for demo mode.

A :class:`FakeTransport` is shaped like :class:`hardware.dice.ble_link.BleakTransport`: it scans
its :class:`FakeDie` list and hands out clients shaped like ``bleak.BleakClient``. A die is
driven from any thread (``roll``, ``send``, ``drop``); what it sends and advertises are the
recorded vectors of :mod:`hardware.dice.recorded` (a Pixels' advert, IAmADie, RollState and
BatteryLevel for its type and firmware era; a GoDice's ``R``, ``S`` + x y z of its shell,
``Bat``, ``Col``), so the whole path from a notification to the Inbox runs as with real dice.
A notification is delivered by calling the client's callback on its loop, in order, as bleak
does.
"""

from __future__ import annotations

import asyncio
import inspect
import random
import threading
from typing import Any, Callable

from .ble_link import Advert
from .ble_pixels import REQUEST_BATTERY_LEVEL, WHO_ARE_YOU
from .ble_protocol import (
    GODICE, GODICE_NOTIFY, GODICE_WRITE, PIXELS, PIXELS_CHARACTERISTICS, PIXELS_LEGACY_SERVICE,
    PIXELS_SERVICE,
)
from .recorded import godice as recorded_godice
from .recorded import pixels as recorded_pixels
from .recorded import with_bytes

#: the recorded frame of each unsettled state the table names
PIXELS_STATE = {"in a hand": 2, "rolling": 3, "tilted": 4, "set down": 5, "moved": 5}
GODICE_STATE = {"rolling": recorded_godice.ROLL, "tilted": recorded_godice.TILT_STABLE,
                "moved": recorded_godice.FAKE_STABLE, "in a hand": recorded_godice.FAKE_STABLE,
                "set down": recorded_godice.MOVE_STABLE}


class FakeDie:
    """One die on the fake air. ``reachable`` False: connecting to it fails (out of range).
    A Pixels has a ``die_type`` and a firmware ``era`` (``recorded.pixels.ERAS``) and
    ``legacy`` service ids or today's; a GoDice wears a ``shell``."""

    def __init__(self, address: str, make: str = PIXELS, name: str = "", *,
                 battery: int = 80, colour: int = 1, rssi: int = -60, legacy: bool = False,
                 die_type: str = "d6", era: str = "today", shell: str = "d6") -> None:
        self.address, self.make, self.legacy = address, make, legacy
        self.die_type, self.era, self.shell = die_type, era, shell
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
        """Tumble (a rolling frame) and land on ``face``; without ``tumble`` only the landing
        is sent (a die that has not moved since its last value: not a roll)."""
        frames = [self.unsettled("rolling")] if tumble else []
        return all(self.send(f) for f in [*frames, self.rolled(face)])

    def rolled(self, face: int) -> bytes:
        if self.make == PIXELS:
            return recorded_pixels.rolled(self.die_type, self.era, face)
        if self.shell == "d6":
            return recorded_godice.STABLE_D6[face]
        return recorded_godice.shell_frames(self.shell)[face]

    def unsettled(self, state: str) -> bytes:
        if self.make == PIXELS:
            return recorded_pixels.ROLL_STATES[PIXELS_STATE[state]].data
        return GODICE_STATE[state].data

    def battery_frame(self, level: int) -> bytes:
        self.battery = level
        if self.make == PIXELS:
            return recorded_pixels.battery_level(level)
        return b"Bat" + bytes([level])

    def drop(self) -> None:
        """The die goes away (out of range, asleep): the client hears it disconnect."""
        client = self._client
        if client is not None:
            client.lost()

    # -- what the host wrote ---------------------------------------------------------------
    def answer(self, data: bytes) -> None:
        self.written.append(bytes(data))
        if self.make == PIXELS and data == WHO_ARE_YOU:
            vector = recorded_pixels.i_am_a_die(self.die_type, self.era)
            at = (recorded_pixels.IAM_A_DIE_STATUS if len(vector.data) == 108
                  else recorded_pixels.LEGACY_IAM_A_DIE_STATUS)["battery"]
            self.send(with_bytes(vector, **{f"at_{at}": self.battery}))
        elif self.make == PIXELS and data == REQUEST_BATTERY_LEVEL:
            self.send(recorded_pixels.battery_level(self.battery))
        elif self.make == GODICE and data == recorded_godice.ASK_BATTERY.data:
            self.send(b"Bat" + bytes([self.battery]))
        elif self.make == GODICE and data == recorded_godice.ASK_COLOUR.data:
            self.send(b"Col" + bytes([self.colour]))

    def advert(self) -> Advert:
        from .ble_link import advert_of

        if self.make == GODICE:
            return advert_of(self.address, self.name, [], {}, self.rssi)
        vector = recorded_pixels.advert(self.die_type)
        (company, payload), = vector.manufacturer.items()
        payload = payload[:4] + bytes([self.battery & 0x7F])    # its battery byte
        services = [PIXELS_LEGACY_SERVICE if self.legacy else PIXELS_SERVICE]
        return advert_of(self.address, self.name, services, {company: payload}, self.rssi,
                         dict(vector.service_data))


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
    """The fake air: ``dice`` to scan and connect to. ``absent`` (bleak's message) or
    ``error`` (the exception bleak raises) makes it a machine without Bluetooth: every scan
    and connection fails with it."""

    def __init__(self, dice: list[FakeDie] | tuple[FakeDie, ...] = (), *,
                 absent: str = "", error: BaseException | None = None,
                 connect_s: float = 0.0) -> None:
        self.dice = {d.address: d for d in dice}
        self.absent = absent or (str(error) if error is not None else "")
        self.error = error          # what bleak raises (hardware/dice/recorded/air.py)
        self.connect_s = connect_s
        self.scans = 0

    def absent_error(self) -> BaseException:
        return self.error if self.error is not None else RuntimeError(self.absent)

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


__all__ = ["AutoRoller", "FakeClient", "FakeDie", "FakeTransport"]
