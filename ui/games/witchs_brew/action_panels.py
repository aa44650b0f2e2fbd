"""The bottom of the table screen: what the awaited seat can do now.

One panel per phase: the answer bar (claim / so be it / pass), the resolve panel (carry out or
abstain from a full action or favor) and the reveal panel (variant: spare roles turned over).
The answer buttons say only the part ("full action", "favor"); the card's text is a tap away
(``CardTextDialog``): too long for a button read from across the table. Each is filled from
the summary and the prompt; the inputs go through the app, so the rules judge them exactly as
they judge the physical buttons.
"""

from __future__ import annotations

import random

from kivy.app import App
from kivy.properties import (
    ColorProperty, DictProperty, ListProperty, NumericProperty, StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.core.model import Command
from companion.games.witchs_brew.roles import (
    BREW, CHOOSE_DROPS, DROPS, PAY, ROLES, TABLE, TRADE_DROP,
)
from ui import theme
from ui.widgets.common import FlatButton, counter_chip_colours


def key_caption(app, input_id: str) -> str:
    """'key Q' in demo mode (the keyboard stands in for the button), else ''."""
    label = app.key_labels.get(input_id)
    return f"key {label}" if label else ""


def _join(*parts: str) -> str:
    return "\n".join(p for p in parts if p)


class AnswerBar(BoxLayout):
    """Claim / So be it / Pass for the one seat whose answer is awaited."""

    seat = NumericProperty(0)
    role_key = StringProperty("")
    call = StringProperty("")
    claim_caption = StringProperty("")
    favor_caption = StringProperty("")
    pass_caption = StringProperty("")
    inputs = ListProperty([])

    def show(self, seat: int, role_key: str, inputs: list[str]) -> None:
        app = App.get_running_app()
        role = ROLES[role_key]
        n = seat + 1
        self.seat = seat
        self.inputs = list(inputs)
        self.call = role.call
        self.role_key = role_key
        self.claim_caption = _join("full action", key_caption(app, f"seat{n}.claim"))
        self.favor_caption = _join("favor", key_caption(app, f"seat{n}.so_be_it"))
        self.pass_caption = _join("no card in hand", key_caption(app, f"seat{n}.pass"))

    def show_card_text(self) -> None:
        """What the full action and the favor do, on demand: too long for the buttons."""
        CardTextDialog(self.role_key).open()

    def press(self, action: str) -> None:
        App.get_running_app().press(f"seat{self.seat + 1}.{action}")


class CardTextDialog(ModalView):
    """The announced role card's two effects, read from the roles table, in large type."""

    call = StringProperty("")
    full = StringProperty("")
    favor = StringProperty("")
    stripe = ColorProperty(theme.ACCENT)

    def __init__(self, role_key: str, **kwargs):
        role = ROLES[role_key]
        super().__init__(call=role.call, full=f"Full action: {role.full.text}",
                         favor=f"Favor: {role.favor.text}",
                         stripe=theme.rgba(theme.CARD_COLOURS[role.colour]), **kwargs)


class ResolvePanel(BoxLayout):
    """The awaited seat carries out its full action or favor, or abstains."""

    seat = NumericProperty(0)
    effect_text = StringProperty("")
    hint = StringProperty("")
    kind = StringProperty("")
    pending = DictProperty({})

    def show(self, seat: int, pending: dict, player: dict) -> None:
        app = App.get_running_app()
        role = ROLES[pending["role"]]
        full = pending["kind"] == "action"
        effect = role.full if full else role.favor
        self.seat, self.pending, self.kind = seat, dict(pending), effect.kind
        self.effect_text = f"{'Full action' if full else 'Favor'}: {effect.text}"
        self.hint = (f"Reported: {effect.reported}. Your card decides."
                     if effect.kind == TABLE and effect.reported else "")
        box = self.ids.choices
        box.clear_widgets()
        n = seat + 1
        abstain = FlatButton(title="Abstain", caption=key_caption(app, f"seat{n}.pass"),
                             caption_fs=20, fill=theme.GREY_BTN)
        abstain.bind(on_release=lambda *_: self.abstain())
        if effect.kind == PAY:
            go = FlatButton(title="Pay and take", caption=key_caption(app, f"seat{n}.claim"),
                            caption_fs=20, fill=theme.ACCENT, ink=theme.DARK_INK)
            go.bind(on_release=lambda *_: self._send({}))
            box.cols = 1
            box.add_widget(go)
        elif effect.kind == TRADE_DROP:
            # the three drops side by side in the place of the one button the other effects
            # have: Abstain stays where it always is, under them
            box.cols = 1
            drops = BoxLayout(spacing=app.u * 6)
            for drop in DROPS:
                fill, ink = counter_chip_colours(drop)
                b = FlatButton(title=drop.capitalize(), caption=f"has {player[drop]}",
                               caption_fs=20, fill=fill, ink=ink, disabled=player[drop] < 1)
                b.bind(on_release=lambda _b, d=drop: self._send({"drop": d}))
                drops.add_widget(b)
            box.add_widget(drops)
        else:
            label = {BREW: "Brew a potion", CHOOSE_DROPS: f"Choose {effect.count} drops",
                     TABLE: "Enter what happened"}[effect.kind]
            go = FlatButton(title=label, caption="opens the entry", caption_fs=20,
                            fill=theme.ACCENT,
                            ink=theme.DARK_INK)
            go.bind(on_release=lambda *_: self.open_entry())
            box.cols = 1
            box.add_widget(go)
        box.add_widget(abstain)

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

    def show(self, player: str, own: list[str], others: list[str], excluded: list[str]) -> None:
        self.player = player
        captions = {k: "played: goes face down" for k in others}
        blocked = {k: "you played it" for k in own}
        blocked.update({k: "face up" for k in excluded})
        self.ids.picker.show(blocked, picked=self.pick, captions=captions)

    def pick(self, key: str) -> None:
        App.get_running_app().send(Command("play_role", self.player, {"role": key}))


class RevealPanel(BoxLayout):
    """Variant: the spare role cards turned over this set, picked by hand or drawn at random."""

    count = NumericProperty(1)
    chosen = ListProperty([])

    def show(self, count: int, shown: list[str]) -> None:
        self.count = count
        self.shown = list(shown)
        self.chosen = [k for k in self.chosen if k not in self.shown][:count]
        self._refresh()

    def _refresh(self) -> None:
        blocked = {k: "turned over" for k in self.shown}
        self.ids.picker.show(blocked, self.chosen, self.toggle)

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
        if App.get_running_app().send(Command("reveal_excluded", args={"roles": list(self.chosen)})):
            self.chosen = []
