"""A whole round of Witch's Brew by touch, as the table would play it, checked on the widgets;
and a refused input that explains itself and changes nothing."""

from __future__ import annotations

from ui_helpers import (
    button, dialogs, frames, panel, panel_texts, stepper, tap, tap_title, texts,
)
from test_ui_screens import announce, role_card
from wb_counts import shows


def setup_table(app, names=("Anna", "Barb", "Carl", "Daniel")):
    tap_title("Witch's Brew")
    assert app.screens.current == "setup"
    setup = app.screens.get_screen("setup")
    for row, name in zip(setup.rows, names):
        row.ids.name.text = name
    tap_title("Start the game")
    assert app.screens.current == "witchs_brew"


def test_a_round_by_touch(app):
    setup_table(app)
    table = app.screens.get_screen("witchs_brew")
    assert table.turn_name == "Anna"
    assert "Announces" in panel_texts(app, "Anna")
    announce("Warlock")                         # Anna: "I am the Warlock!"
    assert table.role_title == "Warlock"
    assert table.role_call == ""                 # the claim button says the call, once
    assert table.turn_name == "Barb"
    assert "Held by Anna" in texts(table)
    assert panel(app, "Barb").awaited
    tap_title("So be it!")                       # Barb takes the favor: 1 gold, by itself
    assert "So be it" in panel_texts(app, "Barb")
    assert shows(app, "Barb", gold=3)
    tap_title("I am the Warlock!")               # Carl takes the role from Anna
    assert "Claimed" in panel_texts(app, "Carl") and panel(app, "Carl").holder
    assert "Lost role" in panel_texts(app, "Anna")
    assert table.role_note == "Held by Carl"
    tap_title("Pass")                            # Daniel: no Warlock card
    # The round is over: Carl carries out the full action (a card read at the table).
    assert table.mode == "resolve"
    assert table.turn_name == "Carl"
    assert "Use the spell on the top spell book (read it aloud)" in texts(table)
    tap_title("Enter what happened")
    (dialog,) = dialogs()
    tap(button("+", stepper("Gold", dialog)))
    tap(button("+", stepper("Gold", dialog)))
    tap_title("Anna", dialog)
    tap(button("-", stepper("Red", dialog)))
    tap_title("Apply", dialog)
    assert not dialogs()
    assert shows(app, "Carl", gold=4)
    assert shows(app, "Anna", red=0)
    # Carl won the role, so Carl starts the next round; the Warlock is spent this set.
    assert table.mode == "play"
    assert table.turn_name == "Carl"
    assert "Warlock to Carl" in texts(table)   # "Last: " only where it fits at 24 units
    assert role_card("Fortune teller").disabled is False
    warlock = role_card("Warlock")
    assert warlock.disabled and warlock.caption == "you played it"
    announce("Fortune teller")
    for _ in range(3):
        tap_title("Pass")
    tap_title("Pay and take")                    # pay 1 gold, take 2 vials
    assert shows(app, "Carl", gold=3)
    assert shows(app, "Carl", vials=2)
    assert app.summary["round"] == 3
    # Undo by touch walks the log back one step; redo brings it back.
    tap(table.ids.undo)
    assert shows(app, "Carl", vials=0)
    tap(table.ids.redo)
    assert shows(app, "Carl", vials=2)


def test_a_refused_key_press_is_explained_and_changes_nothing(app):
    from kivy.core.window import Keyboard, Window
    from ui_helpers import wait_for

    setup_table(app)
    announce("Alchemist")
    steps, before = len(app.session.steps), app.session.summary()
    # Anna announced; pressing her claim key now is out of turn (Barb answers next).
    Window.dispatch("on_key_down", Keyboard.keycodes["q"], 0, "q", [])
    assert wait_for(lambda: app.refusal)
    assert app.refusal == "It is Barb's turn to answer, not Anna's"
    refusal = app.root.ids.refusal
    assert refusal.opacity == 1
    assert any(app.refusal in t for t in texts(refusal))
    assert len(app.session.steps) == steps and app.session.summary() == before
    tap(refusal)                                 # a tap closes it
    assert app.refusal == "" and refusal.opacity == 0


def test_a_refused_correction_stays_in_its_dialog(app):
    setup_table(app)
    steps = len(app.session.steps)
    tap(panel(app, "Daniel"))                    # tap a seat: its manual correction
    (dialog,) = dialogs()
    assert dialog.title == "Correct Daniel"
    tap_title("Apply", dialog)
    assert dialog.error == "Nothing to correct: give the changes, a potion card added or the one removed"
    assert dialogs() == [dialog] and len(app.session.steps) == steps
    tap(button("+", stepper("Vials", dialog)))
    tap_title("Apply", dialog)
    assert not dialogs()
    assert shows(app, "Daniel", vials=1)
    frames()


def test_a_brew_entry_follows_its_stack(app):
    """Each stack is sorted lowest on top and holds two ravens: picking the copper stack after
    its five plain cards are taken starts the points at the last card's and marks a raven."""
    from companion.core import Command

    setup_table(app)
    for points in (1, 2, 3, 4, 5):
        app.session.execute(Command("adjust", "Barb",
                                    {"potion": {"stack": "copper", "points": points}}))
    announce("Witch")
    for _ in range(3):
        tap_title("Pass")
    tap_title("Brew a potion")
    (dialog,) = dialogs()
    points = stepper("Points", dialog)
    tap_title("Copper", dialog)
    assert (points.value, points.minimum) == (5, 5)
    tap(button("-", points))
    assert points.value == 5
    assert button("Raven on the card: yes", dialog)
    tap_title("Apply", dialog)
    assert not dialogs()
    assert app.session.state["players"][0]["potions"] == [
        {"stack": "copper", "points": 5, "raven": True}]
