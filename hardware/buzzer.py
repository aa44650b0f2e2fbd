"""The table's buzzer: short sound cues, so nobody has to look at the screen to know.

    with TableBuzzer(12) as buzzer:
        buzzer.beep("turn")       # one short beep: the awaited seat changed
        buzzer.beep("refused")    # two short beeps: a button press or die was refused

An active buzzer (it sounds when its pin is high) on one GPIO pin, driven by gpiozero's
``Buzzer``. :meth:`TableBuzzer.beep` returns at once: the beeps run on gpiozero's background
blink thread. A new cue cuts the one still sounding short, so cues never pile up.
"""

from __future__ import annotations

from gpiozero import Buzzer
from gpiozero.exc import GPIOZeroError

from .closing import ClosedOnExit
from .config import HardwareConfig
from .errors import HardwareError

#: kind -> (seconds on, seconds off, how many beeps)
CUES: dict[str, tuple[float, float, int]] = {
    "turn": (0.12, 0.05, 1),
    "refused": (0.08, 0.08, 2),
    "time": (0.4, 0.2, 3),      # the turn has taken longer than the table's limit
}


class TableBuzzer(ClosedOnExit):
    """One buzzer on BCM ``pin``. Call :meth:`beep` and :meth:`close` from one thread (the
    app's main thread); the sound itself runs in the background."""

    def __init__(self, pin: int, *, pin_factory=None) -> None:
        self.pin = pin
        try:
            self._buzzer: Buzzer | None = Buzzer(pin, pin_factory=pin_factory)
        except (GPIOZeroError, OSError) as exc:
            raise HardwareError(f"buzzer.pin: cannot open GPIO{pin}: {exc}") from exc

    @classmethod
    def from_config(cls, config: HardwareConfig, *, pin_factory=None) -> "TableBuzzer | None":
        """The config's buzzer, or None if it has none."""
        if config.buzzer is None:
            return None
        return cls(config.buzzer, pin_factory=pin_factory)

    @property
    def closed(self) -> bool:
        return self._buzzer is None

    @property
    def is_active(self) -> bool:
        """Sounding right now."""
        return self._buzzer is not None and bool(self._buzzer.is_active)

    def beep(self, kind: str) -> None:
        """Sound the cue ``kind`` ("turn", "refused") without waiting for it to end.
        Does nothing once closed; an unknown kind is a ValueError."""
        try:
            on_s, off_s, n = CUES[kind]
        except KeyError:
            raise ValueError(f"unknown buzzer cue {kind!r}; known: {', '.join(CUES)}") from None
        if self._buzzer is None:
            return
        self._buzzer.off()   # end a cue still sounding, with the pin low, before the new one
        self._buzzer.beep(on_time=on_s, off_time=off_s, n=n, background=True)

    def close(self) -> None:
        """Silence and release the pin. Safe to call twice."""
        buzzer, self._buzzer = self._buzzer, None
        if buzzer is not None:
            try:
                buzzer.off()     # stops a cue mid-beep with the pin low, not left sounding
            finally:
                buzzer.close()

    def __repr__(self) -> str:
        return f"<TableBuzzer GPIO{self.pin}{' closed' if self.closed else ''}>"


def cue_seconds(kind: str) -> float:
    """How long the cue ``kind`` lasts, start to silence."""
    on_s, off_s, n = CUES[kind]
    return n * (on_s + off_s)
