"""Setup: who sits where (clockwise), who starts, and the variant.

Names default to the last game's table, else "Player 1"...; the rules validate the setup and
a SetupError is shown here, word for word."""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.games.witchs_brew import RULES
from companion.games.witchs_brew.state import COLOUR_NAMES, SEAT_COLOURS, VARIANT
from ui import theme
from ui.keyboard import keyboard_lift

MIN_SEATS, MAX_SEATS = RULES.players


class SeatRow(BoxLayout):
    seat = NumericProperty(0)
    starts = BooleanProperty(False)


class SetupScreen(Screen):
    lift = NumericProperty(0)
    count = NumericProperty(4)
    starter = NumericProperty(0)
    variant = BooleanProperty(False)
    error = StringProperty("")

    def on_kv_post(self, _base):
        self.rows = []
        for seat in range(MAX_SEATS):
            row = SeatRow(seat=seat)
            row.ids.colour.fill = theme.rgba(SEAT_COLOURS[seat])
            row.ids.colour.ink = theme.ink_on(SEAT_COLOURS[seat])
            row.ids.colour.text = f"{seat + 1}  {COLOUR_NAMES[seat]}"
            row.ids.name.text = f"Player {seat + 1}"
            row.ids.name.bind(focus=lambda *_: Clock.schedule_once(self._keep_visible))
            self.rows.append(row)
        self._place()

    def _keep_visible(self, *_args) -> None:
        """With the docked touch keyboard (kiosk), lift the form so the name being typed
        stays above the keyboard."""
        focused = next((r.ids.name for r in self.rows if r.ids.name.focus), None)
        self.lift = keyboard_lift(focused, self.lift)

    def on_pre_enter(self, *_):
        """Start from the last table's names: most groups play again with the same people."""
        self.error = ""
        app = App.get_running_app()
        last = app.store.games() if app.store is not None else []
        names = last[0].players if last else []
        self.count = len(names) if MIN_SEATS <= len(names) <= MAX_SEATS else 4
        self.variant = False
        for seat, row in enumerate(self.rows):
            row.ids.name.text = names[seat] if seat < len(names) else f"Player {seat + 1}"
        self.starter = 0
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

    def choose_starter(self, seat: int) -> None:
        self.starter = seat
        self._place()

    def _place(self) -> None:
        box = self.ids.seats
        box.clear_widgets()
        for row in self.rows[: self.count]:
            row.starts = row.seat == self.starter
            box.add_widget(row)

    def names(self) -> list[str]:
        return [row.ids.name.text.strip() for row in self.rows[: self.count]]

    def start(self) -> None:
        names = self.names()
        setup = {"game": RULES.name, "players": names, "starter": names[self.starter]}
        if self.variant:
            setup["variants"] = [VARIANT]
        problem = App.get_running_app().start_game(setup)
        self.error = problem or ""
