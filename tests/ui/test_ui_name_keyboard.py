"""Names typed at the table: capitalised as typed, Enter to the next name, and the touch
keyboard's Shift for one letter (Kivy's is held: one tap of it did nothing)."""

from __future__ import annotations

import itertools

import pytest
from ui_helpers import frames, shot

from ui.widgets.name_input import LatchingKeyboard, NameInput, capitalised


@pytest.mark.parametrize("before, typed, written", [
    ("", "anna", "Anna"), ("", "anna maria", "Anna Maria"), ("Anna", " maria", " Maria"),
    ("", "jean-luc", "Jean-Luc"), ("", "o'neil", "O'Neil"), ("An", "na", "na"),
    ("", "McDonald", "McDonald"), ("", "3 bears", "3 Bears"), ("", "émile", "Émile")])
def test_each_word_of_a_name_starts_with_a_capital_and_the_rest_is_as_typed(before, typed,
                                                                            written):
    assert capitalised(before, typed) == written


def test_a_setup_s_names_are_capitalised_as_typed_and_enter_goes_to_the_next(app):
    app.new_game("witchs_brew")
    frames()
    setup = app.screens.get_screen("setup")
    first, second = setup.rows[0].ids.name, setup.rows[1].ids.name
    assert isinstance(first, NameInput)
    first.text = ""
    first.focus = True
    frames()
    for letter in "anna maria":                  # one key at a time, as the keyboard sends
        first.insert_text(letter)
    assert first.text == "Anna Maria"
    assert first.cursor_width >= 2 * app.u and first.cursor_color[3] == 1   # a cursor seen
    shot("setup_typing_a_name")
    first.dispatch("on_text_validate")           # Enter
    frames()
    assert second.focus and not first.focus
    last = setup.rows[-1].ids.name
    last.focus = True
    frames()
    last.dispatch("on_text_validate")            # after the last name, the keyboard goes
    frames()
    assert not any(r.ids.name.focus for r in setup.rows)
    app.go_home()


class Finger:
    """A touch as VKeyboard reads one (its place, its id, its own data)."""
    ids = itertools.count(1)

    def __init__(self, pos):
        self.pos, self.x, self.y = pos, pos[0], pos[1]
        self.uid, self.ud = next(self.ids), {}


def test_one_tap_of_shift_gives_one_capital_and_a_second_tap_lets_go(app):
    keyboard = LatchingKeyboard(size=(800, 260))
    keyboard.refresh(True)
    typed = []
    keyboard.bind(on_key_down=lambda _k, code, internal, mods: typed.append(internal or code))

    def place(wanted):
        for x, y in itertools.product(range(5, 800, 10), range(5, 260, 10)):
            found = keyboard.get_key_at_pos(x, y)
            if found and (found[0][2] == wanted or found[0][1] == wanted):
                return x, y
        raise AssertionError(f"no {wanted!r} key")

    def tap(wanted):
        finger = Finger(place(wanted))
        keyboard.process_key_on(finger)
        keyboard.process_key_up(finger)
        frames(1)                                # the keys shown follow Shift on a frame

    shift = place("shift")
    tap("shift")
    assert keyboard.have_shift and keyboard.latched        # on for the next letter...
    tap("A")
    assert typed[-1] == "A" and not keyboard.have_shift    # ...and off after it
    tap("a")
    assert typed[-1] == "a"
    tap("shift")
    tap("shift")                                           # tapped again: let go
    assert not keyboard.have_shift
    finger = Finger(shift)                                  # held, as Kivy's own works
    keyboard.process_key_on(finger)
    assert keyboard.have_shift
    keyboard.process_key_up(finger)
    assert keyboard.latched                                 # a tap all the same
