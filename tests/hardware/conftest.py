"""Fixtures for the hardware tests: explicit mock pin factories, a controllable clock, and a
bounded wait (poll with a deadline) for things that happen on gpiozero's threads."""

import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def pwm_factory():
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.reset()


class FakeClock:
    """A monotonic clock that moves only when the test says so."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def wait_until():
    """wait_until(predicate, timeout) -> bool: True as soon as predicate() holds."""

    def wait(predicate, timeout: float = 2.0) -> bool:
        deadline = time.monotonic() + timeout
        tick = threading.Event()
        while not predicate():
            if time.monotonic() > deadline:
                return False
            tick.wait(0.005)
        return True

    return wait
