"""Witch's Brew with Large text, state by state: the role cards' sheet, the answers, the
resolve panel, the card's text and the forms over the table, each captured at 800x480 and
1280x720, so the layout check holds every one of them to Large text's floor (30 units, 37.5
for a button's words and the counts): nothing drawn at the normal size because it did not fit,
nothing cut, every tile with both lines of counts. Screenshots: witchs_brew_large_*."""

from __future__ import annotations

from test_ui_screens import FIVE, role_card, start, table
from test_ui_text_size import large  # noqa: F401 (the fixture)
from ui_helpers import both_sizes, close_dialogs, frames, panel
from wb_counts import counts

from companion.core.model import Command


def test_every_state_of_a_round_at_large_text(app, large):  # noqa: F811 (the fixture)
    s = start(app, FIVE)
    both_sizes("witchs_brew_large_role_cards", before=lambda: role_card("Warlock"))
    close_dialogs()
    s.execute(Command("play_role", "Anna", {"role": "fortune_teller"}))
    frames()
    assert table(app).mode == "answer"
    for name in FIVE:                                     # both lines of counts, every tile
        assert set(counts(app, name)) >= {"red", "white", "green", "gold", "vials", "cards"}
        assert not panel(app, name).compact               # the score beside the name
    both_sizes("witchs_brew_large_answer")
    both_sizes("witchs_brew_large_card_text", before=table(app).show_card_text)
    close_dialogs()
    for name in FIVE[1:]:
        s.execute(Command("pass", name))
    frames()
    assert table(app).mode == "resolve"
    both_sizes("witchs_brew_large_resolve")


def test_the_forms_at_large_text(app, large):  # noqa: F811 (the fixture)
    s = start(app, FIVE)
    s.execute(Command("play_role", "Anna", {"role": "witch"}))
    for name in FIVE[1:]:
        s.execute(Command("pass", name))
    frames()
    both_sizes("witchs_brew_large_brew_form", before=table(app).resolve_panel.open_entry)
    close_dialogs()
    both_sizes("witchs_brew_large_correction", before=lambda: table(app).open_adjust(1))
    close_dialogs()
