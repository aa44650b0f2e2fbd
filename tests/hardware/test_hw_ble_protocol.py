"""The smart dice's protocol layer from recorded message bytes: Pixels' messages as their
Communications Protocol lays them out, GoDice's frames as the godice package reads them (its
D6 shell gives the face, through the same frame check the app uses), and garbage of every
shape, which is dropped and counted, never raised."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.dice.ble_protocol import (
    MAX_NOTIFICATION, PIXELS_SERVICE, Battery, Colour, Garbage, Ignored, Position, Rolled,
    Unsettled, godice_frame, godice_name_colour, make_of, parse_pixels, pixels_advert,
)

# -- Pixels: RollState is [3, state, face index]; BatteryLevel [34, level, state] ------------
PIXELS_RECORDED = [
    (bytes([0x03, 0x01, 0x03]), Rolled(4)),          # rolled, face index 3: a D6's 4
    (bytes([0x03, 0x01, 0x00]), Rolled(1)),
    (bytes([0x03, 0x01, 0x05]), Rolled(6)),
    (bytes([0x03, 0x03, 0x02]), Unsettled("rolling")),
    (bytes([0x03, 0x02, 0x02]), Unsettled("in a hand")),
    (bytes([0x03, 0x04, 0x01]), Unsettled("tilted")),  # crooked: not a value
    (bytes([0x03, 0x05, 0x04]), Unsettled("moved")),   # on face, but never rolled
    (bytes([0x03, 0x00, 0x00]), Unsettled("not settled")),
    (bytes([0x22, 0x4B, 0x00]), Battery(75, False)),  # 34: 75 %, not charging
    (bytes([0x22, 0x0A, 0x02]), Battery(10, True)),   # charging
    (bytes([0x04]) + bytes(40), Ignored("message type 4")),   # telemetry: not ours
]


@pytest.mark.parametrize("data, reading", PIXELS_RECORDED)
def test_pixels_messages(data, reading):
    assert parse_pixels(data) == reading


def test_pixels_legacy_i_am_a_die_gives_the_battery_and_a_newer_one_is_ignored():
    legacy = bytearray(22)
    legacy[0], legacy[1], legacy[2] = 2, 6, 7
    legacy[18], legacy[19], legacy[20], legacy[21] = 1, 3, 64, 0
    assert parse_pixels(bytes(legacy)) == Battery(64, False)
    assert parse_pixels(bytes([2]) + bytes(40)) == Ignored("the die's identity")


@pytest.mark.parametrize("data, why", [
    (b"", "an empty notification"),
    (bytes([3, 1]), "a RollState is 3 bytes, not 2"),
    (bytes([3, 1, 2, 0]), "a RollState is 3 bytes, not 4"),
    (bytes([3, 9, 0]), "roll state 9 is not one of 0-5"),
    (bytes([34, 101, 0]), "battery level 101 is over 100 %"),
    (bytes([34, 50]), "a BatteryLevel is 3 bytes, not 2"),
    (bytes([3]) * (MAX_NOTIFICATION + 1), f"longer than {MAX_NOTIFICATION} bytes"),
])
def test_pixels_garbage_is_named(data, why):
    reading = parse_pixels(data)
    assert isinstance(reading, Garbage) and reading.reason == why


def test_pixels_advert_battery_and_colour():
    assert pixels_advert({0xFFFF: bytes([6, 7, 1, 2, 0x80 | 55])}) == (55, "black")  # charging
    assert pixels_advert({}) == (None, "")
    assert pixels_advert({1: b"\x01"}) == (None, "")


# -- GoDice: R, S+xyz, FS/TS/MS+xyz, Bat+level, Col+colour -----------------------------------
GODICE_RECORDED = [
    (b"R", Unsettled("rolling")),
    (b"S\xc0\x00\x00", Position((-64, 0, 0), True)),
    (b"TS\x00\x40\x00", Position((0, 64, 0), False, "tilted")),
    (b"FS\x00\x00\x40", Position((0, 0, 64), False, "moved")),
    (b"MS\x40\x00\x00", Position((64, 0, 0), False, "moved")),
    (b"Bat\x55", Battery(85)),
    (b"Col\x03", Colour("blue")),
]


@pytest.mark.parametrize("data, frame", GODICE_RECORDED)
def test_godice_frames(data, frame):
    assert godice_frame(data) == frame


@pytest.mark.parametrize("data", [b"", b"S", b"S\x00", b"TS\x00\x00", b"Bat", b"Bat\xff",
                                  b"Col\x09", b"X\x01\x02\x03", b"RR", b"S" * 300])
def test_godice_garbage_is_refused_before_godice_sees_it(data):
    assert isinstance(godice_frame(data), Garbage)


def test_makes_and_colours_from_adverts():
    assert make_of("GoDice_1A2B3C_R_v03") == "godice"
    assert make_of("Pixel01", [PIXELS_SERVICE.upper()]) == "pixels"
    assert make_of("Pixel02", ["6e400001-b5a3-f393-e0a9-e50e24dcca9e"]) == "pixels"   # legacy
    assert make_of("Headphones", ["0000180f-0000-1000-8000-00805f9b34fb"]) is None
    assert make_of(None) is None
    assert godice_name_colour("GoDice_1A2B3C_R_v03") == "red"
    assert godice_name_colour("GoDice") == ""


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_any_bytes_give_a_reading_never_an_exception(data):
    assert isinstance(parse_pixels(data), (Rolled, Unsettled, Battery, Ignored, Garbage))
    frame = godice_frame(data)
    assert isinstance(frame, (Position, Unsettled, Battery, Colour, Garbage))
    if isinstance(frame, Position):
        assert all(-128 <= v <= 127 for v in frame.xyz)


# -- through godice itself: the frame check in front of its parser ---------------------------
godice = pytest.importorskip("godice", reason="the ble extra (godice) is not installed")


def _link_readings(frames: list[bytes]) -> tuple[list, int]:
    """Feed frames through a GoDice Link (godice.Dice behind the frame check) connected over
    the fake air: (readings, garbage count)."""
    from hardware.dice.ble_fake import FakeDie, FakeTransport
    from hardware.dice.ble_link import Link

    readings: list = []
    die = FakeDie("AA:BB:CC:DD:EE:FF", "godice", battery=32)

    async def run():
        link = Link(FakeTransport([die]), die.address, "godice", readings.append)
        await link.open()                  # asks colour and battery through godice
        for frame in frames:
            die.send(frame)
        for _ in range(len(frames) + 3):   # each notification is a task on this loop
            await asyncio.sleep(0)
        await link.close()
        return link.garbage

    garbage = asyncio.run(run())
    return readings, garbage


def test_godice_d6_faces_through_godice_and_garbage_dropped():
    from hardware.dice.ble_fake import godice_vector, signed_bytes

    faces = [b"S" + signed_bytes(godice_vector(f)) for f in range(1, 7)]
    readings, garbage = _link_readings(
        [b"R", *faces, b"S", b"TS\x00\x40\x00", b"\x00", b"Bat\x14"])
    assert readings[:2] == [Colour("red"), Battery(32)]     # asked when it connects
    assert readings[2] == Unsettled("rolling")
    assert readings[3:9] == [Rolled(f) for f in range(1, 7)]
    assert isinstance(readings[9], Garbage)                  # b"S": godice never saw it
    assert readings[10:] == [Unsettled("tilted"), readings[11], Battery(20)]
    assert garbage == 2


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=12), max_size=20))
def test_fuzz_garbage_through_godice_never_raises(frames):
    readings, garbage = _link_readings(frames)
    assert garbage <= len(frames)
    assert all(isinstance(r, (Rolled, Unsettled, Battery, Colour, Garbage)) for r in readings)
