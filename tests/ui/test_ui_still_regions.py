"""A press redraws what changed: the table screens are drawn in regions that keep
their own pictures (ui/widgets/still.py), and labels keep the pictures of their words
(ui/widgets/kept_text.py). What a player sees must not change by a pixel, a region that did not
change is not drawn again, and a kept picture is never drawn into."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from kivy.core.window import Window
from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels
from test_ui_screens import FIVE, start, table
from ui_helpers import find, frames, panel, resize

from companion.core.model import Command
from ui.widgets.common import Txt
from ui.widgets.kept_text import PICTURES, Picture, Pictures
from ui.widgets.still import StillRegion


def pixels_above_the_bar(app) -> bytes:
    """The window drawn now, read back: the rows above the game bar (its clocks tick)."""
    frames()
    Window.canvas.ask_update()
    Window.dispatch("on_draw")
    width, height = (int(v) for v in Window.size)
    shot = glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE)
    Window.dispatch("on_flip")
    first_row = int(app.root.ids.game_bar.top) + 1
    return shot[first_row * width * 4:]


def regions(app) -> list[StillRegion]:
    return find(lambda w: isinstance(w, StillRegion), app.root)


def drawn_plainly(app, plain: bool) -> None:
    """``plain``: every region drawn as a plain widget into the screens' one buffer, as before
    regions were; else as the app draws them."""
    for region in regions(app):
        region.buffered = not plain
    screen = app.screens.current_screen
    app.root.ids.still.buffered = plain or not getattr(screen, "in_regions", False)


#: how far a pixel's colour may be from its match (of 255)
NEAR = 16


def unmatched(a: bytes, b: bytes, width: int) -> list[int]:
    """The pixels of ``a`` with no pixel of nearly its colour at or beside their place in
    ``b``. Mesa rasterizes an edge at a fraction of a pixel one pixel apart in the window and in
    a buffer (the screens' own buffer before regions did the same), so a picture is the same
    where every pixel has its match within one pixel; a region drawn a pixel or more out of
    place, cut short or with other words has thousands without."""
    height = len(a) // (4 * width)
    row = 4 * width
    out = []
    for y in range(height):
        if a[y * row:(y + 1) * row] == b[y * row:(y + 1) * row]:
            continue                                   # most rows: one comparison
        for x in range(width):
            i = y * row + 4 * x
            if a[i:i + 4] == b[i:i + 4]:
                continue
            here = a[i:i + 3]
            if not any(0 <= x + dx < width and 0 <= y + dy < height and
                       max(abs(p - q) for p, q in zip(here, b[j:j + 3])) <= NEAR
                       for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                       for j in (((y + dy) * width + x + dx) * 4,)):
                out.append(y * width + x)
    return out


def differences(a: bytes, b: bytes, allowed: float = 0.0) -> str:
    """"the same picture", or where it is not: more than ``allowed`` (a share of the pixels)
    without a match."""
    width = int(Window.width)
    spots = unmatched(a, b, width) + unmatched(b, a, width)
    if len(spots) <= allowed * len(a) / 4:
        return "the same picture"
    xs, ys = [i % width for i in spots], [i // width for i in spots]
    return (f"{len(spots)} pixels have no match within a pixel, in x {min(xs)}-{max(xs)}, "
            f"y {min(ys)}-{max(ys)} above the bar")


def the_same_pixels(app, allowed: float | None = None) -> None:
    """At 800x480 a unit is a whole pixel: every pixel has its match. At 1280x720 (1.22 pixels
    a unit) the one-pixel lines of borders and icons, at fractions of a pixel, come out a shade
    apart in the two buffers as well: up to one in a hundred is let pass there (a box out of place
    or without its background is thousands). ``allowed``: another share of pixels let pass."""
    assert regions(app), "the table screen has regions"
    if allowed is None:
        allowed = 0.0 if tuple(Window.size) == (800, 480) else 0.01
    as_drawn = pixels_above_the_bar(app)
    drawn_plainly(app, True)
    try:
        plain = pixels_above_the_bar(app)
    finally:
        drawn_plainly(app, False)
    assert differences(as_drawn, plain, allowed) == "the same picture"
    assert pixels_above_the_bar(app) == as_drawn


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_witchs_brew_looks_the_same_drawn_in_regions(app, size):
    resize(*size)
    s = start(app)
    the_same_pixels(app)
    s.execute(Command("play_role", "Anna", {"role": "witch"}))
    frames()
    the_same_pixels(app)


def test_cauldron_and_quest_look_the_same_drawn_in_regions(app):
    from test_ui_cauldron_screens import start as cauldron
    from test_ui_quest_screens import start as quest

    resize(800, 480)
    cauldron(app)
    the_same_pixels(app)
    app.go_home()
    quest(app)
    the_same_pixels(app)


def redrawn(app) -> set[str]:
    """The regions that will draw again on the next frame, by the seat they show (or kind)."""
    return {getattr(r, "player", "") or type(r).__name__ for r in regions(app)
            if r._fbo is not None and r._fbo.needs_redraw}


def test_an_answer_redraws_the_seats_it_changed_and_not_the_others(app):
    s = start(app, FIVE)
    s.execute(Command("play_role", "Anna", {"role": "witch"}))
    frames()
    Window.dispatch("on_draw")          # everything drawn: nothing waits
    assert redrawn(app) == set()
    assert s.prompt()["turn"] == "Barb"
    s.execute(Command("pass", "Barb"))
    frames()
    changed = redrawn(app)
    assert {"Barb", "Carl"} <= changed          # Barb passed, Carl answers now
    assert not changed & {"Anna", "Dora", "Emil"}
    Window.dispatch("on_draw")
    assert redrawn(app) == set()


def test_a_region_that_grows_and_shrinks_with_the_phase_keeps_its_buffer(app):
    """Witch's Brew's headline row is taller while it says a gain the supply cut short, and
    the seats under it shorter (the rows keep their places from phase to phase otherwise):
    each such change gave every seat and the row a new buffer (a texture, a framebuffer and a
    stencil), three or more a press. A buffer now serves a region a little smaller than
    itself (ui/widgets/still.py)."""
    resize(800, 480)
    s = start(app, FIVE, supply={"drops": 20, "gold": 24})
    s.execute(Command("adjust", "Barb", {"changes": {"red": 14}}))   # one red drop left
    frames()
    round_ = [Command("play_role", "Anna", {"role": "wolf_keeper"})] + [
        Command("pass", name) for name in FIVE[1:]]

    def play() -> None:
        for command in round_:
            s.execute(command)
        frames()
        assert table(app).supply_note                 # Anna got 1 of 3 red drops

    def undo() -> None:
        for _ in round_:
            s.undo()
        frames()

    before = {id(r): tuple(r.size) for r in regions(app)}
    play()
    assert any(tuple(r.size) != before[id(r)] for r in regions(app))  # the layout changed
    undo()
    buffers = {id(r): r._fbo.texture.id for r in regions(app) if r._fbo is not None}
    for _ in range(2):
        play()
        the_same_pixels(app)      # each picture shows its own part of its buffer
        undo()
    assert {id(r): r._fbo.texture.id for r in regions(app) if r._fbo is not None} == buffers
    the_same_pixels(app)


def test_a_region_gets_its_buffer_when_it_first_has_pixels(app):
    """A framebuffer costs about half a millisecond to make: the game bar's regions on Home's
    first frame (the bar has no height there) and a panel folded away make none."""
    from ui.widgets.still import StillBox

    box = StillBox(size_hint=(None, None), size=(120, 0))
    assert box._fbo is None
    box.size = (120, 40)
    assert box._fbo is not None and tuple(box._fbo.size) == (128, 48)
    box.size = (120, 0)
    assert box._fbo is not None      # kept: it may show again


def test_a_fading_region_is_still_blended(app):
    """An opaque picture is copied, not blended (still.py ``copied``); one that fades, or
    whose parent fades, must still show what is under it."""
    resize(800, 480)
    start(app)
    panel(app, "Anna").opacity = 0.5
    try:
        # drawn plainly, each shape fades on its own (where two overlap, the lower shows
        # through); a region fades its picture as one: under two in a hundred pixels apart
        # (its card copied opaque instead, a sixth of the window)
        the_same_pixels(app, allowed=0.02)
    finally:
        panel(app, "Anna").opacity = 1


def test_a_screen_in_regions_is_not_buffered_twice(app):
    start(app)
    assert table(app).in_regions and not app.root.ids.still.buffered
    app.go_home()
    frames()
    assert app.root.ids.still.buffered      # Home is one picture


def test_words_shown_again_show_the_picture_drawn_before(app):
    start(app)
    label = Txt(text="18", fs=30, size=(200, 60))
    panel(app, "Anna").add_widget(label)    # a label on the screen, drawn as the app draws
    try:
        frames()
        first = label.texture
        before = first.pixels
        label.text = "81"                   # a picture the same size: Kivy would reuse it
        frames()
        assert label.texture is not first
        assert first.pixels == before, "a kept picture was drawn into"
        hits = PICTURES.hits
        label.text = "18"
        frames()
        assert label.texture is first and PICTURES.hits == hits + 1
    finally:
        panel(app, "Anna").remove_widget(label)


def fake(width: int, height: int) -> Picture:
    return Picture(SimpleNamespace(width=width, height=height), False, {}, {})


def test_the_pictures_kept_stay_within_their_budget():
    kept = Pictures(budget_px=10_000)
    for i in range(50):
        kept.keep(("words", i), fake(40, 25))            # 1,000 pixels each
        assert kept.pixels <= 10_000
    assert len(kept) == 10
    assert kept.get(("words", 0)) is None                 # the oldest went first
    assert kept.get(("words", 49)) is not None
    kept.get(("words", 40))                               # shown again: kept longer
    kept.keep(("words", 50), fake(40, 25))
    assert kept.get(("words", 40)) is not None and kept.get(("words", 41)) is None
    kept.keep(("huge",), fake(100, 100))                  # more than an eighth: not kept
    assert kept.get(("huge",)) is None and kept.pixels <= 10_000
