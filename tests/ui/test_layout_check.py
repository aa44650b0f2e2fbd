"""The layout check itself: each kind of finding on a small window of known bad widgets, and
none on good ones (a check that never finds anything would pass every screen)."""

from __future__ import annotations

import time
from contextlib import contextmanager

from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from layout_check import check
from ui import theme
from ui.widgets.common import FlatButton, Txt
from ui_helpers import frames


def _findings(*widgets, u: float = 1.0):
    """Show ``widgets`` alone in a FloatLayout on the window, check, then take them away."""
    layer = FloatLayout(size=Window.size)
    for widget in widgets:
        layer.add_widget(widget)
    Window.add_widget(layer)
    screens, screens.opacity = Window.children[-1], 0   # the app's own screens: not looked at
    try:
        frames(3)
        mine = set(layer.walk())
        return [f for f in check(u) if any(f.where.startswith(type(w).__name__) for w in mine)
                and _inside(f, layer)]
    finally:
        screens.opacity = 1
        layer.clear_widgets()                 # the widgets may be shown again
        Window.remove_widget(layer)
        frames(1)


@contextmanager
def alone(*widgets):
    """``widgets`` alone on the window (the app's screens hidden) while the block runs."""
    layer = FloatLayout(size=Window.size)
    for w in widgets:
        layer.add_widget(w)
    Window.add_widget(layer)
    screens, screens.opacity = Window.children[-1], 0
    try:
        frames(3)
        yield layer
    finally:
        screens.opacity = 1
        Window.remove_widget(layer)
        frames(1)


def _inside(finding, layer) -> bool:
    return any(w.__class__.__name__ in finding.where for w in layer.walk())


def test_a_small_font_a_small_button_and_clipped_text_are_found(app):
    small = Label(text="whose turn", font_size=14, size_hint=(None, None), size=(200, 40),
                  pos=(10, 10))
    button = FlatButton(title="Undo", size_hint=(None, None), size=(80, 40), pos=(10, 60))
    cut = Label(text="Oil of Earthquakes " * 4, font_size=20, size_hint=(None, None),
                size=(120, 30), pos=(10, 120), text_size=(120, 30), shorten=True)
    kinds = {f.kind for f in _findings(small, button, cut)}
    assert {"font", "touch", "clipped"} <= kinds


def test_overlapping_siblings_and_text_larger_than_its_box_are_found(app):
    row = BoxLayout(size_hint=(None, None), size=(300, 60), pos=(10, 200), spacing=-60)
    row.add_widget(Label(text="A", font_size=20))
    row.add_widget(Label(text="B", font_size=20))
    tall = Label(text="one\ntwo\nthree\nfour", font_size=20, size_hint=(None, None),
                 size=(200, 30), pos=(10, 300), text_size=(200, None))
    kinds = {f.kind for f in _findings(row, tall)}
    assert {"overlap", "overflow"} <= kinds


def test_big_enough_words_and_buttons_are_not_found(app):
    good = FlatButton(title="Undo", size_hint=(None, None), size=(120, 56), pos=(10, 10))
    words = Label(text="Anna's turn", font_size=24, size_hint=(None, None), size=(300, 40),
                  pos=(10, 80), text_size=(300, 40))
    assert _findings(good, words) == []


def test_a_count_squeezed_to_a_dot_is_found(app):
    """A count in a Txt a few pixels wide: Kivy draws "..." cut to ".", and no estimate of
    the words' width flags it (they are barely wider than the box)."""
    count = Txt(text="3", fs=18, size_hint=(None, None), size=(app.u * 10, app.u * 48),
                pos=(10, 10))
    found = _findings(count, u=app.u)
    assert {f.kind for f in found} == {"squeezed", "clipped"}, found
    wide = Txt(text="12 of 24", fs=18, size_hint=(None, None), size=(app.u * 40, app.u * 48),
               pos=(10, 10))
    found = _findings(wide, u=app.u)
    assert [f.detail for f in found if f.kind == "squeezed"][0].startswith(
        "shortened to almost nothing"), found


def test_lines_a_txt_puts_on_one_and_shortens_are_found(app):
    """"0 of 6\\nblocked" in a Txt 90 units wide reads "0 of 6 ..." (Kivy's shorten joins the
    lines); the same words in a wrapping Label of that width are whole."""
    blocked = Txt(text="0 of 6\nblocked", fs=18, bold=True, size_hint=(None, None),
                  size=(app.u * 90, app.u * 52), pos=(10, 10))
    found = _findings(blocked, u=app.u)
    assert [f.kind for f in found] == ["clipped"] and "0 of 6" in found[0].detail, found
    wrapping = Label(text="0 of 6\nblocked", font_size=app.u * 18, bold=True,
                     size_hint=(None, None), size=(app.u * 90, app.u * 52), pos=(10, 10),
                     halign="left", valign="middle")
    wrapping.bind(size=lambda w, size: setattr(w, "text_size", size))
    fits = Txt(text="3", fs=18, size_hint=(None, None), size=(app.u * 40, app.u * 48),
               pos=(10, 100))
    assert _findings(wrapping, fits, u=app.u) == []


def test_text_under_a_later_sibling_and_text_out_of_an_ancestor_are_cut(app):
    """A banner's words under the game bar, drawn after it in the same
    FloatLayout (their own boxes are whole: only a sibling's box cuts them); and words that
    reach out of the box of a layout two levels up."""
    banner = BoxLayout(size_hint=(None, None), size=(400, 80), pos=(10, 10))
    banner.add_widget(Label(text="Not saved: the SD card is full", font_size=20))
    bar = Widget(size_hint=(None, None), size=(500, 50), pos=(0, 0))
    holder = FloatLayout(size_hint=(None, None), size=(200, 60), pos=(10, 300))
    inner = FloatLayout(size_hint=(None, None), size=(200, 60), pos=(10, 300))
    inner.add_widget(Label(text="out of the box", font_size=20, size_hint=(None, None),
                           size=(200, 40), pos=(10, 340)))
    holder.add_widget(inner)
    found = _findings(banner, bar, holder)   # the bar added later: drawn over the banner
    cut = [f for f in found if f.kind == "cut"]
    assert any("SD card" in f.where and "drawn over it" in f.detail for f in cut), found
    assert any("out of the box" in f.where and "reaches out of" in f.detail for f in cut), found
    assert _findings(bar, banner) == [], _findings(bar, banner)   # drawn last, over the bar


def test_an_overlay_on_an_enabled_control_is_found_unless_it_is_modal(app):
    """Item 5: a toast over a row of buttons covers them; over a disabled one, or as a modal
    overlay that takes every touch on it, it does not cover a control."""
    field = FlatButton(title="Mandrake Root", size_hint=(None, None), size=(120, 56),
                       pos=(10, 10))
    toast = Label(text="Undone: Mandrake Root", font_size=24, size_hint=(None, None),
                  size=(300, 40), pos=(0, 20))
    found = _findings(field, toast)
    assert [f.kind for f in found] == ["covered"] and "Mandrake" in found[0].where, found
    field.disabled = True                    # not a control now: its words are still hidden
    assert [f.kind for f in _findings(field, toast)] == ["cut"]
    field.disabled = False
    toast.modal = True                       # taking every touch on it does not excuse it
    assert [f.kind for f in _findings(field, toast)] == ["covered"]
    sheet = Widget(size_hint=(None, None), size=Window.size, pos=(0, 0))
    sheet.modal = True                       # over the whole window (the dimmed screen)
    with sheet.canvas:
        from kivy.graphics import Rectangle
        Rectangle(size=Window.size)
    assert _findings(field, sheet) == []


def test_a_message_moves_nothing_and_a_tap_never_lands_beneath_it(app):
    """A refusal or a press waiting for the card lies on a sheet over the whole window: the
    screens keep their places (the undo band once pushed every control down 40 units, and a
    Redo tap landed on the band), the sheet takes every touch, and a tap anywhere closes a
    refusal without pressing what is under it. What undo did is said in the game bar's place.
    The check finds nothing covered or cut under any of them."""
    from companion.core.model import Command
    from layout_reading import controls
    from ui_helpers import frames as pump
    from ui_helpers import tap

    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    app.session.execute(Command("play_role", "Anna", {"role": "warlock"}))
    pump()
    root = app.root
    places = controls()
    steps = len(app.session.steps)
    for say in (lambda: app.refuse("It is Barb's turn to answer, not Anna's"),
                lambda: setattr(app, "undo_words", "Undone: Anna played the Warlock"),
                lambda: setattr(app, "waiting", "Not saved: the SD card is full")):
        say()
        pump()
        sheet = root.ids.messages
        found = [f for f in check(app.u) if f.kind in ("covered", "cut")]
        assert found == [], found
        under = {k: v for k, v in controls().items() if k in places}
        assert under == {k: places[k] for k in under}          # nothing moved
        if app.undo_words:
            assert sheet.width == 0 and root.ids.game_bar.news
        else:
            assert tuple(sheet.size) == tuple(root.size)
        if app.refusal:
            tap(app.screens.current_screen.ids.undo)   # a tap on Undo beneath the sheet
            pump()
            assert app.refusal == "" and len(app.session.steps) == steps  # closed, not undone
        app.dismiss_refusal()
        app.undo_words = app.waiting = ""
        pump()
        assert sheet.width == 0


def test_a_control_drawn_disabled_that_still_takes_a_tap_is_found(app):
    """Item 10: Cauldron's Steal drawn grey (grey words on grey) while a tap still opens it;
    the same button disabled, or drawn as a live control, is not found; nor a widget that says
    itself it looks disabled once it is disabled."""
    greyed = FlatButton(title="Steal", fill=theme.GREY_BTN, ink=theme.MUTED,
                        size_hint=(None, None), size=(120, 56), pos=(10, 10))
    dark = FlatButton(title="Cellar", fill=theme.rgba("#20252C"), size_hint=(None, None),
                      size=(120, 56), pos=(10, 80))
    flagged = FlatButton(title="Brew", size_hint=(None, None), size=(120, 56), pos=(10, 150))
    flagged.looks_disabled = True
    found = _findings(greyed, dark, flagged)
    assert sorted((f.kind, f.where) for f in found) == [
        ("greyed", "FlatButton 'Brew'"), ("greyed", "FlatButton 'Cellar'"),
        ("greyed", "FlatButton 'Steal'")], found
    for button in (greyed, dark, flagged):
        button.disabled = True
    assert _findings(greyed, dark, flagged) == []
    live = FlatButton(title="Steal", fill=theme.CALM, size_hint=(None, None), size=(120, 56),
                      pos=(10, 10))
    assert _findings(live) == []


def test_a_phrase_said_twice_is_found_and_a_lists_column_is_not(app):
    """"Draw an Omen card" in the headline and again in the panel; the same words
    on two items of one list (two offer cards' "Tap to buy") are its column, not a repeat."""
    from layout_reading import said_twice
    from ui.games.cauldron.market import OfferCard  # noqa: F401 (a class that is no layout)

    headline = Label(text="Draw an Omen card and read it aloud", font_size=20,
                     size_hint=(None, None), size=(500, 40), pos=(0, 400))
    panel = Label(text="Draw an Omen card", font_size=20, size_hint=(None, None),
                  size=(300, 40), pos=(0, 300))
    row = BoxLayout(size_hint=(None, None), size=(600, 60), pos=(0, 100))
    for word in ("Spider Web", "Frog Legs"):
        row.add_widget(FlatButton(title=word, caption="tap to buy it", fs=20))
    with alone(headline, panel, row):
        found = said_twice()
    assert [f.kind for f in found] == ["said twice"], found
    assert "draw an omen" in found[0].detail


def test_phrases_leave_out_tags_and_rows_of_counts():
    from ui.text.phrases import phrases, share_a_phrase

    assert phrases("[b]Fill[/b] the board: 5 Spider Web") == [
        "fill the board", "the board 5", "board 5 spider_web"]
    assert phrases("1 1 1") == []
    # a line ends a phrase; a thing's name is one word: "the Wolf keeper" names a role
    assert phrases("Spider Web\nAnna has 2 Frog Legs") == ["anna has 2", "has 2 frog_legs"]
    assert not share_a_phrase(["Carl: Answer the Wolf keeper", "Barb claimed the Wolf keeper"])
    assert share_a_phrase(["Anna rolled 5 for turn order", "Barb rolled 2 for turn order"])
    assert not share_a_phrase(["Anna gathered 2 Spider Web", "Barb passed"])


def test_the_floor_holds_every_text_on_a_table_screen_and_every_buttons_words(app):
    """The type scale's floor: on a table screen (a dialog over it included) a text of 22
    units (capitals of 15.6 px) is found and one of 24 (17 px) is not; a button's words of
    26 units are found (every button's words are 30 or more), its caption of 24 is not;
    with Large text the floor is 30 units. Off a table screen only the 16-unit one holds.
    The rule before the floor (``floor=False``) still finds only what is under 14 px."""
    small = Label(text="Tap a seat to correct it", font_size=22, size_hint=(None, None),
                  size=(400, 40), pos=(10, 10))
    button = FlatButton(title="Abstain", caption="key C", caption_fs=24, fs=26,
                        size_hint=(None, None), size=(200, 90), pos=(10, 60))
    fine = Label(text="Held by Carl", font_size=24, size_hint=(None, None), size=(400, 40),
                 pos=(10, 200))
    with alone(small, button, fine):
        on_table = [f for f in check(1.0, table=True) if f.kind == "capitals"]
        in_dialog = [f for f in check(1.0, table=True, dialog=True) if f.kind == "capitals"]
        large = [f for f in check(1.0, table=True, large=True) if f.kind == "capitals"]
        before = [f for f in check(1.0, table=True, floor=False) if f.kind == "capitals"]
        off_table = [f for f in check(1.0) if f.kind == "capitals"]
    assert sorted(f.where.split(" ")[0] for f in on_table) == ["FlatButton", "Label"], on_table
    assert [f.detail.split(" needs ")[1][:2] for f in sorted(on_table, key=str)] == ["21", "17"]
    assert in_dialog == on_table
    assert sorted(f.where.split(" ")[0] for f in large) == ["FlatButton", "Label", "Label"]
    assert before == [] and off_table == []



#: The buttons that go from one browsing screen to another.
_NAVIGATION = ("Home", "Back", "History", "Statistics", "Settings", "Hardware")


def _browse(app, screen: str) -> None:
    """Open one of the browsing screens as a player reaches it."""
    from ui_helpers import frames as pump

    app.go_home()
    if screen == "history":
        app.show("history")
    elif screen == "stats":
        app.show("history")
        pump()
        app.screens.get_screen("history").open_stats()
    pump()


def test_a_double_tap_on_a_button_that_changes_the_screen_presses_nothing_on_the_next(app):
    """A finger's second tap lands where its first did: when the first changes the screen, the
    second is not taken, whatever the next screen has there (Statistics' Back sat where
    History's Home is: a double tap on Back went Home; Home's Settings is where the settings'
    Back is). Every navigation button of every browsing screen, at both sizes; a tap there a
    moment later is taken as ever."""
    from test_ui_bgstats import finish_witchs_brew

    finish_witchs_brew(app, ["Anna", "Ben", "Cleo"])
    guard = app.root.second_tap
    now = [1000.0]                  # the guard's clock, moved by the test alone: a loaded
    guard.clock = lambda: now[0]    # machine's frames take no finger's time
    try:
        _double_taps(app, guard, now)
    finally:
        guard.clock = time.monotonic


def _double_taps(app, guard, now) -> None:
    from kivy.tests.common import UnitTestTouch

    from layout_reading import controls, targets
    from ui_helpers import frames as pump
    from ui_helpers import resize, tap

    beneath, tried = 0, 0
    for size in ((800, 480), (1280, 720)):
        resize(*size)
        for start in ("home", "history", "stats"):
            _browse(app, start)
            keys = [k for k in controls() if any(k.endswith(f"'{t}'") for t in _NAVIGATION)]
            for key in keys:
                _browse(app, start)
                button = targets()[key]
                x, y = button.to_window(*button.center)
                tap(button)                       # where one tap goes
                once = app.screens.current
                if once == start:
                    continue                      # a dialog, or the same screen
                tried += 1
                beneath += any(a <= x <= right and b <= y <= top
                               for a, b, right, top in controls().values())
                _browse(app, start)
                guard.forget()
                for _ in range(2):                # the finger's two taps, 0.1 s apart
                    finger = UnitTestTouch(x, y)
                    finger.touch_down()
                    finger.touch_up()
                    pump(2)                       # the next view laid out and drawn
                    now[0] += 0.1
                assert app.screens.current == once, (size, start, key, app.screens.current)
    assert tried >= 8 and beneath >= 1          # some had a control beneath: the rule held
    # later than the settling time, the same place is a tap like any other: Home's Settings,
    # then the settings' Back that lies beneath it
    _browse(app, "home")
    button = targets()["FlatButton 'Settings'"]
    x, y = button.to_window(*button.center)
    tap(button)
    assert app.screens.current == "table_settings"
    now[0] += 2 * guard.settle
    later = UnitTestTouch(x, y)
    later.touch_down()
    later.touch_up()
    pump(2)
    assert app.screens.current == "home"
