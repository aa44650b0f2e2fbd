"""``companion doctor`` reports the paired smart dice: each by name, make and game die, then
whether it answers (connected, its battery, low or not), without Bluetooth one warning line,
without the ble extra the command to install it."""

from __future__ import annotations

import io

import pytest

from hardware.config import parse_config
from hardware.doctor import Doctor
from hardware.dice.ble_fake import FakeDie, FakeTransport

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
    assert "GoDice_2 (godice, C4:5E:11:22:33:02): action_a, faces bottle, bottle, bottle, " \
           "bottle, hat, hat" in text
    assert "ok    Pixel01: connected, battery 64 %" in text
    assert "WARN  GoDice_2: connected, battery 12 % (low)" in text
    assert "WARN  Pixel03: not connected within 1 s (not reachable (TimeoutError: device " \
           "C4:5E:11:22:33:03 not found)): awake (roll it once)? in range?" in text


def test_no_bluetooth_is_one_warning():
    code, text = run(FakeTransport(absent="No Bluetooth adapters found."))
    assert code == 0
    assert text.count("WARN") == 1
    assert ("WARN  Bluetooth not available: no Bluetooth adapter found; enter dice by touch "
            "(the table plays on with touch entry)") in text


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
