"""The Cauldron setup screen's problems in people's words, at the seat row they concern, gone as
soon as the table fixes them; and the Field tiles it suggests add up to what the box holds."""

from __future__ import annotations

from companion.games.cauldron import data as d
from ui_helpers import both_sizes, frames, wait_for


def test_a_seat_problem_shows_at_its_row_and_goes_when_fixed(app):
    app.new_game("cauldron")
    frames()
    setup = app.screens.get_screen("cauldron_setup")
    setup.rows[0].ids.name.text = "Anna"
    setup.rows[1].ids.name.text = "anna"
    setup.start()
    frames()
    assert app.screens.current == "cauldron_setup"
    assert setup.rows[1].problem == "Two seats have the same name ('Anna' and 'anna')"
    assert setup.rows[0].problem == "" and setup.error == ""
    assert "players[" not in setup.rows[1].problem
    both_sizes("cauldron_setup_seat_problem")
    setup.rows[1].ids.name.text = "Barb"          # fixed: the words go without another Start
    assert wait_for(lambda: setup.rows[1].problem == "")
    assert not setup.refused


def test_a_character_problem_shows_at_the_seat_that_has_it(app):
    app.new_game("cauldron")
    frames()
    setup = app.screens.get_screen("cauldron_setup")
    setup.set_character(setup.rows[2], "wizard")
    setup.toggle_variant("simple")
    setup.start()
    frames()
    assert setup.rows[2].problem == "The Simple Game does not use the Wizard"
    setup.set_character(setup.rows[2], "witch")
    assert wait_for(lambda: setup.rows[2].problem == "")
    setup.start()
    assert app.screens.current == "cauldron"


def test_the_field_tiles_suggested_fit_the_box(app):
    from ui.games.cauldron.setup import FieldSupplyPicker

    app.new_game("cauldron")
    frames()
    setup = app.screens.get_screen("cauldron_setup")
    picker = FieldSupplyPicker(setup)
    counts = {k: int(s.value) for k, s in picker.steppers.items()}
    assert sum(counts.values()) == d.DEFAULT_SETTINGS["box_fields"] == 44
    assert set(counts) == set(d.INGREDIENTS)
