"""Charts a table reads from 1.5 m: a line per seat over a game, and labelled horizontal bars.

Drawn with Kivy's own canvas (Line, Rectangle, and the text as label textures), so no plotting
library comes onto the Pi. A chart's text is never under 18 units (``fs``), each line is drawn
in its seat's colour and named in a legend, since a colour alone is never the only cue.

A chart draws its picture again only when its data, its size or the unit change; moving it
(a scroll, a layout pass that only shifts it) moves one Translate, not the picture. The text
textures are measured once per text and size.

:class:`LineChart` properties:
    ``lines``: a list of :class:`ChartLine` (name, colour, values), one per seat; the n-th value
    of every line is drawn at x = n (a step, turn or round number), so lines of one length share
    the x axis; a line with a ``most`` (Quest's 3 needed) keeps the y axis up to it and says at
    its end where it ended out of it ("0 of 3"). ``x_title``/``y_title``: the axes' words
    ("round", "Magik"). ``marks``: (x, words) the x axis shows instead of numbers (Cauldron's
    seasons, each where it begins). ``flags``: (x, line index, words) drawn as a ringed dot on
    that line (a milestone taken), its words beside it where they fit, the kind in the legend. ``fs``: text size in units (18 at
    least). ``empty``: what it says when there is nothing to draw.

:class:`BarChart` properties:
    ``bars``: a list of :class:`ChartBar` (label, value, colour, optional text shown at the
    bar's end instead of the value), top to bottom. ``maximum``: the value of a full-width bar
    (0: the largest value). ``fs``: text size in units. ``empty``: as above.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, PopMatrix, PushMatrix, Rectangle, Translate
from kivy.graphics.instructions import InstructionGroup
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.widget import Widget

from ui import theme

Rgba = tuple[float, float, float, float]


@dataclass(frozen=True)
class ChartLine:
    """One seat's line: its name (the legend), its colour, its value after each step/round,
    and the most it can reach (None: no bound)."""

    name: str
    colour: Rgba
    values: tuple[float, ...]
    most: float | None = None


@dataclass(frozen=True)
class ChartBar:
    """One horizontal bar: the words left of it, its value, its colour, and what is written at
    its end (the value itself when ``text`` is empty)."""

    label: str
    value: float
    colour: Rgba
    text: str = ""


@lru_cache(maxsize=512)
def _texture(text: str, px: float, bold: bool = False):
    label = CoreLabel(text=text, font_size=px, bold=bold)
    label.refresh()
    return label.texture


def nice_ticks(low: float, high: float, most: int = 5, whole: bool = True) -> list[float]:
    """Round numbers (1, 2 or 5 times a power of ten apart) from at or below ``low`` to at or
    above ``high``, about ``most`` steps, so an axis reads 0 10 20 30 rather than 0 7.4;
    ``whole``: never closer than 1 apart (counts, scores and rounds have no halves)."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(1, most)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if whole:
        step = max(step, 1)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while True:
        ticks.append(round(value, 10))
        if value >= high - step * 1e-9:
            return ticks
        value += step


def _number(value: float) -> str:
    return f"{value:g}" if value != int(value) else str(int(value))


class _Chart(Widget):
    """What both charts share: the unit, the text size, the redraw trigger and the Translate."""

    fs = NumericProperty(18)
    empty = StringProperty("Nothing to show yet.")

    def __init__(self, **kwargs) -> None:
        self._redraw = Clock.create_trigger(self._draw, -1)
        super().__init__(**kwargs)
        self._move = Translate(self.x, self.y)
        self._picture = InstructionGroup()
        for instruction in (PushMatrix(), self._move, self._picture, PopMatrix()):
            self.canvas.add(instruction)
        self.bind(pos=self._moved, size=self._redraw, fs=self._redraw, empty=self._redraw)
        app = App.get_running_app()
        if app is not None and hasattr(app, "u"):
            app.bind(u=self._unit_changed)   # a method: the app holds it weakly
        self._redraw()                           # data and size given as arguments

    def _unit_changed(self, *_) -> None:
        self._redraw()

    @property
    def u(self) -> float:
        app = App.get_running_app()
        return getattr(app, "u", 1.0) if app is not None else 1.0

    def _moved(self, *_) -> None:
        self._move.xy = self.pos

    def _text(self, text: str, x: float, y: float, ink: Rgba = theme.INK, *,
              bold: bool = False, anchor: str = "left") -> tuple[float, float]:
        """Draw ``text`` with its left (or right/centre: ``anchor``) bottom at (x, y) in the
        chart's own coordinates; returns its size."""
        tex = _texture(text, self.u * max(self.fs, 18), bold)
        w, h = tex.size
        if anchor == "right":
            x -= w
        elif anchor == "centre":
            x -= w / 2
        self._picture.add(Color(*ink))
        self._picture.add(Rectangle(texture=tex, pos=(x, y), size=(w, h)))
        return w, h

    def _measure(self, text: str, bold: bool = False) -> tuple[float, float]:
        return tuple(_texture(text, self.u * max(self.fs, 18), bold).size)

    def _draw(self, *_) -> None:
        self._picture.clear()
        self._move.xy = self.pos
        if self.width < 2 or self.height < 2:
            return
        if not self._paint():
            self._text(self.empty, self.width / 2, self.height / 2 - self._measure("0")[1] / 2,
                       theme.MUTED, anchor="centre")

    def _paint(self) -> bool:
        raise NotImplementedError


class LineChart(_Chart):
    """One line per seat over the game, a legend with the seats' names above the plot, round
    numbers on both axes."""

    lines = ListProperty([])
    x_title = StringProperty("")
    y_title = StringProperty("")
    marks = ListProperty([])
    flags = ListProperty([])
    #: what the legend calls a flag
    flag_words = StringProperty("milestone")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.bind(lines=self._redraw, x_title=self._redraw, y_title=self._redraw,
                  marks=self._redraw, flags=self._redraw, flag_words=self._redraw)

    def legend_rows(self) -> list[list[tuple[ChartLine | None, float]]]:
        """The legend's entries (a line, or None for the flags' entry, and the entry's width)
        in rows that fit the width."""
        u, rows, used = self.u, [[]], 0.0
        entries = list(self.lines) + ([None] if self.flags else [])
        for line in entries:
            name = self.flag_words if line is None else line.name
            w = u * 22 + self._measure(name)[0] + u * 16
            if rows[-1] and used + w > self.width:
                rows.append([])
                used = 0.0
            rows[-1].append((line, w))
            used += w
        return [row for row in rows if row]

    def _paint(self) -> bool:
        lines = [line for line in self.lines if line.values]
        if not lines:
            return False
        u = self.u
        text_h = self._measure("0")[1]
        # legend, top down
        top = self.height
        for row in self.legend_rows():
            top -= text_h
            x = 0.0
            for line, w in row:
                if line is None:
                    self._flag(x + u * 8, top + text_h * 0.25 + u * 8, theme.MUTED)
                    self._text(self.flag_words, x + u * 22, top)
                else:
                    self._picture.add(Color(*line.colour))
                    self._picture.add(Rectangle(pos=(x, top + text_h * 0.25),
                                                size=(u * 16, u * 16)))
                    self._text(line.name, x + u * 22, top)
                x += w
            top -= u * 4
        values = [v for line in lines for v in line.values]
        most = [line.most for line in lines if line.most is not None]
        y_ticks = nice_ticks(min(0.0, min(values)), max(values + most))
        length = max(len(line.values) for line in lines)
        x_ticks = [t for t in nice_ticks(0, max(1, length - 1), 6) if t <= max(1, length - 1)]
        labels = [_number(t) for t in y_ticks]
        left = max(self._measure(t)[0] for t in labels) + u * 8
        ends = {id(line): f"{_number(line.values[-1])} of {_number(line.most)}"
                for line in lines if line.most is not None}
        right = max((self._measure(t)[0] for t in ends.values()), default=0) + u * 10
        if self.y_title:
            top -= text_h
            self._text(self.y_title, 0, top, theme.MUTED)
        bottom = text_h + u * 6 + (text_h if self.x_title else 0)
        plot_w, plot_h = self.width - left - right, top - bottom - text_h / 2
        if plot_w < u * 40 or plot_h < u * 30:
            return False
        y_low, y_high = y_ticks[0], y_ticks[-1]
        x_high = max(1, length - 1)

        def at(n: float, v: float) -> tuple[float, float]:
            return (left + plot_w * n / x_high,
                    bottom + plot_h * (v - y_low) / ((y_high - y_low) or 1))

        for tick, label in zip(y_ticks, labels):
            _, y = at(0, tick)
            self._picture.add(Color(*theme.LINE))
            self._picture.add(Line(points=[left, y, left + plot_w, y], width=1))
            self._text(label, left - u * 6, y - text_h / 2, theme.MUTED, anchor="right")
        marked = [(x, words) for x, words in self.marks if 0 <= x <= x_high]
        # a mark's words in the middle of its stretch (a season's), a line where it begins;
        # without marks, round numbers under their points
        shown = [(tick, (tick + end) / 2, words) for (tick, words), end in
                 zip(marked, [x for x, _ in marked[1:]] + [x_high])] or [
            (tick, tick, _number(tick)) for tick in x_ticks]
        past = -math.inf      # where the last label shown ends: a crowded one is left out
        for tick, middle, words in shown:
            if marked:
                x, _ = at(tick, y_low)
                self._picture.add(Color(*theme.LINE))
                self._picture.add(Line(points=[x, bottom, x, bottom + plot_h], width=1))
            x, _ = at(middle, y_low)
            w = self._measure(words)[0]
            if x - w / 2 < past + u * 6:
                continue
            self._text(words, x, bottom - text_h - u * 4, theme.MUTED, anchor="centre")
            past = x + w / 2
        if self.x_title:
            self._text(self.x_title, left + plot_w / 2, 0, theme.MUTED, anchor="centre")
        for line in reversed(lines):   # the first line (the legend's first) drawn on top
            points = [c for n, v in enumerate(line.values) for c in at(n, v)]
            self._picture.add(Color(*line.colour))
            if len(points) == 2:
                self._picture.add(Rectangle(pos=(points[0] - u * 3, points[1] - u * 3),
                                            size=(u * 6, u * 6)))
            else:
                self._picture.add(Line(points=points, width=max(1.0, u * 2.5), joint="round"))
        # where each bounded line ended, out of the most it can reach, kept clear of the other
        placed: list[float] = []
        for line in sorted((ln for ln in lines if id(ln) in ends), key=lambda ln: ln.values[-1]):
            x, y = at(len(line.values) - 1, line.values[-1])
            y -= text_h / 2
            for other in placed:
                if abs(y - other) < text_h:
                    y = other + text_h
            placed.append(y)
            self._text(ends[id(line)], x + u * 6, y, line.colour, bold=True)
        named: list[tuple[float, float, float, float]] = []   # the flags' labels drawn
        for n, index, words in self.flags:
            line = self.lines[index] if 0 <= index < len(self.lines) else None
            if line is not None and 0 <= n < len(line.values):
                x, y = at(n, line.values[n])
                self._flag(x, y, line.colour)
                self._flag_label(words, x, y, (left, bottom, left + plot_w, top), named)
        return True

    def _flag_label(self, words: str, x: float, y: float, plot: tuple[float, ...],
                    named: list[tuple[float, float, float, float]]) -> None:
        """A flag's words (the milestone taken, so a dot has a name) on a dark
        plate above its dot (below it at the plot's top), inside the plot; one that would lie
        on a label already drawn is left out (the legend and the game's log name it)."""
        if not words:
            return
        u = self.u
        w, h = self._measure(words)
        lx = min(max(x - w / 2, plot[0]), plot[2] - w)
        ly = y + u * 10 if y + u * 10 + h <= plot[3] else y - u * 10 - h
        box = (lx - u * 3, ly, lx + w + u * 3, ly + h)
        if any(min(box[2], b[2]) > max(box[0], b[0]) and min(box[3], b[3]) > max(box[1], b[1])
               for b in named):
            return
        named.append(box)
        self._picture.add(Color(*theme.SURFACE))
        self._picture.add(Rectangle(pos=box[:2], size=(box[2] - box[0], box[3] - box[1])))
        self._text(words, lx, ly, theme.INK)

    def _flag(self, x: float, y: float, colour: Rgba) -> None:
        """A flag's mark: a dot in its line's colour ringed in white, over the line."""
        u = self.u
        self._picture.add(Color(*theme.INK))
        self._picture.add(Ellipse(pos=(x - u * 8, y - u * 8), size=(u * 16, u * 16)))
        self._picture.add(Color(*colour))
        self._picture.add(Ellipse(pos=(x - u * 5, y - u * 5), size=(u * 10, u * 10)))


class BarChart(_Chart):
    """Labelled horizontal bars, one per row, top to bottom: the label left, the bar, its
    value (or ``text``) at its end; each row as tall as the text, bars sharing one scale."""

    bars = ListProperty([])
    maximum = NumericProperty(0)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.bind(bars=self._redraw, maximum=self._redraw)

    def row_height(self) -> float:
        return self._measure("0")[1] + self.u * 10

    def _paint(self) -> bool:
        bars: Sequence[ChartBar] = self.bars
        if not bars:
            return False
        u = self.u
        text_h = self._measure("0")[1]
        row_h = min(self.row_height() * 1.6, self.height / len(bars))
        if row_h < text_h:
            return False
        left = max(self._measure(bar.label)[0] for bar in bars) + u * 10
        ends = [bar.text or _number(bar.value) for bar in bars]
        room = self.width - left - max(self._measure(t)[0] for t in ends) - u * 10
        if room < u * 20:
            return False
        full = self.maximum or max((bar.value for bar in bars), default=0) or 1
        y = self.height
        for bar, end in zip(bars, ends):
            y -= row_h
            middle = y + row_h / 2
            self._text(bar.label, left - u * 10, middle - text_h / 2, anchor="right")
            length = room * max(0.0, min(1.0, bar.value / full))
            self._picture.add(Color(*bar.colour))
            self._picture.add(Rectangle(pos=(left, middle - row_h * 0.35),
                                        size=(max(length, u * 2), row_h * 0.7)))
            self._text(end, left + length + u * 6, middle - text_h / 2)
        return True

