"""Physical buttons -> :class:`InputEvent`.

One gpiozero ``Button`` per configured input. The board knows nothing of games: it reports
"seat2.claim was pressed" and leaves the meaning to the game's input map. Callbacks arrive on
gpiozero's threads, so ``emit`` must be thread-safe; in the app it is ``Inbox.put``.
"""

from __future__ import annotations

import logging
import time
from functools import partial
from typing import Callable, Mapping

from gpiozero import Button
from gpiozero.exc import GPIOZeroError

from companion.core.model import InputEvent

from .config import HardwareConfig
from .debounce import Debouncer
from .errors import HardwareError

log = logging.getLogger(__name__)

Emit = Callable[[InputEvent], object]


class SeatButtons:
    """Every button of the table (seat buttons and table buttons like undo), by input id.

    A press emits ``InputEvent("button", id, source="gpio")``; keeping a button down for
    ``hold_s`` emits one more, ``InputEvent("button", id, value="hold", source="gpio")``, so a
    hold is always preceded by its press. Presses go through a :class:`Debouncer` of
    ``bounce_s`` as well as the driver's ``bounce_time``, because not every pin driver honours
    the latter.
    """

    def __init__(self, buttons: Mapping[str, int], emit: Emit, *, pull_up: bool = True,
                 bounce_s: float = 0.030, hold_s: float = 1.5, pin_factory=None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._emit = emit
        self._debouncer = Debouncer(bounce_s, clock)
        self._closed = False
        self._buttons: dict[str, Button] = {}
        try:
            for input_id, pin in buttons.items():
                self._buttons[input_id] = self._open(
                    input_id, pin, pull_up, bounce_s, hold_s, pin_factory)
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_config(cls, config: HardwareConfig, emit: Emit, *, pin_factory=None,
                    clock: Callable[[], float] = time.monotonic) -> "SeatButtons":
        return cls(config.buttons, emit, pull_up=config.pull_up, bounce_s=config.bounce_s,
                   hold_s=config.hold_s, pin_factory=pin_factory, clock=clock)

    def _open(self, input_id: str, pin: int, pull_up: bool, bounce_s: float, hold_s: float,
              pin_factory) -> Button:
        try:
            button = Button(pin, pull_up=pull_up, bounce_time=bounce_s or None,
                            hold_time=hold_s, pin_factory=pin_factory)
        except (GPIOZeroError, OSError) as exc:
            raise HardwareError(f"{input_id}: cannot open GPIO{pin}: {exc}") from exc
        button.when_pressed = partial(self._pressed, input_id)
        button.when_held = partial(self._held, input_id)
        return button

    def _pressed(self, input_id: str) -> None:
        if not self._closed and self._debouncer.accept(input_id):
            self._send(InputEvent("button", input_id, source="gpio"))

    def _held(self, input_id: str) -> None:
        if not self._closed:
            self._send(InputEvent("button", input_id, value="hold", source="gpio"))

    def _send(self, event: InputEvent) -> None:
        # We run on a device thread: an exception here would kill gpiozero's hold thread
        # and be lost anyway, so log it and keep the buttons alive.
        try:
            self._emit(event)
        except Exception:
            log.exception("emit failed for %s", event)

    @property
    def ids(self) -> tuple[str, ...]:
        """The input ids this board reports."""
        return tuple(self._buttons)

    @property
    def closed(self) -> bool:
        return self._closed

    def is_pressed(self, input_id: str) -> bool:
        """Whether that button is down now (for a wiring check screen)."""
        return bool(self._buttons[input_id].is_pressed)

    def close(self) -> None:
        """Release every pin. Safe to call twice; no event is emitted after it returns."""
        self._closed = True
        buttons, self._buttons = self._buttons, {}
        # Each Button joins its hold thread on close, and that thread wakes only every 0.1 s.
        # Ask them all to stop first so a full table closes in ~0.1 s rather than ~2 s.
        for button in buttons.values():
            thread = getattr(button, "_hold_thread", None)
            stopping = getattr(thread, "stopping", None)
            if stopping is not None:
                stopping.set()
        for button in buttons.values():
            button.close()

    def __enter__(self) -> "SeatButtons":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"{len(self._buttons)} buttons"
        return f"<SeatButtons {state}>"
