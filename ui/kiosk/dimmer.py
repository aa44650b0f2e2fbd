"""Dimming the screen when nobody has touched the table for a while, then switching it off,
without losing anything.

A game can sit for an hour between sessions of talk; a bright panel beside the board is then
only glare. After the table's ``dim_minutes`` without input a dark sheet covers the window (and
the Pi's backlight goes down, where /sys/class/backlight lets us). After ``off_minutes`` (counted
from the same last input, and later than the dimming) the screen goes off: the backlight
powered down (``bl_power``) at brightness 0 where there is one, and the sheet fully black
everywhere, so a panel without a backlight we may write shows nothing either. The game
underneath is left exactly as it was: the sheet only takes touches.

Waking: any touch, key, seat button or die. A touch that wakes is swallowed whole (down, moves
and up), because the person could not see what was under their finger; a seat button, a key
standing in for one, or a die is a deliberate act at the table, so it wakes the screen and is
played as usual.

No polling: two Clock triggers (dim, off), re-armed on every input; while off nothing is
scheduled at all.
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
BL_POWER_DOWN = "4"      # bl_power: FB_BLANK_POWERDOWN (0 is on)


class DarkSheet(Widget):
    """Covers the whole window, nearly black; takes every touch that reaches it."""

    modal = True    # what it covers cannot be pressed through it (the layout check)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        with self.canvas:
            self._colour = Color(0, 0, 0, SHEET_ALPHA)
            self._rect = Rectangle(pos=(0, 0), size=Window.size)
        Window.bind(size=self._fit)

    @property
    def black(self) -> bool:
        return self._colour.a == 1

    def blacken(self) -> None:
        """The screen off: nothing of the game shows through."""
        self._colour.a = 1

    def _fit(self, _window, size) -> None:
        self._rect.size = size

    def on_touch_down(self, touch) -> bool:
        return True

    def on_touch_move(self, touch) -> bool:
        return True

    def on_touch_up(self, touch) -> bool:
        return True


class Backlight:
    """The first panel under ``root`` (/sys/class/backlight), if there is one we may write;
    every call fails silently elsewhere (a desktop, the tests). What it changes is kept from
    the first change on, and :meth:`restore` writes it back."""

    def __init__(self, root: Path = BACKLIGHT) -> None:
        self.root = root
        self._saved: dict[Path, str] = {}

    def _panel(self) -> Path:
        return next(p for p in sorted(self.root.iterdir())
                    if (p / "brightness").is_file() and (p / "max_brightness").is_file())

    def _write(self, path: Path, value: str) -> None:
        before = path.read_text().strip()
        path.write_text(value)
        self._saved.setdefault(path, before)

    def dim(self) -> None:
        try:
            panel = self._panel()
            full = int((panel / "max_brightness").read_text().strip())
            self._write(panel / "brightness", str(max(1, int(full * DIM_LEVEL))))
        except (OSError, ValueError, StopIteration) as problem:
            log.debug("backlight not dimmed: %s", problem)

    def off(self) -> bool:
        """Brightness 0 and the backlight powered down (where ``bl_power`` is); True when the
        panel took it."""
        try:
            panel = self._panel()
            self._write(panel / "brightness", "0")
            if (panel / "bl_power").is_file():
                self._write(panel / "bl_power", BL_POWER_DOWN)
        except (OSError, StopIteration) as problem:
            log.debug("backlight not switched off: %s", problem)
            return False
        return True

    def restore(self) -> None:
        """Power first, then the brightness the panel had before the first change."""
        saved, self._saved = self._saved, {}
        for path in sorted(saved, key=lambda p: p.name != "bl_power"):
            try:
                path.write_text(saved[path])
            except OSError as problem:
                log.debug("backlight not restored: %s", problem)


class Dimmer:
    """``app.dimmer``: ``set_minutes(dim, off)`` (0: never), ``stir()`` on every input."""

    def __init__(self, backlight: Backlight | None = None) -> None:
        self.minutes = 0                   # without input before the screen dims
        self.off_minutes = 0               # ... before it goes off
        self.dimmed = False                # dim or off: the sheet covers the window
        self.is_off = False
        self.backlight = backlight or Backlight()
        self.sheet: DarkSheet | None = None
        self._asleep = Clock.create_trigger(lambda *_: self.dim(), 60)
        self._dark = Clock.create_trigger(lambda *_: self.switch_off(), 60)
        self._swallowed: set = set()       # uids of the touches that woke the screen
        Window.bind(on_touch_down=self._on_touch_down, on_touch_move=self._on_touch_move,
                    on_touch_up=self._on_touch_up, on_key_down=self._on_key)

    def set_minutes(self, minutes: int, off_minutes: int = 0) -> None:
        """New settings (from a tap on the settings screen, or the file at start): the screen
        is awake and both waits start again."""
        self.minutes, self.off_minutes = minutes, off_minutes
        self.wake()

    def stir(self) -> bool:
        """Some input came: wake if dim or off (True then), else start the waits again."""
        if self.dimmed:
            self.wake()
            return True
        self._arm()
        return False

    def _arm(self) -> None:
        for trigger, minutes in ((self._asleep, self.minutes), (self._dark, self.off_minutes)):
            trigger.cancel()
            if minutes:
                trigger.timeout = minutes * 60
                trigger()

    def _cover(self) -> None:
        if self.sheet is None:
            self.sheet = DarkSheet()
            Window.add_widget(self.sheet)  # on top of everything, dialogs included
        self.dimmed = True

    def dim(self) -> None:
        if self.dimmed or not self.minutes:
            return
        self._asleep.cancel()              # the off wait goes on; input wakes it
        self._cover()
        self.backlight.dim()

    def switch_off(self) -> None:
        """The screen off: black everywhere, the backlight off where we may; nothing is
        scheduled until an input wakes it."""
        if self.is_off or not self.off_minutes:
            return
        self._asleep.cancel()
        self._dark.cancel()
        self._cover()
        self.is_off = True
        self.sheet.blacken()
        self.backlight.off()

    def wake(self) -> None:
        if self.dimmed:
            self.dimmed = self.is_off = False
            if self.sheet is not None:
                Window.remove_widget(self.sheet)
                self.sheet = None
            self.backlight.restore()
        self._arm()

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
