"""Seat colours by touch: each setup screen offers the palette per seat (large named swatches),
refuses a colour another seat has with a message naming that seat, stores the colours in the
game's setup, and shows them where the seats appear in play; a resume and "Play again" keep
them, and a game stored without colours shows the defaults."""

from __future__ import annotations

from ui_helpers import both_sizes, button, dialogs, find, frames, shot, tap, tap_title

from companion.core import palette
from ui import theme
from ui.widgets.common import ColourPicker, ColourSwatch


def picker() -> ColourPicker:
    found = [d for d in dialogs() if isinstance(d, ColourPicker)]
    assert len(found) == 1, found
    return found[0]


def swatch(name: str) -> ColourSwatch:
    return next(s for s in find(lambda w: isinstance(w, ColourSwatch), picker())
                if s.colour_name == name)


def brew_setup(app):
    tap_title("Witch's Brew")
    setup = app.screens.get_screen("setup")
    for row, name in zip(setup.rows, ["Anna", "Barb", "Carl", "Dora"]):
        row.ids.name.text = name
    frames()
    return setup


def test_witchs_brew_seats_pick_their_colours(app):
    setup = brew_setup(app)
    assert [r.colour for r in setup.rows[:4]] == ["Orange", "Sky blue", "Bluish green",
                                                   "Yellow"]          # distinct defaults
    assert [r.ids.colour.title for r in setup.rows[:4]] == [r.colour for r in setup.rows[:4]]
    shot("seat_colours_brew_setup")
    tap(setup.rows[2].ids.colour)                                       # Carl's colour
    assert picker().title == "Colour for Carl (seat 3)"
    assert len(find(lambda w: isinstance(w, ColourSwatch), picker())) == len(palette.PALETTE)
    assert swatch("Orange").caption == "Anna (seat 1)" and swatch("Bluish green").caption == "now"
    both_sizes("seat_colours_picker", before=lambda: tap(setup.rows[2].ids.colour))
    tap(setup.rows[2].ids.colour)
    tap(swatch("Sky blue"))                                             # Barb's: refused
    assert picker().message.startswith("Sky blue is already the colour of Barb (seat 2)")
    assert setup.rows[2].colour == "Bluish green"
    shot("seat_colours_picker_taken")
    tap(swatch("Reddish purple"))
    assert not [d for d in dialogs() if isinstance(d, ColourPicker)]
    assert setup.rows[2].colour == "Reddish purple"
    assert setup.rows[2].ids.colour.title == "Reddish purple"
    tap(setup.rows[0].ids.colour)
    tap(swatch("Black"))
    both_sizes("seat_colours_brew_setup_chosen")
    tap_title("Start the game")
    assert app.screens.current == "witchs_brew"
    assert app.session.setup["colours"] == ["#000000", "#56B4E9", "#CC79A7", "#F0E442"]
    assert [p["colour"] for p in app.session.state["players"]] == app.session.setup["colours"]
    table = app.screens.get_screen("witchs_brew")
    panels = [p for p in find(lambda w: type(w).__name__ == "SeatPanel", table)]
    assert sorted(p.colour_name for p in panels) == sorted(
        ["Black", "Sky blue", "Reddish purple", "Yellow"])
    both_sizes("seat_colours_brew_table")
    game = app.session.game_id
    app.go_home()
    app.resume(game)                                                    # a resume keeps them
    assert app.session.setup["colours"][0] == "#000000"
    app.play_again()                                                    # and "Play again"
    frames()
    setup = app.screens.get_screen("setup")
    assert [r.colour for r in setup.rows[:4]] == ["Black", "Sky blue", "Reddish purple",
                                                   "Yellow"]


def test_fewer_seats_then_more_never_share_a_colour(app):
    setup = brew_setup(app)
    tap(setup.rows[0].ids.colour)
    tap(swatch("Blue"))
    tap(button("-"))                                   # Dora leaves; Anna is Blue
    tap(setup.rows[1].ids.colour)
    tap(swatch("Yellow"))                              # Yellow was Dora's: free now
    tap(button("+"))                                   # Dora is back: no longer Yellow
    colours = [r.colour for r in setup.rows[:4]]
    assert len(set(colours)) == 4 and colours[:2] == ["Blue", "Yellow"]


def test_cauldron_seats_pick_their_colours_and_the_table_shows_them(app):
    app.new_game("cauldron")
    frames()
    setup = app.screens.get_screen("cauldron_setup")
    setup.change_count(-1)
    for row, name in zip(setup.rows, ["Anna", "Barb", "Carl"]):
        row.ids.name.text = name
    tap(setup.rows[1].ids.colour)
    assert picker().title == "Colour for Barb (seat 2)"
    tap(swatch("Orange"))                                              # Anna's: refused
    assert picker().message.startswith("Orange is already the colour of Anna (seat 1)")
    tap(swatch("Black"))
    tap(setup.rows[2].ids.colour)
    tap(swatch("White"))
    both_sizes("seat_colours_cauldron_setup")
    setup.start()
    frames()
    assert app.screens.current == "cauldron", setup.error
    assert app.session.setup["colours"] == ["Orange", "Black", "White"]
    assert [p["colour"] for p in app.session.state["players"]] == ["#E69F00", "#000000",
                                                                    "#FFFFFF"]
    table = app.screens.get_screen("cauldron")
    cards = [c for c in find(lambda w: type(w).__name__ == "CauldronSeatCard", table)]
    black = next(c for c in cards if c.player == "Barb")
    assert tuple(black.colour) == (0, 0, 0, 1)
    assert tuple(black.edge) == theme.INK                              # a black seat shows
    both_sizes("seat_colours_cauldron_table")
    game = app.session.game_id
    app.go_home()
    app.resume(game)
    assert [p["colour"] for p in app.session.state["players"]][1] == "#000000"
    app.play_again()
    frames()
    assert [r.colour for r in setup.rows[:3]] == ["Orange", "Black", "White"]


def test_an_old_game_without_colours_shows_the_defaults(app):
    assert app.start_game({"game": "cauldron", "players": ["Anna", "Barb"]}) is None
    assert "colours" not in app.session.setup
    assert [p["colour"] for p in app.session.state["players"]] == [
        c.hex for c in palette.defaults(2)]
    app.play_again()
    frames()
    setup = app.screens.get_screen("cauldron_setup")
    assert [r.colour for r in setup.rows[:2]] == ["Orange", "Sky blue"]


def test_a_colour_the_rules_refuse_is_said_at_the_seat_it_concerns():
    from ui.games.cauldron.setup_check import setup_problems

    players = [{"name": "Anna"}, {"name": "Barb"}, {"name": "Carl"}]
    assert setup_problems({"game": "cauldron", "players": players,
                           "colours": ["Orange", "Blue", "orange"]}) == (
        {2: "Orange for Carl is already the colour of Anna; each seat needs its own"}, "")
    seats, general = setup_problems({"game": "cauldron", "players": players,
                                     "colours": ["Orange", "Mauve", "Blue"]})
    assert general == "" and seats[1].startswith("'Mauve' for Barb is not a palette colour")
