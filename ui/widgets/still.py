"""The screens drawn once into an offscreen buffer, redrawn only when something on them changes.

Kivy redraws the whole window whenever any instruction changes, and on the Pi's GL (and Mesa's
software GL here) drawing a table screen costs tens of milliseconds: with the game bar's clocks
ticking once a second, that was most of the app's idle CPU. The screens live in a framebuffer
(Kivy's ``Fbo``), which draws its children again only when one of them has changed; the window
then draws the buffer as one picture, and the ticking clocks beside it. A change on a screen
costs what it did before; a tick costs the bar and one picture.

The layer covers the whole window at (0, 0), so its children keep window coordinates (touch,
``to_window`` and the layout check see the same positions as without it). The buffer is
cleared to the window's background colour, opaque, so nothing is blended twice.
"""

from __future__ import annotations

from kivy.graphics import Canvas, ClearBuffers, ClearColor, Color, Fbo, Rectangle
from kivy.properties import ColorProperty
from kivy.uix.widget import Widget


class StillLayer(Widget):
    """Its children are drawn into ``fbo``; its canvas shows the buffer's texture."""

    background = ColorProperty((0, 0, 0, 1))

    def __init__(self, **kwargs) -> None:
        self.canvas = Canvas()
        with self.canvas:
            self.fbo = Fbo(size=(1, 1), with_stencilbuffer=True)
            Color(1, 1, 1, 1)
            self.picture = Rectangle(size=(1, 1), texture=self.fbo.texture)
        with self.fbo:
            self._clear = ClearColor(0, 0, 0, 1)
            ClearBuffers()
        super().__init__(**kwargs)
        self.fbind("size", self._resize)
        self.fbind("pos", self._resize)
        self.fbind("background", self._recolour)
        self._recolour()

    def _resize(self, *_args) -> None:
        """A new buffer of the window's size (the old one's picture would be stretched)."""
        size = (max(1, int(self.width)), max(1, int(self.height)))
        if tuple(self.fbo.size) != size:
            self.fbo.size = size
        self.picture.pos = self.pos
        self.picture.size = size
        self.picture.texture = self.fbo.texture

    def _recolour(self, *_args) -> None:
        self._clear.rgba = self.background

    # Children draw into the buffer, not into the layer's own canvas (as Kivy's EffectWidget).
    def add_widget(self, widget, *args, **kwargs):
        canvas, self.canvas = self.canvas, self.fbo
        try:
            return super().add_widget(widget, *args, **kwargs)
        finally:
            self.canvas = canvas

    def remove_widget(self, widget, *args, **kwargs):
        canvas, self.canvas = self.canvas, self.fbo
        try:
            return super().remove_widget(widget, *args, **kwargs)
        finally:
            self.canvas = canvas
