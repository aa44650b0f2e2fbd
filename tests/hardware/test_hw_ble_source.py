"""The smart dice source against the fake air (no radio), whose dice send the makers'
recorded bytes (``hardware/dice/recorded``): scan, connect, notifications, a die that drops
out mid-roll and comes back, garbage, floods, a face the die cannot show, a die that is not
six-sided, old firmware, rests that are not rolls, two makes landing in quick order, no
Bluetooth at all, and closing. Every wait is bounded and ends as soon as it holds."""

from __future__ import annotations

import random
import threading
import time

import pytest

from companion.core.model import InputEvent
from hardware.dice.ble import BleDiceSource, BleDie, BleStatus, scan
from hardware.dice.ble_fake import FakeDie, FakeTransport
from hardware.dice.ble_link import BluetoothAbsent
from hardware.dice.protocol import Faces

pytest.importorskip("godice", reason="the ble extra (godice) is not installed")

PIXEL = "AA:00:00:00:00:01"
GODICE = "AA:00:00:00:00:02"


class Events:
    """What the source emitted and reported, safe to read from the test thread."""

    def __init__(self):
        self.events: list[InputEvent] = []
        self.statuses: list[BleStatus] = []
        self.lock = threading.Lock()

    def emit(self, event):
        with self.lock:
            self.events.append(event)

    def status(self, status):
        with self.lock:
            self.statuses.append(status)

    def values(self):
        with self.lock:
            return [(e.id, e.value) for e in self.events if e.kind == "die"]

    def texts(self):
        with self.lock:
            return [s.text for s in self.statuses]


@pytest.fixture
def air():
    dice = [FakeDie(PIXEL, "pixels", battery=15), FakeDie(GODICE, "godice", battery=90)]
    return FakeTransport(dice), dice


def start(transport, dice, got, **kwargs):
    kwargs.setdefault("backoff", (0.02, 0.1))
    return BleDiceSource([BleDie(d.address, d.make, d.name) for d in dice], got.emit,
                         transport=transport, on_status=got.status, **kwargs)


def test_scan_lists_both_makes_with_name_colour_and_battery(air):
    transport, _dice = air
    found = {a.address: a for a in scan(0.01, transport)}
    assert found[PIXEL].make == "pixels" and found[PIXEL].battery == 15
    assert found[GODICE].make == "godice" and found[GODICE].colour == "red"
    assert found[GODICE].name.startswith("GoDice_")


def test_rolls_from_both_makes_become_the_trays_events(air, wait_until):
    transport, (pixel, godice) = air
    got = Events()
    with start(transport, [pixel, godice], got) as source:
        assert wait_until(lambda: len(source.connected) == 2, 3)
        assert pixel.roll(4) and godice.roll(2)
        assert wait_until(lambda: len(got.values()) == 2, 3)
        assert sorted(got.values()) == [(PIXEL, 4), (GODICE, 2)]
        moving = [e for e in got.events if e.kind == "die_moving"]
        assert {e.id for e in moving} == {PIXEL, GODICE}      # shown, never a value
        assert all(e.source == "ble" for e in got.events)
        assert wait_until(lambda: source.battery == {PIXEL: 15, GODICE: 90}, 3)
        assert "Pixel01: battery 15 % (low)" in got.texts()
        assert source.battery_words(GODICE) == "battery 90 %"


def test_tilted_moved_and_handled_are_never_values(air, wait_until):
    transport, (pixel, godice) = air
    got = Events()
    with start(transport, [pixel, godice], got) as source:
        assert wait_until(lambda: len(source.connected) == 2, 3)
        for die in (pixel, godice):
            die.send(die.unsettled("tilted"))
            die.send(die.unsettled("moved"))
        pixel.send(pixel.unsettled("in a hand"))
        pixel.roll(6)
        assert wait_until(lambda: got.values() == [(PIXEL, 6)], 3)
        assert got.values() == [(PIXEL, 6)]


def test_a_die_that_drops_mid_roll_reconnects_with_backoff_and_reads_again(air, wait_until):
    transport, (pixel, godice) = air
    got = Events()
    with start(transport, [pixel], got) as source:
        assert wait_until(lambda: PIXEL in source.connected, 3)
        pixel.send(pixel.unsettled("rolling"))
        pixel.reachable = False
        pixel.drop()                                   # mid-roll: no value, it is gone
        assert wait_until(lambda: any("disconnected: reconnecting in" in t
                                      for t in got.texts()), 3)
        assert wait_until(lambda: any("not connected: trying again in" in t
                                      for t in got.texts()), 3)
        pixel.reachable = True
        assert wait_until(lambda: PIXEL in source.connected and pixel.connects == 2, 3)
        pixel.roll(3)
        assert wait_until(lambda: got.values() == [(PIXEL, 3)], 3)
    says = got.texts()
    assert says.count("Pixel01: connected") == 2
    assert sum("not reachable" in t for t in says) == 0   # the outage was said: disconnected


def test_garbage_is_dropped_and_counted_and_the_die_reads_on(air, wait_until):
    transport, (pixel, godice) = air
    got = Events()
    noise = random.Random(35)
    with start(transport, [pixel, godice], got) as source:
        assert wait_until(lambda: len(source.connected) == 2, 3)
        for _ in range(200):
            for die in (pixel, godice):
                die.send(bytes(noise.randrange(256) for _ in range(noise.randrange(0, 12))))
        pixel.roll(5)
        godice.roll(1)
        assert wait_until(lambda: sorted(got.values()) == [(PIXEL, 5), (GODICE, 1)] or
                          len(got.values()) > 2, 5)
        assert source.garbage > 100 and len(source.connected) == 2


def test_a_flood_of_values_is_cut_and_counted(air, wait_until):
    transport, (pixel, _godice) = air
    got = Events()
    with start(transport, [pixel], got, flood=4) as source:
        assert wait_until(lambda: PIXEL in source.connected, 3)
        for n in range(500):
            pixel.roll(n % 6 + 1)
        assert wait_until(lambda: source.flooded >= 490, 5)
        assert len(got.values()) <= 8     # at most 4 a second reach the Inbox


def test_a_face_the_die_cannot_show_is_refused_not_emitted(air, wait_until):
    transport, (pixel, _godice) = air
    got = Events()
    with start(transport, [pixel], got, faces=Faces((1, 6))) as source:
        assert wait_until(lambda: PIXEL in source.connected, 3)
        pixel.send(pixel.unsettled("rolling"))
        pixel.send(bytes([3, 1, 11]))    # a D6 saying face index 11
        assert wait_until(lambda: any(s.state == BleStatus.REFUSED for s in got.statuses), 3)
        assert got.values() == []
        assert "reported 12, which is not a face of it (1-6)" in got.texts()[-1]


@pytest.mark.parametrize("make, kind", [("pixels", {"die_type": "d20"}),
                                        ("godice", {"shell": "d20"})])
def test_a_die_that_is_not_six_sided_is_refused_by_name(make, kind, wait_until):
    die = FakeDie("AA:00:00:00:00:03", make, "Pixel 03" if make == "pixels" else "GoDice 03",
                  **kind)
    got = Events()
    with BleDiceSource([BleDie(die.address, make, die.name, kind.get("shell", "d6"))],
                       got.emit, transport=FakeTransport([die]), on_status=got.status,
                       backoff=(0.02, 0.1)) as source:
        assert wait_until(lambda: die.address in source.identity, 3)
        assert source.identity[die.address].die_type == "d20"
        die.roll(17 if make == "godice" else 4)
        assert wait_until(lambda: any(s.state == BleStatus.REFUSED for s in got.statuses), 3)
    refused = [s for s in got.statuses if s.state == BleStatus.REFUSED]
    assert [(s.text, s.die_type) for s in refused] == [(f"{die.name} is a D20", "d20")]
    assert got.values() == []


def test_a_d6_of_old_firmware_reads_the_face_on_top(wait_until):
    old = FakeDie("AA:00:00:00:00:04", "pixels", era="2023-11-17")
    got = Events()
    with start(FakeTransport([old]), [old], got) as source:
        assert wait_until(lambda: old.address in source.identity, 3)
        for face in (5, 2, 4, 3):
            assert old.roll(face)
        assert wait_until(lambda: len(got.values()) == 4, 3)
    assert [v for _a, v in got.values()] == [5, 2, 4, 3]


def test_a_value_only_from_a_rest_after_a_roll(air, wait_until):
    """The same rest reported again, a die set down without a roll, a landing before the
    die said what it is: none is a value; the next proper roll is."""
    transport, (pixel, godice) = air
    got = Events()
    with start(transport, [pixel, godice], got) as source:
        assert wait_until(lambda: len(source.identity) == 2, 3)
        assert pixel.roll(3) and godice.roll(3)
        assert wait_until(lambda: len(got.values()) == 2, 3)
        for die in (pixel, godice):
            die.send(die.rolled(3))                       # again, without moving
            die.send(die.unsettled("set down"))           # picked up and put down
            die.send(die.rolled(6))
        assert pixel.roll(1) and godice.roll(2)           # a roll: a value again
        assert wait_until(lambda: len(got.values()) >= 4, 3)
    assert sorted(got.values()) == [(PIXEL, 1), (PIXEL, 3), (GODICE, 2), (GODICE, 3)]


def test_two_makes_landing_in_quick_order_are_taken_in_that_order(air, wait_until):
    """A GoDice then a Pixels landing in the same turn of the loop: the GoDice first. (Read
    through godice's coroutine, which bleak runs as a task, the GoDice came second.)"""
    transport, (pixel, godice) = air
    got = Events()
    with start(transport, [pixel, godice], got) as source:
        assert wait_until(lambda: len(source.identity) == 2, 3)
        for order in ((godice, pixel), (pixel, godice), (godice, pixel)):
            for die in order:
                die.send(die.unsettled("rolling"))
            done = threading.Event()

            def land(order=order):
                for n, die in enumerate(order):
                    die.send(die.rolled(n + 1))
                done.set()

            source._loop.call_soon_threadsafe(land)
            assert done.wait(3)
        assert wait_until(lambda: len(got.values()) == 6, 3)
    assert got.values() == [(GODICE, 1), (PIXEL, 2), (PIXEL, 1), (GODICE, 2),
                            (GODICE, 1), (PIXEL, 2)]


def test_the_battery_is_asked_on_connect_and_charging_is_said(air, wait_until):
    transport, (pixel, godice) = air
    got = Events()
    with start(transport, [pixel, godice], got) as source:
        assert wait_until(lambda: source.battery == {PIXEL: 15, GODICE: 90}, 3)
        assert bytes([33]) in pixel.written and bytes([3]) in godice.written
        godice.send(b"Char\x01")
        assert wait_until(lambda: source.charging.get(GODICE) is True, 3)
        assert source.battery_words(GODICE) == "battery 90 % (charging)"
        assert source.colour[PIXEL] == "onyx black"
    assert source.garbage == 0


def test_without_bluetooth_one_line_and_nothing_else(wait_until):
    from hardware.dice.recorded import air

    pytest.importorskip("bleak")
    for error, reason in ((air.bleak_error("NO_BLUETOOTH"), "no Bluetooth adapter"),
                          (air.bleak_error("POWERED_OFF"), "Bluetooth is switched off"),
                          (air.NO_SYSTEM_BUS, "no system bus (D-Bus is not running)"),
                          (air.bleak_error("DENIED_BY_SYSTEM"),
                           "D-Bus refuses this user access to Bluetooth (is it in the "
                           "bluetooth group?)")):
        dice = [FakeDie(PIXEL, "pixels"), FakeDie(GODICE, "godice")]
        transport = FakeTransport(dice, error=error)
        got = Events()
        with start(transport, dice, got, backoff=(0.01, 0.02)):
            assert wait_until(lambda: any(s.state == BleStatus.ABSENT for s in got.statuses), 3)
            threading.Event().wait(0.1)                     # many tries, every one fails
        absent = [s for s in got.statuses if s.state == BleStatus.ABSENT]
        assert [s.text for s in absent] == [
            f"Bluetooth is not available on this machine: {reason}; enter dice by touch"]
        assert not any(s.state == BleStatus.UNAVAILABLE for s in got.statuses)
        with pytest.raises(BluetoothAbsent, match=reason.replace("(", r"\(").replace(")", r"\)")
                           .replace("?", r"\?")):
            scan(0.01, transport)


def test_without_the_ble_extra_the_source_says_so(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_bleak(name, *args, **kwargs):
        if name == "bleak":
            raise ModuleNotFoundError("No module named 'bleak'", name="bleak")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_bleak)
    with pytest.raises(BluetoothAbsent, match=r"the ble extra is not installed \(no bleak\)"):
        BleDiceSource([BleDie(PIXEL, "pixels")], lambda e: None)


def test_close_disconnects_every_die_and_ends_the_thread(air, wait_until):
    transport, dice = air
    got = Events()
    source = start(transport, dice, got)
    assert wait_until(lambda: len(source.connected) == 2, 3)
    source.close()
    assert not source._thread.is_alive()
    assert not any(d.connected.is_set() for d in dice)
    assert got.texts()[-1] == "smart dice closed"
    assert not dice[0].roll(2)                           # nobody listens any more
    source.close()                                       # twice is fine


def test_backoff_must_make_sense():
    with pytest.raises(ValueError, match="backoff"):
        BleDiceSource([], lambda e: None, transport=FakeTransport(), backoff=(2, 1))


def test_a_pixels_of_the_former_ids_is_read_too(wait_until):
    legacy = FakeDie("AA:00:00:00:00:03", "pixels", legacy=True)
    transport = FakeTransport([legacy])
    assert [a.make for a in scan(0.01, transport)] == ["pixels"]
    got = Events()
    with start(transport, [legacy], got) as source:
        assert wait_until(lambda: legacy.address in source.connected, 3)
        legacy.roll(2)
        assert wait_until(lambda: got.values() == [(legacy.address, 2)], 3)


# -- fuzzed like the serial line: any mix of rolls, states and garbage ------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_frames = st.lists(st.one_of(
    st.tuples(st.just("roll"), st.integers(1, 8)),
    st.tuples(st.just("state"), st.sampled_from(["rolling", "in a hand", "tilted", "moved",
                                                 "set down"])),
    # not an IAmADie (2): that would make the die another one mid-example
    st.tuples(st.just("garbage"), st.binary(max_size=30).filter(lambda b: b[:1] != b"\x02"))),
    max_size=25)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["pixels", "godice"]), _frames)
def test_fuzz_exactly_the_proper_rolls_of_faces_the_die_has_come_out(make, frames):
    die = FakeDie("AA:00:00:00:00:09", make)
    got = Events()
    with start(FakeTransport([die]), [die], got, flood=1000) as source:
        deadline = time.monotonic() + 3
        while die.address not in source.connected and time.monotonic() < deadline:
            threading.Event().wait(0.005)
        expected, rolling = [], False
        for kind, what in frames:
            if kind == "roll":
                die.send(die.rolled(what) if what <= 6 or make == "pixels" else b"S")
                if what <= 6 and rolling:       # a rest right after a roll: a value
                    expected.append(what)
            elif kind == "state":
                die.send(die.unsettled(what))
            else:
                die.send(what)
            rolling = kind == "state" and what == "rolling"
        die.send(die.battery_frame(0))                  # garbage said a battery, maybe
        die.send(die.battery_frame(77))                 # the end of this example's frames
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and source.battery.get(die.address) != 77:
            threading.Event().wait(0.005)
    values = [v for _a, v in got.values()]
    # garbage may itself be a well-formed roll (a Pixels RollState or a GoDice S frame):
    # every expected roll came out, in order, and nothing that is not a face of a D6
    assert all(1 <= v <= 6 for v in values)
    it = iter(values)
    assert all(any(v == e for v in it) for e in expected), (expected, values)
