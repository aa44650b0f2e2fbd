"""The smart dice's protocol layer against the makers' recorded vectors
(``hardware/dice/recorded``, each vector citing its repository, file and commit): Pixels'
adverts of every die type and colorway, today's and the legacy IAmADie, RollState of every
state in every firmware era, BatteryLevel; every GoDice frame kind and the x y z frames of
every shell; and garbage of every shape, which is dropped and counted, never raised."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.dice.ble_link import advert_of
from hardware.dice.ble_pixels import face_from_index, parse_pixels, pixels_advert
from hardware.dice.ble_protocol import (
    MAX_NOTIFICATION, MOVING, PIXELS_SERVICE, RESTING, Battery, Charging, Colour, Garbage,
    Identity, Ignored, Rolled, Unsettled, make_of,
)
from hardware.dice.recorded import air, pixels
from tests.hardware.bluetooth_words import REASONS

TODAY = Identity("d6", 6, pixels.FW_TODAY)
ERA = {era: Identity("d6", 6, stamp) for era, stamp in pixels.ERAS.items()}


# -- Pixels adverts: only with their manufacturer and service data ----------------------------
@pytest.mark.parametrize("vector", pixels.ADVERTS + [pixels.LEGACY_ADVERT],
                         ids=lambda v: v.name)
def test_every_pixels_advert_says_its_die_type_colour_and_battery(vector):
    said = pixels_advert(vector.manufacturer, vector.service_data)
    means = vector.means
    assert (said.die_type, said.colour, said.battery, said.charging, said.firmware) == (
        means["die_type"], means["colour"], means["battery"], means["charging"],
        means["firmware"]), vector.source
    advert = advert_of("AA:BB:CC:DD:EE:01", vector.local_name, list(vector.services),
                       vector.manufacturer, -50, vector.service_data)
    assert advert.make == "pixels" and advert.die_type == means["die_type"]
    assert advert.colour == means["colour"]


def test_the_colour_is_the_colorway_of_today_not_the_enum_pixels_js_replaced():
    # byte 1 of the manufacturer data is (dieType << 4) | colorway; the old enum read 0x21
    # (a D6, colorway 1) as nothing at all, and 2 as "orange"
    d6 = pixels.advert("d6")
    assert d6.manufacturer[pixels.COMPANY][1] == 0x21
    assert pixels_advert(d6.manufacturer, d6.service_data).colour == "onyx black"


@pytest.mark.parametrize("vector", air.NOT_DICE + [pixels.BARE_ADVERT], ids=lambda v: v.name)
def test_nordic_uart_boards_chargers_and_bare_adverts_are_never_listed(vector):
    assert advert_of("AA:BB:CC:DD:EE:02", vector.local_name, list(vector.services),
                     vector.manufacturer, -40, vector.service_data) is None, vector.source


def test_a_godice_is_known_by_its_name():
    (vector,) = air.GODICE_ADVERTS
    advert = advert_of("AA:BB:CC:DD:EE:03", vector.local_name, list(vector.services), {}, -40)
    assert (advert.make, advert.colour) == (vector.means["make"], vector.means["colour"])


# -- IAmADie: what the die is ---------------------------------------------------------------
@pytest.mark.parametrize("vector", pixels.I_AM_A_DIE, ids=lambda v: v.name)
def test_i_am_a_die_today_and_legacy(vector):
    said = parse_pixels(vector.data)
    assert isinstance(said, Identity), said
    assert {k: getattr(said, k) for k in vector.means} == vector.means, vector.source


def test_a_d20_says_it_is_not_six_sided():
    said = parse_pixels(pixels.I_AM_A_DIE_BY_NAME["d20 today"].data)
    assert said.die_type == "d20" and not said.six_sided and said.words == "D20"
    assert parse_pixels(pixels.ROLLED_D20_ON_4.data, said) == Rolled(4)


# -- RollState in every era -----------------------------------------------------------------
@pytest.mark.parametrize("era", sorted(pixels.ROLLED_D6))
@pytest.mark.parametrize("face", range(1, 7))
def test_a_d6_landing_reads_the_face_on_top_in_every_firmware_era(era, face):
    assert parse_pixels(pixels.ROLLED_D6[era][face], ERA[era]) == Rolled(face)


def test_a_d6_of_2023_11_17_showing_5_is_5_not_2():
    data = pixels.ROLLED_D6["2023-11-17"][5]
    assert data == bytes([3, 1, 1])                     # the index a current die sends for 2
    assert parse_pixels(data, ERA["2023-11-17"]) == Rolled(5)
    assert parse_pixels(data, TODAY) == Rolled(2)


@pytest.mark.parametrize("vector", pixels.ROLL_STATES, ids=lambda v: v.name)
def test_every_roll_state(vector):
    expected = {"unknown": Unsettled("not settled"), "rolled": Rolled(3),
                "handling": Unsettled("in a hand", MOVING), "rolling": Unsettled("rolling", MOVING),
                "crooked": Unsettled("tilted"), "onFace": Unsettled("set down", RESTING)}
    assert parse_pixels(vector.data, TODAY) == expected[vector.means], vector.source


def test_crooked_is_rolled_where_the_makers_say_so():
    vector = pixels.CROOKED_FLAT
    assert parse_pixels(vector.data, ERA["2024-03"]) == Rolled(vector.means), vector.source
    assert parse_pixels(vector.data, TODAY) == Unsettled("tilted")       # fixed 2024-05-22
    assert parse_pixels(vector.data, Identity("d20", 20, pixels.FW_2024_03)) == \
        Unsettled("tilted")                                              # 6-LED dice only


def test_a_landing_before_the_die_said_what_it_is_is_not_a_value():
    assert parse_pixels(pixels.ROLLED_D6["today"][4]) == Unsettled("not identified yet")


@pytest.mark.parametrize("index, die_type, firmware, face", [
    (0, "d10", 0, 0), (9, "d10", 0, 9), (3, "d00", 0, 30), (19, "d20", 0, 20),
    (3, "d4", pixels.FW_2023_11_17, 2), (0, "d4", pixels.FW_2023_11_17, 1),
    (5, "d4", pixels.FW_2023_11_17, 4), (2, "d4", pixels.FW_TODAY, 3),
    (7, "unknown", 0, 7), (2, "d6pipped", pixels.FW_2023_11_17, 3)])
def test_face_from_index_as_pixels_js(index, die_type, firmware, face):
    assert face_from_index(index, die_type, firmware) == face


@pytest.mark.parametrize("vector", pixels.BATTERY_LEVELS, ids=lambda v: v.name)
def test_battery_levels_and_the_charger(vector):
    level, charging = vector.means
    assert parse_pixels(vector.data) == Battery(level, charging)


@pytest.mark.parametrize("data, why", [
    (b"", "an empty notification"),
    (bytes([3, 1]), "a RollState is 3 bytes, not 2"),
    (bytes([3, 1, 2, 0]), "a RollState is 3 bytes, not 4"),
    (bytes([3, 9, 0]), "roll state 9 is not one of 0-5"),
    (bytes([34, 101, 0]), "battery level 101 is over 100 %"),
    (bytes([34, 50]), "a BatteryLevel is 3 bytes, not 2"),
    (bytes([2, 15, 1]), "an IAmADie chunk runs past the message"),
    (bytes([2, 3, 1, 2, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0]), "an IAmADie without its version, die and status chunks"),
    (bytes([3]) * (MAX_NOTIFICATION + 1), f"longer than {MAX_NOTIFICATION} bytes"),
])
def test_pixels_garbage_is_named(data, why):
    reading = parse_pixels(data, TODAY)
    assert isinstance(reading, Garbage) and reading.reason == why


def test_other_pixels_messages_are_ignored():
    assert parse_pixels(bytes([4]) + bytes(40)) == Ignored("message type 4")   # telemetry


def test_makes_from_adverts():
    assert make_of("GoDice_1A2B3C_R_v03") == "godice"
    assert make_of("Pixel01", [PIXELS_SERVICE.upper()]) == "pixels"
    assert make_of("Headphones", ["0000180f-0000-1000-8000-00805f9b34fb"]) is None
    assert make_of(None) is None


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_any_bytes_give_a_reading_never_an_exception(data):
    for identity in (None, TODAY, ERA["2023-11-17"]):
        assert isinstance(parse_pixels(data, identity),
                          (Rolled, Unsettled, Identity, Battery, Ignored, Garbage))
    assert pixels_advert({0x0D39: data[:7]}, {"x": data[7:]}) is None or True


# -- GoDice: every frame kind, every shell --------------------------------------------------
godice_sdk = pytest.importorskip("godice", reason="the ble extra (godice) is not installed")
from hardware.dice.ble_godice import SHELLS, godice_frame  # noqa: E402
from hardware.dice.recorded import godice  # noqa: E402


def test_godice_frames_of_every_kind():
    assert godice_frame(godice.ROLL.data) == Unsettled("rolling", MOVING)
    for face, data in godice.STABLE_D6.items():
        assert godice_frame(data) == Rolled(face)
    assert godice_frame(godice.FAKE_STABLE.data) == Unsettled("moved")
    assert godice_frame(godice.TILT_STABLE.data) == Unsettled("tilted")
    assert godice_frame(godice.MOVE_STABLE.data) == Unsettled("set down", RESTING)
    assert godice_frame(godice.TAP.data) == Ignored("a tap")
    assert godice_frame(godice.DOUBLE_TAP.data) == Ignored("a double tap")
    for vector in godice.CHARGING:
        assert godice_frame(vector.data) == Charging(vector.means)
    for vector in godice.BATTERY:
        assert godice_frame(vector.data) == Battery(vector.means)
    for vector in godice.COLOURS:
        assert godice_frame(vector.data) == Colour(vector.means)


def test_a_godice_in_its_d20_shell_is_read_by_that_shell():
    for vector in (godice.STABLE_D20_17, godice.STABLE_D20_4):
        assert godice_frame(vector.data, "d20") == Rolled(vector.means["d20"]), vector.source
        assert godice_frame(vector.data, "d6") == Rolled(vector.means["d6"])   # the old misread


@pytest.mark.parametrize("shell", SHELLS)
def test_every_face_of_every_shell(shell):
    frames = godice.shell_frames(shell)
    assert {godice_frame(data, shell) for data in frames.values()} == \
        {Rolled(face) for face in frames}


@pytest.mark.parametrize("data", [b"", b"S", b"S\x00", b"TS\x00\x00", b"Bat", b"Bat\xff",
                                  b"Col\x09", b"Char\x02", b"X\x01\x02\x03", b"RR", b"S" * 300])
def test_godice_garbage_is_named(data):
    assert isinstance(godice_frame(data), Garbage)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.sampled_from(SHELLS))
def test_fuzz_any_godice_bytes_give_a_reading(data, shell):
    assert isinstance(godice_frame(data, shell),
                      (Rolled, Unsettled, Battery, Charging, Colour, Ignored, Garbage))


def test_a_link_reads_each_frame_as_it_comes_and_taps_quietly(caplog):
    """Through a GoDice Link on the fake air: the colour and battery asked on connect, each
    frame read in the callback, Tap and DTap not counted as garbage nor logged."""
    from hardware.dice.ble_fake import FakeDie, FakeTransport
    from hardware.dice.ble_link import Link

    readings: list = []
    die = FakeDie("AA:BB:CC:DD:EE:FF", "godice", battery=32)

    async def run():
        link = Link(FakeTransport([die]), die.address, "godice", readings.append)
        await link.open()
        for frame in godice.A_ROLL + [godice.TAP.data, godice.DOUBLE_TAP.data, b"S"]:
            die.send(frame)
        await asyncio.sleep(0.05)
        await link.close()
        return link.garbage

    with caplog.at_level("WARNING"):
        garbage = asyncio.run(run())
    assert die.written == [godice.ASK_COLOUR.data, godice.ASK_BATTERY.data]
    assert readings[:3] == [Identity("d6"), Colour("red"), Battery(32)]
    assert readings[3:7] == [Unsettled("rolling", MOVING), Unsettled("moved"),
                             Unsettled("rolling", MOVING), Rolled(4)]
    assert readings[7:9] == [Ignored("a tap"), Ignored("a double tap")]
    assert garbage == 1                                  # b"S" alone, and only it is logged
    assert [r.getMessage()[-2:] for r in caplog.records] == ["53"]


# -- no Bluetooth: bleak's own exceptions, one reason each ------------------------------------
@pytest.mark.parametrize("reason, line", list(REASONS.items()))
def test_bleaks_reasons_are_one_line_each(reason, line):
    pytest.importorskip("bleak")
    from hardware.dice.ble_link import absent_reason

    assert absent_reason(air.bleak_error(reason)) == line


def test_no_system_bus_is_named():
    from hardware.dice.ble_link import absent_line, absent_reason

    assert absent_line(absent_reason(air.NO_SYSTEM_BUS)) == (
        "Bluetooth is not available on this machine: no system bus (D-Bus is not running)")
    assert absent_reason(TimeoutError("device not found")) is None     # a die away: retried
