"""Without --demo the buttons come from the config and GPIOZERO_PIN_FACTORY; a bad config or
no GPIO is said on the home screen, and the app goes on by touch."""

from __future__ import annotations

import pytest

from ui_helpers import both_sizes, frames, texts


@pytest.fixture
def real_mode(app, monkeypatch):
    """The shared app as if started without --demo; demo mode is restored afterwards."""
    app.devices.stop()
    monkeypatch.setattr(app, "demo", False)
    yield app
    app.devices.stop()
    app.hardware_path = None
    app.demo = True
    app.devices.start()
    assert app.devices.buttons is not None and not app.hardware_problem


def test_a_config_error_is_shown_and_touch_still_works(real_mode, tmp_path):
    app = real_mode
    bad = tmp_path / "hardware.toml"
    bad.write_text("[seats.1]\nclaim = 2\n")
    app.hardware_path = str(bad)
    app.devices.start()
    assert app.devices.buttons is None and app.key_labels == {}
    assert "seat1.claim: pin 2 is reserved for I2C (SDA)" in app.hardware_problem
    assert "Touch still works" in app.hardware_problem
    app.go_home()
    frames()
    assert app.hardware_problem in texts(app.root)
    both_sizes("home_hardware_problem")
    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None


def test_no_gpio_on_this_machine_is_shown(real_mode, tmp_path, monkeypatch):
    import gpiozero

    app = real_mode
    good = tmp_path / "hardware.toml"
    good.write_text("[seats.1]\nclaim = 17\n")
    app.hardware_path = str(good)
    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no_such_factory")
    app.devices.start()
    assert app.devices.buttons is None
    assert app.hardware_problem.startswith("Buttons unavailable:")


def test_a_missing_default_config_means_touch_only(real_mode, monkeypatch, tmp_path):
    app = real_mode
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    app.devices.start()
    assert app.devices.buttons is None and not app.hardware_problem
    assert app.hardware_status == "No buttons configured: play by touch."


def test_without_hardware_the_user_config_dir_file_is_used(real_mode, monkeypatch, tmp_path):
    import gpiozero
    from gpiozero.pins.mock import MockFactory

    app = real_mode
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr(gpiozero.Device, "pin_factory", MockFactory())
    default = tmp_path / "table-companion" / "hardware.toml"
    default.parent.mkdir()
    default.write_text("[buttons]\nmenu = 10\n[seats.1]\nclaim = 17\n")
    assert app.devices.config_path() == default
    app.devices.start()
    assert not app.hardware_problem
    assert app.devices.buttons is not None and app.devices.buttons.ids == ("menu", "seat1.claim")
    default.write_text("[seats.1]\nclaim = 99\n")          # a broken default file is said too
    app.devices.start()
    assert app.devices.buttons is None
    assert "seat1.claim: pin 99 is not a GPIO pin" in app.hardware_problem
    assert str(default) in app.hardware_problem
