"""Setup: who sits where (clockwise), in which colour, who starts, and the variant.

Each seat's colour matches its pieces: a tap on the seat's colour opens the palette
(:class:`ui.widgets.common.ColourPicker`, :mod:`companion.core.palette`); a colour another seat
has is refused there, naming that seat. The colours go into the setup (``colours``), so a
resume and "Play again" show them as chosen.

A seat's "Who?" lists the players seen before (:mod:`ui.widgets.players`); a name can still
be typed. Names default to the last game's table (one stored game read), else a hint "Player 1"...;
"Play again" fills in the finished game's seats instead (``prefill``). The rules validate the
setup: a SetupError about one seat is said in people's words at that seat's row, one about the
whole table beside the form. Once a problem is shown, every change re-asks the rules' gate
(without starting anything), so the message goes as soon as the table has fixed it."""

from __future__ import annotations

import re

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.core import palette
from companion.core.errors import SetupError
from companion.games.witchs_brew import RULES
from companion.games.witchs_brew.state import BOX_SUPPLY, VARIANT
from ui.kiosk.keyboard import keyboard_lift
from ui.widgets.common import distinct_colours, paint
from ui.widgets.players import ColouredSeats, last_game, seat_field, start_game, typed_name

MIN_SEATS, MAX_SEATS = RULES.players


#: The gate's words for a seat's name -> the table's words.
SEAT_WORDS = (
    (re.compile(r"^'(.*)' is listed twice$"), r'"\1" is already at another seat'),
    (re.compile(r"^give a name, not an empty text$"), "Type a name for this seat"),
    (re.compile(r"^text of at most (\d+) characters, not (\d+)$"),
     r"A name of at most \1 letters (this one has \2)"),
)
SEAT_PROBLEM = re.compile(r"^Seat (\d+): (.*)$")


def seat_problem(problem: str) -> tuple[int | None, str]:
    """(seat index or None, message): a problem with one seat's name, said at its row."""
    found = SEAT_PROBLEM.match(problem)
    if found is None:
        return None, problem
    said = found.group(2)
    for pattern, words in SEAT_WORDS:
        if pattern.match(said):
            said = pattern.sub(words, said)
            break
    return int(found.group(1)) - 1, said[0].upper() + said[1:]


class SeatRow(BoxLayout):
    seat = NumericProperty(0)
    starts = BooleanProperty(False)
    error = StringProperty("")
    colour = StringProperty("")        # the palette name of this seat's pieces


class SetupScreen(ColouredSeats, Screen):
    lift = NumericProperty(0)
    count = NumericProperty(4)
    starter = NumericProperty(0)
    variant = BooleanProperty(False)
    #: drops and gold as the box counts them (20 each, 24), not unlimited (the default)
    box_supply = BooleanProperty(False)
    error = StringProperty("")
    note = StringProperty("")           # a known player seated without their usual colour

    def on_kv_post(self, _base):
        self.rows = []
        for seat in range(MAX_SEATS):
            row = SeatRow(seat=seat, colour=palette.PALETTE[seat].name)
            paint(row)
            seat_field(row.ids.name, "", seat)
            row.ids.name.bind(focus=lambda *_: Clock.schedule_once(self._keep_visible))
            row.ids.name.bind(text=self._recheck)
            self.rows.append(row)
        self._place()

    def _keep_visible(self, *_args) -> None:
        """With the docked touch keyboard (kiosk), lift the form so the name being typed
        stays above the keyboard."""
        focused = next((r.ids.name for r in self.rows if r.ids.name.focus), None)
        self.lift = keyboard_lift(focused, self.lift)

    def on_pre_enter(self, *_):
        """Start from the last table's names: most groups play again with the same people."""
        self._show_problem(None)
        self.note = ""
        last = last_game(App.get_running_app().store)
        names = last.players if last else []
        self.count = len(names) if MIN_SEATS <= len(names) <= MAX_SEATS else 4
        self.variant = False
        self.box_supply = False
        for seat, row in enumerate(self.rows):
            seat_field(row.ids.name, names[seat] if seat < len(names) else "", seat)
        distinct_colours(self.rows, ())
        self.starter = 0
        self._place()

    def prefill(self, setup: dict) -> None:
        """The seats of a finished game (``app.play_again``): the same players in the same
        order, the same starter and variants, ready to check and start."""
        names = list(setup.get("players", []))[:MAX_SEATS]
        self.count = max(MIN_SEATS, len(names))
        self.note = ""
        for seat, row in enumerate(self.rows):
            seat_field(row.ids.name, names[seat] if seat < len(names) else "", seat)
        distinct_colours(self.rows, setup.get("colours") or ())
        starter = setup.get("starter")
        self.starter = names.index(starter) if starter in names else 0
        self.variant = VARIANT in setup.get("variants", []) and self.count in (3, 4)
        self.box_supply = setup.get("supply") == BOX_SUPPLY
        self._show_problem(None)
        self._place()

    def change_count(self, by: int) -> None:
        self.count = max(MIN_SEATS, min(MAX_SEATS, self.count + by))
        if self.starter >= self.count:
            self.starter = 0
        if self.count not in (3, 4):
            self.variant = False
        self._place()

    def toggle_variant(self) -> None:
        self.variant = not self.variant and self.count in (3, 4)

    def toggle_supply(self) -> None:
        self.box_supply = not self.box_supply

    def choose_starter(self, seat: int) -> None:
        self.starter = seat
        self._place()
        self._recheck()

    def _place(self) -> None:
        distinct_colours(self.rows[: self.count])
        box = self.ids.seats
        box.clear_widgets()
        for row in self.rows[: self.count]:
            row.starts = row.seat == self.starter
            box.add_widget(row)

    def names(self) -> list[str]:
        return [typed_name(row.ids.name) for row in self.rows[: self.count]]

    def setup(self) -> dict:
        names = self.names()
        setup = {"game": RULES.name, "players": names, "starter": names[self.starter],
                 "colours": [row.colour for row in self.rows[: self.count]]}
        if self.variant:
            setup["variants"] = [VARIANT]
        if self.box_supply:
            setup["supply"] = dict(BOX_SUPPLY)
        return setup

    def start(self) -> None:
        self._show_problem(start_game(self.setup(), self.rows[: self.count]))

    def _show_problem(self, problem: str | None) -> None:
        """A seat's problem at its row, any other beside the form; None clears them all."""
        seat, said = seat_problem(problem) if problem else (None, "")
        for row in self.rows:
            row.error = said if row.seat == seat else ""
        self.error = said if seat is None else ""

    def _recheck(self, *_args) -> None:
        """While a problem is shown, ask the rules' gate again (nothing is stored or started):
        the message goes as soon as it is fixed, or moves to the seat it now concerns."""
        if not self.error and not any(row.error for row in self.rows):
            return
        from ui.app import in_seat_words

        try:
            RULES.start(self.setup())
        except SetupError as problem:
            self._show_problem(in_seat_words(str(problem)))
        else:
            self._show_problem(None)
