"""Omens entered before come back for one-tap reuse: the Omen dialog offers every Omen of this
database's Cauldron games once, and a tap fills its text, what the Fields produce and who
starts; the table enters it. Screenshots: cauldron_omen_earlier_*."""

from __future__ import annotations

from companion.core.model import Command
from companion.games import get_rules
from ui_helpers import both_sizes, dialogs, frames, tap, tap_title


def earlier_game(app, omen):
    """A stored Cauldron game whose first Harvest opened with ``omen``."""
    s = app.store.new_game(get_rules("cauldron"), {
        "game": "cauldron", "players": ["Anna", "Barb"],
        "milestones": {"magik_overflow": 12, "rituals_of_power": 20, "the_breaking": 28}})
    s.execute(Command("begin"))
    s.execute(Command("omen", args=omen))


def to_omen(app):
    setup = {"game": "cauldron", "players": ["Carl", "Dora", "Emil"],
             "milestones": {"magik_overflow": 12, "rituals_of_power": 20, "the_breaking": 28}}
    assert app.start_game(setup) is None
    app.session.execute(Command("begin"))
    frames()
    assert app.prompt["phase"] == "omen"


def open_dialog(app):
    app.screens.get_screen("cauldron").phase_panel.open_omen()
    frames()
    (dialog,) = dialogs()
    return dialog


def test_an_omen_entered_before_fills_the_form_in_one_tap(app):
    for omen in ({"text": "Frost", "produce": {"frog_legs": -1}, "first": "lsp"},
                 {"text": "Calm", "magik": {"Anna": 2}}, {"text": ""}):
        earlier_game(app, omen)
    to_omen(app)
    dialog = open_dialog(app)
    assert dialog.earlier == 2                   # Frost and Calm; an empty Omen is no card
    assert [o["text"] for o in dialog.omens] == ["Calm", "Frost"]
    tap(dialog.ids.earlier)
    assert len(dialogs()) == 2                   # the picker over the Omen dialog
    both_sizes("cauldron_omen_earlier", before=lambda: _picker(app))
    dialog = open_dialog(app)
    tap(dialog.ids.earlier)
    picker = [d for d in dialogs() if d is not dialog][0]
    tap_title("Frost", picker)
    assert dialogs() == [dialog]
    assert dialog.ids.omen_text.text == "Frost" and dialog.produce["frog_legs"].value == -1
    assert dialog.starts == "lsp"
    assert all(s.value == 0 for s in dialog.magik.values())
    tap(dialog.ids.apply)
    omen = app.session.state["harvest"]["omen"]
    assert omen["text"] == "Frost" and app.prompt["phase"] == "fill"


def test_no_omen_before_nothing_to_offer(app):
    to_omen(app)
    dialog = open_dialog(app)
    assert dialog.earlier == 0 and dialog.ids.earlier.disabled


def _picker(app):
    dialog = open_dialog(app)
    tap(dialog.ids.earlier)


def test_the_catalogues_keep_the_newest_entry_of_each_card_first():
    """Omens and potion cards are offered newest first, once each: of two entries of one card
    the later wins, the newer game before the older, and what cannot be read is passed over."""
    from companion.history.entered import newest_once

    def entry(game_id, text):
        return game_id, Command("omen", args={"text": text})

    entries = [entry(9, "Frost"), entry(9, "Storm"), entry(9, "frost"), entry(9, ""),
               entry(4, "Drought"), entry(4, "Storm")]          # newest game first (entered)
    kept = newest_once(entries, lambda c: c.args["text"] or None,
                       lambda text: text.casefold())
    assert kept == ["frost", "Storm", "Drought"]
