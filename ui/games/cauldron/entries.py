"""What the table reads aloud and enters by hand: the Omen that opens each Harvest Season (its
text, Magik changes, what the Fields produce, who starts) and a seat's own entries (a Magik
change from a Spell, an Omen, a milestone or a correction; an Instant Spell; an ability; a
discarded potion; hand corrections of its pool, Spells and the board in ``cauldron_adjust``).
The dialogs only collect; the rules judge each command they send."""

from __future__ import annotations

from kivy.properties import ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.core.model import Command
from companion.games.cauldron import data as d
from ui import theme
from ui.text.markup import plain
from ui.games.cauldron.adjust import CauldronAdjustDialog
from ui.games.cauldron.common import (
    CHARACTER_NAMES, hands_on_phones, holds_words, in_hand_words, ingredient_colours, recipe,
    short,
)
from ui.games.cauldron.entry import CauldronEntry
from ui.widgets.common import FlatButton, Txt

SOURCES = ("spell", "omen", "milestone", "ability", "correction")


class CauldronOmenDialog(CauldronEntry):
    starts = StringProperty("dice")
    earlier = NumericProperty(0)         # Omens entered before, offered for one-tap reuse

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        from ui.games.cauldron.omens import omen_catalogue

        summary = self.app.summary
        self.omens = omen_catalogue(self.app)
        self.earlier = len(self.omens)
        self.title = f"Harvest Season {summary['season_number']}: the Omen"
        self.subtitle = "Read it aloud, then enter what it changes"
        self.magik = {}
        for p in summary["players"]:
            s = CauldronStepRow(label=p["name"], value=0, minimum=-d.WIN, maximum=d.WIN,
                                note=f"now {p['magik']}")
            self.magik[p["name"]] = s
            self.ids.magik.add_widget(s)
        self.produce = {}
        for kind in d.INGREDIENTS:
            if summary["fields"][kind]:
                fill, ink = ingredient_colours(kind)
                # the seat cards' word: the whole name left the count no room at the floor
                s = CauldronStepRow(label=short(kind), value=0,
                                    minimum=-summary["fields"][kind], maximum=20,
                                    note=f"of {summary['fields'][kind]}", fill=fill, ink=ink)
                self.produce[kind] = s
                self.ids.produce.add_widget(s)
        names = [p["name"] for p in summary["players"]]
        self.choices = ["dice", "lsp", "hsp", *names]

    def starts_text(self, starts: str) -> str:
        if starts == "dice":
            return "Who starts: as usual"
        if starts in ("lsp", "hsp"):
            return f"Who starts: the {'fewest' if starts == 'lsp' else 'most'} Magik"
        return f"Who starts: {starts}"

    def open_earlier(self) -> None:
        from ui.games.cauldron.omens import CauldronOmenPicker

        CauldronOmenPicker(self, self.omens).open()

    def fill(self, omen: dict) -> None:
        """An Omen entered before: its text, what the Fields produce, who starts (the Magik
        it gives or takes is per seat: entered anew)."""
        self.ids.omen_text.text = omen["text"]
        for kind, stepper in self.produce.items():
            stepper.value = max(stepper.minimum, min(stepper.maximum,
                                                     omen["produce"].get(kind, 0)))
        self.starts = omen.get("first", "dice")

    def next_start(self) -> None:
        self.starts = self.choices[(self.choices.index(self.starts) + 1) % len(self.choices)]

    def apply(self) -> None:
        args: dict = {"text": self.ids.omen_text.text.strip()}
        magik = {n: int(s.value) for n, s in self.magik.items() if s.value}
        produce = {k: int(s.value) for k, s in self.produce.items() if s.value}
        if magik:
            args["magik"] = magik
        if produce:
            args["produce"] = produce
        if self.starts != "dice":
            args["first"] = self.starts
        self._send(Command("omen", args=args))


class CauldronStepRow(BoxLayout):
    """A count of the Omen's form: its name on a chip, [-] count [+], and a note (what the
    game holds now), at the type scale's floor."""

    label = StringProperty("")
    note = StringProperty("")
    value = NumericProperty(0)
    minimum = NumericProperty(0)
    maximum = NumericProperty(60)
    fill = ColorProperty(theme.SURFACE_HI)
    ink = ColorProperty(theme.INK)


class CauldronSeatDialog(CauldronEntry):
    source = StringProperty("correction")

    def __init__(self, seat: int, **kwargs):
        super().__init__(**kwargs)
        self.seat = seat
        self.revealed = False    # Hands on phones: the cards' names only while this is open
        self.refresh()

    @property
    def player(self) -> dict:
        return self.app.summary["players"][self.seat]

    def refresh(self) -> None:
        p = self.player
        character = CHARACTER_NAMES.get(p["character"] or "", "no character")
        self.title = f"{p['name']}  -  {character}  -  {p['magik']} Magik"
        self.subtitle = p["ability"] or "No ability text entered"
        if p["once_per_season"]:
            self.subtitle += "  (once per season" + (": used)" if p["ability_used"] else ")")
        holds = holds_words(p)
        if holds:   # the seat card says "Web 2": here the whole names
            self.subtitle += "\n" + holds
        self.ids.delta.value = 0
        self._sources()
        self._potions()

    def _sources(self) -> None:
        # one button says the reason, a tap the next one: five at the action size did not
        # fit beside the count
        self.ids.source.title = ("" if self.app.portrait else "Why: ") + self.source.title()

    def pick_source(self, source: str) -> None:
        self.source = source
        self._sources()

    def next_source(self) -> None:
        self.pick_source(SOURCES[(SOURCES.index(self.source) + 1) % len(SOURCES)])

    def reveal(self, shown: bool) -> None:
        """The seat's own Hidden entry inside its dialog: its cards by name while open."""
        self.revealed = shown
        self._potions()

    def _hidden_entry(self, box, shown: bool) -> None:
        u = self.app.u
        if not shown:
            box.add_widget(Txt(text=in_hand_words(self.player), fs=theme.DETAIL_FS,
                               ink=theme.MUTED, size_hint_y=None, height=u * 56))
        b = FlatButton(title="Hide the cards" if shown else
                       f"Hidden entry: {self.player['name']}'s cards", fs=theme.ACTION_FS,
                       fill=theme.GREY_BTN if shown else theme.ACTION,
                       size_hint_y=None, height=u * 56)
        b.bind(on_release=lambda *_a: self.reveal(not shown))
        box.add_widget(b)

    def _potions(self) -> None:
        box = self.ids.potions
        box.clear_widgets()
        u = self.app.u
        if hands_on_phones(self.app) and self.player["potions"]:
            self._hidden_entry(box, self.revealed)
            if not self.revealed:
                return
        for potion in self.player["potions"]:
            row = BoxLayout(size_hint_y=None, height=u * 56, spacing=u * 6)
            words = Label(text=f"[b]{plain(potion['name'])}[/b]  +{potion['yield']}\n"
                               f"{plain(recipe(potion))}", markup=True,
                          font_size=self.app.fu * theme.DETAIL_FS,
                          color=theme.INK, halign="left", valign="middle")
            words.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                       texture_size=lambda w, ts, r=row: setattr(r, "height",
                                                                 max(u * 56, ts[1] + u * 4)))
            row.add_widget(words)
            b = FlatButton(title="Discard", fs=theme.ACTION_FS, size_hint_x=None,
                           width=self.app.fu * 130)
            b.bind(on_release=lambda _b, n=potion["name"]: self.discard(n))
            row.add_widget(b)
            box.add_widget(row)
        if not self.player["potions"]:
            box.add_widget(Txt(text="No potion card entered", fs=theme.DETAIL_FS,
                               ink=theme.MUTED, size_hint_y=None, height=u * 40))

    def apply_magik(self) -> None:
        delta = int(self.ids.delta.value)
        if self._send(Command("adjust_magik", self.player["name"],
                              {"delta": delta, "source": self.source}), close=False):
            self.refresh()

    def cast_instant(self, kind: str) -> None:
        if self._send(Command("cast_spell", self.player["name"], {"kind": kind, "instant": True}),
                      close=False):
            self.refresh()

    def use_ability(self) -> None:
        if self._send(Command("use_ability", self.player["name"]), close=False):
            self.refresh()

    def discard(self, name: str) -> None:
        if self._send(Command("discard_potion", self.player["name"], {"potion": name}),
                      close=False):
            self.refresh()

    def skip_turn(self) -> None:
        self._send(Command("end_turn", self.player["name"], {"skip": True}))

    def correct(self) -> None:
        self.dismiss()
        CauldronAdjustDialog(self.seat).open()

    def enter_card(self) -> None:
        from ui.games.cauldron.potion import CauldronPotionDialog

        name = self.player["name"]
        self.dismiss()
        CauldronPotionDialog.open_for(name)
