"""Small building blocks: flat buttons big enough for a thumb, chips that name their colour,
steppers for counts. No game knowledge here."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import (
    BooleanProperty, ColorProperty, NumericProperty, ObjectProperty, StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from ui import theme


class Box(BoxLayout):
    """A BoxLayout with a rounded background and an optional border."""

    bg = ColorProperty(theme.SURFACE)
    border = ColorProperty((0, 0, 0, 0))
    border_w = NumericProperty(0)
    radius = NumericProperty(8)


class SeatBox(Box):
    """A seat's box on a table screen: a tap on it calls ``opener(seat)`` (the seat's own
    entries or corrections), except while a refusal is shown."""

    seat = NumericProperty(0)
    opener = ObjectProperty(None, allownone=True)

    def on_touch_down(self, touch):
        if self.collide_point(*touch.pos) and self.opener is not None:
            if App.get_running_app().refusal:
                return False
            self.opener(self.seat)
            return True
        return super().on_touch_down(touch)


class Txt(Label):
    """A label that wraps or shortens inside its own box (Kivy labels do neither by default)."""

    bg = ColorProperty((0, 0, 0, 0))
    ink = ColorProperty(theme.INK)
    fs = NumericProperty(18)


class FlatButton(ButtonBehavior, Label):
    """A big flat button. ``caption`` is a second, smaller line (the demo key, a hint), drawn at
    ``caption_fs`` units: 16 at least (nothing smaller is read from across the table); a screen
    where the caption matters raises it to 18."""

    title = StringProperty("")
    caption = StringProperty("")
    caption_fs = NumericProperty(16)
    fill = ColorProperty(theme.GREY_BTN)
    ink = ColorProperty(theme.INK)
    selected = BooleanProperty(False)
    radius = NumericProperty(8)
    fs = NumericProperty(20)


class Chip(Label):
    """A small filled label such as "Red 2": colour plus a word, never colour alone."""

    fill = ColorProperty(theme.SURFACE_HI)
    ink = ColorProperty(theme.INK)
    fs = NumericProperty(18)


class StepWithin:
    """``step(by)`` for a count widget with ``value``, ``minimum``, ``maximum`` and ``changed``
    properties: the value moves by ``by`` within the bounds; ``changed(widget)`` is called
    when it moved."""

    def step(self, by: int) -> None:
        new = max(self.minimum, min(self.maximum, self.value + by))
        if new != self.value:
            self.value = new
            if self.changed is not None:
                self.changed(self)


class Stepper(StepWithin, BoxLayout):
    """``label`` [-] value [+], for a count or a change. ``signed`` shows +1 / -1."""

    label = StringProperty("")
    value = NumericProperty(0)
    minimum = NumericProperty(-99)
    maximum = NumericProperty(99)
    signed = BooleanProperty(True)
    note = StringProperty("")
    fill = ColorProperty(theme.SURFACE_HI)
    ink = ColorProperty(theme.INK)
    changed = ObjectProperty(None, allownone=True)

    @property
    def shown(self) -> str:
        v = int(self.value)
        return f"+{v}" if self.signed and v > 0 else str(v)


def counter_chip_colours(counter: str) -> tuple[tuple, tuple]:
    """(fill, ink) for a drop or counter chip."""
    hex_colour = theme.COUNTER_COLOURS[counter]
    return theme.rgba(hex_colour), theme.ink_on(hex_colour)
