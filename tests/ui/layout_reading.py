"""The layout check as a player reads the screen (tests/ui/layout_check.py runs these): the
capitals' height from the font's own metrics, a phrase said twice, a control that moved.

- ``capitals``: on a game's table screen, a headline, a seat's name or a count (``far: True``)
  with capitals under FAR_CAPS pixels at 800x480 (in units at any size), any other text
  under NEAR_CAPS; a widget's texts drawn on its canvas (``drawn_texts``: the Cauldron
  track's numbers and names) are judged as Labels are;
- ``said twice``: a run of three words two texts of a table screen share, or one text says
  twice (ui/text/phrases.py: within a line, a thing's name one word), list items excepted;
- ``moved``: a control of two consecutive captured states of one phase not in one place
  (tests/ui/ui_helpers.py keeps the last state's places)."""

from __future__ import annotations

import re
import struct
from functools import lru_cache

from kivy.core.text import LabelBase
from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.stacklayout import StackLayout
from kivy.uix.widget import Widget

from layout_check import (SIZE_TAG, SLACK, TAGS, Finding, Rect, _is_target, _rect, _shown,
                          _shown_from, _visible, describe)
from ui.text.phrases import phrases as _phrases

#: The type scale's floor (ui.theme: DETAIL and ACTION), as capitals in pixels at 800x480 (in
#: units at any window size): Roboto's capitals are 0.711 of its size, so a text of 24 units
#: has capitals of 17, one of 30 of 21.
NEAR_CAPS = 17     # every text on a table screen, a form or dialog over it included
FAR_CAPS = 21      # a headline, a seat's name, a figure (``far: True``) and every button's words
LARGE_NEAR_CAPS = 21   # Large text raises the floor to 30 units...
LARGE_FAR_CAPS = 26    # ...and the far texts and buttons' words with it (37.5 units)
#: Before the floor: a headline, name or count at FAR_CAPS, any other text of a table screen
#: (no dialog over it) at 14 px; a game's screens keep this rule until they pass the floor.
OLD_NEAR_CAPS = 14

#: The games (their table screen's name) whose every captured state, dialogs and forms over
#: the table included, is held to the floor; the others to the rule before it, and their
#: findings under the floor are counted in the figures (``under_floor``) until they join.
FLOOR_HELD: set[str] = {"witchs_brew", "quest", "cauldron"}


def _is_far(w: Label) -> bool:
    """A text read from every chair: marked ``far`` in its kv rule, or a control's words."""
    return bool(getattr(w, "far", False)) or _is_target(w)


def _capital_finding(w: Label, u: float, large: bool = False,
                     floor: bool = True) -> Finding | None:
    """On a table screen (a dialog or form over it included): a headline, a seat's name, a
    figure or a button's words with capitals under FAR_CAPS, or any text with capitals under
    NEAR_CAPS (LARGE_* with Large text); in pixels at 800x480, so in units at any window size.
    A markup text is judged by its main size (what most of its characters are drawn at) and,
    against NEAR_CAPS, by its smallest ``[size]``: a button's caption is detail, not its
    words."""
    if not w.text.strip():
        return None
    if not floor:
        return _old_capital_finding(w, u)
    ratio = cap_ratio(_font_file(w))
    smallest = float(w.font_size) if not w.markup else min(
        [float(w.font_size)] + [float(x) for x in SIZE_TAG.findall(w.text)])
    return _below_floor(describe(w), _is_far(w), _main_size(w), smallest, ratio, u, large)


def _below_floor(where: str, far: bool, main: float, smallest: float, ratio: float, u: float,
                 large: bool) -> Finding | None:
    """The floor's finding on one text (None: it holds): ``main`` is the size most of its
    characters are drawn at, ``smallest`` its least, in pixels; ``ratio`` its capitals' share
    of the size."""
    near_least, far_least = (LARGE_NEAR_CAPS, LARGE_FAR_CAPS) if large else (NEAR_CAPS, FAR_CAPS)
    if far and main * ratio < far_least * u - 0.5:
        return Finding("capitals", where, f"capitals {main * ratio / u:.0f} px, a headline, "
                       f"name, figure or button needs {far_least} (font size {main / u:.0f})")
    if smallest * ratio < near_least * u - 0.5:
        return Finding("capitals", where, f"capitals {smallest * ratio / u:.0f} px, text on a "
                       f"table screen needs {near_least} (font size {smallest / u:.0f})")
    return None


def drawn_texts(w: Widget) -> list:
    """The texts a widget draws on its canvas rather than as Labels, where it says them
    (``drawn_texts``: the Cauldron track's numbers, zones, names and tags): each with its
    ``text``, ``font_size`` in pixels, ``bold``, ``far`` and ``font_name``."""
    return [t for t in getattr(w, "drawn_texts", ()) if t.text.strip()]


def _drawn_ratio(t) -> float:
    faces = LabelBase._fonts.get(t.font_name)
    return cap_ratio(faces[2 * bool(t.bold)] if faces else t.font_name)


def drawn_findings(w: Widget, u: float, large: bool = False) -> list[Finding]:
    """The floor's findings on the texts ``w`` draws on its canvas, judged as a Label's."""
    return [f for t in drawn_texts(w) if (f := _below_floor(
        f"{describe(w)} drawn {t.text[:40]!r}", t.far, t.font_size, t.font_size,
        _drawn_ratio(t), u, large)) is not None]


def _old_capital_finding(w: Label, u: float) -> Finding | None:
    """The rule before the floor: ``far: True`` texts at FAR_CAPS, the rest at OLD_NEAR_CAPS,
    a markup text by its smallest ``[size]``."""
    far = bool(getattr(w, "far", False))
    least = FAR_CAPS if far else OLD_NEAR_CAPS
    caps = capital_px(w) if not w.markup else min(
        [float(w.font_size)] + [float(x) for x in SIZE_TAG.findall(w.text)]) \
        * cap_ratio(_font_file(w))
    if caps < least * u - 0.5:
        what = "a headline, name or count" if far else "text on a table screen"
        return Finding("capitals", describe(w), f"capitals {caps / u:.0f} px, {what} needs "
                       f"{least} (font size {w.font_size / u:.0f})")
    return None


def under_floor(u: float, large: bool) -> list[Finding]:
    """The floor's findings on what the window shows now, for a game not yet held to it."""
    window = (0.0, 0.0, float(Window.width), float(Window.height))
    shown = [w for w, _clip in _shown(window)]
    return [f for w in shown if isinstance(w, Label)
            and (f := _capital_finding(w, u, large)) is not None] + [
        f for w in shown for f in drawn_findings(w, u, large)]


#: layouts that only place their children: two of them side by side are not a list's items
BARE = (BoxLayout, FloatLayout, GridLayout, StackLayout, Widget)
#: a table screen's repeats fail the test that captured them (every screen's wording
#: says each thing once); the figures count them too ("said twice")
SAID_ONCE_HOLDS = True


def said_twice() -> list[Finding]:
    """The same phrase of three or more words twice among the texts the window shows (the
    topmost dialog's alone while one is open: what is under it is dimmed, not read): a screen
    says a thing once ("Fill the board" in the headline, its detail and the log was three
    times). Each repeat is one finding, naming the phrase and where it is."""
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
    the window: what a player at the table actually reads."""
    return _main_size(w) * cap_ratio(_font_file(w))


def capitals(u: float) -> list[tuple[float, str]]:
    """(capital height in pixels, the widget) of every text the window shows now."""
    window = (0.0, 0.0, float(Window.width), float(Window.height))
    shown = [w for w, _clip in _shown(window)]
    return [(capital_px(w), describe(w)) for w in shown
            if isinstance(w, Label) and w.text.strip()] + [
        (t.font_size * _drawn_ratio(t), f"{describe(w)} drawn {t.text[:40]!r}")
        for w in shown for t in drawn_texts(w)]


def text_sizes(u: float) -> list[float]:
    """The size, in units, of every text the window shows now (one per label)."""
    window = (0.0, 0.0, float(Window.width), float(Window.height))
    shown = [w for w, _clip in _shown(window)]
    return [_main_size(w) / u for w in shown if isinstance(w, Label) and w.text.strip()] + [
        t.font_size / u for w in shown for t in drawn_texts(w)]


def controls() -> dict[str, Rect]:
    """Where each enabled control the window shows is (window coordinates), by what it is:
    its class, its id and its title (not its caption, which says a state), numbered when
    several are alike."""
    return {key: _rect(w) for key, w in targets().items()}


def targets() -> dict[str, Widget]:
    """Each enabled control the window shows, by the key :func:`controls` gives it."""
    return {key: w for key, (w, _clip) in clipped_targets().items()}


def clipped_targets() -> dict[str, tuple[Widget, Rect | None]]:
    """:func:`targets`, each with the clip of the ScrollView it is in (None: the window)."""
    window = (0.0, 0.0, float(Window.width), float(Window.height))
    placed: dict[str, tuple[Widget, Rect | None]] = {}
    for w, clip in _shown(window):
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
            placed[named] = (w, clip)
    return placed


def moved(before: dict[str, Rect], now: dict[str, Rect], u: float) -> list[Finding]:
    """Controls of two consecutive states of one phase that are in both and not in the same
    place (Quest's rows once jumped 21 px between turns, Cauldron's gather row grew
    under a finger): a player reaches for a control where it was."""
    found = []
    for key, rect in now.items():
        old = before.get(key)
        if old is not None and max(abs(a - b) for a, b in zip(old, rect)) > SLACK + 1:
            found.append(Finding("moved", key, f"from {tuple(round(v / u) for v in old)} to "
                                 f"{tuple(round(v / u) for v in rect)} units"))
    return found
