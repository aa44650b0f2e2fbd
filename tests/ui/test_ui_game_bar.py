"""The game bar: the last events in words under every game's table screen,
the whole log in a dialog (a RecycleView: a long game builds a screenful of lines, not one
widget per step), undo and redo saying what they did, the clocks, pause, and clocks that go on
after leaving and resuming the game."""

from __future__ import annotations

import random
import time

from test_ui_screens import announce
from ui_helpers import both_sizes, dialogs, frames, shot, tap, tap_title, walk

from tests.support.figures import report
from ui import theme as T
from ui.widgets.game_log import GameLogRow


def _whole_or_first_words(shown: str, line: str) -> bool:
    """The bar shows ``line``: whole, or (its words at the size of a button's, on the 7-inch
    panel) its first words with an ellipsis; a tap opens the log with it whole."""
    return shown == line or (shown.endswith("\u2026") and line.startswith(shown[:-1])
                             and len(shown) > 12)


def _bar(app):
    return app.root.ids.game_bar


def start_brew(app):
    tap_title("Witch's Brew")
    setup = app.screens.get_screen("setup")
    for row, name in zip(setup.rows, ("Anna", "Barb", "Carl", "Daniel")):
        row.ids.name.text = name
    tap_title("Start the game")
    frames()


def test_the_bar_shows_the_last_events_in_words_and_takes_its_own_room(app):
    start_brew(app)
    bar = _bar(app)
    assert app.table_showing and bar.height == app.u * 52
    assert app.screens.y == bar.top and app.screens.height == app.root.height - bar.height
    announce("Warlock")
    frames()
    assert _whole_or_first_words(bar.shown, "Anna played the Warlock")   # no "(screen)" said
    tap_title("So be it!")
    frames()
    assert app.log_all()[-3:] == ["Anna played the Warlock",
                                  'Barb said "So be it!" to the Warlock',
                                  "Barb's Warlock favor: +1 gold"]
    assert _whole_or_first_words(bar.shown.splitlines()[-1], "Barb's Warlock favor: +1 gold")
    assert app.clock_turn and app.clock_game
    both_sizes("game_bar_witchs_brew")
    app.go_home()
    frames()
    assert not app.table_showing and bar.height == 0


def test_undo_and_redo_say_what_they_did_in_large_type(app):
    start_brew(app)
    announce("Warlock")
    app.undo()
    frames()
    assert app.undo_words == "Undone: Anna played the Warlock"
    # said in the bar's own place, in amber, at the floor's size: nothing on the screen moves
    bar, screen = app.root.ids.game_bar, app.screens.current_screen
    assert bar.news and bar.shown.startswith("Undone:") and bar.ids.events.font_size >= 24 * app.u
    assert app.screens.height == app.root.height - bar.height
    both_sizes("game_bar_undone", portrait=True)
    app.redo()
    frames()
    assert app.undo_words == "Redone: Anna played the Warlock"
    app.go_home()             # within its seconds: what redo did is no news at home or in
    frames()                  # the next game's setup (it said so over a new setup screen)
    assert app.undo_words == "" and not app.root.ids.game_bar.news


def test_the_log_of_a_long_game_scrolls_to_its_end_without_a_widget_per_step(app):
    from companion.games import get_rules
    from tests.companion import cauldron_autoplay as cauldron

    app._play(app.store.new_game(get_rules("cauldron"), cauldron.setup_for(3)))
    session, rng = app.session, random.Random(2)
    while len(session.steps) < 500 and not session.over:
        session.execute(cauldron.next_command(session, rng))
    frames()
    assert len(app.log_all()) >= 500
    started = time.perf_counter()
    tap(_bar(app).ids.events)
    built = time.perf_counter() - started
    frames(5)
    (log,) = dialogs()
    report("game bar", f"the log of {len(app.log_all())} lines and "
           f"{sum(r['heading'] for r in log.ids.rv.data)} headings: tap to built "
           f"{built * 1000:.0f} ms")
    rv = log.ids.rv
    lines = [r for r in rv.data if not r["heading"] and not r["late"]]
    headings = [r["text"] for r in rv.data if r["heading"]]
    assert [r["text"] for r in lines] == app.log_all()   # every line, none numbered
    # a roll too late to fix says why on a line of its own under it
    assert all(r["text"].startswith("Too late to fix") for r in rv.data if r["late"])
    assert rv.data[0]["heading"] and headings[0] == "Setting up"
    assert "Season 1 Harvest" in headings and "Season 1 Market: Anna's turn" in headings
    assert any(h.startswith("Season 2 Harvest: ") and h.endswith("'s turn") for h in headings)
    assert rv.scroll_y == 0                      # newest last, shown first
    shown = [w for w in walk(log) if isinstance(w, GameLogRow)]
    assert 0 < len(shown) < 60                   # a screenful, not 500
    assert any(w.text == app.log_all()[-1] for w in shown)
    # the names in their seat colours (and named: colour is never the only cue)
    anna = next(r for r in lines if r["text"].startswith("Anna "))
    assert anna["shown"].startswith("[b][color=#e69f00")   # Anna's seat: orange
    both_sizes("game_log_dialog", before=lambda: (tap(_bar(app).ids.events), frames(5)))


def test_pause_stops_every_clock_and_the_clocks_survive_leaving_the_game(app):
    start_brew(app)
    announce("Warlock")
    clock = app.clock
    clock.seats[1] += 100.0   # as if Barb had thought for 100 s
    clock.game += 100.0
    tap(_bar(app).ids.pause)
    assert app.paused and app._timer is None and clock.paused
    shot("game_bar_paused")
    game_id = app.session.game_id
    app.go_home()
    app.resume(game_id)
    frames()
    assert app.paused and app._timer is None            # it stays paused after a restart
    assert app.clock.seats[1] >= 100.0 and app.clock.game >= 100.0
    app.toggle_pause()
    assert not app.paused and app._timer is not None
    assert "Barb 1:4" in app.clock_seats


def test_a_table_button_pauses_too(app):
    from companion.core.model import InputEvent

    start_brew(app)
    app.handle(InputEvent("button", "pause", source="gpio"))
    assert app.paused
    app.handle(InputEvent("button", "pause", source="gpio"))
    assert not app.paused


def test_the_demo_key_p_pauses_on_a_table_screen(app):
    from kivy.core.window import Window

    start_brew(app)
    Window.dispatch("on_key_down", 112, 0, "p", [])
    assert app.paused and app._timer is None
    Window.dispatch("on_key_down", 112, 0, "p", [])
    assert not app.paused and app._timer is not None


def test_a_turn_limit_counts_down_turns_amber_then_red_and_cues_once(app, monkeypatch):
    cues = []
    monkeypatch.setattr(type(app), "turn_limit", property(lambda self: 60))
    monkeypatch.setattr(app, "cue", cues.append)
    start_brew(app)
    turn_clock = _bar(app).ids.turn_clock
    app.clock.turn = 50.0
    app._tick(1.0)
    assert app.clock_turn == "0:10" and app.clock_level == "amber"
    assert turn_clock.color == list(T.ACCENT)
    app.clock.turn = 61.0
    app._tick(1.0)
    app._tick(1.0)
    assert app.clock_turn.startswith("+0:0") and app.clock_level == "red"
    assert turn_clock.color == list(T.BAD)
    assert cues.count("time") == 1
    both_sizes("game_bar_turn_limit_red")


def test_a_log_row_is_as_tall_as_its_words_wrap():
    """The in-game log's rows take their height from their words (ui/widgets/wrap.py): a line
    of wide letters that a guess of 7 units a letter at the type scale's floor took for one line
    gets its second line, at the unit of a 1280x720 window too."""
    from kivy.core.text import Label as CoreLabel

    from ui.widgets.game_log import LINE_FS, row_data

    text = "Wim moved Warm Mummy Wax to the Wizard Market"   # wide letters
    for u in (1.0, 1.5):
        width = u * 11 * len(text)
        core = CoreLabel(text=text, font_size=u * LINE_FS, text_size=(width, None))
        core.refresh()
        one = CoreLabel(text="A", font_size=u * LINE_FS)
        one.refresh()
        lines = round(core.texture.size[1] / one.texture.size[1])
        assert lines == 2 and len(text) * u * 11 <= width         # what the guess missed
        assert row_data(text, width, u)["height"] == u * (34 + 29 * (lines - 1))
        assert row_data("Anna passed", width, u)["height"] == u * 34


def test_the_bar_leaves_out_an_older_line_that_says_the_newer_ones_words(app):
    """"Anna rolled 5 for turn order" over "Barb rolled 2 for turn order" said
    "for turn order" twice in two rows: the newest alone (the log has both)."""
    start_brew(app)
    bar = _bar(app)
    app.log_tail = "Anna rolled 5 for turn order\nBarb rolled 2 for turn order"
    bar._fit()
    assert _whole_or_first_words(bar.shown, "Barb rolled 2 for turn order")
    app.log_tail = "Anna played the Warlock\nBarb passed"
    bar._fit()
    # at the type scale's floor the 7-inch panel's bar holds one line: the newest
    assert bar.shown == "Barb passed"


def test_the_bar_names_a_phone_on_its_press_s_line_only_not_on_the_pass_that_followed(app):
    from companion.core import Command, Session
    from companion.games import get_rules
    from tests.companion.test_witchs_brew_hands import ANNA, BARB, CARL, DANIEL

    s = Session(get_rules("witchs_brew"), {"players": ["Anna", "Barb", "Carl", "Daniel"]})
    for who, roles in zip(s.names, (ANNA, BARB, CARL, DANIEL)):
        s.execute(Command("choose_hand", who, {"roles": roles}), source=f"{who}'s phone")
    step = s.execute(Command("play_role", "Anna", {"role": "druid"}), source="Anna's phone")
    app.bar_changed(s, step, None, None)             # the app's side of the bar tells it
    assert app.log_all()[-2:] == ["Anna played the Druid (Anna's phone)", "Barb: pass"]
