"""The layout check: readable from across the table, and every target big enough for a thumb.

Run on the widget tree of whatever the window shows (every screen and dialog in every state the
UI tests capture with ``shot()``, at 800x480 and 1280x720). Sizes are in units (``app.u``): one
unit is one pixel on the 7-inch 800x480 panel, so the same limits hold, scaled, at 1280x720.

It finds:
- ``font``: text under 16 units (markup ``[size=N]`` included);
- ``touch``: a button, toggle, slider or text field under 48x48 units;
- ``clipped``: text shortened with "..." (as Kivy drew it, also a text of several lines that
  ``shorten`` put on one) or cut by ``max_lines``, with no way to see it whole;
- ``squeezed``: text shortened to almost nothing (a third of its characters or fewer shown,
  such as a count drawn as "."), or a box too narrow for even one of its characters;
- ``overflow``: text larger than its box, or a child outside its layout or the window;
- ``overlap``: two siblings in a box or grid layout covering each other;
- ``cut``: text cut by a box that is not its own: an ancestor's it reaches out of, or a
  sibling's (of it or of an ancestor) drawn over it, such as a banner under the game bar;
- ``covered``: an overlay (a later sibling, drawn over) lying on an enabled control, unless the
  overlay is a dialog or a sheet over the whole window that takes every touch (a ModalView,
  the dimmed screen's ``modal = True``): the control would show nothing of itself, or take a
  tap meant for the overlay. A refusal, a toast or a banner is never exempt, however it
  takes its touches: what the app says back has its own room (ui/root.kv's messages' band);
- ``greyed``: a control drawn disabled (grey words or the dark fill of ui.theme's disabled
  role, or its own ``looks_disabled`` flag) that still takes a tap (is not Kivy ``disabled``):
  what looks dead must be dead, so a tap never does what the look said it would not;
- ``capitals``, ``said twice``, ``moved``: as a player reads a table screen
  (tests/ui/layout_reading.py).

Whatever is hidden (opacity 0, no size) or scrolled out of a ScrollView is not looked at.

Beside the findings, :func:`layout_reading.text_sizes` gives the size of every text shown, for the figure a
table is judged by from a chair: the share of texts at 24 units or more per screen."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from kivy.core.text import Label as CoreLabel
from kivy.core.text.markup import MarkupLabel
from kivy.core.window import Window
from kivy.uix.behaviors import ButtonBehavior, ToggleButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.slider import Slider
from kivy.uix.stacklayout import StackLayout
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from ui import theme

MIN_FONT = 16      # units: nothing smaller anywhere
MIN_TOUCH = 48     # units: about 9 mm on the 7-inch panel
READ_FAR = 24      # units: a text read from 1.5 m (the share of texts at least this big)
SLACK = 1.0        # pixels of rounding allowed
SIZE_TAG = re.compile(r"\[size=(\d+(?:\.\d+)?)(?:sp|dp|px)?\]")
TAGS = re.compile(r"\[/?[a-z]+(?:=[^\]]*)?\]")

Rect = tuple[float, float, float, float]  # x, y, right, top (window coordinates)


@dataclass(frozen=True)
class Finding:
    kind: str
    where: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.where}: {self.detail}"


def _rect(w: Widget) -> Rect:
    x, y = w.to_window(w.x, w.y)
    return (x, y, x + w.width, y + w.height)


def _inside(inner: Rect, outer: Rect) -> bool:
    return (inner[0] >= outer[0] - SLACK and inner[1] >= outer[1] - SLACK
            and inner[2] <= outer[2] + SLACK and inner[3] <= outer[3] + SLACK)


def _meet(a: Rect, b: Rect) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > SLACK and min(a[3], b[3]) - max(a[1], b[1]) > SLACK


def describe(w: Widget) -> str:
    """A widget as a person finds it: its class, its id in its kv rule, its words."""
    name = type(w).__name__
    owner = w.parent
    while owner is not None and owner is not Window:  # the window is its own parent
        ids = getattr(owner, "ids", {})
        for key, value in ids.items():
            if value is w:
                name += f"#{key}"
                owner = None
                break
        else:
            owner = owner.parent
    words = getattr(w, "title", "") or getattr(w, "text", "")
    if isinstance(words, str) and words.strip():
        words = TAGS.sub("", words).replace("\n", " ")
        name += f" {words[:40]!r}"
    return name


def _shown(window_rect: Rect) -> Iterator[tuple[Widget, Rect | None]]:
    """Every widget drawn, with the clip of the ScrollView it is in (None: the window)."""
    for root in Window.children:
        yield from _shown_from(root)


@lru_cache(maxsize=4096)
def _measure(markup: bool, text: str, font_size: float, font_name: str, bold: bool,
             italic: bool, width: float | None, line_height: float, halign: str,
             padding: tuple[float, ...]) -> tuple[float, float]:
    """The size a text needs (at ``width``, or on one line), with no line limit or
    shortening; the same words at the same size are measured once per run."""
    cls = MarkupLabel if markup else CoreLabel
    core = cls(text=text, font_size=font_size, font_name=font_name, bold=bold, italic=italic,
               text_size=(width, None), line_height=line_height, halign=halign,
               padding=list(padding))
    core.refresh()
    return tuple(core.texture.size) if core.texture else (0, 0)


def _needs(label: Label, width: float | None) -> tuple[float, float]:
    return _measure(bool(label.markup), label.text, float(label.font_size), label.font_name,
                    bool(label.bold), bool(label.italic), width, float(label.line_height),
                    label.halign, tuple(label.padding))


def _full_height(label: Label) -> float:
    """The height the label's text needs at its width, with no line limit or shortening."""
    return _needs(label, label.text_size[0])[1]


def _one_line_width(label: Label) -> float:
    return _needs(label, None)[0]


def _drawn_text(w: Label) -> str:
    """The characters the label drew (after Kivy shortened them), without spaces or tags."""
    lines = getattr(w._label, "_cached_lines", None) or []
    return "".join(word.text for line in lines for word in line.words)


def _visible(text: str) -> str:
    return "".join(text.split())


def _narrowest(w: Label, text: str) -> float:
    """The width of the narrowest character of ``text`` at the label's font."""
    return min(_measure(False, ch, float(w.font_size), w.font_name, bool(w.bold),
                        bool(w.italic), None, 1.0, "left", (0.0, 0.0, 0.0, 0.0))[0]
               for ch in set(text))


def _squeezed(w: Label, words: str, u: float) -> Finding | None:
    """Text shortened to almost nothing, or a box too narrow for one of its characters."""
    room = (w.text_size[0] if w.text_size[0] is not None else w.width) \
        - w.padding[0] - w.padding[2] - (2 if w.shorten else 0)   # Kivy's shorten margin
    if room + SLACK < _narrowest(w, words):
        return Finding("squeezed", describe(w), f"{room / u:.0f} units wide: too narrow for "
                       f"one character of {words[:20]!r}")
    if w.is_shortened:   # what is left besides the "..." (dots count on neither side)
        kept = _visible(_drawn_text(w)).replace(".", "")
        if 3 * len(kept) <= len(words.replace(".", "")):
            return Finding("squeezed", describe(w), f"shortened to almost nothing: "
                           f"{_drawn_text(w)!r} of {words[:40]!r}")
    return None


def _text_findings(w: Label, u: float) -> Iterator[Finding]:
    text = w.text
    if not text.strip():
        return
    sizes = [w.font_size] + ([float(s) for s in SIZE_TAG.findall(text)] if w.markup else [])
    if min(sizes) < MIN_FONT * u - 0.5:
        yield Finding("font", describe(w), f"{min(sizes) / u:.0f} units (at least {MIN_FONT})")
    tw, th = w.texture_size  # drawn already: the frames before a shot updated it
    bound_w = w.text_size[0] is not None
    squeezed = _squeezed(w, _visible(TAGS.sub("", text) if w.markup else text), u)
    if squeezed is not None:
        yield squeezed
    if bound_w and w.shorten and (w.is_shortened or (
            "\n" not in text and _one_line_width(w) > w.text_size[0] + SLACK)):
        what = " (its lines put on one)" if "\n" in text.strip() else ""
        yield Finding("clipped", describe(w), f"shortened with '...'{what}: drawn as "
                      f"{_drawn_text(w)!r}")
    elif bound_w and (w.max_lines or w.text_size[1] is not None):
        need = _full_height(w)
        if w.max_lines and need > th + SLACK:
            yield Finding("clipped", describe(w), f"cut at {w.max_lines} line(s)")
        elif w.text_size[1] is not None and need > w.text_size[1] + SLACK:
            yield Finding("clipped", describe(w), f"lines cut: needs {need / u:.0f} units of "
                          f"height, has {w.text_size[1] / u:.0f}")
    if th > w.height + SLACK or (not bound_w and tw > w.width + SLACK):
        yield Finding("overflow", describe(w),
                      f"text {tw / u:.0f}x{th / u:.0f} in a box {w.width / u:.0f}x"
                      f"{w.height / u:.0f} units")


def _is_target(w: Widget) -> bool:
    return isinstance(w, (ButtonBehavior, ToggleButtonBehavior, TextInput, Slider))


def _looks_disabled(w: Widget) -> bool:
    """Drawn as a control that does nothing now: its flag, or the disabled role's colours in
    the words it draws (``color``) or its fill."""
    if getattr(w, "looks_disabled", False) is True:
        return True
    return theme.looks_disabled(getattr(w, "fill", None), getattr(w, "color", None))


def _shown_from(root: Widget) -> Iterator[tuple[Widget, Rect | None]]:
    """``root`` and what it shows, with the clip of the ScrollView each is in."""
    stack: list[tuple[Widget, Rect | None]] = [(root, None)]
    while stack:
        w, clip = stack.pop()
        if w.opacity <= 0.01 or w.width <= 0 or w.height <= 0:
            continue
        if clip is not None and not _meet(_rect(w), clip):
            continue
        yield w, clip
        inner = _rect(w) if isinstance(w, ScrollView) else clip
        stack.extend((c, inner) for c in w.children)


def _modal(w: Widget) -> bool:
    """A dialog, or a sheet over the whole window that takes every touch (the dimmed screen):
    what it lies over is not pressed unseen, since nothing else is in reach. A message, a
    toast or a banner is never that, modal or not: over a control it is found."""
    if isinstance(w, ModalView):     # its overlay darkens the whole window and takes touches
        return True
    if not getattr(w, "modal", False):
        return False
    return _inside((0.0, 0.0, float(Window.width), float(Window.height)), _rect(w))


def _painted(w: Widget) -> list[Rect]:
    """Where ``w`` paints: its box if it draws anything itself, else where its children do
    (a bare layout laid over the screen to place a widget covers only that widget)."""
    if w.opacity <= 0.01 or w.width <= 0 or w.height <= 0:
        return []
    canvases = (w.canvas, getattr(w.canvas, "before", None), getattr(w.canvas, "after", None))
    if any(c is not None and c.children for c in canvases):
        return [_rect(w)]
    return [r for c in w.children for r in _painted(c)]


def _drawn_under(top: Widget, under: Widget) -> Iterator[Widget]:
    """What of ``under`` (shown, not scrolled away) meets where ``top`` paints."""
    boxes = _painted(top)
    for w, _clip in _shown_from(under):
        if any(_meet(_rect(w), box) for box in boxes):
            yield w


def _layered(parent: Widget) -> Iterator[Finding]:
    """Siblings drawn over one another outside a box or grid (those are ``overlap``): Kivy
    draws ``children[0]`` last, so each child lies over every one after it in the list."""
    kids = [c for c in parent.children if c.opacity > 0.01 and c.width > 0 and c.height > 0]
    for i, top in enumerate(kids):
        if _modal(top):
            continue
        for under in kids[i + 1:]:
            if not _meet(_rect(top), _rect(under)):
                continue
            for w in _drawn_under(top, under):
                if _is_target(w) and not w.disabled:
                    yield Finding("covered", describe(w), f"{describe(top)} lies over it")
                elif isinstance(w, Label) and w.text.strip():
                    yield Finding("cut", describe(w), f"{describe(top)} is drawn over it")


def _cut_by_ancestor(w: Label) -> Finding | None:
    """Text reaching out of an ancestor's box (up to the ScrollView it is in, which scrolls)."""
    rect, owner = _rect(w), w.parent
    while owner is not None and owner is not Window and not isinstance(owner, ScrollView):
        if not isinstance(owner, ModalView) and not _inside(rect, _rect(owner)):
            return Finding("cut", describe(w), f"reaches out of {describe(owner)}")
        owner = owner.parent
    return None


def check(u: float, table: bool = False, dialog: bool = False,
          large: bool = False, floor: bool = True) -> list[Finding]:
    """Every finding on what the window shows now. ``table``: a game's table screen is shown,
    so every text on it and on a dialog over it is held to the type scale's floor
    (``large``: Large text's; ``floor`` False: the rule before the floor, on the screen
    alone); ``dialog``: one is open, so the screen under it is dimmed and its repeats are not
    read."""
    from layout_reading import SAID_ONCE_HOLDS, _capital_finding, drawn_findings, said_twice

    window = (0.0, 0.0, float(Window.width), float(Window.height))
    found: list[Finding] = list(_layered(Window))
    if table and not dialog and SAID_ONCE_HOLDS:
        found += said_twice()
    for w, clip in _shown(window):
        rect = _rect(w)
        if isinstance(w, Label):
            found.extend(_text_findings(w, u))
            if table and (floor or not dialog) and (
                    caps := _capital_finding(w, u, large, floor)) is not None:
                found.append(caps)
            if w.text.strip() and (cut := _cut_by_ancestor(w)) is not None:
                found.append(cut)
        elif table and floor:        # texts drawn on a canvas (the Cauldron track's)
            found.extend(drawn_findings(w, u, large))
        if not isinstance(w, (BoxLayout, GridLayout, StackLayout)):
            found.extend(_layered(w))
        if _is_target(w) and not w.disabled and (
                w.width < MIN_TOUCH * u - SLACK or w.height < MIN_TOUCH * u - SLACK):
            found.append(Finding("touch", describe(w), f"{w.width / u:.0f}x{w.height / u:.0f} "
                                 f"units (at least {MIN_TOUCH}x{MIN_TOUCH})"))
        if _is_target(w) and not w.disabled and _looks_disabled(w):
            found.append(Finding("greyed", describe(w), "drawn disabled, yet a tap reaches it "
                                 "(make it disabled, or draw it as the control it is)"))
        if clip is None and w.parent is not Window and not _inside(rect, window):
            found.append(Finding("overflow", describe(w), "outside the window"))
        if isinstance(w, (BoxLayout, GridLayout, StackLayout)):
            kids = [c for c in w.children if c.opacity > 0.01 and c.width > 0 and c.height > 0]
            box = rect
            for i, a in enumerate(kids):
                ra = _rect(a)
                if clip is None and not _inside(ra, box):
                    found.append(Finding("overflow", describe(a), f"outside {describe(w)}"))
                for b in kids[i + 1:]:
                    if _meet(ra, _rect(b)):
                        found.append(Finding("overlap", describe(a), f"covers {describe(b)}"))
    return found
