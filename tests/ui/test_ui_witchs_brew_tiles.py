"""Witch's Brew read from a chair: the seat tiles' counters as big digits beside
drawn icons, larger with Large text; a correction that shows the counts the seat holds; and a
brew entered in fewer taps: the cards brewed in earlier games offered as a picker, the only
stack left picked by itself. Screenshots at 800x480 and 1280x720 (screenshots/)."""

from __future__ import annotations

import pytest
from test_ui_screens import FIVE, start, table
from test_ui_text_size import large  # noqa: F401 (the fixture)
from ui_helpers import both_sizes, button, dialogs, find, frames, panel, stepper, tap, tap_title
from wb_counts import counts

from companion.core.model import Command
from ui.table.settings import TEXT_SIZES
from ui.widgets.icons import Counter, Icon


def brew_with_the_witch(s, brewer: str, names) -> None:
    """``brewer`` announces the Witch and everyone else passes: the full action is next."""
    s.execute(Command("play_role", brewer, {"role": "witch"}))
    for name in names:
        if name != brewer:
            s.execute(Command("pass", name))
    frames()


def test_the_tiles_show_every_counter_as_digits_beside_its_icon(app):
    s = start(app)
    s.execute(Command("adjust", "Anna", {"potion": {"stack": "silver", "points": 5}}))
    frames()
    assert counts(app, "Anna") == {"red": 1, "white": 1, "green": 1, "gold": 2, "vials": 0,
                                   "potions": 1, "cards": 5}
    tile = panel(app, "Anna")
    drawn = [c for c in find(lambda w: isinstance(w, Counter), tile) if c.height]
    assert {c.kind for c in drawn} == {"drop", "nugget", "vial", "potion", "cards"}
    for c in drawn:                # 30 units at 800x480: capitals of 21 px
        assert c.digits.font_size == pytest.approx(app.u * 30)
        assert c.icon.width > app.u * 14 and c.icon.canvas.children   # drawn, not empty
    both_sizes("witchs_brew_tiles")
    start(app, FIVE + ["Fiona"])                     # six seats: no room for the potions
    assert "potions" not in counts(app, "Fiona") and counts(app, "Fiona")["cards"] == 5


def test_large_text_enlarges_the_counters(app, large):  # noqa: F811 (the fixture)
    start(app)
    drawn = [c for c in find(lambda w: isinstance(w, Counter), panel(app, "Barb")) if c.height]
    assert drawn
    for c in drawn:
        assert c.digits.font_size == pytest.approx(app.u * 30 * TEXT_SIZES["large"])
    both_sizes("witchs_brew_tiles_large_text")


def corrected(app):
    """Carl's correction opened: one more gold, one red drop less."""
    table(app).open_adjust(2)
    (dialog,) = dialogs()
    gold = stepper("Gold", dialog)
    assert (gold.value, gold.note) == (5, "")         # what Carl holds, not a change of 0
    tap(button("+", gold))
    tap(button("-", stepper("Red", dialog)))
    return dialog, gold


def test_the_correction_shows_the_counts_the_seat_holds(app):
    s = start(app)
    s.execute(Command("adjust", "Carl", {"changes": {"gold": 3}}))
    frames()
    both_sizes("witchs_brew_adjust_counts", before=lambda: corrected(app))
    dialog, gold = corrected(app)
    assert (gold.value, gold.note) == (6, "was 5, +1")
    assert stepper("Red", dialog).value == 0
    assert button("-", stepper("Red", dialog)).disabled   # never below none
    tap_title("Apply", dialog)
    assert not dialogs()
    assert counts(app, "Carl")["gold"] == 6 and counts(app, "Carl")["red"] == 0


def brew_picked(app):
    """The brew entry opened, the copper stack tapped and the card seen last game picked."""
    table(app).resolve_panel.open_entry()
    (dialog,) = dialogs()
    assert not find(lambda w: getattr(w, "caption", "") == "1 red\n1 green", dialog)
    tap_title("Copper", dialog)
    card = button("3 pts", dialog)
    assert card.caption == "1 red\n1 green" and not card.disabled   # a drop a line
    tap(card)
    assert card.selected
    return dialog


def test_a_card_brewed_in_an_earlier_game_is_one_tap(app):
    """Anna brewed a 3-point copper card for 1 red and 1 green last game: this game's brew
    offers it once the copper stack is tapped, and one tap fills points, raven and payment.
    A card the brewer cannot pay for is offered greyed out."""
    s = start(app, FIVE[:4])
    brew_with_the_witch(s, "Anna", FIVE[:4])
    s.execute(Command("resolve", "Anna", {
        "potion": {"stack": "copper", "points": 3}, "pay": {"red": 1, "green": 1}}))
    s = start(app, FIVE[:4])                           # the next game
    brew_with_the_witch(s, "Anna", FIVE[:4])
    both_sizes("witchs_brew_dialog_brew_picker", before=lambda: brew_picked(app))
    dialog = brew_picked(app)
    assert stepper("Points", dialog).value == 3
    assert {c: int(stepper(c.capitalize(), dialog).value) for c in ("red", "white", "green")} == {
        "red": 1, "white": 0, "green": 1}
    tap_title("Apply", dialog)
    assert not dialogs()
    anna = app.session.state["players"][0]
    assert anna["potions"] == [{"stack": "copper", "points": 3, "raven": False}]
    assert (anna["red"], anna["green"]) == (0, 0)


def test_a_card_the_brewer_cannot_pay_for_is_greyed(app):
    s = start(app, FIVE[:3])
    s.execute(Command("adjust", "Anna", {"changes": {"white": 2}}))
    brew_with_the_witch(s, "Anna", FIVE[:3])
    s.execute(Command("resolve", "Anna", {
        "potion": {"stack": "silver", "points": 4}, "pay": {"white": 3}}))
    s = start(app, FIVE[:3])
    brew_with_the_witch(s, "Anna", FIVE[:3])
    tap_title("Brew a potion")
    (dialog,) = dialogs()
    tap_title("Silver", dialog)
    assert button("4 pts", dialog).disabled           # Anna has 1 white drop, the card needs 3
    tap_title("Iron", dialog)
    assert not find(lambda w: getattr(w, "title", "") == "4 pts", dialog)


def test_the_only_stack_with_cards_left_is_picked_by_itself(app):
    s = start(app, FIVE[:3])
    for stack in ("copper", "silver"):
        for points in range(1, 8):
            s.execute(Command("adjust", "Barb", {"potion": {
                "stack": stack, "points": points, "raven": points > 5}}))
    brew_with_the_witch(s, "Anna", FIVE[:3])
    tap_title("Brew a potion")
    (dialog,) = dialogs()
    assert dialog.potion.stack == "iron"
    assert button("Iron", dialog).selected
    assert button("Copper", dialog).disabled and button("Silver", dialog).disabled


def test_an_icon_draws_each_kind_and_nothing_without_room(app):
    for kind in ("drop", "nugget", "vial", "potion", "cards"):
        icon = Icon(kind=kind, size=(40, 40), pos=(0, 0))
        assert len(icon.drawing.children) > 4, kind
        icon.size = (0, 40)
        assert not icon.drawing.children, kind
