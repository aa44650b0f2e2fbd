"""Touch at 9 mm on a game's table screen (tests/ui/ui_helpers.py runs it on every captured
table state of a game in TOUCH_HELD): every control a finger presses
(layout_reading.targets()) at least MIN_TOUCH units both ways, with no rounding allowed,
and a gap of TOUCH_GAP units or more to every other control, so a finger on the edge of one
never presses its neighbour. The layout check's ``touch`` (tests/ui/layout_check.py) lets a
pixel of rounding pass, on every screen.

- ``touch``: a control under MIN_TOUCH units one way;
- ``crowded``: two controls closer than TOUCH_GAP units (touching or overlapping), unless
  one is inside the other (a seat's tile that opens its dialog holds its No thanks)."""

from __future__ import annotations

from kivy.core.window import Window
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from layout_check import MIN_TOUCH, Finding, Rect, _rect
from layout_reading import clipped_targets

#: units between two controls: a finger's edge on one is not on the other
TOUCH_GAP = 2
#: The games (their table screen's name) whose captured table states are held to it; Cauldron
#: Quest's screens are being redone apart, and join when they pass.
TOUCH_HELD: set[str] = {"witchs_brew", "cauldron"}


def _within(w: Widget, other: Widget) -> bool:
    while w is not None and w is not Window:
        if w is other:
            return True
        w = w.parent
    return False


def _gap(a: Rect, b: Rect) -> float:
    """The room between two boxes, in pixels: the larger of the two ways' gaps (negative
    where they overlap both ways)."""
    return max(max(a[0], b[0]) - min(a[2], b[2]), max(a[1], b[1]) - min(a[3], b[3]))


def _seen(w: Widget, clip: Rect | None) -> Rect:
    """Where a control is pressed: its box, within the ScrollView it scrolls in."""
    r = _rect(w)
    if clip is None:
        return r
    return (max(r[0], clip[0]), max(r[1], clip[1]), min(r[2], clip[2]), min(r[3], clip[3]))


def pressed_here() -> dict[str, tuple[Widget, Rect]]:
    """The controls a finger can press now, each with where it is pressed: the topmost
    dialog's while one is open (what is under it is dimmed and takes no touch), else every
    one the window shows."""
    dialogs = [w for w in Window.children if isinstance(w, ModalView)]
    return {key: (w, _seen(w, clip)) for key, (w, clip) in clipped_targets().items()
            if not dialogs or _within(w, dialogs[0])}


def touch_findings(u: float) -> list[Finding]:
    """Every control under MIN_TOUCH units either way (its whole box: a control half scrolled
    away scrolls back), and every pair of controls closer than TOUCH_GAP units where they
    are pressed, on what the window shows now."""
    found = []
    placed = list(pressed_here().items())
    for key, (w, _seen_at) in placed:
        if w.width < MIN_TOUCH * u - 0.5 or w.height < MIN_TOUCH * u - 0.5:
            found.append(Finding("touch", key, f"{w.width / u:.1f}x{w.height / u:.1f} units "
                                 f"(a finger's target is {MIN_TOUCH}x{MIN_TOUCH} at least)"))
    for i, (key_a, (a, seen_a)) in enumerate(placed):
        for key_b, (b, seen_b) in placed[i + 1:]:
            if _within(a, b) or _within(b, a):
                continue
            gap = _gap(seen_a, seen_b)
            if gap < TOUCH_GAP * u - 0.5:
                found.append(Finding("crowded", key_a, f"{gap / u:.1f} units from {key_b} "
                                     f"(at least {TOUCH_GAP} between two controls)"))
    return found
