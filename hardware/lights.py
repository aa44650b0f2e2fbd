"""Seat LEDs: show the table whose answer is awaited.

One LED per seat that has one. The owner of the game state calls :meth:`SeatLights.show` on
the main thread after each change; the fading itself runs on gpiozero's background thread.
"""

from __future__ import annotations

from typing import Mapping

from gpiozero import LED, PWMLED
from gpiozero.exc import GPIOZeroError, PinPWMUnsupported

from .closing import ClosedOnExit
from .config import HardwareConfig
from .errors import HardwareError


class SeatLights(ClosedOnExit):
    """Seat number -> LED. :meth:`show` pulses the awaited seat and turns the others off.

    Uses ``PWMLED`` so the awaited seat breathes; on a pin factory without PWM it falls back
    to a plain ``LED`` that blinks instead.
    """

    def __init__(self, leds: Mapping[int, int], *, pin_factory=None,
                 fade_s: float = 0.6) -> None:
        self.fade_s = fade_s
        self._leds: dict[int, PWMLED | LED] = {}
        self._shown: tuple[int | None, bool] = (None, False)
        try:
            for seat, pin in sorted(leds.items()):
                self._leds[seat] = self._open(seat, pin, pin_factory)
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_config(cls, config: HardwareConfig, *, pin_factory=None,
                    fade_s: float = 0.6) -> "SeatLights":
        return cls(config.seat_leds(), pin_factory=pin_factory, fade_s=fade_s)

    @staticmethod
    def _open(seat: int, pin: int, pin_factory) -> PWMLED | LED:
        try:
            try:
                return PWMLED(pin, pin_factory=pin_factory)
            except PinPWMUnsupported:
                return LED(pin, pin_factory=pin_factory)
        except (GPIOZeroError, OSError) as exc:
            raise HardwareError(f"seat{seat}.led: cannot open GPIO{pin}: {exc}") from exc

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats that have an LED."""
        return tuple(self._leds)

    @property
    def shown(self) -> int | None:
        """The seat last shown, or None."""
        return self._shown[0]

    def show(self, turn_seat: int | None, pulse: bool = True) -> None:
        """Light ``turn_seat`` (pulsing, or steady if not ``pulse``); turn every other seat
        off. ``None``, or a seat without an LED, turns all off. Showing the same thing again
        does nothing, so a steady pulse is not restarted on every state change."""
        if (turn_seat, pulse) == self._shown:
            return
        for seat, led in self._leds.items():
            if seat != turn_seat:
                led.off()
        led = self._leds.get(turn_seat) if turn_seat is not None else None
        if led is not None:
            if not pulse:
                led.on()
            elif isinstance(led, PWMLED):
                led.pulse(fade_in_time=self.fade_s, fade_out_time=self.fade_s)
            else:
                led.blink(on_time=self.fade_s, off_time=self.fade_s)
        self._shown = (turn_seat, pulse)

    def off(self) -> None:
        self.show(None)

    def close(self) -> None:
        """Turn off and release every LED. Safe to call twice."""
        leds, self._leds = self._leds, {}
        for led in leds.values():
            led.close()
        self._shown = (None, False)

