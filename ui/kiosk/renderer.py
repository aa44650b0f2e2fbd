"""Which GL renderer draws the app, and a word to the table when it is the processor, not the
graphics chip.

On a Pi whose service user is missing the video or render group, or whose config.txt lost the
KMS overlay, Mesa falls back to llvmpipe: the app still works, at a few frames a second. Nobody
at the table reads the journal, so the kiosk says it on the home screen (small, dismissable:
the game is still playable) and logs one WARNING line; ``companion doctor --display`` says why.

When to look: on the kiosk (SDL's kmsdrm driver, as the unit starts it) and nowhere else by
default: a PC in demo mode draws in software often enough and that is nobody's problem.
``COMPANION_RENDERER_NOTICE=1`` looks everywhere (a test on this llvmpipe machine, a Pi
desktop), ``=0`` never. The words a renderer is judged by are the doctor's
(:data:`hardware.doctor_checks.SOFTWARE_RENDERERS`), so both always agree.
"""

from __future__ import annotations

import logging
import os
from typing import Mapping

from kivy.app import App
from kivy.graphics import Color, RoundedRectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from hardware.doctor_checks import SOFTWARE_RENDERERS
from ui import theme
from ui.widgets.common import FlatButton

log = logging.getLogger(__name__)

NOTICE_ENV = "COMPANION_RENDERER_NOTICE"
NOTICE = "Drawing without the graphics chip: slow. See companion doctor."


def gl_renderer() -> str:
    """GL_RENDERER of the window's context ("V3D 7.1", "llvmpipe (LLVM 15.0.6, 128 bits)")."""
    from kivy.graphics.opengl import GL_RENDERER, glGetString

    value = glGetString(GL_RENDERER)
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value or "")


def is_software(renderer: str) -> bool:
    return any(word in renderer.lower() for word in SOFTWARE_RENDERERS)


def wanted(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether to look at the renderer at all: ``COMPANION_RENDERER_NOTICE`` (1 or 0), else
    only on the kiosk's console (``SDL_VIDEODRIVER=kmsdrm``)."""
    said = environ.get(NOTICE_ENV, "").strip()
    if said in ("0", "1"):
        return said == "1"
    return environ.get("SDL_VIDEODRIVER", "") == "kmsdrm"


def check(home, renderer: str | None = None,
          environ: Mapping[str, str] = os.environ) -> "RendererNotice | None":
    """At start: when wanted and the renderer is a software one, log one WARNING and put the
    notice on the ``home`` screen; returns the notice shown, or None."""
    if not wanted(environ):
        return None
    renderer = gl_renderer() if renderer is None else renderer
    if not is_software(renderer):
        return None
    log.warning("Renderer: %s draws with the processor, not the graphics chip: slow "
                "(companion doctor --display says why)", renderer)
    notice = RendererNotice()
    notice.show_on(home)
    return notice


class RendererNotice(BoxLayout):
    """A strip under the home screen's notice: the words, and Dismiss (for this start)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(orientation="horizontal", size_hint_y=None, **kwargs)
        app = App.get_running_app()
        self.words = Label(text=NOTICE, color=theme.INK, halign="left", valign="middle")
        self.dismiss_button = FlatButton(title="Dismiss", fs=18, size_hint_x=None)
        self.dismiss_button.bind(on_release=lambda *_: self.dismiss())
        self.add_widget(self.words)
        self.add_widget(self.dismiss_button)
        with self.canvas.before:
            Color(*theme.SURFACE_HI)
            self._rect = RoundedRectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._paint, size=self._paint)
        self.words.bind(width=self._fit, texture_size=self._fit)
        app.bind(u=self._fit)
        self._fit()

    def _paint(self, *_args) -> None:
        self._rect.pos, self._rect.size = self.pos, self.size
        self._rect.radius = [8 * App.get_running_app().u]

    def _fit(self, *_args) -> None:
        u = App.get_running_app().u
        self.padding = (u * 10, u * 4, u * 4, u * 4)
        self.spacing = u * 8
        self.words.font_size = u * 18
        self.words.text_size = (self.words.width, None)
        self.dismiss_button.width = u * 120
        self.height = max(u * 56, self.words.texture_size[1] + u * 8)

    def show_on(self, home) -> None:
        """Right under the home screen's notice strip (above the games), else at the top of
        its column."""
        anchor = getattr(home.ids, "notice", None)
        anchor = anchor.parent if anchor is not None else None
        column = anchor.parent if anchor is not None else home.children[0]
        at = column.children.index(anchor) if anchor is not None else len(column.children)
        column.add_widget(self, index=at)

    def dismiss(self) -> None:
        if self.parent is not None:
            self.parent.remove_widget(self)
