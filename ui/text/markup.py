"""Player-entered text put into Kivy markup, shown as typed.

A Label with ``markup: True`` reads ``[b]``, ``[color=...]``, ``[ref=...]`` and ``&bl;`` in its
text; a player named ``[b]Anna[/b]`` (or a potion, a note, a refusal quoting a name) would
otherwise restyle the table's screen or swallow part of it. Every piece of such text goes
through :func:`plain` where it is put into markup; the markup the app writes itself stays
outside it. In ``.kv`` files: ``#:import M ui.text.markup`` and ``M.plain(root.title)``.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.utils import escape_markup


def size(px: float) -> int:
    """A ``[size=N]`` tag's N: Kivy's markup takes whole pixels only; rounded up, so a caption of
    16 units is never drawn under 16 at a unit such as 1.22 pixels."""
    return math.ceil(px - 0.01)


def plain(text: Any) -> str:
    """``text`` as a markup label shows it literally: ``[``, ``]`` and ``&`` escaped."""
    return escape_markup(str(text))


__all__ = ["plain"]
