"""Dimming the screen when nobody has touched the table for a while, without losing anything.

A game can sit for an hour between sessions of talk; a bright panel beside the board is then
only glare. After the table's ``dim_minutes`` without input a dark sheet covers the window (and
the Pi's backlight goes down, where /sys/class/backlight lets us). The game underneath is left
exactly as it was: the sheet only takes touches.

Waking: any touch, key, seat button or die. A touch that wakes is swallowed whole (down, moves
and up), because the person could not see what was under their finger; a seat button, a key
standing in for one, or a die is a deliberate act at the table, so it wakes the screen and is
played as usual.

No polling: one Clock trigger, re-armed on every input; while dim nothing is scheduled at all.
"""

from __future__ import annotations

import logging
from pathlib import Path

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Color, Rectangle
from kivy.uix.widget import Widget

log = logging.getLogger(__name__)

BACKLIGHT = Path("/sys/class/backlight")
DIM_LEVEL = 0.1          # of the panel's full brightness, while dim
SHEET_ALPHA = 0.88       # the dark sheet: the board's light is not wasted on a screen


class DarkSheet(Widget):
    """Covers the whole window, nearly black; takes every touch that reaches it."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        with self.canvas:
            Color(0, 0, 0, SHEET_ALPHA)
            self._rect = Rectangle(pos=(0, 0), size=Window.size)
        Window.bind(size=self._fit)

    def _fit(self, _window, size) -> None:
        self._rect.size = size

    def on_touch_down(self, touch) -> bool:
        return True

    def on_touch_move(self, touch) -> bool:
        return True

    def on_touch_up(self, touch) -> bool:
        return True


class Backlight:
    """The first panel under /sys/class/backlight, if there is one we may write; every call
    fails silently elsewhere (a desktop, the tests)."""

    def __init__(self, root: Path = BACKLIGHT) -> None:
        self.root = root
        self._saved: tuple[Path, str] | None = None

    def dim(self) -> None:
        try:
            panel = next(p for p in sorted(self.root.iterdir())
                         if (p / "brightness").is_file() and (p / "max_brightness").is_file())
            brightness = panel / "brightness"
            now = brightness.read_text().strip()
            full = int((panel / "max_brightness").read_text().strip())
            brightness.write_text(str(max(1, int(full * DIM_LEVEL))))
            self._saved = (brightness, now)
        except (OSError, ValueError, StopIteration) as problem:
            log.debug("backlight not dimmed: %s", problem)

    def restore(self) -> None:
        saved, self._saved = self._saved, None
        if saved is not None:
            try:
                saved[0].write_text(saved[1])
            except OSError as problem:
                log.debug("backlight not restored: %s", problem)


class Dimmer:
    """``app.dimmer``: ``set_minutes(n)`` (0: never dim), ``stir()`` on every input."""

    def __init__(self, backlight: Backlight | None = None) -> None:
        self.minutes = 0
        self.dimmed = False
        self.backlight = backlight or Backlight()
        self.sheet: DarkSheet | None = None
        self._asleep = Clock.create_trigger(lambda *_: self.dim(), 60)
        self._swallowed: set = set()       # uids of the touches that woke the screen
        Window.bind(on_touch_down=self._on_touch_down, on_touch_move=self._on_touch_move,
                    on_touch_up=self._on_touch_up, on_key_down=self._on_key)

    def set_minutes(self, minutes: int) -> None:
        self.minutes = minutes
        self._asleep.cancel()
        if not minutes:
            self.wake()
            return
        self._asleep.timeout = minutes * 60
        if not self.dimmed:
            self._asleep()

    def stir(self) -> bool:
        """Some input came: wake if dim (True then), else start the wait again."""
        if self.dimmed:
            self.wake()
            return True
        if self.minutes:
            self._asleep.cancel()
            self._asleep()
        return False

    def dim(self) -> None:
        if self.dimmed or not self.minutes:
            return
        self.dimmed = True
        self._asleep.cancel()              # nothing scheduled while dim: input wakes it
        self.sheet = DarkSheet()
        Window.add_widget(self.sheet)      # on top of everything, dialogs included
        self.backlight.dim()

    def wake(self) -> None:
        if self.dimmed:
            self.dimmed = False
            if self.sheet is not None:
                Window.remove_widget(self.sheet)
                self.sheet = None
            self.backlight.restore()
        if self.minutes:
            self._asleep.cancel()
            self._asleep()

    # -- the window's inputs, before any widget sees them ---------------------------------
    def _on_touch_down(self, _window, touch) -> bool:
        if self.stir():
            self._swallowed.add(touch.uid)
            return True
        return False

    def _on_touch_move(self, _window, touch) -> bool:
        return touch.uid in self._swallowed

    def _on_touch_up(self, _window, touch) -> bool:
        if touch.uid in self._swallowed:
            self._swallowed.discard(touch.uid)
            return True
        return False

    def _on_key(self, *_args) -> bool:
        self.stir()
        return False                       # a key stands in for a seat button: it is played
