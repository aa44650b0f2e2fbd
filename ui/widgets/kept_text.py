"""Words drawn once: a label whose text and looks come back (a seat's chip going from
"Answering" to "Waiting" and back, digits at the size they had before) shows the picture it
drew then instead of drawing the letters again.

Drawing a label's letters (SDL2_ttf, then a texture upload) is the largest part of what a press
costs between the rules and the frame: about 1.4 ms a label at the table's sizes, on a desktop
CPU, and a Pi is several times slower. A table screen changes between a few states of the same
words, so most of what a refresh would draw was drawn before. The pictures are kept in one
store for the whole app, by everything that decides how the letters look (the words as the
renderer sees them, the font, its size, the colour, the box, the alignment...), and the oldest
are let go past a budget of pixels, so the store stays small beside the screens' own buffers.

A kept picture is never drawn into again: Kivy's renderer reuses its last texture when the
next text has the same size, so after drawing one the label's renderer is given a fresh one.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from kivy.core.text.markup import MarkupLabel
from kivy.uix.label import Label
from kivy.utils import get_hex_from_color

#: at most this many pixels of pictures are kept (4 bytes each): 4 MiB
BUDGET_PX = 1 << 20


@dataclass(frozen=True)
class Picture:
    """What a label drew: the texture and what Kivy reads back from the renderer with it."""

    texture: Any
    is_shortened: bool
    refs: dict
    anchors: dict

    @property
    def pixels(self) -> int:
        return int(self.texture.width) * int(self.texture.height)


class Pictures:
    """The kept pictures, the least recently shown let go first."""

    def __init__(self, budget_px: int = BUDGET_PX) -> None:
        self.budget_px = budget_px
        self._kept: OrderedDict[tuple, Picture] = OrderedDict()
        self.pixels = 0
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple) -> Picture | None:
        picture = self._kept.get(key)
        if picture is None:
            self.misses += 1
            return None
        self._kept.move_to_end(key)
        self.hits += 1
        return picture

    def keep(self, key: tuple, picture: Picture) -> None:
        if picture.pixels > self.budget_px // 8:   # one big picture would push out many
            return
        old = self._kept.pop(key, None)
        if old is not None:
            self.pixels -= old.pixels
        self._kept[key] = picture
        self.pixels += picture.pixels
        while self.pixels > self.budget_px and self._kept:
            _key, gone = self._kept.popitem(last=False)
            self.pixels -= gone.pixels

    def clear(self) -> None:
        self._kept.clear()
        self.pixels = 0

    def __len__(self) -> int:
        return len(self._kept)


PICTURES = Pictures()


def frozen(value: Any) -> Any:
    """An option's value as a key: lists (colours, padding, text_size) become tuples."""
    if isinstance(value, (list, tuple)):
        return tuple(frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, frozen(v)) for k, v in value.items()))
    return value


class KeptText:
    """For a Kivy ``Label`` subclass (put it first): ``texture_update`` shows a kept picture when
    one was drawn with the same words and options, and keeps what it draws."""

    def texture_update(self, *largs) -> None:
        core = self._label
        markup = core.__class__ is MarkupLabel
        text = self.text
        if self.halign == "justify" or self.strip:
            text = text.strip()
        if not text:
            super().texture_update(*largs)    # no picture at all: Kivy's own empty case
            return
        if markup:    # as Kivy's Label does: the colour is part of the markup it renders
            colour = self.disabled_color if self.disabled else self.color
            core.text = f"[color={get_hex_from_color(colour)}]{text}[/color]"
        # the box is the renderer's ``usersize``, kept apart from its options
        key = (markup, core.text, frozen(core.usersize), frozen(core.options))
        picture = PICTURES.get(key)
        if picture is None:
            super().texture_update(*largs)
            texture = self.texture
            if texture is None or texture is core.texture_1px:
                return
            texture.bind()          # drawn now, with these words, not when first shown
            core.texture = None     # the renderer's next words get a texture of their own
            PICTURES.keep(key, Picture(texture, bool(self.is_shortened),
                                       dict(self.refs) if markup else {},
                                       dict(self.anchors) if markup else {}))
            return
        self.texture = picture.texture
        self.texture_size = list(picture.texture.size)
        self.is_shortened = picture.is_shortened
        if markup:
            self.refs, core._refs = picture.refs, picture.refs
            self.anchors, core._anchors = picture.anchors, picture.anchors


class Words(KeptText, Label):
    """Kivy's Label, its words drawn once (the kv files' plain ``Words:``)."""
