"""Entering what a card did, when the table has to say it: the drops an assistant takes, the
potion a brewer brews, the changes a card read aloud causes (TABLE effects, for the holder and
the others), or a manual correction of one seat. The dialog only collects numbers; the rules
judge the command it sends, and a refusal is shown inside the dialog, which stays open.

A form over the table is read as the table is: every text at the type scale's floor, every
button's words at its size, every control a finger's height; the columns scroll where a form
holds more than the window (a correction's potion card), never drawn smaller."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.core.model import Command
from companion.games.witchs_brew.roles import (
    BREW, CAULDRONS, CHOOSE_DROPS, COUNTERS, DROPS, RAVENS_PER_STACK, ROLES, STACKS, TABLE,
    MOST_AT_ONCE, plain_per_stack,
)
from ui import theme
from ui.games.witchs_brew.brew import SHOWN, cards_for, cost_words, earlier_cards
from ui.widgets.common import FlatButton, Stepper, counter_chip_colours, seat_button, text_needs

#: a control's height in the form: a finger's (56 units)
ROW = 56


class WbStepper(Stepper):
    """The shared stepper at the type scale's sizes (effect_dialog.kv redraws it so), its
    label as wide as its word."""

    label_w = NumericProperty(0)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        app = App.get_running_app()
        self.fbind("label", self._measure)
        app.bind(fu=self._measure)
        self._measure()

    def _measure(self, *_args) -> None:
        fu = App.get_running_app().fu
        self.label_w = text_needs(False, self.label, fu * theme.DETAIL_FS, "Roboto", True, None,
                                  "center")[0] + fu * 14


def _button(**kw) -> FlatButton:
    kw.setdefault("fs", theme.ACTION_FS)
    kw.setdefault("caption_fs", theme.DETAIL_FS)
    return FlatButton(**kw)


def most(supply: dict, counter: str) -> int:
    """What a stepper may take of a counter: what the supply has left, or MOST_AT_ONCE where
    the table plays with it unlimited (drops and gold by default)."""
    return MOST_AT_ONCE if supply[counter] is None else supply[counter]


class PotionEditor(BoxLayout):
    """Stack, points and raven of one potion card; ``optional`` adds an on/off toggle."""

    def __init__(self, stacks, stacks_left: dict[str, int], optional: bool,
                 taken: list[dict] = (), catalogue: list[dict] = (), on_card=None,
                 can_pay=lambda card: True, **kwargs):
        super().__init__(orientation="vertical", size_hint_y=None, **kwargs)
        app = App.get_running_app()
        self.spacing = app.u * 4
        self.bind(minimum_height=self.setter("height"))
        self.enabled = not optional
        self.stack: str | None = None
        self.raven = False
        if optional:
            self.toggle = _button(title="Adds a potion card: no", size_hint_y=None,
                                  height=app.u * ROW)
            self.toggle.bind(on_release=self._toggle)
            self.add_widget(self.toggle)
        # a stack by its name (two lines for a shelf's), greyed when none is left; two rows of
        # them for the shelves as well
        rows = 1 if len(stacks) <= 3 else 2
        grid = GridLayout(cols=3, spacing=app.u * 4, size_hint_y=None,
                          height=app.fu * 72 * rows + app.u * 4 * (rows - 1))
        self.stack_buttons = {}
        for stack in stacks:
            b = _button(title=theme.STACK_LABELS[stack],
                        disabled=stacks_left[stack] < 1 or not self.enabled)
            b.bind(on_release=lambda _b, s=stack: self._pick(s))
            self.stack_buttons[stack] = b
            grid.add_widget(b)
        self.add_widget(grid)
        self.points = WbStepper(label="Points", value=0, minimum=0, maximum=99, signed=False,
                                disabled=not self.enabled)
        self.add_widget(self.points)
        self.raven_button = _button(title="Raven on the card: no", size_hint_y=None,
                                    height=app.u * ROW, disabled=not self.enabled)
        self.raven_button.bind(on_release=self._raven)
        self.add_widget(self.raven_button)
        self.stacks_left = stacks_left
        self.taken = list(taken)
        # the printed cards seen in earlier games: one tap fills the card (and, through
        # ``on_card``, the drops paid); only where there is a catalogue
        self.catalogue, self.on_card, self.can_pay = list(catalogue), on_card, can_pay
        # (the brew form lays them under the drops they fill)
        self.cards = GridLayout(cols=SHOWN, spacing=app.u * 4, size_hint_y=None, height=0)
        open_stacks = [s for s in stacks if stacks_left[s] > 0]
        if self.enabled and len(open_stacks) == 1:
            self._pick(open_stacks[0])              # the only stack a card can come from

    def _toggle(self, *_):
        self.enabled = not self.enabled
        self.toggle.title = f"Adds a potion card: {'yes' if self.enabled else 'no'}"
        self.toggle.selected = self.enabled
        for stack, b in self.stack_buttons.items():
            b.disabled = not self.enabled or self.stacks_left[stack] < 1
        self.points.disabled = self.raven_button.disabled = not self.enabled

    def _pick(self, stack: str) -> None:
        """Each stack is sorted lowest value on top and holds two ravens: the points start at
        the least the next card can be worth, and the raven follows when only one kind is left."""
        self.stack = stack
        for s, b in self.stack_buttons.items():
            b.selected = s == stack
        cards = [p for p in self.taken if p["stack"] == stack]
        ravens = sum(1 for p in cards if p["raven"])
        self.points.minimum = max((p["points"] for p in cards), default=0)
        self.points.value = max(self.points.value, self.points.minimum)
        forced = None                               # only one kind of card left in it
        if len(cards) - ravens >= plain_per_stack(stack) or ravens >= RAVENS_PER_STACK:
            forced = ravens < RAVENS_PER_STACK
            self._set_raven(forced)
        self._offer(cards_for(self.catalogue, stack, self.points.minimum, forced))

    def _offer(self, cards: list[dict]) -> None:
        """The catalogue's cards for the stack picked, as buttons (none: the row is gone)."""
        app = App.get_running_app()
        self.cards.clear_widgets()
        # the points, and the drops printed on the card a line each under them, all at the
        # size of a button's words (what the card shows is what is tapped)
        lines = max((len(card["pay"]) or 1 for card in cards), default=0)
        self.cards.height = app.fu * 36 * (1 + lines) + app.u * 8 if cards else 0
        for card in cards:
            b = _button(title=f"{card['points']} pts" + (" raven" if card["raven"] else ""),
                        caption=cost_words(card["pay"]).replace(", ", "\n"),
                        caption_fs=theme.ACTION_FS, disabled=not self.can_pay(card))
            b.card = card
            b.bind(on_release=lambda _b, c=card: self._card(c))
            self.cards.add_widget(b)

    def _card(self, card: dict) -> None:
        self.points.value = card["points"]
        self._set_raven(card["raven"])
        for b in self.cards.children:
            b.selected = b.card is card
        if self.on_card is not None:
            self.on_card(card)

    def _set_raven(self, raven: bool) -> None:
        self.raven = raven
        self.raven_button.title = f"Raven on the card: {'yes' if raven else 'no'}"
        self.raven_button.selected = raven

    def _raven(self, *_):
        self._set_raven(not self.raven)

    def value(self) -> dict | None:
        if not self.enabled:
            return None
        return {"stack": self.stack, "points": int(self.points.value), "raven": self.raven}


class EffectDialog(ModalView):
    title = StringProperty("")
    subtitle = StringProperty("")
    #: the card's words are said where they fit on their line (else the role, a tap away on
    #: the table, reads them)
    subtitle_fits = BooleanProperty(True)
    error = StringProperty("")
    ready = BooleanProperty(True)

    @classmethod
    def for_pending(cls, seat: int, pending: dict) -> "EffectDialog":
        role = ROLES[pending["role"]]
        effect = role.full if pending["kind"] == "action" else role.favor
        mode = {CHOOSE_DROPS: "choose_drops", BREW: "brew", TABLE: "table"}[effect.kind]
        part = "full action" if pending["kind"] == "action" else "favor"
        supply = App.get_running_app().summary["supply"]
        count = effect.count if any(supply[d] is None for d in DROPS) else min(
            effect.count, sum(supply[d] for d in DROPS))  # fewer when the supply is short
        return cls(seat, mode, f"{pending['player']}: {role.title} {part}", effect.text,
                   count=count)

    @classmethod
    def for_adjust(cls, seat: int) -> "EffectDialog":
        name = App.get_running_app().summary["players"][seat]["name"]
        return cls(seat, "adjust", f"Correct {name}",
                   "Change counters or potion cards to match the table")

    def __init__(self, seat: int, mode: str, title: str, subtitle: str, count: int = 0, **kw):
        super().__init__(**kw)
        self.app = App.get_running_app()
        self.seat, self.mode, self.count = seat, mode, count
        self.title, self.subtitle = title, subtitle
        self.players = self.app.summary["players"]
        self.name = self.players[seat]["name"]
        self.deltas = {p["name"]: {c: 0 for c in COUNTERS} for p in self.players}
        self.target = self.name
        self.potion: PotionEditor | None = None
        self.remove_index: int | None = None
        self.app.bind(revision=self._moved_on)
        self._build()
        self.ids.subtitle.bind(width=self._fit_subtitle)
        self._fit_subtitle()

    def _fit_subtitle(self, *_args) -> None:
        """The card's words on two lines at most, else left out (the role box has them)."""
        width, size = self.ids.subtitle.width, self.app.fu * theme.DETAIL_FS
        need = text_needs(False, self.subtitle, size, "Roboto", False, width, "left")[1]
        self.subtitle_fits = width > 100 and need <= size * 2.5

    # -- building -------------------------------------------------------------------------
    def _build(self) -> None:
        ids, u = self.ids, self.app.u
        left_stack = self.app.summary["stacks_left"]
        taken = [q for p in self.players for q in p["potions"]]
        supply = self.app.summary["supply"]
        if self.mode == "choose_drops":
            self._steppers(DROPS, "", signed=False, low=lambda c: 0,
                           high=lambda c: min(self.count, most(supply, c)),
                           note=lambda c: "" if supply[c] is None else f"{supply[c]} left")
            self.tally = Label(font_size=self.app.fu * theme.FIGURE_FS, bold=True,
                               color=theme.INK, size_hint_y=None, height=self.app.fu * 40)
            ids.right.add_widget(self.tally)
            self._recount()
        elif self.mode == "brew":
            player = self.players[self.seat]
            self._steppers(DROPS, "", signed=False, low=lambda c: 0,
                           high=lambda c: player[c], note=lambda c: f"has {player[c]}")
            self.potion = PotionEditor(
                CAULDRONS, left_stack, optional=False, taken=taken,
                catalogue=earlier_cards(self.app), on_card=self._pay_for,
                can_pay=lambda card: all(player[d] >= n for d, n in card["pay"].items()))
            ids.right.add_widget(self.potion)
            ids.left.add_widget(self.potion.cards)
        elif self.mode == "table":
            self._tabs()
            self._counters()
            self.potion = PotionEditor(STACKS, left_stack, optional=True, taken=taken)
            ids.right.add_widget(self.potion)
        else:
            self._counters()
            self.potion = PotionEditor(STACKS, left_stack, optional=True, taken=taken)
            ids.right.add_widget(self.potion)
            self._removals()
        buttons = ids.buttons
        cancel = _button(title="Cancel", fill=theme.GREY_BTN)
        cancel.bind(on_release=lambda *_: self.dismiss())
        buttons.add_widget(cancel)
        if self.mode != "adjust":
            abstain = _button(title="Abstain", fill=theme.GREY_BTN)
            abstain.bind(on_release=lambda *_: self._send(Command("abstain", self.name)))
            buttons.add_widget(abstain)
        self.apply_button = _button(title="Apply", fill=theme.ACCENT, ink=theme.DARK_INK)
        self.apply_button.bind(on_release=lambda *_: self.apply())
        self.bind(ready=lambda *_: setattr(self.apply_button, "disabled", not self.ready))
        self.apply_button.disabled = not self.ready
        buttons.add_widget(self.apply_button)
        ids.tabs.height = u * ROW if self.mode == "table" else 0
        ids.tabs.opacity = 1 if self.mode == "table" else 0

    def _pay_for(self, card: dict) -> None:
        """The drops printed on the card picked from the catalogue, as the payment."""
        for drop, s in self.steppers.items():
            s.value = card["pay"].get(drop, 0)

    def _steppers(self, counters, verb, signed, low, high, note=lambda c: "") -> None:
        box = self.ids.left
        box.clear_widgets()
        self.steppers = {}
        for counter in counters:
            fill, ink = counter_chip_colours(counter)
            s = WbStepper(label=f"{verb} {theme.COUNTER_LABELS[counter].lower()}" if verb
                          else theme.COUNTER_LABELS[counter],
                          value=0, minimum=low(counter), maximum=high(counter), signed=signed,
                          note=note(counter), fill=fill, ink=ink)
            s.counter = counter
            s.changed = self._changed
            self.steppers[counter] = s
            box.add_widget(s)

    def _counters(self) -> None:
        """The selected seat's counts as it holds them, as the table sets them (never below
        none); the change sent is what differs from the count the game holds."""
        player = next(p for p in self.players if p["name"] == self.target)
        deltas = self.deltas[self.target]
        supply = self.app.summary["supply"]
        self._steppers(COUNTERS, "", signed=False, low=lambda c: 0,
                       high=lambda c: player[c] + most(supply, c))
        for counter, s in self.steppers.items():
            s.value = player[counter] + deltas[counter]
            self._note(s)

    def _tabs(self) -> None:
        box = self.ids.tabs
        box.clear_widgets()
        self.tab_buttons = {}
        for p in self.players:
            # the seats by their names (the title names whose card it is)
            b = seat_button(self.app.session, p["name"], title=p["name"], fs=theme.NAME_FS,
                            selected=p["name"] == self.target)
            b.bind(on_release=lambda _b, n=p["name"]: self._select(n))
            self.tab_buttons[p["name"]] = b
            box.add_widget(b)

    def _select(self, name: str) -> None:
        self.target = name
        for n, b in self.tab_buttons.items():
            b.selected = n == name
        self._counters()

    def _removals(self) -> None:
        potions = self.players[self.seat]["potions"]
        if not potions:
            return
        u = self.app.u
        shown = potions[-3:]
        grid = GridLayout(cols=1, spacing=u * 4, size_hint_y=None,
                          height=u * (ROW * len(shown) + 4 * (len(shown) - 1)))
        self.remove_buttons = []
        for i, p in enumerate(shown):
            index = len(potions) - min(3, len(potions)) + i
            b = _button(title=f"Remove {theme.STACK_LABELS[p['stack']]} {p['points']} pts",
                        fill=theme.SURFACE_HI)
            b.bind(on_release=lambda _b, k=index: self._remove(k))
            self.remove_buttons.append((index, b))
            grid.add_widget(b)
        self.ids.right.add_widget(grid)

    def _remove(self, index: int) -> None:
        self.remove_index = None if self.remove_index == index else index
        for i, b in self.remove_buttons:
            b.selected = i == self.remove_index

    # -- values -------------------------------------------------------------------------
    def _changed(self, stepper: Stepper) -> None:
        if self.mode in ("table", "adjust"):
            now = self._held(stepper.counter)
            self.deltas[self.target][stepper.counter] = int(stepper.value) - now
            self._note(stepper)
        if self.mode == "choose_drops":
            self._recount()

    def _held(self, counter: str) -> int:
        """What the selected seat holds of ``counter`` in the game now."""
        return next(p for p in self.players if p["name"] == self.target)[counter]

    def _note(self, stepper: Stepper) -> None:
        """The change, small beside the count: "was 1, +2" (nothing while unchanged)."""
        now = self._held(stepper.counter)
        change = int(stepper.value) - now
        stepper.note = f"was {now}, {change:+d}" if change else ""

    def _recount(self) -> None:
        chosen = sum(int(s.value) for s in self.steppers.values())
        self.ready = chosen == self.count
        self.tally.text = f"{chosen} of {self.count} drops chosen"
        self.tally.color = theme.GOOD if self.ready else theme.ACCENT

    def _nonzero(self, name: str) -> dict[str, int]:
        return {c: v for c, v in self.deltas[name].items() if v}

    def command(self) -> Command:
        """The one command this entry means, in the game's words."""
        values = {c: int(s.value) for c, s in self.steppers.items()}
        if self.mode == "choose_drops":
            return Command("resolve", self.name, {"drops": values})
        if self.mode == "brew":
            pay = {c: v for c, v in values.items() if v}
            return Command("resolve", self.name, {"potion": self.potion.value(), "pay": pay})
        potion = self.potion.value() if self.potion else None
        if self.mode == "table":
            others = {n: self._nonzero(n) for n in self.deltas if n != self.name and self._nonzero(n)}
            return Command("resolve", self.name, {"changes": self._nonzero(self.name),
                                                  "others": others, "potion": potion})
        args = {"changes": self._nonzero(self.name)}
        if potion is not None:
            args["potion"] = potion
        if self.remove_index is not None:
            args["remove_potion"] = self.remove_index
        return Command("adjust", self.name, args)

    def apply(self) -> None:
        if self.potion is not None and self.potion.enabled and self.potion.stack is None:
            self.error = "Tap the stack the potion card came from"
            return
        self._send(self.command())

    def _send(self, command: Command) -> None:
        if self.app.send(command):
            self.dismiss()
        else:
            self.error = self.app.refusal
            self.app.dismiss_refusal()

    def _moved_on(self, *_):
        """The game moved on (a button, an undo): this entry no longer applies."""
        self.dismiss()

    def on_dismiss(self) -> None:
        self.app.unbind(revision=self._moved_on)
