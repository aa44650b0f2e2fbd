"""The buzzer: cues on a mock pin, non-blocking, and its config key."""

import pytest
from gpiozero import Buzzer

from hardware import buzzer as buzzer_module
from hardware.buzzer import CUES, TableBuzzer, cue_seconds
from hardware.config import DEMO_CONFIG, config_to_data, load_config, parse_config
from hardware.errors import ConfigError, HardwareError

PIN = 12


def beeps(pin) -> int:
    """How many times the pin went high (rising edges) in its recorded history."""
    levels = [bool(s.state) for s in pin.states]
    return sum(1 for before, now in zip(levels, levels[1:]) if now and not before)


@pytest.fixture
def buzzer(factory):
    with TableBuzzer(PIN, pin_factory=factory) as buzzer:
        yield buzzer


@pytest.fixture
def fast_cues(monkeypatch):
    """Cues a few milliseconds long, same shapes (1 beep for turn, 2 for refused)."""
    monkeypatch.setitem(CUES, "turn", (0.01, 0.01, 1))
    monkeypatch.setitem(CUES, "refused", (0.01, 0.01, 2))


def test_silent_at_start(buzzer, factory):
    pin = factory.pin(PIN)
    assert pin.state == 0 and beeps(pin) == 0
    assert not buzzer.is_active and not buzzer.closed


@pytest.mark.parametrize("kind, count", [("turn", 1), ("refused", 2)])
def test_a_cue_is_that_many_short_beeps_then_silence(buzzer, factory, fast_cues, wait_until,
                                                     kind, count):
    pin = factory.pin(PIN)
    buzzer.beep(kind)
    assert wait_until(lambda: beeps(pin) == count and pin.state == 0 and not buzzer.is_active)
    assert beeps(pin) == count


def test_beep_returns_while_the_cue_still_sounds(buzzer, factory, monkeypatch, wait_until):
    monkeypatch.setitem(CUES, "refused", (30.0, 30.0, 2))   # would block a minute if it waited
    pin = factory.pin(PIN)
    buzzer.beep("refused")                                   # returns at once ...
    assert wait_until(lambda: pin.state == 1)                # ... and the buzzer is sounding
    buzzer.close()                                           # close cuts it, pin left low
    assert pin.state == 0 and buzzer.closed


def test_a_new_cue_cuts_the_old_one_short(buzzer, factory, monkeypatch, wait_until):
    monkeypatch.setitem(CUES, "refused", (30.0, 30.0, 2))
    monkeypatch.setitem(CUES, "turn", (0.01, 0.01, 1))
    pin = factory.pin(PIN)
    buzzer.beep("refused")
    assert wait_until(lambda: pin.state == 1)
    buzzer.beep("turn")
    assert wait_until(lambda: beeps(pin) == 2 and pin.state == 0 and not buzzer.is_active)


def test_real_cue_lengths_are_short():
    assert cue_seconds("turn") < 0.25 and cue_seconds("refused") < 0.5
    assert CUES["turn"][2] == 1 and CUES["refused"][2] == 2


def test_unknown_cue_and_after_close(buzzer, factory):
    with pytest.raises(ValueError, match="unknown buzzer cue 'tada'; known: turn, refused"):
        buzzer.beep("tada")
    buzzer.close()
    buzzer.beep("turn")           # closed: nothing, no error
    buzzer.close()                # twice is fine
    assert beeps(factory.pin(PIN)) == 0
    with pytest.raises(ValueError):
        buzzer.beep("tada")       # a typo is still a typo


def test_pin_in_use_is_a_hardware_error_naming_the_key(factory):
    taken = Buzzer(PIN, pin_factory=factory)
    try:
        with pytest.raises(HardwareError, match=r"buzzer.pin: cannot open GPIO12"):
            TableBuzzer(PIN, pin_factory=factory)
    finally:
        taken.close()


def test_from_config(factory):
    assert TableBuzzer.from_config(parse_config({}), pin_factory=factory) is None
    config = parse_config({"buzzer": {"pin": 13}})
    with TableBuzzer.from_config(config, pin_factory=factory) as buzzer:
        assert buzzer.pin == 13
        assert repr(buzzer) == "<TableBuzzer GPIO13>"
    assert repr(buzzer) == "<TableBuzzer GPIO13 closed>"


def test_the_beeps_sound_on_a_background_thread(buzzer, factory, fast_cues, wait_until):
    """The cue runs on gpiozero's blink thread: the caller's thread never switches it on."""
    import threading

    switched_on = []
    real = buzzer_module.Buzzer._write

    def spy(self, value):
        if value:
            switched_on.append(threading.current_thread())
        return real(self, value)

    buzzer._buzzer._write = spy.__get__(buzzer._buzzer)
    buzzer.beep("refused")
    assert wait_until(lambda: len(switched_on) == 2 and not buzzer.is_active)
    assert threading.current_thread() not in switched_on


# -- config ---------------------------------------------------------------------------------
def test_config_buzzer_pin():
    config = parse_config({"buzzer": {"pin": 12}})
    assert config.buzzer == 12
    assert not config.is_empty                  # a buzzer is a GPIO device
    assert config.buttons == {} and config.leds == {}
    assert parse_config({}).buzzer is None
    assert DEMO_CONFIG.buzzer is None           # the demo table has no buzzer: nothing sounds


def test_a_turn_limit_needs_no_buzzer_pin_since_the_screen_sounds_it_too():
    config = parse_config({"buzzer": {"turn_limit_s": 90}})
    assert config.buzzer is None and config.turn_limit_s == 90 and config.is_empty
    assert config_to_data(config)["buzzer"] == {"turn_limit_s": 90}
    assert parse_config(config_to_data(config)) == config
    assert "buzzer" not in config_to_data(parse_config({"buzzer": {}}))


@pytest.mark.parametrize("data, message", [
    ({"buzzer": {"pin": 2}}, "buzzer.pin: pin 2 is reserved for I2C (SDA)"),
    ({"buzzer": {"pin": 15}}, "buzzer.pin: pin 15 is reserved for UART (RXD)"),
    ({"buzzer": {"pin": 28}}, "buzzer.pin: pin 28 is not a GPIO pin (use BCM 2-27)"),
    ({"buzzer": {"pin": "12"}}, "buzzer.pin: pin must be a BCM GPIO number, like 17; got '12'"),
    ({"buzzer": {"pin": True}}, "buzzer.pin: pin must be a BCM GPIO number"),
    ({"buzzer": {"pin": 12, "volume": 3}}, "buzzer.volume: unknown key; allowed: pin"),
    ({"buzzer": 12}, "buzzer: expected a table ([buzzer]), got 12"),
    ({"seats": {"1": {"claim": 12}}, "buzzer": {"pin": 12}},
     "buzzer.pin: pin 12 is already used by seat1.claim"),
    ({"seats": {"1": {"led": 12}}, "buzzer": {"pin": 12}},
     "buzzer.pin: pin 12 is already used by seat1.led"),
    ({"buttons": {"undo": 12}, "buzzer": {"pin": 12}},
     "buzzer.pin: pin 12 is already used by buttons.undo"),
])
def test_config_errors_name_the_key(data, message):
    with pytest.raises(ConfigError) as caught:
        parse_config(data)
    assert str(caught.value).startswith(message), str(caught.value)


def test_config_file_error_names_file_and_key(tmp_path):
    path = tmp_path / "hardware.toml"
    path.write_text("[seats.1]\nclaim = 17\n\n[buzzer]\npin = 17\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"hardware.toml: buzzer.pin: pin 17 is already used "
                                          r"by seat1.claim"):
        load_config(path)


def test_buzzer_section_is_listed_for_unknown_sections():
    with pytest.raises(ConfigError, match="allowed: buttons, seats, options, dice, buzzer"):
        parse_config({"beeper": {"pin": 12}})


# -- companion doctor -----------------------------------------------------------------------
def test_doctor_opens_and_reports_the_buzzer(factory):
    import io

    from hardware.doctor import Doctor

    out = io.StringIO()
    config = parse_config({"seats": {"1": {"claim": 17}}, "buzzer": {"pin": PIN}})
    code = Doctor(config, source="t.toml", pin_factory=factory, out=out, gl=False).run()
    text = out.getvalue()
    assert code == 0, text
    assert "t.toml: 1 button, 0 LEDs (seats 1), buzzer, no dice tray" in text
    assert "ok    buzzer       buzzer  GPIO12 (pin 32): opened, silent" in text
    assert beeps(factory.pin(PIN)) == 0          # not interactive: checked, not sounded


def test_doctor_buzzer_alone_needs_a_pin_factory(monkeypatch):
    import io

    from hardware import doctor as doctor_module
    from hardware.doctor import Doctor

    out = io.StringIO()
    config = parse_config({"buzzer": {"pin": PIN}})
    doctor = Doctor(config, source="t.toml", out=out, gl=False)
    monkeypatch.setattr(doctor, "check_pin_factory", lambda: None)   # no GPIO on this machine
    monkeypatch.setattr(doctor_module, "missing_groups", lambda: [])
    assert doctor.run() == 1
    assert "FAIL  buzzer  buzzer  GPIO12 (pin 32): no pin factory" in out.getvalue()


def test_doctor_buzzer_on_a_pin_in_use_fails(factory):
    import io

    from hardware.doctor import Doctor

    taken = Buzzer(PIN, pin_factory=factory)
    try:
        out = io.StringIO()
        code = Doctor(parse_config({"buzzer": {"pin": PIN}}), source="t", pin_factory=factory,
                      out=out, gl=False).run()
    finally:
        taken.close()
    assert code == 1
    assert "FAIL  buzzer  buzzer  GPIO12 (pin 32): buzzer.pin: cannot open GPIO12" \
        in out.getvalue()


def test_doctor_interactive_sounds_one_beep_then_two(factory, fast_cues):
    import io

    from hardware.doctor import Doctor

    out = io.StringIO()
    code = Doctor(parse_config({"buzzer": {"pin": PIN}}), source="t", pin_factory=factory,
                  out=out, gl=False, interactive=True).run()
    text = out.getvalue()
    assert code == 0, text
    assert "buzzer: one beep, then two: listen" in text
    assert "info  buzzer on GPIO12 (pin 32) sounded one beep, then two" in text
    assert beeps(factory.pin(PIN)) == 3
