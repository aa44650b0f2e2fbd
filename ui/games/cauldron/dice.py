"""Dice the game waits for: turn order rolls, roll-offs between seats tied on the fewest or the
most Magik, and a steal's die.

A die reader sends its face as an input; here the table taps the face it rolled (1-6) or lets
the companion roll ("Roll for us": ``random.SystemRandom`` in the UI, never in the rules). The
face goes in as the same input a die reader sends, or as the ``roll`` command for another
waiting seat. Dice cannot be undone: a misread die is fixed with ``correct_roll`` in the Fix die
dialog (turn order until the first turn begins, the current steal, the latest roll-off), opened
from the dice panel or from a die's entry in the log (``open_fix``); the rules say when it is too
late, and the dialog shows their words before the tap."""

from __future__ import annotations

import random

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.core.model import Command, InputEvent
from companion.games.cauldron import state as st
from companion.games.cauldron.dice import expected_roll, step_die
from ui import theme
from ui.games.cauldron.common import ingredient_name, why_not
from ui.games.cauldron.entry import CauldronEntry
from ui.widgets.common import FlatButton, Txt, seat_button

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


def _faces(state: dict, contest: dict) -> dict[str, int]:
    """Each seat's latest face in a roll contest, the seat that rolled last coming last."""
    faces: dict[str, int] = {}
    for rolls in contest["rounds"]:
        for seat, value in rolls.items():
            name = st.name(state, int(seat))
            faces.pop(name, None)
            faces[name] = value
    return faces


def recorded_dice(state: dict) -> dict[str, dict[str, int]]:
    """The dice a correction would change, by roll ("turn_order", "steal", "rolloff"): this
    Harvest's turn order, the current turn's steal, the latest roll-off (unless it is void)."""
    out: dict[str, dict[str, int]] = {}
    order = state["harvest"]["order"]
    if state["season"] == "harvest" and order and order["rounds"]:
        out["turn_order"] = _faces(state, order)
    steal = state["harvest"]["steal"]
    if steal and steal["roll"] is not None and st.turn(state) is not None:
        out["steal"] = {st.name(state, st.turn(state)): steal["roll"]}
    if state["rolloff"] and state["rolloff"]["rounds"] and not state["rolloff"].get("void"):
        out["rolloff"] = _faces(state, state["rolloff"])
    return out


def fix_refusal(kind: str, name: str, face: int) -> str | None:
    """What the rules would say to correcting ``name``'s ``kind`` die to ``face`` now."""
    return why_not(Command("correct_roll", name, {"roll": kind, "value": face}))


def fixable(state: dict, kinds: tuple[str, ...] = ("turn_order", "steal", "rolloff")) -> bool:
    """Some die of these rolls can still be corrected (the rules' answer, asked beforehand)."""
    for kind, faces in recorded_dice(state).items():
        name, face = list(faces.items())[-1]
        if kind in kinds and fix_refusal(kind, name, face) is None:
            return True
    return False


class CauldronFixDieDialog(CauldronEntry):
    """Which roll, whose die, the face it really shows; then one ``correct_roll``."""

    answer = StringProperty("")
    answer_ok = BooleanProperty(True)
    fix_title = StringProperty("")
    face = NumericProperty(0)

    def __init__(self, kind: str | None = None, seat: str | None = None, **kwargs):
        """``kind`` and ``seat``: the roll and the seat's name to show first (a die's entry
        in the log); else the latest die thrown."""
        super().__init__(**kwargs)
        state = self.app.session.state
        self.dice = recorded_dice(state)
        self.order = {p["name"]: i for i, p in enumerate(state["players"])}
        self.title = "Fix a misread die"
        self.subtitle = "Dice cannot be undone: correct the face here, the rules redo the rest"
        last = kind if kind in self.dice else state["last_die"]
        self.kind = last if last in self.dice else next(iter(self.dice), "")
        faces = self.dice.get(self.kind, {})
        self.seat = seat if seat in faces else (list(faces)[-1] if faces else "")
        self.build()

    def pick_kind(self, kind: str) -> None:
        self.kind, self.seat, self.face = kind, list(self.dice[kind])[-1], 0
        self.build()

    def pick_seat(self, name: str) -> None:
        self.seat, self.face = name, 0
        self.build()

    def pick_face(self, value: int) -> None:
        self.face = value
        self.build()

    def build(self) -> None:
        """The choices with the rules' answer beforehand (a refusal replaces it after a tap)."""
        self.error = ""
        kinds, seats = self.ids.kinds, self.ids.seats
        kinds.clear_widgets()
        seats.clear_widgets()
        if not self.kind:
            kinds.add_widget(Txt(text="No die has been entered yet this season", fs=theme.DETAIL_FS,
                                 ink=theme.MUTED))
            self.answer, self.answer_ok, self.fix_title = "", False, "Nothing to fix"
            return
        for kind, faces in self.dice.items():
            name, face = list(faces.items())[-1]
            late = fix_refusal(kind, name, face) is not None
            # blue while it can be fixed, grey and "late" once too late (the answer line says
            # why): a caption shorter than the title, so the title is read at its size
            b = FlatButton(title=KIND_WORDS[kind], caption="late" if late else "",
                           fs=theme.ACTION_FS, caption_fs=theme.DETAIL_FS,
                           selected=kind == self.kind,
                           fill=theme.GREY_BTN if late else theme.CALM)
            b.bind(on_release=lambda _b, k=kind: self.pick_kind(k))
            kinds.add_widget(b)
        faces = self.dice[self.kind]
        for name in sorted(faces, key=self.order.get):
            # the face it rolled: shorter than the name, so the name is read at its size
            b = seat_button(self.app.session, name, caption=str(faces[name]), fs=theme.ACTION_FS,
                            caption_fs=theme.DETAIL_FS, selected=name == self.seat)
            b.bind(on_release=lambda _b, n=name: self.pick_seat(n))
            seats.add_widget(b)
        old = faces[self.seat]
        reason = fix_refusal(self.kind, self.seat, self.face or old)
        self.answer_ok = reason is None
        self.answer = reason or (f"The rules allow it: tap the face {self.seat}'s die really "
                                 "shows" if not self.face else
                                 f"{self.seat}: {old} becomes {self.face}; later dice that no "
                                 "longer count are dropped; dice cannot be undone")
        self.fix_title = (f"Fix: {self.seat} {old} -> {self.face}" if self.face else
                          "Tap the true face")
        for button in self.ids.faces.children:
            button.selected = button.value == self.face

    def fix(self) -> None:
        """Sent even when the rules said no beforehand: their refusal then shows here."""
        if self.kind and self.face:
            self._send(Command("correct_roll", self.seat, {"roll": self.kind,
                                                           "value": int(self.face)}))


def open_fix(events) -> None:
    """From a die's entry in the log (the rules said it can be fixed now): the Fix die dialog
    on that roll and seat."""
    state = App.get_running_app().session.state
    kind, seat, _face = step_die(events)
    CauldronFixDieDialog(kind=kind, seat=st.name(state, seat)).open()


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
            # the headline says the roll that succeeds: said once
            # tried, not done: the die decides (its result is the headline's once rolled)
            self.heading = (f"{prompt['turn']} tries to steal "
                            f"{ingredient_name(steal['ingredient'])} from {steal['target']}")
            self.rolled = ""
        elif kind == "rolloff":
            how = "lowest" if state["rolloff"]["want"] == "low" else "highest"
            # the headline names the roll-off and who rolls: said once
            self.heading = f"The {how} roll wins"
            self.rolled = contest_text(state, state["rolloff"])
        else:
            order = state["harvest"]["order"]          # the Omen or Less Luck may choose
            self.heading = {
                "lsp": "Turn order: fewest Magik starts; the tied roll, the lowest starts",
                "hsp": "Turn order: most Magik starts; the tied roll, the highest starts",
            }.get(order["rule"], "Turn order: everyone rolls, the highest starts; ties re-roll")
            self.rolled = contest_text(state, state["harvest"]["order"])
        self._seat_buttons()

    def _seat_buttons(self) -> None:
        box = self.ids.seats
        box.clear_widgets()
        for name in self.waiting:
            chosen = name == self.chosen
            # the chosen one amber: the face tapped next is its die
            b = seat_button(App.get_running_app().session, name, fs=theme.ACTION_FS,
                            selected=chosen)
            b.bind(on_release=lambda _b, n=name: self.choose(n))
            box.add_widget(b)
        self.ids.all.disabled = self.kind == "steal" or len(self.waiting) < 2
        self.ids.fix.disabled = not recorded_dice(App.get_running_app().session.state)

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

    @staticmethod
    def open_fix() -> None:
        CauldronFixDieDialog().open()

    def roll_all(self) -> None:
        """Every waiting seat gets a virtual roll (a tie then waits for its re-roll)."""
        app = App.get_running_app()
        for name in list(self.waiting):
            app.send(Command("roll", name, {"value": DICE.randint(1, 6)}))
