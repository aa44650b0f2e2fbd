"""The seats' wiring of docs/wiring.md as hardware.toml sections, for the tests that write a
hardware file: one wiring to read, the pins a test changes said where it changes them; and a
button pressed on gpiozero's mock pins, from another thread as its callbacks come."""

from __future__ import annotations

import threading
import time
from typing import Any

#: claim, so be it, pass: each seat's BCM pins (docs/wiring.md), and its LED's
PINS = {1: (17, 27, 22), 2: (5, 6, 13), 3: (19, 26, 21)}
LEDS = {1: 23, 2: 24, 3: 25}


def seat(n: int, pins: tuple[int, int, int] | None = None, led: bool = False) -> str:
    """Seat ``n``'s section: its buttons on ``pins`` (docs/wiring.md's by default), with its
    LED if ``led``."""
    claim, so_be_it, passes = pins or PINS[n]
    text = f"[seats.{n}]\nclaim = {claim}\nso_be_it = {so_be_it}\npass = {passes}\n"
    return text + (f"led = {LEDS[n]}\n" if led else "")


def hardware_toml(*sections: str) -> str:
    """A hardware.toml of these sections, a blank line between them."""
    return "\n".join(sections)


def press(factory: Any, pin: int, hold: float = 0.0) -> None:
    """Press the mock button on ``pin``, keep it down ``hold`` seconds and let go, on another
    thread; returns once it is let go (5 s at most)."""
    def run() -> None:
        factory.pin(pin).drive_low()
        time.sleep(hold)
        factory.pin(pin).drive_high()

    worker = threading.Thread(target=run, name="gpio-test")
    worker.start()
    worker.join(5)
