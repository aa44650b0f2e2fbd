"""The bottom of the table screen: what the awaited seat can do now.

One panel per phase, each one row of buttons a finger's height: the play panel (the role
cards, on a sheet over the table), the answer bar (claim / so be it / pass), the resolve panel
(carry out or abstain from a full action or favor) and the reveal panel (variant: spare roles
turned over). The buttons say only their words at a size read from across the table; the
card's text and what each answer means are a tap on the role away (``CardTextDialog``). Each
is filled from the summary and the prompt; the inputs go through the app, so the rules judge
them exactly as they judge the physical buttons.
"""

from __future__ import annotations

import random

from kivy.app import App
from kivy.properties import (
    BooleanProperty, ColorProperty, DictProperty, ListProperty, NumericProperty, StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.core.model import Command
from companion.games.witchs_brew.roles import (
    BREW, CHOOSE_DROPS, DROPS, PAY, ROLES, TABLE, TRADE_DROP,
)
from ui import theme
from ui.games.witchs_brew.role_picker import RoleSheet
from ui.widgets.common import FlatButton, counter_chip_colours, text_needs

#: What each answer means, said with the card's text (the buttons say only their words).
ANSWERS_MEANT = ("Claim it (\"{call}\") for the full action, \"So be it!\" for the favor, "
                 "or pass with no card of it in hand.")


class AnswerBar(BoxLayout):
    """Claim / So be it / Pass for the one seat whose answer is awaited."""

    seat = NumericProperty(0)
    role_key = StringProperty("")
    call = StringProperty("")
    inputs = ListProperty([])

    def show(self, seat: int, role_key: str, inputs: list[str]) -> None:
        role = ROLES[role_key]
        self.seat = seat
        self.inputs = list(inputs)
        self.call = role.call
        self.role_key = role_key

    def press(self, action: str) -> None:
        App.get_running_app().press(f"seat{self.seat + 1}.{action}")


class CardTextDialog(ModalView):
    """The announced role card's two effects, read from the roles table, in large type, and
    what each answer means."""

    call = StringProperty("")
    full = StringProperty("")
    favor = StringProperty("")
    answers = StringProperty("")
    stripe = ColorProperty(theme.ACCENT)

    def __init__(self, role_key: str, **kwargs):
        role = ROLES[role_key]
        super().__init__(call=role.call, full=f"Full action: {_reported(role.full)}",
                         favor=f"Favor: {_reported(role.favor)}",
                         answers=ANSWERS_MEANT.format(call=role.call),
                         stripe=theme.rgba(theme.CARD_COLOURS[role.colour]), **kwargs)


def _reported(effect) -> str:
    """An effect's words, and what the companion records of one the table reads out."""
    if effect.kind == TABLE and effect.reported:
        return f"{effect.text} (reported: {effect.reported}; your card decides)"
    return effect.text


class ResolvePanel(BoxLayout):
    """The awaited seat carries out its full action or favor, or abstains: its buttons on
    one line, the effect's words beside them where they fit whole."""

    seat = NumericProperty(0)
    effect_text = StringProperty("")
    effect_fits = BooleanProperty(True)
    kind = StringProperty("")
    pending = DictProperty({})

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fbind("size", self._fit)
        self.fbind("effect_text", self._fit)

    def show(self, seat: int, pending: dict, player: dict) -> None:
        role = ROLES[pending["role"]]
        full = pending["kind"] == "action"
        effect = role.full if full else role.favor
        self.seat, self.pending, self.kind = seat, dict(pending), effect.kind
        # the headline says which part it is ("Carry out the full action"): here what it does
        self.effect_text = effect.text
        box = self.ids.choices
        box.clear_widgets()
        buttons = []
        if effect.kind == PAY:
            go = self._button("Pay and take", theme.ACCENT, theme.DARK_INK)
            go.bind(on_release=lambda *_: self._send({}))
            buttons.append(go)
        elif effect.kind == TRADE_DROP:
            # the three drops in the place of the one button the other effects have, each
            # greyed where the seat has none (its tile says how many): Abstain stays last
            for drop in DROPS:
                fill, ink = counter_chip_colours(drop)
                b = self._button(drop.capitalize(), fill, ink)
                b.disabled = player[drop] < 1
                b.bind(on_release=lambda _b, d=drop: self._send({"drop": d}))
                buttons.append(b)
        else:
            label = {BREW: "Brew a potion", CHOOSE_DROPS: f"Choose {effect.count} drops",
                     TABLE: "Enter what happened"}[effect.kind]
            go = self._button(label, theme.ACCENT, theme.DARK_INK)
            go.bind(on_release=lambda *_: self.open_entry())
            buttons.append(go)
        abstain = self._button("Abstain", theme.GREY_BTN, theme.INK)
        abstain.bind(on_release=lambda *_: self.abstain())
        for b in buttons + [abstain]:
            box.add_widget(b)
        self._fit()

    def _button(self, title: str, fill, ink) -> FlatButton:
        return FlatButton(title=title, fs=theme.ACTION_FS, fill=fill, ink=ink, size_hint_x=None)

    def _fit(self, *_args) -> None:
        """Each button as wide as its words at the table's text size (a finger's width at
        least); the effect's words only where they fit whole beside them: else the role's
        card, a tap away, says them."""
        app = App.get_running_app()
        for b in self.ids.choices.children:
            need = text_needs(False, b.title, app.fu * theme.ACTION_FS, "Roboto", True, None,
                              "center")[0]
            b.width = max(app.u * 96, need + app.u * 28)
        self.ids.choices.width = sum(b.width for b in self.ids.choices.children) + \
            self.ids.choices.spacing * max(0, len(self.ids.choices.children) - 1)
        # portrait: the words above the buttons' row
        width = self.width - app.u * 20 - (0 if app.portrait else
                                           self.ids.choices.width + self.spacing)
        height = self.height - app.u * 4 - (self.ids.choices.height + self.spacing
                                            if app.portrait else 0)
        if width <= 0 or not self.effect_text:
            self.effect_fits = False
            return
        need = text_needs(False, self.effect_text, app.fu * theme.DETAIL_FS, "Roboto", True,
                          width, "left")[1]
        self.effect_fits = need <= height

    def _send(self, args: dict) -> None:
        app = App.get_running_app()
        app.send(Command("resolve", self.pending["player"], args))

    def abstain(self) -> None:
        App.get_running_app().send(Command("abstain", self.pending["player"]))

    def open_entry(self) -> None:
        from ui.games.witchs_brew.effect_dialog import EffectDialog

        EffectDialog.for_pending(self.seat, self.pending).open()


class PlayPanel(BoxLayout):
    """The starter announces a role card. A card another seat played earlier this set stays on
    the picker, its caption saying what happens: announced, it is a forgotten card and goes face
    down ("he must immediately place it face down ... and play another"), and the same seat
    picks again."""

    player = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.blocked: dict[str, str] = {}
        self.captions: dict[str, str] = {}
        self.sheet: RoleSheet | None = None

    def show(self, player: str, own: list[str], others: list[str], excluded: list[str]) -> None:
        self.player = player
        self.captions = {k: "forgotten" for k in others}
        self.blocked = {k: "you played it" for k in own}
        self.blocked.update({k: "face up" for k in excluded})
        if self.sheet is not None:
            self.sheet.picker.show(self.blocked, picked=self.pick, captions=self.captions)

    def open_sheet(self) -> None:
        """The twelve cards over the table: the one announced is tapped."""
        self.sheet = RoleSheet(f"{self.player} announces: tap the card")
        self.sheet.picker.show(self.blocked, picked=self.pick, captions=self.captions)
        self.sheet.bind(on_dismiss=lambda *_a: setattr(self, "sheet", None))
        self.sheet.open()

    def pick(self, key: str) -> None:
        """The sheet closes first, so a refusal is seen over the table."""
        if self.sheet is not None:
            self.sheet.dismiss(animation=False)
        App.get_running_app().send(Command("play_role", self.player, {"role": key}))


class RevealPanel(BoxLayout):
    """Variant: the spare role cards turned over this set, picked by hand or drawn at random."""

    count = NumericProperty(1)
    chosen = ListProperty([])

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.shown: list[str] = []
        self.sheet: RoleSheet | None = None

    def show(self, count: int, shown: list[str]) -> None:
        self.count = count
        self.shown = list(shown)
        self.chosen = [k for k in self.chosen if k not in self.shown][:count]
        self._refresh()

    def open_sheet(self) -> None:
        """The twelve cards over the table: the spare ones are tapped, then turned over."""
        self.sheet = RoleSheet(f"Tap the {self.count} spare card{'s' if self.count > 1 else ''}",
                               done="Turn over", on_done=self.turn_over)
        self.sheet.bind(on_dismiss=lambda *_a: setattr(self, "sheet", None))
        self._refresh()
        self.sheet.open()

    def _refresh(self) -> None:
        if self.sheet is None:
            return
        blocked = {k: "turned over" for k in self.shown}
        self.sheet.picker.show(blocked, self.chosen, self.toggle)
        self.sheet.done_ready = len(self.chosen) == self.count

    def toggle(self, key: str) -> None:
        if key in self.chosen:
            self.chosen.remove(key)
        elif len(self.chosen) < self.count:
            self.chosen.append(key)
        else:
            self.chosen = self.chosen[1:] + [key]
        self._refresh()

    def draw(self) -> None:
        """A virtual draw for tables without the spare deck at hand (random in the UI only)."""
        left = [k for k in ROLES if k not in self.shown]
        self.chosen = random.SystemRandom().sample(left, min(self.count, len(left)))
        self.turn_over()

    def turn_over(self) -> None:
        if self.sheet is not None:
            self.sheet.dismiss(animation=False)
        if App.get_running_app().send(Command("reveal_excluded", args={"roles": list(self.chosen)})):
            self.chosen = []
