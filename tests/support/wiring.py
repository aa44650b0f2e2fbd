"""The seats' wiring of docs/wiring.md as hardware.toml sections, for the tests that write a
hardware file: one wiring to read, the pins a test changes said where it changes them."""

from __future__ import annotations

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
