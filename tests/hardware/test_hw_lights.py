import pytest
from gpiozero import LED

from hardware.config import parse_config
from hardware.errors import HardwareError
from hardware.lights import SeatLights

PINS = {1: 23, 2: 24, 3: 25}


def states(factory):
    return {seat: factory.pin(pin).state for seat, pin in PINS.items()}


@pytest.fixture
def lights(pwm_factory):
    with SeatLights(PINS, pin_factory=pwm_factory, fade_s=0.05) as lights:
        yield lights


def test_all_off_at_start(lights, pwm_factory):
    assert lights.seats == (1, 2, 3)
    assert states(pwm_factory) == {1: 0, 2: 0, 3: 0}
    assert lights.shown is None


def test_steady_light_on_the_awaited_seat(lights, pwm_factory):
    lights.show(2, pulse=False)
    assert states(pwm_factory) == {1: 0, 2: 1.0, 3: 0}
    lights.show(3, pulse=False)
    assert states(pwm_factory) == {1: 0, 2: 0, 3: 1.0}
    assert lights.shown == 3


def test_pulse_fades_the_awaited_seat_only(lights, pwm_factory, wait_until):
    lights.fade_s = 0.2  # long enough for in-between steps at gpiozero's 25 fps
    lights.show(2, pulse=False)
    lights.show(1)
    pin = pwm_factory.pin(23)
    assert wait_until(lambda: 0 < pin.state < 1), "seat 1 is not fading"
    assert wait_until(lambda: pin.state > 0.5)
    assert pwm_factory.pin(24).state == 0 and pwm_factory.pin(25).state == 0
    assert lights.shown == 1


def test_none_or_a_seat_without_led_turns_all_off(lights, pwm_factory):
    lights.show(1)
    lights.show(None)
    assert states(pwm_factory) == {1: 0, 2: 0, 3: 0}
    lights.show(3, pulse=False)
    lights.show(5)
    assert states(pwm_factory) == {1: 0, 2: 0, 3: 0}


def test_showing_again_does_not_restart(lights, pwm_factory):
    lights.show(2, pulse=False)
    before = len(pwm_factory.pin(24).states)
    lights.show(2, pulse=False)
    assert len(pwm_factory.pin(24).states) == before


def test_from_config(pwm_factory):
    config = parse_config({"seats": {"4": {"claim": 17, "led": 18}}})
    with SeatLights.from_config(config, pin_factory=pwm_factory) as lights:
        assert lights.seats == (4,)
        lights.show(4, pulse=False)
        assert pwm_factory.pin(18).state == 1.0


def test_without_pwm_falls_back_to_blinking(factory, wait_until):
    with SeatLights({1: 23}, pin_factory=factory, fade_s=0.02) as lights:
        lights.show(1, pulse=False)
        assert factory.pin(23).state is True
        lights.show(None)
        assert factory.pin(23).state is False
        lights.show(1)
        assert wait_until(lambda: factory.pin(23).state is True)
        assert wait_until(lambda: factory.pin(23).state is False)


def test_close_turns_off_and_releases(pwm_factory):
    lights = SeatLights(PINS, pin_factory=pwm_factory)
    lights.show(1, pulse=False)
    lights.close()
    lights.close()
    assert lights.seats == ()
    assert states(pwm_factory) == {1: 0, 2: 0, 3: 0}
    LED(23, pin_factory=pwm_factory).close()


def test_pin_in_use_is_a_hardware_error(pwm_factory):
    taken = LED(24, pin_factory=pwm_factory)
    try:
        with pytest.raises(HardwareError, match=r"^seat2\.led: cannot open GPIO24"):
            SeatLights(PINS, pin_factory=pwm_factory)
    finally:
        taken.close()
    LED(23, pin_factory=pwm_factory).close()  # seat 1's LED was released
