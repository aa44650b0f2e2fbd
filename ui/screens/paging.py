"""A list of finished games read a page at a time (home's, the history's): a page is added at
the end without moving what the list shows, and the next is read when the list is scrolled to
its end. Both lists are RecycleViews whose rows each know their height."""

from __future__ import annotations

from typing import Any, Callable


def add_in_place(rv: Any, fill: Callable[[], None], gap: float = 0) -> None:
    """``fill`` lays the list's rows again, longer; where ``rv`` was scrolled stays where it
    was (the rows above its top stay above it). ``gap``: the layout's spacing between rows."""
    above = (1 - rv.scroll_y) * max(0, rv.children[0].height - rv.height) if rv.children else 0
    fill()
    content = sum(row["height"] for row in rv.data) + gap * (len(rv.data) - 1)
    if content > rv.height:
        rv.scroll_y = 1 - above / (content - rv.height)


def at_the_end(rv: Any) -> bool:
    """The list, taller than its view, is scrolled to its end: time for the next page."""
    return bool(rv.scroll_y <= 0.02 and rv.data and rv.children
                and rv.children[0].height > rv.height)
