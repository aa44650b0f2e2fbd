"""Pairing smart dice on the Hardware screen: Scan lists the dice on the (fake) air, whose
adverts are the makers' recorded ones, by name, make, type, colour (a Pixels' colorway) and
battery; Pair, the game die, the faces and a GoDice's shell are edited in the draft and saved
to hardware.toml by address through the same check as every key; the devices restart and
read the paired dice; no Bluetooth is one line on the panel."""

from __future__ import annotations

import pytest

from hardware.config import load_config
from test_ui_hw_settings import open_screen, scroll_to
from ui_helpers import both_sizes, dialogs, frames, on_hardware, tap, tap_title, wait_for

pytest.importorskip("godice", reason="the ble extra (godice) is not installed")

WAIT = 8.0
PIXEL, GODICE = "C4:5E:11:22:33:01", "C4:5E:11:22:33:02"


@pytest.fixture
def air(app, tmp_path, monkeypatch):
    """(app, config path, dice): the app without --demo on an empty config in a tmp file and
    two smart dice on the fake air (an onyx black Pixels D6 at 15 %, a red GoDice)."""
    from hardware.dice.ble_fake import FakeDie, FakeTransport

    dice = {PIXEL: FakeDie(PIXEL, "pixels", battery=15),
            GODICE: FakeDie(GODICE, "godice", battery=90, colour=1)}
    app.devices.stop()
    monkeypatch.setattr(app, "demo", False)
    monkeypatch.setattr(app.devices, "ble_backoff", (0.05, 0.2))
    monkeypatch.setattr(app.devices.smart_dice, "transport", FakeTransport(list(dice.values())))
    path = tmp_path / "conf" / "hardware.toml"
    with on_hardware(app, path):
        yield app, path, dice


def scan(screen):
    panel = screen.ids.smart_dice
    scroll_to(screen, panel)
    tap_title("Scan", panel)
    assert wait_for(lambda: not panel.scanning, WAIT)
    frames()
    return panel


def row_of(panel, address):
    return next(r for r in panel.ids.rows.children if r.address == address)


def test_scan_pair_assign_and_save_by_address(air):
    app, path, dice = air
    screen = open_screen(app)
    panel = scan(screen)
    assert panel.note == "2 dice found, 2 not paired yet."
    texts = sorted(r.text for r in panel.ids.rows.children)
    assert texts == ["GoDice_3302_R_v03\nGoDice · red",
                     "Pixel01\nPixels · D6 · onyx black · battery 15 % (low)"]
    both_sizes("hardware_smart_dice_found", before=lambda: scroll_to(screen, panel))

    tap_title("Pair", row_of(panel, PIXEL))
    tap_title("Pair", row_of(panel, GODICE))
    tap(next(b for b in row_of(panel, PIXEL).walk() if getattr(b, "title", "") == "any die"))
    (choice,) = dialogs()
    both_sizes("hardware_smart_dice_choice")
    tap_title("Magic die 1", choice)
    assert not dialogs()
    godice = row_of(panel, GODICE)
    tap_title("numbers", godice)                    # stickered: Cauldron Quest's action die A
    godice = row_of(panel, GODICE)
    assert godice.faces == "action die A"
    tap(next(b for b in godice.walk() if getattr(b, "title", "") == "any die"))
    tap_title("Action die A", dialogs()[0])
    assert "Not saved yet" in screen.message
    assert row_of(panel, GODICE).shell == "D6 shell" and row_of(panel, PIXEL).shell == ""
    tap_title("D6 shell", row_of(panel, GODICE))     # the shell it wears, beside it
    assert row_of(panel, GODICE).shell == "D20 shell"
    assert screen.message.startswith("GoDice_3302_R_v03 wears its D20 shell.")
    for _ in range(7):                               # round all seven shells, to the D20
        tap_title(row_of(panel, GODICE).shell, row_of(panel, GODICE))
    assert row_of(panel, GODICE).shell == "D20 shell"

    assert screen.save(), screen.message
    assert "2 smart dice" in screen.message
    ble = load_config(path).ble
    assert [(d.address, d.make, d.die) for d in ble.dice] == [
        (PIXEL, "pixels", "magic1"), (GODICE, "godice", "action_a")]
    assert ble.die(GODICE).face_names == ("bottle",) * 4 + ("hat",) * 2
    assert (ble.die(GODICE).shell, ble.die(PIXEL).shell) == ("d20", "d6")
    assert '[ble.dice."C4:5E:11:22:33:01"]' in path.read_text(encoding="utf-8")

    # the devices restarted on the file: the paired dice connect and show on the panel
    assert wait_for(lambda: app.devices.smart_dice.ok and "connected" in row_of(
        panel, PIXEL).text and app.devices.smart_dice.battery, WAIT), app.dice_status
    frames()                                         # the rows follow the dice by themselves
    assert row_of(panel, PIXEL).text == \
        "Pixel01\nPixels · D6 · onyx black · battery 15 % (low) · connected"
    assert panel.note == "2 dice found, 0 not paired yet."
    assert row_of(panel, PIXEL).die == "Magic die 1"
    assert screen.check() is not None and screen.message == \
        "Check passed: 2 smart dice."
    both_sizes("hardware_smart_dice_paired", before=lambda: scroll_to(screen, panel))

    # the screen's test: a roll lights the dice row by the die's name, the game does not play
    dice[PIXEL].roll(3)
    assert wait_for(lambda: screen.message == "die Pixel01: 3  (from smart die)", WAIT), \
        screen.message

    tap_title("Forget", row_of(panel, GODICE))
    assert screen.save()
    assert [d.address for d in load_config(path).ble.dice] == [PIXEL]


def test_no_bluetooth_is_one_line_on_the_panel(air, monkeypatch):
    from hardware.dice.ble_fake import FakeTransport

    app, _path, _dice = air
    from hardware.dice.recorded import air

    monkeypatch.setattr(app.devices.smart_dice, "transport",
                        FakeTransport(error=air.NO_SYSTEM_BUS))
    screen = open_screen(app)
    panel = scan(screen)
    assert panel.note == ("Bluetooth is not available on this machine: no system bus (D-Bus "
                          "is not running). Dice can still be entered by touch.")
    assert list(panel.ids.rows.children) == []


def test_a_bad_pairing_in_the_file_is_named_by_check(air):
    app, path, _dice = air
    path.parent.mkdir(exist_ok=True)
    path.write_text(f'[ble.dice."{PIXEL}"]\nmake = "pixels"\ndie = "magic1"\n'
                    f'[ble.dice."{GODICE}"]\nmake = "godice"\ndie = "magic1"\n',
                    encoding="utf-8")
    screen = open_screen(app)
    assert "magic1 is already the die at C4:5E:11:22:33:01" in screen.message
    assert screen.check() is None and "Nothing was saved" in screen.message
