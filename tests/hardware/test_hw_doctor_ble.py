"""``companion doctor`` reports the paired smart dice: each by name, make, game die and a
GoDice's shell, then whether it answers (connected, what it is, its battery, low or not), a
die that is not six-sided as a warning, without Bluetooth one warning line for every die
(bleak's own exceptions, and this machine's own missing system bus), without the ble extra
the command to install it."""

from __future__ import annotations

import io

import pytest

from hardware.config import parse_config
from hardware.doctor import Doctor
from hardware.dice.ble_fake import FakeDie, FakeTransport
from tests.hardware.bluetooth_words import REASONS

pytest.importorskip("godice", reason="the ble extra (godice) is not installed")

PIXEL, GODICE, AWAY = "C4:5E:11:22:33:01", "C4:5E:11:22:33:02", "C4:5E:11:22:33:03"
CONFIG = {"ble": {"low_battery": 20, "dice": {
    PIXEL: {"make": "pixels", "name": "Pixel01", "die": "magic1"},
    GODICE: {"make": "godice", "name": "GoDice_2", "die": "action_a",
             "face_names": ["bottle", "bottle", "bottle", "bottle", "hat", "hat"]},
    AWAY: {"make": "pixels", "name": "Pixel03"}}}}


def run(transport, config=CONFIG, wait=1.0):
    out = io.StringIO()
    doctor = Doctor(parse_config(config), source="t.toml", out=out, gl=False, dice_wait=wait)
    doctor.ble_transport = transport
    code = doctor.run()
    text = out.getvalue()
    return code, text[text.index("Smart dice"):text.index("User groups")]


def test_each_paired_die_is_reported_with_its_battery():
    away = FakeDie(AWAY, "pixels")
    away.reachable = False
    air = FakeTransport([FakeDie(PIXEL, "pixels", battery=64), FakeDie(GODICE, "godice",
                                                                       battery=12), away])
    code, text = run(air)
    assert code == 0                      # a die out of range is a warning, not a failure
    assert f"info  Pixel01 (pixels, {PIXEL}): magic1" in text
    assert "GoDice_2 (godice, C4:5E:11:22:33:02, D6 shell): action_a, faces bottle, bottle, " \
           "bottle, bottle, hat, hat" in text
    assert "ok    Pixel01: connected, D6, battery 64 %" in text
    assert "WARN  GoDice_2: connected, D6, battery 12 % (low)" in text
    assert "WARN  Pixel03: not connected within 1 s (not reachable (TimeoutError: device " \
           "C4:5E:11:22:33:03 not found)): awake (roll it once)? in range?" in text


@pytest.mark.parametrize("error, reason", [
    *[(r, REASONS[r]) for r in ("NO_BLUETOOTH", "POWERED_OFF")],
    ("no system bus", "no system bus (D-Bus is not running)"),
    ("DENIED_BY_SYSTEM", REASONS["DENIED_BY_SYSTEM"])])
def test_no_bluetooth_is_one_warning(error, reason):
    from hardware.dice.recorded import air

    pytest.importorskip("bleak")
    raised = air.NO_SYSTEM_BUS if error == "no system bus" else air.bleak_error(error)
    code, text = run(FakeTransport(error=raised))
    assert code == 0
    assert text.count("WARN") == 1 and "Error" not in text
    assert (f"WARN  Bluetooth is not available on this machine: {reason}; enter dice by "
            "touch\n") in text


@pytest.mark.skipif(__import__("os").path.exists("/run/dbus/system_bus_socket"),
                    reason="this machine has a system bus")
def test_this_machine_without_a_system_bus_is_one_line(monkeypatch):
    """Through the real bleak: it raises a bare FileNotFoundError per die and per scan."""
    import hardware.doctor_ble as doctor_ble

    monkeypatch.setattr(doctor_ble, "in_bluetooth_group", lambda: True)
    monkeypatch.setattr(doctor_ble, "_missing_modules", lambda ble: [])
    code, text = run(None, wait=2.0)
    assert code == 0 and text.count("WARN") == 1 and "FileNotFoundError" not in text
    assert ("WARN  Bluetooth is not available on this machine: no system bus (D-Bus is not "
            "running); enter dice by touch") in text


def test_a_die_that_is_not_six_sided_is_a_warning():
    d20 = FakeDie(AWAY, "pixels", die_type="d20")
    code, text = run(FakeTransport([FakeDie(PIXEL, "pixels"), FakeDie(GODICE, "godice"), d20]))
    assert ("WARN  Pixel03: connected, a D20: the games roll six-sided dice, so its rolls "
            "are refused") in text


def test_none_paired_says_how(monkeypatch):
    code, text = run(FakeTransport(), config={})
    assert "info  none paired (pair GoDice or Pixels on the Hardware screen" in text


def test_without_the_extra_the_doctor_says_what_to_install(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("bleak", "godice") else real(name, *a))
    code, text = run(None)
    assert code == 1
    assert ("FAIL  the ble extra is not installed (no bleak, godice): pip install "
            "'table-companion[ble]'") in text


def test_a_user_outside_the_bluetooth_group_is_warned(monkeypatch):
    import hardware.doctor_ble as doctor_ble

    monkeypatch.setattr(doctor_ble, "in_bluetooth_group", lambda: False)
    monkeypatch.setattr(doctor_ble, "_missing_modules", lambda ble: [])
    monkeypatch.setattr(type(parse_config(CONFIG).ble), "transport", lambda self: None)
    monkeypatch.setattr("hardware.dice.ble_link.BleakTransport",
                        lambda: FakeTransport(absent="No Bluetooth adapters found."))
    code, text = run(None, wait=0.3)
    assert "WARN  not in the bluetooth group: BlueZ answers only its members" in text
