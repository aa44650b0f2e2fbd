"""A finger's second tap on a button that changed what the window shows is not taken.

A double tap (a nervous finger, a bouncing touch panel) lands twice in one place. When the
first tap changes the screen or opens a dialog, the second lands on whatever the new view has
there: Statistics' Back went Home, a game's Begin pressed the table's first control. No layout
can keep every screen's corners free of every other screen's buttons, so the rule is the
window's, for every screen and dialog alike: a touch that begins within :data:`SETTLE_S` of
the new view being there (the first frame after the tap that changed it), and within
:data:`NEAR` units of that tap, is dropped (down, moves and up). Anywhere else, or later, a touch is taken as ever.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Hashable

from kivy.clock import Clock

#: How long after a tap that changed the view a touch in the same place is dropped (Kivy's own
#: double-tap window is 0.25 s; a bounce on a resistive panel can come later).
SETTLE_S = 0.4
#: How near to that tap (in units: app.u) a touch must begin to be its second tap.
NEAR = 40.0


class SecondTap:
    """Watches the window's touches; ``shown()`` says what the window shows (a screen's name
    and the dialogs open), ``unit()`` the size of a unit. Bound ahead of the widgets, so a
    dropped touch reaches none of them."""

    def __init__(self, window: Any, shown: Callable[[], Hashable],
                 unit: Callable[[], float], *, clock: Callable[[], float] = time.monotonic,
                 settle: float = SETTLE_S) -> None:
        self.window, self.shown, self.unit, self.clock = window, shown, unit, clock
        self.settle = settle
        self._last: tuple[float, float, float, Hashable] | None = None   # x, y, when, shown
        self._dropped: set[int] = set()
        window.fbind("on_touch_down", self._down)
        window.fbind("on_touch_move", self._other)
        window.fbind("on_touch_up", self._up)

    def close(self) -> None:
        self.window.funbind("on_touch_down", self._down)
        self.window.funbind("on_touch_move", self._other)
        self.window.funbind("on_touch_up", self._up)

    def forget(self) -> None:
        """The next touch is nobody's second tap (a deliberate tap, as the UI tests make)."""
        self._last = None

    def __enter__(self) -> SecondTap:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def _down(self, _window, touch) -> bool:
        last, now = self._last, self.clock()
        if last is not None and now - last[2] < self.settle and self.shown() != last[3]:
            reach = NEAR * self.unit()
            if abs(touch.x - last[0]) <= reach and abs(touch.y - last[1]) <= reach:
                self._dropped.add(touch.uid)
                return True
        self._last = (touch.x, touch.y, now, self.shown())   # as the window shows it before
        return False

    def _other(self, _window, touch) -> bool:
        return touch.uid in self._dropped

    def _up(self, _window, touch) -> bool:
        if touch.uid in self._dropped:
            self._dropped.discard(touch.uid)
            return True
        if self._last is not None:                # the view is judged from the tap's end
            self._last = (touch.x, touch.y, self.clock(), self._last[3])
            # ...and the time from when the next view is there: building a screen the first
            # time can take longer than SETTLE_S, and a second tap made meanwhile waits for it
            Clock.schedule_once(self._shown, 0)
        return False

    def _shown(self, _dt) -> None:
        if self._last is not None:
            self._last = (*self._last[:2], self.clock(), self._last[3])
