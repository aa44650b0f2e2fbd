""""Said once, in the state's own words": a table screen says each thing once.

The layout check fails a captured table state where two texts share a phrase of three words
(tests/ui/layout_reading.py ``said_twice``); these tests hold the rule itself and the wording
that keeps the screens within it: the game bar leaves out a log line the window says already,
the undo band goes with the next press, the brew list says what the pool needs without the
recipe again, a blocked action's reason leaves the headline's part to the headline."""

from __future__ import annotations

from kivy.uix.label import Label

from companion.core.model import Command
from layout_check import check
from layout_reading import said_twice
from test_layout_check import alone
from test_ui_cauldron_screens import FOUR, deal, start
from ui.games.cauldron.turn import PotionRow
from ui.text.phrases import phrases
from ui.widgets.game_bar import NOTHING_NEW
from ui_helpers import dialogs, frames, tap, tap_title

NAMES = [p["name"] for p in FOUR]


def whole_or_first_words(shown: str, line: str) -> bool:
    """The bar shows ``line``: whole, or (a button's words on the 7-inch panel's bar) its
    first words with an ellipsis; a tap opens the log with it whole."""
    return shown == line or (shown.endswith("\u2026") and line.startswith(shown[:-1])
                             and len(shown) > 12)


def screen(app):
    return app.screens.get_screen("cauldron")


def bar(app):
    return app.root.ids.game_bar


def test_a_phrase_said_twice_on_a_table_screen_fails_the_layout_check(app):
    """SAID_ONCE_HOLDS: a repeat is a finding of the layout check on a table screen (it
    fails the test that captured it), not a figure only; off a table screen it is not
    looked for; the same words on two lines of one text are two phrases, not one."""
    headline = Label(text="Fill the board with Ingredients", font_size=30,
                     size_hint=(None, None), size=(600, 44), pos=(0, 400))
    panel = Label(text="Put on the Fields: fill the board", font_size=20,
                  size_hint=(None, None), size=(600, 40), pos=(0, 300))
    apart = Label(text="Anna rolled\nfill the", font_size=20, size_hint=(None, None),
                  size=(300, 60), pos=(0, 200))
    with alone(headline, panel, apart):
        on_table = [f for f in check(1.0, table=True) if f.kind == "said twice"]
        off_table = [f for f in check(1.0) if f.kind == "said twice"]
    assert len(on_table) == 1 and "'fill the board'" in on_table[0].detail, on_table
    assert off_table == []
    assert "rolled fill the" not in phrases(apart.text)


def to_turn_order(app):
    s = start(app)
    deal(s, NAMES)
    s.execute(Command("begin"))
    s.execute(Command("omen", args={"text": "calm"}))
    s.execute(Command("fill_board"))
    frames()
    return s


def test_the_bar_leaves_out_a_log_line_the_screen_says(app):
    """"Carl rolled 2 for turn order" under the headline "Roll for turn order: Daniel" and the
    dice panel's "Rolled: ... Carl 2" was said twice (4 captured states): the bar shows the
    newest line the window does not say, or what its tap opens; the log keeps every line."""
    s = to_turn_order(app)
    s.execute(Command("turn_order_roll", "Anna", {"value": 5}))
    s.execute(Command("turn_order_roll", "Barb", {"value": 4}))
    s.execute(Command("turn_order_roll", "Carl", {"value": 2}))
    frames()
    assert screen(app).ask == "Roll for turn order: Daniel"
    assert "Carl 2" in screen(app).dice.rolled
    assert app.log_all()[-1] == "Carl rolled 2 for turn order"
    shown = bar(app).shown
    assert shown and "for turn order" not in shown, shown
    assert shown == NOTHING_NEW or set(shown.split("\n")) <= set(app.log_all()), shown
    assert said_twice() == [], said_twice()
    # the turn order settled: the headline moves on, and the bar says the last rolls again
    s.execute(Command("turn_order_roll", "Daniel", {"value": 1}))
    frames()
    assert screen(app).ask == "Gather, steal or brew"
    assert whole_or_first_words(bar(app).shown.split("\n")[-1], app.log_all()[-1]), \
        bar(app).shown
    assert said_twice() == [], said_twice()


def test_a_line_said_only_by_a_panel_a_tap_opened_leaves_the_bar(app):
    """A tap that changes the screen and not the game (the Track opened over the seats) is
    looked at again: the bar never says what the window shows beside it."""
    to_turn_order(app)
    tap_title("Track")
    frames()
    assert screen(app).mode == "track"
    assert said_twice() == [], said_twice()
    tap_title("Track")                           # open, the chosen one: a tap closes it


def test_the_undo_band_goes_with_the_next_press(app):
    """Undo says what it took back in the band; the next press is news: the band goes, and
    never names beside the bar what was played since (the field marks said "fields left in
    the box" in the band, the bar and the market at once)."""
    s = to_turn_order(app)
    app.undo()
    frames()
    assert app.undo_words.startswith("Undone: Board filled: 5 Spider Web"), app.undo_words
    s.execute(Command("fill_board"))
    frames()
    assert app.undo_words == ""
    app.undo()
    app.redo()
    frames()
    # the command's own line, as undo named it: not the prompt it opened (the headline's)
    assert app.undo_words.startswith("Redone: Board filled: 5 Spider Web"), app.undo_words
    redone = app.undo_words.removeprefix("Redone: ")
    assert redone not in bar(app).shown           # the band says it: the bar does not
    assert said_twice() == [], said_twice()


def test_the_brew_list_says_what_the_pool_needs_once(app):
    """The rules' "Anna lacks 2 Spider Web in the pool to brew Elixir 0" said the recipe's
    "2 Spider Web" again and the seat's name on every row: each row says what its card
    needs more, the seat's name in the headline alone."""
    s = start(app)
    deal(s, NAMES)
    s.execute(Command("begin"))
    s.execute(Command("omen", args={"text": "calm"}))
    s.execute(Command("fill_board"))
    for i, who in enumerate(NAMES):
        s.execute(Command("turn_order_roll", who, {"value": 6 - i}))
    frames()
    screen(app).turn_panel.choose("brew")
    frames()
    rows = {r.potion: r for r in screen(app).walk() if isinstance(r, PotionRow)}
    words = {name: next(w.text for w in row.walk() if isinstance(w, Label) and "[b]" in w.text)
             for name, row in rows.items()}
    assert "Needs 2 more Spider Web, 1 more of any kind in the pool" in words["Elixir 0"], words
    assert "Needs 1 more Spider Web, 1 more Frog Legs in the pool" in words["Draught 0"], words
    for name, text in words.items():
        assert "Anna" not in text, text
        assert len(set(phrases(text))) == len(phrases(text)), text   # nothing twice in a row


def test_a_dialog_over_the_table_does_not_empty_the_bar(app):
    """The log dialog says every line; the bar lies dimmed under it, and the dialog still
    fades after Close: its words are not what the window says beside the bar."""
    s = to_turn_order(app)
    for i, who in enumerate(NAMES):
        s.execute(Command("turn_order_roll", who, {"value": 6 - i}))
    frames()
    before = bar(app).shown
    assert before != NOTHING_NEW and whole_or_first_words(before.split("\n")[-1],
                                                          app.log_all()[-1]), before
    tap(bar(app).ids.events)
    assert dialogs()
    assert bar(app).shown == before
    tap_title("Close")
    frames()
    assert not dialogs() and bar(app).shown == before, bar(app).shown
