"""Physical buttons -> :class:`InputEvent`.

One gpiozero ``DigitalInputDevice`` per configured input, not a ``Button``: a ``Button`` starts
a hold thread of its own that wakes ten times a second even when no one presses, and a table
has twenty of them, waking an idle table 200 times a second. Holds are timed from the edges instead, by one
:class:`hardware.holds.HoldTimer` for the whole board that sleeps while nothing is down.

The board knows nothing of games: it reports "seat2.claim was pressed" and leaves the meaning to
the game's input map. Presses arrive on the pin driver's thread and holds on the timer's, so
``emit`` must be thread-safe; in the app it is ``Inbox.put``.
"""

from __future__ import annotations

import logging
import time
from functools import partial
from typing import Callable, Mapping

from gpiozero import DigitalInputDevice
from gpiozero.exc import GPIOZeroError

from companion.core.model import InputEvent

from .closing import ClosedOnExit
from .config import HardwareConfig
from .debounce import Debouncer
from .errors import HardwareError
from .holds import HoldTimer

log = logging.getLogger(__name__)

Emit = Callable[[InputEvent], object]


class SeatButtons(ClosedOnExit):
    """Every button of the table (seat buttons and table buttons like undo), by input id.

    A press emits ``InputEvent("button", id, source="gpio")``; keeping a button down for
    ``hold_s`` emits one more, ``InputEvent("button", id, value="hold", source="gpio")``, so a
    hold is always preceded by its press. Presses go through a :class:`Debouncer` of
    ``bounce_s`` as well as the driver's ``bounce_time``, because not every pin driver honours
    the latter. A hold is timed from the last press edge (a bounce restarts it, it does not
    lose it) and cancelled by the release edge; it is sent only if the button is still down.

    ``hold_timer`` makes the board's :class:`HoldTimer` from ``(hold_s, on_held, clock=)``;
    tests on a clock moved by hand pass ``partial(HoldTimer, threaded=False)`` and call
    ``board.holds.fire_due()``.
    """

    def __init__(self, buttons: Mapping[str, int], emit: Emit, *, pull_up: bool = True,
                 bounce_s: float = 0.030, hold_s: float = 1.5, pin_factory=None,
                 clock: Callable[[], float] = time.monotonic,
                 hold_timer: Callable[..., HoldTimer] = HoldTimer) -> None:
        self._emit = emit
        self._debouncer = Debouncer(bounce_s, clock)
        self._holds = hold_timer(hold_s, self._held, clock=clock)
        self._closed = False
        self._buttons: dict[str, DigitalInputDevice] = {}
        try:
            for input_id, pin in buttons.items():
                self._buttons[input_id] = self._open(input_id, pin, pull_up, bounce_s,
                                                     pin_factory)
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_config(cls, config: HardwareConfig, emit: Emit, *, pin_factory=None,
                    clock: Callable[[], float] = time.monotonic,
                    hold_timer: Callable[..., HoldTimer] = HoldTimer) -> "SeatButtons":
        return cls(config.buttons, emit, pull_up=config.pull_up, bounce_s=config.bounce_s,
                   hold_s=config.hold_s, pin_factory=pin_factory, clock=clock,
                   hold_timer=hold_timer)

    def _open(self, input_id: str, pin: int, pull_up: bool, bounce_s: float,
              pin_factory) -> DigitalInputDevice:
        try:
            button = DigitalInputDevice(pin, pull_up=pull_up, bounce_time=bounce_s or None,
                                        pin_factory=pin_factory)
        except (GPIOZeroError, OSError) as exc:
            raise HardwareError(f"{input_id}: cannot open GPIO{pin}: {exc}") from exc
        button.when_activated = partial(self._pressed, input_id)
        button.when_deactivated = partial(self._holds.cancel, input_id)
        return button

    def _pressed(self, input_id: str) -> None:
        if self._closed:
            return
        if self._debouncer.accept(input_id):
            self._send(InputEvent("button", input_id, source="gpio"))
        # Armed after the press is sent, so the hold always follows it; armed on a bounce's
        # edge too, since the bounce's release edge cancelled the first arming.
        self._holds.arm(input_id)

    def _held(self, input_id: str) -> None:
        button = self._buttons.get(input_id)
        if not self._closed and button is not None and button.is_active:
            self._send(InputEvent("button", input_id, value="hold", source="gpio"))

    def _send(self, event: InputEvent) -> None:
        # We run on a device thread: an exception here would end up in the pin driver's
        # callback or the hold timer's loop, so log it and keep the buttons alive.
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

    @property
    def holds(self) -> HoldTimer:
        """The board's hold timer: which buttons are down and being timed now."""
        return self._holds

    def is_pressed(self, input_id: str) -> bool:
        """Whether that button is down now (for a wiring check screen)."""
        return bool(self._buttons[input_id].is_active)

    def close(self) -> None:
        """Release every pin. Safe to call twice; no event is emitted after it returns."""
        self._closed = True
        self._holds.close()   # wakes the timer at once and waits for a hold being sent
        buttons, self._buttons = self._buttons, {}
        for button in buttons.values():
            button.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"{len(self._buttons)} buttons"
        return f"<SeatButtons {state}>"
