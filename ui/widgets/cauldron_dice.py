"""Dice the game waits for: turn order rolls, LSP/HSP roll-offs and a steal's die.

A die reader sends its face as an input; here the table taps the face it rolled (1-6) or lets
the companion roll ("Roll for us": ``random.SystemRandom`` in the UI, never in the rules). The
face goes in as the same input a die reader sends, or as the ``roll`` command for another
waiting seat. Dice cannot be undone."""

from __future__ import annotations

import random

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.core.model import Command, InputEvent
from companion.games.cauldron import state as st
from companion.games.cauldron.dice import expected_roll
from ui import theme
from ui.widgets.cauldron_common import short
from ui.widgets.common import FlatButton

DICE = random.SystemRandom()
KIND_WORDS = {"turn_order": "Turn order", "rolloff": "Roll-off", "steal": "Steal"}


def contest_text(state: dict, contest: dict | None) -> str:
    """'Anna 6, Barb 3  -  then Anna 4' : every round's faces so far."""
    if not contest:
        return ""
    rounds = []
    for rolls in contest["rounds"]:
        rounds.append(", ".join(f"{st.name(state, int(seat))} {value}"
                                for seat, value in sorted(rolls.items(), key=lambda r: int(r[0]))))
    return "  -  re-roll: ".join(r for r in rounds if r)


class CauldronDicePanel(BoxLayout):
    heading = StringProperty("")
    rolled = StringProperty("")
    kind = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.waiting: list[str] = []
        self.chosen: str | None = None

    def show(self, summary: dict, prompt: dict) -> None:
        app = App.get_running_app()
        state = app.session.state
        expected = expected_roll(state)
        if expected is None:
            self.waiting, self.kind = [], ""
            return
        kind, seats = expected
        self.kind = kind
        waiting = [st.name(state, s) for s in seats]
        if self.chosen not in waiting or waiting != self.waiting:
            self.chosen = waiting[0]
        self.waiting = waiting
        if kind == "steal":
            steal = summary["steal"]
            self.heading = (f"{prompt['turn']} steals {short(steal['ingredient'])} from "
                            f"{steal['target']}: roll, 4 or more succeeds")
            self.rolled = ""
        elif kind == "rolloff":
            roll = summary["rolloff"]
            how = "lowest" if state["rolloff"]["want"] == "low" else "highest"
            self.heading = f"{roll['kind'].upper()} roll-off: the {how} roll wins"
            self.rolled = contest_text(state, state["rolloff"])
        else:
            self.heading = "Turn order: everyone rolls, the highest starts; ties re-roll"
            self.rolled = contest_text(state, state["harvest"]["order"])
        self._seat_buttons()

    def _seat_buttons(self) -> None:
        box = self.ids.seats
        box.clear_widgets()
        for name in self.waiting:
            chosen = name == self.chosen
            b = FlatButton(title=name, fs=19, selected=chosen, fill=theme.SURFACE_HI,
                           caption="rolls now" if chosen else "")
            b.bind(on_release=lambda _b, n=name: self.choose(n))
            box.add_widget(b)
        self.ids.all.disabled = self.kind == "steal" or len(self.waiting) < 2

    def choose(self, name: str) -> None:
        self.chosen = name
        self._seat_buttons()

    def enter(self, value: int) -> None:
        """The face the table rolled, for the chosen seat."""
        app = App.get_running_app()
        if self.chosen == (self.waiting[0] if self.waiting else None):
            app.handle(InputEvent("die", "d1", value, source="touch"))
        else:
            app.send(Command("roll", self.chosen, {"value": value}))

    def roll_for_us(self) -> None:
        self.enter(DICE.randint(1, 6))

    def roll_all(self) -> None:
        """Every waiting seat gets a virtual roll (a tie then waits for its re-roll)."""
        app = App.get_running_app()
        for name in list(self.waiting):
            app.send(Command("roll", name, {"value": DICE.randint(1, 6)}))
