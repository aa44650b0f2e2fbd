"""The colour language of ui/theme.py held on the controls: a button that
picks a player is drawn in that seat's colour (not the option grey), the chosen one keeps
its colour and gets the amber ring. Screenshots: colour_witchs_brew_whose_*,
colour_cauldron_steal_whom_*."""

from __future__ import annotations

from companion.core.model import Command
from test_ui_cauldron_flow import new_table, to_the_first_turn
from test_ui_screens import FIVE, start
from ui_helpers import both_sizes, button, dialogs, frames, tap_title

from ui import theme
from ui.games.witchs_brew.table import colour_of


def drawn_fill(b) -> tuple:
    return theme.button_look(b.fill, b.ink, b.selected)[0]


def open_what_happened(app) -> None:
    tap_title("Enter what happened")
    frames()


def test_witchs_brew_whose_counters_buttons_are_the_seats_colours(app):
    """The Warlock's spell read at the table: the dialog's row of players, one per seat."""
    s = start(app)
    s.execute(Command("play_role", "Anna", {"role": "warlock"}))
    for name in FIVE[1:]:
        s.execute(Command("pass", name))
    frames()
    open_what_happened(app)
    (dialog,) = dialogs()
    for seat, name in enumerate(FIVE):
        b = dialog.tab_buttons[name]
        hex_colour = colour_of(app, seat)[0]
        assert theme.same_colour(drawn_fill(b), theme.rgba(hex_colour)), name
        assert theme.same_colour(b.ink, theme.ink_on(hex_colour)), name
        assert not theme.same_colour(drawn_fill(b), theme.OPTION), name
    # the chosen one keeps its seat's colour (the amber ring says chosen)
    assert [n for n, b in dialog.tab_buttons.items() if b.selected] == ["Anna"]
    dialog.dismiss(animation=False)
    frames()
    both_sizes("colour_witchs_brew_whose", before=lambda: open_what_happened(app))


def test_cauldron_steal_whom_buttons_are_the_seats_colours(app):
    new_table(app)
    s = to_the_first_turn(app)
    tap_title("Gather")
    tap_title("Frog Legs")
    frames()
    tap_title("End turn")
    tap_title("Steal")
    frames()
    colours = {p["name"]: p["colour"] for p in s.state["players"]}
    b = button("Anna")
    assert theme.same_colour(drawn_fill(b), theme.rgba(colours["Anna"]))
    assert theme.same_colour(b.ink, theme.ink_on(colours["Anna"]))
    assert not theme.same_colour(drawn_fill(b), theme.OPTION)
    both_sizes("colour_cauldron_steal_whom")


def test_cauldron_a_potion_ready_to_brew_is_available_as_the_actions_are(app):
    """"Available" is one colour: a potion the seat can brew now is drawn as the action row
    draws an action open now (ACTION, blue), not green (the colour of a step that finishes);
    one it cannot brew is an option whose tap says why, as in the action row."""
    new_table(app)
    s = app.session
    s.execute(Command("add_potion", "Anna", {"potion": {
        "name": "Toad Tonic", "kind": "easy", "yield": 3,
        "ingredients": ["frog_legs", "frog_legs"]}}))
    s.execute(Command("add_potion", "Anna", {"potion": {
        "name": "Love Potion", "kind": "basic", "yield": 3,
        "ingredients": ["spider_web", "spider_web"]}}))
    for who in ("Barb", "Carl"):
        for kind in ("easy", "basic"):
            s.execute(Command("add_potion", who, {"potion": {
                "name": f"{kind} {who}", "kind": kind, "yield": 3,
                "ingredients": ["frog_legs", "frog_legs"]}}))
    for command in (Command("begin"), Command("omen", args={"text": "calm"}),
                    Command("fill_board"), Command("roll", args={"value": 6}),
                    Command("roll", args={"value": 2}), Command("roll", args={"value": 1}),
                    Command("adjust", "Anna", {"pool": {"frog_legs": 2}})):
        s.execute(command)
    frames()
    assert "Toad Tonic" in app.summary["options"]["brew"]
    tap_title("Brew")
    frames()
    gather = button("Gather")
    assert theme.same_colour(gather.fill, theme.ACTION)          # open now, in the action row
    ready, not_ready = button("Toad Tonic"), button("Love Potion")
    assert theme.same_colour(ready.fill, gather.fill) and theme.same_colour(ready.ink, theme.INK)
    assert theme.same_colour(not_ready.fill, theme.OPTION) and not not_ready.disabled
    both_sizes("colour_cauldron_brew_list", before=lambda: tap_title("Brew"))
