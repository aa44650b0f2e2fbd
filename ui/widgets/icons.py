"""The project's own small pictures, drawn with Kivy canvas instructions (no image files): a
drop, a gold nugget, a potion vial, a potion card, a hand of cards, a Spell's star. Read from a chair beside a
big digit where a letter or a word was too small ("R 1", "Gold 2").

``Icon(kind="drop", colour=...)`` draws the picture in the middle of its box at the largest
size the box allows (square); an outline in ``line`` keeps a white drop visible on a light
chip and a black one on the dark table. ``Counter`` is an icon with its count beside it."""

from __future__ import annotations

import math

from kivy.app import App
from kivy.graphics import (
    Canvas, Color, Ellipse, Line, Mesh, PopMatrix, PushMatrix, Rectangle, RoundedRectangle,
    Translate, Triangle,
)
from kivy.properties import (
    BooleanProperty, ColorProperty, NumericProperty, OptionProperty, StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui import theme
from ui.widgets.kept_text import KeptText

KINDS = ("drop", "nugget", "vial", "potion", "cards", "star")
#: The usual colour of each kind where the caller gives none (a drop is always given its own).
GOLD = theme.rgba("#E8B33A")
GLASS = theme.rgba("#9FD8E8")
CARD = theme.rgba("#E9DFC8")


#: pixels: how far a side of a drawn circle may stray from the curve
STRAY = 0.15


def disc(pos, size, **kwargs) -> Ellipse:
    """Kivy's Ellipse with the sides its size needs: Kivy gives every ellipse 180, about 40
    microseconds each in software GL (a seat's card has a dozen), where a drop of 20 pixels
    needs 18 to keep each side within STRAY of the curve."""
    r = max(0.0, *size) / 2
    sides = max(12, min(180, math.ceil(math.pi * math.sqrt(r / (2 * STRAY)))))
    return Ellipse(pos=pos, size=size, segments=sides, **kwargs)


def rounded(pos, size, radius, **kwargs) -> RoundedRectangle:
    """Kivy's RoundedRectangle with the segments a corner its radius needs (Kivy's 10 a corner
    cost twice the triangles: 45 microseconds a rectangle in software GL, for curves of a few
    pixels)."""
    flat = [v for r in radius for v in (r if isinstance(r, (tuple, list)) else (r,))]
    r = max([0.0, *flat])
    segments = max(2, min(10, math.ceil(math.pi * math.sqrt(r / (32 * STRAY)))))
    return RoundedRectangle(pos=pos, size=size, radius=radius, segments=segments, **kwargs)


def _polygon(points: list[tuple[float, float]]) -> Mesh:
    """A filled convex polygon (a triangle fan from its first corner)."""
    vertices = []
    for x, y in points:
        vertices += [x, y, 0, 0]
    return Mesh(vertices=vertices, indices=list(range(len(points))), mode="triangle_fan")


def _flat(points: list[tuple[float, float]]) -> list[float]:
    return [v for p in points for v in p]


class Icon(Widget):
    """One drawn picture; drawn again whenever its size, kind or colours change, and only
    moved when its place does (a seat's card that moves keeps its icons' instructions)."""

    kind = OptionProperty("drop", options=KINDS)
    colour = ColorProperty(GOLD)
    line = ColorProperty((0.08, 0.08, 0.1, 1))

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._move = Translate(0, 0)
        self._drawn = Canvas()           # the picture, drawn from (0, 0)
        for instruction in (PushMatrix(), self._move, self._drawn, PopMatrix()):
            self.canvas.add(instruction)
        self.fbind("pos", self._moved)
        self.fbind("size", self._draw)
        self.fbind("kind", self._draw)
        self.fbind("colour", self._draw)
        self.fbind("line", self._draw)
        self._moved()
        self._draw()

    @property
    def drawing(self):
        """The picture's instructions, in the icon's own coordinates (its lower left is 0, 0)."""
        return self._drawn

    def _moved(self, *_args) -> None:
        self._move.xy = (self.x, self.y)

    def _draw(self, *_args) -> None:
        self._drawn.clear()
        side = min(self.width, self.height)
        if side <= 0:
            return
        x0, y0 = (self.width - side) / 2, (self.height - side) / 2
        with self._drawn:
            getattr(self, f"_{self.kind}")(x0, y0, side, max(1.0, side / 16))

    def _drop(self, x0, y0, s, w) -> None:
        """A drop: a round belly and a point at the top, the two joined on the tangents."""
        r = s * 0.32
        cx, cy = x0 + s / 2, y0 + r + s * 0.04
        top = (cx, y0 + s * 0.98)
        angle = math.asin(r / (top[1] - cy))          # where the sides meet the belly
        left = (cx - r * math.cos(angle), cy + r * math.sin(angle))
        right = (cx + r * math.cos(angle), cy + r * math.sin(angle))
        outline = [top, right] + [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in (
            angle - k * (math.pi + 2 * angle) / 16 for k in range(17))] + [left]
        Color(*self.line)
        Line(points=_flat(outline), close=True, width=w * 1.2)
        Color(*self.colour)
        disc(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
        Triangle(points=[*top, *left, *right])
        Color(1, 1, 1, 0.55)                           # the shine
        disc(pos=(cx - r * 0.55, cy - r * 0.05), size=(r * 0.35, r * 0.5))

    def _nugget(self, x0, y0, s, w) -> None:
        """A gold nugget: a lumpy polygon with a lighter facet."""
        corners = [(0.50, 0.16), (0.80, 0.20), (0.96, 0.42), (0.86, 0.70), (0.60, 0.84),
                   (0.30, 0.80), (0.08, 0.60), (0.10, 0.32)]
        points = [(x0 + s * a, y0 + s * b) for a, b in corners]
        Color(*self.colour)
        _polygon(points)
        Color(*self.line)
        Line(points=_flat(points), close=True, width=w * 1.2)
        Color(1, 0.97, 0.8, 0.75)
        _polygon([(x0 + s * a, y0 + s * b) for a, b in
                  ((0.34, 0.62), (0.56, 0.72), (0.66, 0.56), (0.44, 0.48))])

    def _vial(self, x0, y0, s, w) -> None:
        """A potion vial: a slim tube with a rounded foot, a cork and its liquid."""
        width = s * 0.36
        x = x0 + (s - width) / 2
        foot, top = y0 + s * 0.06, y0 + s * 0.80
        Color(*self.line)
        rounded(pos=(x - w, foot - w), size=(width + 2 * w, top - foot + 2 * w),
                         radius=[(width / 2 + w, width / 2 + w)] * 2 + [(w, w)] * 2)
        Color(*GLASS)
        rounded(pos=(x, foot), size=(width, top - foot),
                         radius=[(width / 2, width / 2)] * 2 + [(0, 0)] * 2)
        Color(*self.colour)
        rounded(pos=(x, foot), size=(width, (top - foot) * 0.55),
                         radius=[(width / 2, width / 2)] * 2 + [(0, 0)] * 2)
        Color(*theme.rgba("#8A5A2B"))                  # the cork
        Rectangle(pos=(x + width * 0.12, top), size=(width * 0.76, s * 0.16))

    def _potion(self, x0, y0, s, w) -> None:
        """A potion card: a card standing up with a round flask on it."""
        cw, ch = s * 0.72, s * 0.96
        x, y = x0 + (s - cw) / 2, y0 + s * 0.02
        Color(*self.line)
        rounded(pos=(x - w, y - w), size=(cw + 2 * w, ch + 2 * w), radius=[s * 0.1])
        Color(*CARD)
        rounded(pos=(x, y), size=(cw, ch), radius=[s * 0.08])
        r = cw * 0.30
        cx, cy = x + cw / 2, y + ch * 0.36
        Color(*self.colour)
        disc(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
        Rectangle(pos=(cx - r * 0.35, cy + r * 0.7), size=(r * 0.7, ch * 0.28))
        Color(*self.line)
        Line(circle=(cx, cy, r), width=w)

    def _cards(self, x0, y0, s, w) -> None:
        """A hand of cards: two cards fanned, the front one with a mark."""
        cw, ch = s * 0.58, s * 0.84
        for dx, dy, fill in ((0.06, 0.12, self.colour), (0.36, 0.02, CARD)):
            x, y = x0 + s * dx, y0 + s * dy
            Color(*self.line)
            rounded(pos=(x - w, y - w), size=(cw + 2 * w, ch + 2 * w), radius=[s * 0.1])
            Color(*fill)
            rounded(pos=(x, y), size=(cw, ch), radius=[s * 0.08])
        Color(*self.colour)
        disc(pos=(x0 + s * 0.52, y0 + s * 0.30), size=(cw * 0.45, cw * 0.45))

    def _star(self, x0, y0, s, w) -> None:
        """A Spell: a five-pointed star, filled (a fan from its centre), outlined so a thin
        point still shows."""
        cx, cy = x0 + s / 2, y0 + s * 0.48
        points = []
        for i in range(10):   # a point, then the notch between it and the next
            r, a = s * (0.5 if i % 2 == 0 else 0.225), math.pi / 2 + i * math.pi / 5
            points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        Color(*self.colour)
        _polygon([(cx, cy), *points, points[0]])
        Color(*self.line)
        Line(points=_flat(points), close=True, width=w)


class Digits(KeptText, Label):
    """A count's digits: the same number at the same size is drawn once."""


class Counter(BoxLayout):
    """A drawn icon and its count beside it in big digits of ``fs`` units: the table's Large
    text setting (``app.fu``) makes the digits and the icon larger together (unless
    ``large`` is False). ``name`` says
    which counter it is ("gold"), for whoever reads the tile's counts."""

    kind = OptionProperty("drop", options=KINDS)
    colour = ColorProperty(GOLD)
    value = NumericProperty(0)
    name = StringProperty("")
    fs = NumericProperty(28)
    #: False: the digits keep their size under Large text (a line with no room to grow)
    large = BooleanProperty(True)
    ink = ColorProperty(theme.INK)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        app = App.get_running_app()
        self.icon = Icon(kind=self.kind, colour=self.colour, size_hint_x=None)
        self.digits = Digits(text=str(int(self.value)), bold=True, color=self.ink,
                            halign="left", valign="middle", size_hint_x=None)
        self.digits.far = True     # a count, read from a chair (the layout check's capitals)
        self.digits.bind(texture_size=lambda l, ts: setattr(l, "width", ts[0]),
                         width=self._fit)
        self.fbind("width", self._fit)
        self.add_widget(self.icon)
        self.add_widget(self.digits)
        self.bind(kind=self.icon.setter("kind"), colour=self.icon.setter("colour"),
                  value=lambda *_: setattr(self.digits, "text", str(int(self.value))),
                  ink=self.digits.setter("color"))
        self.fbind("fs", self._size)
        self.fbind("large", self._size)
        app.bind(fu=self._size)
        self._size()

    def _size(self, *_args) -> None:
        app = App.get_running_app()
        size = (app.fu if self.large else app.u) * self.fs
        self.digits.font_size = size
        self.spacing = app.u * 2
        self._fit()

    def _fit(self, *_args) -> None:
        """The icon as large as the digits, or what the counter's width leaves beside them
        (six seats to a row, two digits)."""
        room = self.width - self.digits.width - self.spacing
        self.icon.width = max(0, min(self.digits.font_size * 0.95, room))

    @property
    def shown(self) -> str:
        """What the counter says, in words ("gold 2")."""
        return f"{self.name} {self.digits.text}"
