"""Cauldron's potion cards as printed cards and its seat cards read from a
chair (item 4): the card dialog opens on the cards entered before, one tap enters one and the
next seat with cards waiting follows; "A new card" is the whole entry preset from the kind the
seat is owed, and a refused card says why. The seat cards' counters are big digits that Large
text enlarges, dropping what no longer fits. Screenshots: cauldron_cards_*, cauldron_seats_*."""

from __future__ import annotations

import pytest
from companion.core.model import Command
from test_ui_cauldron_screens import FOUR, card, deal, start, to_turns
from ui_helpers import both_sizes, dialogs, find, frames, tap_title

from ui.games.cauldron.potion import CauldronPotionDialog
from ui.games.cauldron.seats import COUNT_FS, DIGIT_FS, PoolChip
from ui.table.settings import TEXT_SIZES

NAMES = [p["name"] for p in FOUR]


def table(app):
    return app.screens.get_screen("cauldron")


def test_a_card_entered_before_takes_one_tap_and_the_next_seat_follows(app):
    s = start(app)
    deal(s, NAMES[:1])                           # Anna's two cards: the catalogue
    frames()
    table(app).open_cards()
    (dialog,) = dialogs()
    assert dialog.name == "Barb" and dialog.mode == "pick"
    titles = [b.title for b in dialog.ids.catalogue.children]
    assert sorted(titles) == ["Draught 0", "Elixir 0"]
    both_sizes("cauldron_cards_picker")
    tap_title("Draught 0", dialog)               # one tap: the card is Barb's
    assert [p["name"] for p in s.state["players"][1]["potions"]] == ["Draught 0"]
    assert s.state["players"][1]["owed"] == ["basic"] and dialog.name == "Barb"
    tap_title("Elixir 0", dialog)                # Barb's last card: Carl's turn in the dialog
    assert s.state["players"][1]["owed"] == [] and dialog.name == "Carl"
    assert dialog.mode == "pick"
    dialog.dismiss()
    frames()


def test_a_new_card_is_preset_from_what_the_seat_is_owed_and_a_refusal_says_why(app):
    s = start(app)
    deal(s, NAMES[:1])
    s.execute(Command("add_potion", "Barb", {"potion": card("Tonic", ["frog_legs"] * 2,
                                                            kind="easy", gain=3)}))
    frames()
    CauldronPotionDialog.open_for("Barb")
    (dialog,) = dialogs()
    tap_title("A new card", dialog)
    assert dialog.mode == "new"
    assert dialog.kind == "basic" and dialog.ids.yield_.value == 4   # Barb is owed a Basic one
    for part in ("Snake Skin", "Dragon Egg"):
        tap_title(part, dialog)
    steps = len(s.done_steps())
    tap_title("Enter the card", dialog)          # no name: refused, and the dialog says why
    assert len(s.done_steps()) == steps and dialog.error and dialog.mode == "new"
    both_sizes("cauldron_cards_new_refused")
    dialog.ids.potion_name.text = "Philtre"
    tap_title("Enter the card", dialog)
    assert s.state["players"][1]["potions"][-1]["name"] == "Philtre" and not dialog.error
    assert dialog.name == "Carl" and dialog.mode == "pick"
    dialog.dismiss()
    frames()


def full_pool(s):
    """Anna holds one of every Ingredient but Mandrake Root: seven chips' worth of words."""
    s.execute(Command("adjust", "Anna", {"pool": {"spider_web": 2, "frog_legs": 1,
                                                  "poisonous_mushroom": 3, "blood_crystal": 1,
                                                  "snake_skin": 1, "dragon_egg": 2}}))
    frames()


@pytest.fixture
def large(app, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "settings.json"))
    app.load_table_settings()
    assert app.change_table_settings(text_size="large") == ""
    frames()
    yield
    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "none.json"))
    app.load_table_settings()
    frames()


def test_seat_counters_are_big_digits_and_large_text_enlarges_them(app):
    s = start(app)
    deal(s, NAMES)
    to_turns(s, NAMES)
    full_pool(s)
    anna = table(app).seats.cards()[0]
    digits = [anna.ids.potions, anna.ids.spells, anna.ids.magik]
    assert all(w.font_size >= DIGIT_FS * app.u - 0.5 for w in digits)
    chips = find(lambda w: isinstance(w, PoolChip), anna)
    assert chips and all(c.count for c in chips)
    both_sizes("cauldron_seats_full_pool")


def test_large_text_enlarges_the_seat_cards_and_leaves_out_what_no_longer_fits(app, large):
    s = start(app)
    deal(s, NAMES)
    to_turns(s, NAMES)
    full_pool(s)
    anna = table(app).seats.cards()[0]
    assert anna.ids.potions.font_size == pytest.approx(COUNT_FS * app.u * TEXT_SIZES["large"])
    assert anna.ids.name.font_size > 24 * app.u
    chips = find(lambda w: isinstance(w, PoolChip), anna)
    # six kinds held: fewer chips, "+N" for the rest, before a line is cut (the layout check);
    # at 800x480 Large text's counters (a quarter larger) leave no row for the pool
    # at all: the card shows fewer things, the seat's dialog a tap away has them
    assert not anna.show_cellars and (not chips or chips[-1].count.startswith("+"))
    assert anna.ids.pool_rows.height == 0 or chips
    both_sizes("cauldron_seats_large_text")


def test_a_choice_left_open_in_one_game_is_closed_in_the_next(app):
    """The turn panel serves every Cauldron game the app opens: a brew list left open in one
    game showed over the next game's seats at the same seat's first turn (its key, the season,
    seat, phase and action, was the same)."""
    s = start(app)
    deal(s, NAMES)
    to_turns(s, NAMES)
    table(app).turn_panel.choose("brew")
    frames()
    assert table(app).turn_panel.choice == "brew"
    app.go_home()
    s = start(app)
    deal(s, NAMES)
    to_turns(s, NAMES)
    frames()
    assert table(app).turn_panel.choice == ""
    assert table(app).seats.get_root_window() is not None      # the seats show, not the list
