"""How many lines a text wraps onto in a Label of a given width, without rendering it: the log
lists (the game bar's dialog, a game's detail) size each row from its data, as a RecycleView
needs, and a log of thousands of lines must not render each one to find out."""

from __future__ import annotations

from functools import lru_cache

from kivy.core.text import Label as CoreLabel


@lru_cache(maxsize=16)
def _measurer(px: float) -> CoreLabel:
    return CoreLabel(font_size=px)


@lru_cache(maxsize=8192)
def _word_width(word: str, px: float) -> float:
    return _measurer(px).get_extents(word)[0]


def lines_needed(text: str, width: float, px: float) -> int:
    """How many lines ``text`` wraps onto at ``width`` (pixels, font ``px``), wrapped at its
    spaces as a Label wraps it. Words are measured once per size, so a log of thousands of
    lines costs a few hundred measurements, not a text render per line; a line whose sum of
    words comes near the width (where kerning decides) is measured whole."""
    space = _word_width(" ", px)
    margin = width * 0.03 + 2
    lines, line, used = 1, "", 0.0
    for word in text.split(" "):
        w = _word_width(word, px)
        if not line:
            line, used = word, w
            continue
        near = used + space + w
        fits = near < width - margin or (
            near <= width + margin and _measurer(px).get_extents(f"{line} {word}")[0] <= width)
        if fits:
            line, used = f"{line} {word}", near
        else:
            lines, line, used = lines + 1, word, w
    return lines
