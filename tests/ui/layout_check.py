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
  what looks dead must be dead, so a tap never does what the look said it would not.

Whatever is hidden (opacity 0, no size) or scrolled out of a ScrollView is not looked at.

Beside the findings, :func:`text_sizes` gives the size of every text shown, for the figure a
table is judged by from a chair: the share of texts at 24 units or more per screen."""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from kivy.core.text import Label as CoreLabel, LabelBase
from kivy.core.text.markup import MarkupLabel
from kivy.core.window import Window
from kivy.uix.behaviors import ButtonBehavior, ToggleButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.slider import Slider
from kivy.uix.stacklayout import StackLayout
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from ui import theme
from ui.text.phrases import phrases as _phrases

MIN_FONT = 16      # units: nothing smaller anywhere
MIN_TOUCH = 48     # units: about 9 mm on the 7-inch panel
READ_FAR = 24      # units: a text read from 1.5 m (the share of texts at least this big)
FAR_CAPS = 21      # pixels at 800x480: the capitals of a table's headline, names and counts
NEAR_CAPS = 14     # pixels at 800x480: the capitals of every other text on a table screen
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
    toast or a banner is never that, modal or not (issue 33): over a control it is found."""
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


def _capital_finding(w: Label, u: float) -> Finding | None:
    """On a table screen: a headline, a seat's name or a count (``far: True`` in its kv rule)
    with capitals under FAR_CAPS (in pixels at 800x480, so in units at any window size).
    Every other text's NEAR_CAPS is counted in the figures (tests/conftest.py), not yet a
    finding: the table screens' smaller words are still 16-18 units (11-13 px)."""
    if not w.text.strip() or not getattr(w, "far", False):
        return None
    far = True
    least = FAR_CAPS
    caps = capital_px(w) if not w.markup else min(
        [float(w.font_size)] + [float(x) for x in SIZE_TAG.findall(w.text)]) \
        * cap_ratio(_font_file(w))
    if caps < least * u - 0.5:
        what = "a headline, name or count" if far else "text on a table screen"
        return Finding("capitals", describe(w), f"capitals {caps / u:.0f} px, {what} needs "
                       f"{least} (font size {w.font_size / u:.0f})")
    return None


#: layouts that only place their children: two of them side by side are not a list's items
BARE = (BoxLayout, FloatLayout, GridLayout, StackLayout, Widget)
#: whether a table screen's repeats fail the test that captured them; until every screen's
#: wording says each thing once they are counted in the figures ("said twice")
SAID_ONCE_HOLDS = False


def said_twice() -> list[Finding]:
    """The same phrase of three or more words twice among the texts the window shows (the
    topmost dialog's alone while one is open: what is under it is dimmed, not read): a screen
    says a thing once ("Fill the board" in the headline, its detail and the log was three
    times, issue 33). Each repeat is one finding, naming the phrase and where it is."""
    dialogs = [w for w in Window.children if isinstance(w, ModalView)]
    roots = dialogs[:1] if dialogs else list(Window.children)
    seen: dict[str, Widget] = {}
    found = []
    for root in roots:
        for w, _clip in _shown_from(root):
            if not isinstance(w, Label) or not w.text.strip():
                continue
            said: set[str] = set()
            for phrase in _phrases(w.text):
                first = seen.get(phrase)
                if first is None:
                    seen[phrase] = w
                elif (first is w and phrase in said) or (first is not w
                                                         and not _items_of_a_list(first, w)):
                    found.append(Finding("said twice", describe(w),
                                         f"{phrase!r} is said already by {describe(first)}"))
                said.add(phrase)
    return _one_per_pair(found)


def _items_of_a_list(a: Widget, b: Widget) -> bool:
    """Whether ``a`` and ``b`` sit in two items of one list: two siblings of the same class
    that is a control or a composite, not a bare layout nor a plain text (two seat buttons,
    two offer cards, two dice tiles). A list's column says its word on every row; that is
    not the screen saying a thing twice."""
    chain = []
    w = a
    while w is not None and w is not Window:
        chain.append(w)
        w = w.parent
    w, below = b, None
    while w is not None and w is not Window:
        if w in chain:
            item_a = chain[chain.index(w) - 1] if chain.index(w) > 0 else None
            return (item_a is not None and below is not None and type(item_a) is type(below)
                    and type(below) not in BARE
                    and (_is_target(below) or not isinstance(below, Label)))
        w, below = w.parent, w
    return False


def _one_per_pair(found: list[Finding]) -> list[Finding]:
    """One finding per pair of texts (a sentence said twice is one repeat, not one per run of
    three of its words)."""
    kept, pairs = [], set()
    for f in found:
        pair = (f.where, f.detail.split(" is said already by ", 1)[-1])
        if pair not in pairs:
            pairs.add(pair)
            kept.append(f)
    return kept


def check(u: float, table: bool = False) -> list[Finding]:
    """Every finding on what the window shows now (``table``: a game's table screen, no
    dialog over it: its capitals are checked too)."""
    window = (0.0, 0.0, float(Window.width), float(Window.height))
    found: list[Finding] = list(_layered(Window))
    if table and SAID_ONCE_HOLDS:
        found += said_twice()
    for w, clip in _shown(window):
        rect = _rect(w)
        if isinstance(w, Label):
            found.extend(_text_findings(w, u))
            if table and (caps := _capital_finding(w, u)) is not None:
                found.append(caps)
            if w.text.strip() and (cut := _cut_by_ancestor(w)) is not None:
                found.append(cut)
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


def _main_size(w: Label) -> float:
    """The size most of a label's characters are drawn at: a big count with a small word beside
    it in one markup text reads as the count's size only if the count is most of it."""
    if not (w.markup and SIZE_TAG.search(w.text)):
        return float(w.font_size)
    weights: dict[float, int] = {}
    sizes = [float(w.font_size)]
    for part in re.split(r"(\[/?size[^\]]*\])", w.text):
        if part.startswith("[size="):
            sizes.append(float(SIZE_TAG.match(part).group(1)))
        elif part.startswith("[/size"):
            if len(sizes) > 1:
                sizes.pop()
        else:
            n = len(_visible(TAGS.sub("", part)))
            weights[sizes[-1]] = weights.get(sizes[-1], 0) + n
    return max(weights, key=weights.get) if any(weights.values()) else float(w.font_size)


@lru_cache(maxsize=64)
def cap_ratio(font_file: str) -> float:
    """The font's capital height over its em square, from its own metrics (the OS/2 table's
    sCapHeight over the head table's unitsPerEm): Roboto's is 1456/2048. Kivy's font_size is
    the em in pixels, so a text's capitals are font_size times this (checked by rendering an
    "H": 71 rows of 100). A font without the figure counts as 0.7."""
    with open(font_file, "rb") as f:
        data = f.read()
    tables = {}
    for i in range(struct.unpack(">H", data[4:6])[0]):
        tag, _sum, offset, _length = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        tables[tag] = offset
    head, os2 = tables.get(b"head"), tables.get(b"OS/2")
    if head is None or os2 is None or struct.unpack(">H", data[os2:os2 + 2])[0] < 2:
        return 0.7
    per_em = struct.unpack(">H", data[head + 18:head + 20])[0]
    return struct.unpack(">h", data[os2 + 88:os2 + 90])[0] / per_em


def _font_file(w: Label) -> str:
    faces = LabelBase._fonts.get(w.font_name)   # registered: regular, italic, bold, both
    if faces is None:
        return w.font_name                       # a path of its own
    return faces[2 * bool(w.bold) + bool(w.italic)]


def capital_px(w: Label) -> float:
    """The height of the capitals most of the label's characters are drawn at, in pixels of
    the window: what a player at the table actually reads (issue 33)."""
    return _main_size(w) * cap_ratio(_font_file(w))


def capitals(u: float) -> list[tuple[float, str]]:
    """(capital height in pixels, the widget) of every text the window shows now."""
    window = (0.0, 0.0, float(Window.width), float(Window.height))
    return [(capital_px(w), describe(w)) for w, _clip in _shown(window)
            if isinstance(w, Label) and w.text.strip()]


def text_sizes(u: float) -> list[float]:
    """The size, in units, of every text the window shows now (one per label)."""
    window = (0.0, 0.0, float(Window.width), float(Window.height))
    return [_main_size(w) / u for w, _clip in _shown(window)
            if isinstance(w, Label) and w.text.strip()]


def controls() -> dict[str, Rect]:
    """Where each enabled control the window shows is (window coordinates), by what it is:
    its class, its id and its title (not its caption, which says a state), numbered when
    several are alike."""
    window = (0.0, 0.0, float(Window.width), float(Window.height))
    placed: dict[str, Rect] = {}
    for w, _clip in _shown(window):
        if _is_target(w) and not w.disabled:
            what = next((getattr(w, a) for a in ("die", "seat", "role", "kind")
                         if isinstance(getattr(w, a, None), (str, int))
                         and not isinstance(getattr(w, a), bool)), None)
            key = describe(w).split(" '")[0] + (f" [{what}]" if what is not None
                                                 else f" {getattr(w, 'title', '') or ''!r}")
            n, named = 1, key
            while named in placed:
                n += 1
                named = f"{key} #{n}"
            placed[named] = _rect(w)
    return placed


def moved(before: dict[str, Rect], now: dict[str, Rect], u: float) -> list[Finding]:
    """Controls of two consecutive states of one phase that are in both and not in the same
    place (issue 33: Quest's rows jumped 21 px between turns, Cauldron's gather row grew
    under a finger): a player reaches for a control where it was."""
    found = []
    for key, rect in now.items():
        old = before.get(key)
        if old is not None and max(abs(a - b) for a, b in zip(old, rect)) > SLACK + 1:
            found.append(Finding("moved", key, f"from {tuple(round(v / u) for v in old)} to "
                                 f"{tuple(round(v / u) for v in rect)} units"))
    return found
