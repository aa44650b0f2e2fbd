"""Cauldron's own small drawings beside a seat's counters: a vial for its Potions, a star for
its Spells. Drawn on the canvas (no image files, no font glyphs), in the colour asked for,
centred in the widget's box and as large as it allows."""

from __future__ import annotations

from math import cos, pi, sin

from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle
from kivy.properties import ColorProperty, StringProperty
from kivy.uix.widget import Widget

from ui import theme


class Drawing(Widget):
    """``shape`` is 'vial' or 'star'; redrawn when its box or colour changes."""

    shape = StringProperty("vial")
    colour = ColorProperty(theme.INK)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fbind("pos", self._draw)
        self.fbind("size", self._draw)
        self.fbind("colour", self._draw)
        self.fbind("shape", self._draw)
        self._draw()

    def _draw(self, *_args) -> None:
        self.canvas.clear()
        side = min(self.width, self.height)
        if side <= 0:
            return
        # from pos and size, not center: the centre's cached value may still be the old one
        # while a size change is dispatched (a new line's drawing then sat where its default
        # 100-unit height put it)
        x, y = self.x + (self.width - side) / 2, self.y + (self.height - side) / 2
        with self.canvas:
            Color(*self.colour)
            (vial if self.shape == "vial" else star)(x, y, side)


def vial(x: float, y: float, side: float) -> None:
    """A round-bottomed flask with a neck and a cork."""
    body = side * 0.62
    Ellipse(pos=(x + (side - body) / 2, y), size=(body, body))
    neck_w = side * 0.26
    Rectangle(pos=(x + (side - neck_w) / 2, y + body * 0.8), size=(neck_w, side * 0.26))
    cork_w = side * 0.36
    Rectangle(pos=(x + (side - cork_w) / 2, y + side * 0.86), size=(cork_w, side * 0.14))


def star(x: float, y: float, side: float) -> None:
    """A five-pointed star, filled, with an outline so a thin point still shows."""
    cx, cy, outer = x + side / 2, y + side * 0.48, side * 0.5
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else outer * 0.45
        a = pi / 2 + i * pi / 5
        points += [cx + r * cos(a), cy + r * sin(a)]
    vertices = [cx, cy, 0, 0]
    for i in range(0, len(points), 2):
        vertices += [points[i], points[i + 1], 0, 0]
    vertices += [points[0], points[1], 0, 0]
    Mesh(vertices=vertices, indices=list(range(len(vertices) // 4)), mode="triangle_fan")
    Line(points=points, close=True, width=max(1.0, side / 30))
