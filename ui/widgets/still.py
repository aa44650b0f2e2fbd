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

A table screen changes a few parts at a time (a seat's word, the headline): it is made of
regions (:class:`StillRegion`), each keeping its own picture, and drawn straight into the
window (``StillLayer.buffered`` False while it shows), so a press redraws the parts it changed
and no more.
"""

from __future__ import annotations

import math

from kivy.graphics import (
    Callback, Canvas, ClearBuffers, ClearColor, Color, Fbo, Rectangle, Translate,
)
from kivy.graphics.opengl import GL_BLEND, glDisable, glEnable
from kivy.properties import BooleanProperty, ColorProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.widget import Widget


def copied(widget: Widget, picture: Rectangle, cleared: str) -> tuple[Callback, Callback]:
    """The instructions around an opaque picture that copy it instead of blending it: the
    picture of a buffer cleared to an opaque colour covers what is under it, and a blend reads
    every pixel under it first (a window of them, about 2 ms a frame in software GL). Kivy
    blends everything; a widget or one of its parents fading, or a buffer cleared to a colour
    that is not opaque (``cleared``, the widget's property), still blends."""

    def start(_instruction) -> None:
        w = widget
        while w is not None and w.opacity >= 1:
            w = w.parent if w.parent is not w else None
        if w is None and picture.size[0] > 0 and getattr(widget, cleared)[3] >= 1:
            glDisable(GL_BLEND)

    return Callback(start), Callback(lambda _instruction: glEnable(GL_BLEND))


class StillLayer(Widget):
    """Its children are drawn into ``fbo``; its canvas shows the buffer's texture."""

    background = ColorProperty((0, 0, 0, 1))

    def __init__(self, **kwargs) -> None:
        self.canvas = Canvas()
        with self.canvas:
            self.fbo = Fbo(size=(1, 1), with_stencilbuffer=True)
            Color(1, 1, 1, 1)
            self.picture = Rectangle(size=(1, 1), texture=self.fbo.texture)
            self._direct = Canvas()
        start, end = copied(self, self.picture, "background")
        self.canvas.insert(self.canvas.indexof(self.picture), start)
        self.canvas.insert(self.canvas.indexof(self.picture) + 1, end)
        with self.fbo:
            self._clear = ClearColor(0, 0, 0, 1)
            ClearBuffers()
        super().__init__(**kwargs)
        self.fbind("size", self._resize)
        self.fbind("pos", self._resize)
        self.fbind("background", self._recolour)
        self._recolour()

    def _resize(self, *_args) -> None:
        """A new buffer of the window's size (the old one's picture would be stretched); set
        aside, the buffer gives its memory back (a whole window of colour and stencil)."""
        size = (max(1, int(self.width)), max(1, int(self.height))) if self.buffered else (1, 1)
        if tuple(self.fbo.size) != size:
            self.fbo.size = size
        self.picture.pos = self.pos
        self.picture.size = size if self.buffered else (0, 0)
        self.picture.texture = self.fbo.texture

    def _recolour(self, *_args) -> None:
        self._clear.rgba = self.background

    #: False: the children are drawn straight into the window, and the buffer is set aside. A
    #: screen made of regions (:class:`StillRegion`) keeps its pictures itself: buffering them
    #: again would only copy the whole window once more on every change.
    buffered = BooleanProperty(True)

    def on_buffered(self, _layer, buffered: bool) -> None:
        old, new = (self._direct, self.fbo) if buffered else (self.fbo, self._direct)
        for child in reversed(self.children):
            old.remove(child.canvas)
            new.add(child.canvas)
        self._resize()

    # Children draw into the buffer, not into the layer's own canvas (as Kivy's EffectWidget).
    def add_widget(self, widget, *args, **kwargs):
        canvas, self.canvas = self.canvas, (self.fbo if self.buffered else self._direct)
        try:
            return super().add_widget(widget, *args, **kwargs)
        finally:
            self.canvas = canvas

    def remove_widget(self, widget, *args, **kwargs):
        canvas, self.canvas = self.canvas, (self.fbo if self.buffered else self._direct)
        try:
            return super().remove_widget(widget, *args, **kwargs)
        finally:
            self.canvas = canvas


class Shell(Canvas):
    """A region's canvas as its parent draws it: the buffer and its picture. To everyone else
    (kv rules, ``with widget.canvas:``, the region's own children) it is the canvas inside the
    buffer, so whatever is drawn on the region lands in the buffer, however it was added."""

    inner: Canvas

    before = property(lambda self: self.inner.before)
    after = property(lambda self: self.inner.after)
    children = property(lambda self: self.inner.children)

    def add(self, instruction) -> None:
        self.inner.add(instruction)

    def insert(self, index: int, instruction) -> None:
        self.inner.insert(index, instruction)

    def remove(self, instruction) -> None:
        self.inner.remove(instruction)

    def indexof(self, instruction) -> int:
        return self.inner.indexof(instruction)

    def clear(self) -> None:
        self.inner.clear()

    def __enter__(self):
        return self.inner.__enter__()

    def __exit__(self, *exc):
        return self.inner.__exit__(*exc)

    def hold(self, *instructions) -> None:
        """What the parent draws, in this order (once: they stay)."""
        for instruction in instructions:
            Canvas.add(self, instruction)


#: pixels: a region's buffer grows in steps of this, so a size that comes and goes
ROOM_STEP = 16


def room_for(size: tuple[int, int]) -> tuple[int, int]:
    """A buffer for ``size``, a little larger: a region whose height changes with the phase
    (a headline of one line or two) keeps one buffer. A new buffer is a new texture, a
    framebuffer and a stencil: about half a millisecond here, three of them a press before."""
    return tuple(-(-side // ROOM_STEP) * ROOM_STEP for side in size)  # type: ignore[return-value]


def fits(size: tuple[int, int], have: tuple[int, int]) -> bool:
    """Whether a buffer of ``have`` serves ``size``: large enough, and not four times the
    pixels (a window made smaller gives its memory back)."""
    return (size[0] <= have[0] and size[1] <= have[1]
            and have[0] * have[1] <= 4 * max(ROOM_STEP ** 2, size[0] * size[1]))


class StillRegion:
    """For a widget (put it first among its bases): the widget and everything on it drawn into
    a buffer of its own size, drawn again only when something on it changes.

    The screens' buffer above redraws the whole screen when one thing on it changes: a table
    screen is over a thousand instructions and a few layers of the whole window in software GL
    for a press that changed one seat's word. A region (a seat's tile, the headline, the
    answer buttons) keeps its own picture, so that press redraws the tiles that changed and
    puts the other pictures back as they were. Its own background is inside the buffer too,
    which is cleared to ``behind``, the colour the region stands on (rounded corners show it),
    opaque, so nothing is blended twice. The buffer covers the whole pixels the widget touches
    (its lower left part: the buffer is kept when the region grows a little, see
    :func:`room_for`) and its content is shifted by whole pixels, so the letters are not
    resampled; its opacity fades the picture."""

    behind = ColorProperty((0, 0, 0, 1))
    #: False: drawn as a plain widget, straight into whatever draws its parent (the tests
    #: compare the two pictures)
    buffered = BooleanProperty(True)

    def __init__(self, **kwargs) -> None:
        from ui import theme

        drawn = Canvas()
        self.canvas = Shell()
        self.canvas.inner = drawn
        self._fbo: Fbo | None = None       # made when the region first has pixels (_place)
        self._slot = Canvas()              # where the buffer is drawn, once there is one
        self._aside = Canvas()             # drawn nowhere: the drawing, until its buffer
        self._aside.add(drawn)
        self._holder = self._aside         # which of the three holds the drawing now
        self._white = Color(1, 1, 1, 1)
        self._picture = Rectangle(size=(0, 0))
        self._shown = (0, 0)               # the part of the buffer the picture shows
        self._plain = Canvas()             # unbuffered, the drawing moves here
        copy, blend = copied(self, self._picture, "behind")
        self.canvas.hold(self._slot, self._white, copy, self._picture, blend, self._plain)
        super().__init__(**kwargs)
        if "behind" not in kwargs:
            self.behind = theme.BG
        self.fbind("size", self._place)
        self.fbind("pos", self._place)
        self.fbind("behind", self._recolour)
        self.fbind("buffered", self._rebuffer)
        self._place()

    def _rehome(self) -> None:
        """The drawing where it belongs: plain, in its buffer, or aside until it has one."""
        home = self._plain if not self.buffered else (self._fbo or self._aside)
        if home is not self._holder:
            self._holder.remove(self.canvas.inner)
            home.add(self.canvas.inner)
            self._holder = home

    def _rebuffer(self, *_args) -> None:
        self._rehome()
        self._place()

    def _buffer(self, size: tuple[int, int]) -> None:
        """The region's buffer, made when it first has pixels: a new framebuffer costs about
        half a millisecond, and a region that never shows (the game bar on Home's first
        frame, a panel folded away) needs none."""
        self._fbo = Fbo(size=room_for(size), with_stencilbuffer=True)
        with self._fbo:
            self._clear = ClearColor(*self.behind)
            ClearBuffers()
            self._shift = Translate(0, 0)
        self._slot.add(self._fbo)
        self._rehome()

    def _place(self, *_args) -> None:
        if self._fbo is None:
            if self.width <= 0 or self.height <= 0:
                self._picture.size = (0, 0)    # nothing to show, nothing drawn
                return
        # the whole pixels the widget touches (from x and width themselves: right and top may
        # not have followed yet), and the content shifted by whole pixels into them
        x0, y0 = math.floor(self.x), math.floor(self.y)
        size = (max(1, math.ceil(self.x + self.width) - x0),
                max(1, math.ceil(self.y + self.height) - y0))
        if self._fbo is None:
            self._buffer(size)
            self._picture.texture = self._fbo.texture.get_region(0, 0, *size)
        elif not fits(size, tuple(self._fbo.size)):
            self._fbo.size = room_for(size)
            self._picture.texture = self._fbo.texture.get_region(0, 0, *size)
        elif size != self._shown:
            self._picture.texture = self._fbo.texture.get_region(0, 0, *size)
        self._shown = size
        self._shift.xy = (-x0, -y0)
        self._picture.pos = (x0, y0)
        self._picture.size = size if self.buffered else (0, 0)

    def _recolour(self, *_args) -> None:
        if self._fbo is not None:
            self._clear.rgba = self.behind


class StillBox(StillRegion, BoxLayout):
    """A BoxLayout drawn into a buffer of its own (a table screen's headline, its buttons)."""


class StillRelative(StillRegion, RelativeLayout):
    """A RelativeLayout drawn into a buffer of its own (Quest's board and what lies on it)."""
