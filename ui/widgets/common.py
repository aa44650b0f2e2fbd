"""Small building blocks: flat buttons big enough for a thumb, chips that name their colour,
steppers for counts, and the seat-colour picker every setup screen uses. No game knowledge here.

Large text (the table's text size setting, ``app.font_factor``) reaches every Txt, button, chip
and stepper, where the words still fit: each of them (:class:`GrowsWhereItFits`) draws its text
at the larger size when, measured at that size, it is neither shortened nor cut in the box the
layout gives it, and at the normal size otherwise. So Large never clips a word a layout made
room for at the normal size, and never moves a layout."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Mapping

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.core.text.markup import MarkupLabel
from kivy.properties import (
    BooleanProperty, ColorProperty, NumericProperty, ObjectProperty, StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.core import palette
from ui import theme
from ui.widgets.kept_text import KeptText
from ui.widgets.still import StillRegion


class Box(BoxLayout):
    """A BoxLayout with a rounded background and an optional border."""

    bg = ColorProperty(theme.SURFACE)
    border = ColorProperty((0, 0, 0, 0))
    border_w = NumericProperty(0)
    radius = NumericProperty(8)


class StillPanel(StillRegion, Box):
    """A Box drawn into a buffer of its own (ui/widgets/still.py): a part of a table screen that
    changes apart from the rest."""


class SeatBox(StillRegion, Box):
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


MARKUP_TAG = re.compile(r"\[/?[a-z]+(?:=[^\]]*)?\]")


@lru_cache(maxsize=4096)
def text_needs(markup: bool, text: str, font_size: float, font_name: str, bold: bool,
           width: float | None, halign: str) -> tuple[float, float]:
    """The size ``text`` needs at ``width`` (None: on one line), without shortening; the same
    words at the same size are measured once."""
    core = (MarkupLabel if markup else CoreLabel)(
        text=text, font_size=font_size, font_name=font_name, bold=bold,
        text_size=(width, None), halign=halign)
    core.refresh()
    return tuple(core.texture.size) if core.texture else (0.0, 0.0)


class GrowsWhereItFits:
    """Large text where it fits. ``large`` is the table's text size factor (bound in kv to
    ``app.font_factor``); ``grow`` is what this label draws at: ``large`` when its words,
    measured at that size, fit its box, else 1. Fonts are ``app.u * fs * grow``."""

    large = NumericProperty(1.0)
    grow = NumericProperty(1.0)

    def __init__(self, **kwargs) -> None:
        self._refit_soon = Clock.create_trigger(self._refit, 0)
        super().__init__(**kwargs)
        for name in ("text", "size", "text_size", "fs", "large", "title", "caption",
                     "caption_fs", "font_name", "bold"):
            if name in self.properties():
                self.fbind(name, self._refit_soon)
        self._refit_soon()

    def text_at(self, scale: float) -> str:
        """The text as drawn at ``scale`` (a button's caption size is in its markup)."""
        return self.text

    def _refit(self, *_args) -> None:
        if self.large <= 1.0:
            self.grow = 1.0
            return
        self.grow = self.large if self._fits(self.large) else 1.0

    def _fits(self, scale: float) -> bool:
        app = App.get_running_app()
        text = self.text_at(scale)
        width, height = self.text_size
        if not text.strip() or width is None or app is None:
            return True
        size = app.u * self.fs * scale
        args = (bool(self.markup), text, size, self.font_name, bool(self.bold))
        if self.shorten and "\n" not in text and text_needs(*args, None, self.halign)[0] >= width - 1:
            return False                   # it would be shortened with "..."
        words = set((MARKUP_TAG.sub("", text) if self.markup else text).split())
        if any(text_needs(False, word, size, self.font_name, bool(self.bold), None, "left")[0]
               >= width - 1 for word in words):
            return False                   # a word would be broken across two lines
        return height is None or text_needs(*args, width, self.halign)[1] <= height


class Txt(KeptText, GrowsWhereItFits, Label):
    """A label that wraps or shortens inside its own box (Kivy labels do neither by default)."""

    bg = ColorProperty((0, 0, 0, 0))
    ink = ColorProperty(theme.INK)
    fs = NumericProperty(18)


def button_text(title: str, caption: str, caption_px: float) -> str:
    """A button's words: the title, and the caption as a second line at ``caption_px``."""
    from ui.text.markup import plain, size

    if not caption:
        return plain(title)
    return f"{plain(title)}\n[size={size(caption_px)}]{plain(caption)}[/size]"


class FlatButton(KeptText, GrowsWhereItFits, ButtonBehavior, Label):
    """A big flat button. ``caption`` is a second, smaller line (the demo key, a hint), drawn at
    ``caption_fs`` units: 16 at least (nothing smaller is read from across the table); a screen
    where the caption matters raises it to 18. Its colours are ui.theme's roles: ``fill`` says
    what it does; ``selected`` draws it as the chosen one; ``disabled`` (and only that) draws it
    as the disabled role, so a button never looks dead while a tap still reaches it."""

    title = StringProperty("")
    caption = StringProperty("")
    caption_fs = NumericProperty(16)
    fill = ColorProperty(theme.OPTION)   # a role of ui.theme: ACTION, NAVIGATION, DONE...
    ink = ColorProperty(theme.INK)
    selected = BooleanProperty(False)
    radius = NumericProperty(8)
    fs = NumericProperty(20)
    #: the chosen ring shows: chosen, enabled, and a thing's own colour (a role's fill is
    #: itself the sign of being chosen)
    ringed = BooleanProperty(False)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        for name in ("selected", "disabled", "fill"):
            self.fbind(name, self._ring)
        self._ring()

    def _ring(self, *_args) -> None:
        self.ringed = bool(self.selected and not self.disabled
                           and not theme.is_role_fill(self.fill))

    def text_at(self, scale: float) -> str:
        app = App.get_running_app()
        return button_text(self.title, self.caption, app.u * scale * max(16, self.caption_fs))


class Chip(KeptText, GrowsWhereItFits, Label):
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


def seat_looks(session) -> dict[str, tuple[tuple, tuple]]:
    """Each seat's name and the (fill, ink) of a button that picks that seat (whom to steal
    from, whose counters, whose die): the seat's own colour, as its panel and its name in the
    log show it, so a choice of players reads by colour as well as by name; the chosen one
    keeps its colour and gets the amber ring (``theme.button_look``). None for a team game,
    whose seats have no colours: its buttons keep their role's fill (else player
    choices would be grey)."""
    if session is None or session.rules.cooperative:
        return {}
    names = session.names
    shades = palette.seat_colours(session.setup.get("colours"), len(names))
    return {name: (theme.rgba(c.hex), theme.ink_on(c.hex)) for name, c in zip(names, shades)}


def seat_button(session, name: str, **kw) -> "FlatButton":
    """A FlatButton for choosing the seat ``name``, drawn in that seat's colour
    (:func:`seat_looks`); ``kw`` as for FlatButton (``title`` defaults to the name)."""
    look = seat_looks(session).get(name)
    if look is not None:
        kw.setdefault("fill", look[0])
        kw.setdefault("ink", look[1])
    kw.setdefault("title", name)
    return FlatButton(**kw)


class ColourSwatch(FlatButton):
    """A palette colour as a big button with its name on it, outlined so that black and white
    show on any background."""


class ColourPicker(ModalView):
    """The palette for one seat: every colour as a large named swatch. ``taken`` maps a colour's
    name to the seat that has it ("Carl (seat 3)"): tapping one says whose it is and changes
    nothing; a free one calls ``chosen(name)`` and closes."""

    title = StringProperty("")
    message = StringProperty("")

    def __init__(self, who: str, current: str, taken: Mapping[str, str],
                 chosen: Callable[[str], None], **kwargs) -> None:
        super().__init__(**kwargs)
        self.title, self.taken, self.chosen = f"Colour for {who}", dict(taken), chosen
        for colour in palette.PALETTE:
            owner = self.taken.get(colour.name)
            swatch = ColourSwatch(
                title=colour.name, fill=theme.rgba(colour.hex), ink=theme.ink_on(colour.hex),
                caption="now" if colour.name == current else (owner or ""),
                selected=colour.name == current)
            swatch.colour_name = colour.name
            swatch.bind(on_release=lambda _b, c=colour.name: self.pick(c))
            self.ids.grid.add_widget(swatch)

    def pick(self, name: str) -> None:
        owner = self.taken.get(name)
        if owner:
            self.message = (f"{name} is already the colour of {owner}: choose another, or "
                            f"give {owner} another colour first.")
            return
        self.chosen(name)
        self.dismiss()


# -- a setup screen's seat colours: rows with ``seat``, ``colour`` (a palette name) and the
# ids ``colour`` (the button that shows it) and ``name`` (the seat's name field) -------------
def seat_word(row) -> str:
    """A seat as the colour picker names it: "Carl (seat 3)"."""
    name = row.ids.name.text.strip()
    return f"{name} (seat {row.seat + 1})" if name else f"seat {row.seat + 1}"


def paint(row) -> None:
    """The seat's colour button: its fill, and its name (never the colour alone)."""
    colour = palette.find(row.colour) or palette.PALETTE[row.seat]
    row.ids.colour.fill = theme.rgba(colour.hex)
    row.ids.colour.ink = theme.ink_on(colour.hex)
    row.ids.colour.title = colour.name


def pick_colour(rows, row, recheck) -> None:
    """The palette for ``row``; the colours of the other seats in play are refused there."""
    taken = {r.colour: seat_word(r) for r in rows if r is not row}

    def chosen(name: str) -> None:
        row.colour = name
        paint(row)
        recheck()

    ColourPicker(seat_word(row), row.colour, taken, chosen).open()


def distinct_colours(rows, chosen=None) -> None:
    """Give the rows ``chosen`` colours (names or hex, e.g. a stored setup's), else keep
    theirs; a seat whose colour an earlier seat has takes the first free one."""
    given = [r.colour for r in rows] if chosen is None else list(chosen)
    for row, colour in zip(rows, palette.seat_colours(given, len(rows))):
        row.colour = colour.name
        paint(row)


def load_rules_once(module_file: str) -> None:
    """The kv rules beside ``module_file`` (a widget's .py), loaded the first time one of its
    widgets is shown: no start waits for a dialog's rules, and none is loaded twice."""
    from pathlib import Path

    from kivy.lang import Builder

    kv = str(Path(module_file).with_suffix(".kv"))
    if kv not in Builder.files:
        Builder.load_file(kv)
