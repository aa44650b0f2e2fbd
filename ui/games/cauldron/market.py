"""The Market Season for the seat whose turn it is: every purchase with its price for that seat
and, for what it cannot buy, the rule that forbids it (both from ``summary["market"]``); then buy
or pass. A Field asks which type (every type in view at once, by its whole name), and there a
type can be marked as run out of the box (the rules then refuse it, and the screen shows why); a
full Spell hand asks which Spell to discard first."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from companion.core.model import Command
from companion.games.cauldron import data as d
from ui import theme
from ui.games.cauldron.common import (
    ITEM_TITLES, ingredient_colours, ingredient_name, name_to_fit, send, words_to_fit,
)
from ui.widgets.common import Box, FlatButton, Txt

REASON_INK = theme.rgba("#F4A093")
#: an offer's name where the whole one does not fit its card at the action size (Large text
#: at 800x480): the card is read from a chair, and the log and a refusal say the name whole
ITEM_SHORT = {"advanced_spell": "Adv. Spell", "advanced_potion": "Adv. Potion"}


def card_reason(reason: str) -> str:
    """Why an offer cannot be bought, in short (the phones' Market and the prices' list): the
    rule's whole sentence is what a tap on the offer says."""
    if reason.endswith("can be bought only after Rituals of Power"):
        return "After Rituals of Power"
    if reason.startswith("Simple Game:"):
        return "Not in the Simple Game"
    if reason.endswith("(the cost is paid in Magik)"):
        return "Not enough Magik"
    return reason


class OfferCard(ButtonBehavior, Box):
    """One purchase, its name and its price for the buyer, read from a chair; pressing it buys,
    or is refused with the rule in words. What a purchase brings or asks for next (its Field's
    Ingredient, the card to enter, a Spell to discard first) is said where that next step is,
    one tap away: the card says no more than its name and price."""

    title = StringProperty("")
    ok = BooleanProperty(True)


class CauldronMarketPanel(BoxLayout):
    buyer = StringProperty("")
    buyer_fill = ColorProperty(theme.INK)
    buyer_ink = ColorProperty(theme.DARK_INK)
    magik = NumericProperty(0)
    pass_title = StringProperty("Pass")
    heading = StringProperty("")
    #: the seats' strip is under the offers (ui/games/cauldron/table.py): the buyer's card
    #: there says its Magik, the rows are a line of words shorter
    with_seats = BooleanProperty(False)
    #: the Field choice is open (the table's strip of seats makes way for its buttons)
    choosing_field = BooleanProperty(False)
    magik_h = NumericProperty(0)
    words_h = NumericProperty(0)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.offers: list[dict] = []
        self.pending: dict | None = None   # the offer waiting for a choice (field type, discard)
        self.marking = False               # the Field choice marks types run out of the box
        self._key = self._session = None

    def on_kv_post(self, _base) -> None:
        words_to_fit(self.ids.discount_words, "Card discount", "Discount")

    def show(self, summary: dict, prompt: dict) -> None:
        app = App.get_running_app()
        market = summary["market"]
        seat = prompt["seat"]
        player = summary["players"][seat]
        hex_colour = app.session.state["players"][seat]["colour"]
        self.buyer, self.magik = player["name"], player["magik"]
        self.buyer_fill, self.buyer_ink = theme.rgba(hex_colour), theme.ink_on(hex_colour)
        left = market["purchases_left"]
        # how many purchases are left: the headline says it (ui/games/cauldron/ask.py), once
        limit = 2 if d.ADVANCED in summary["variants"] else 1
        self.pass_title = "Pass" if left == limit else "Done"
        # a new purchase, or another game (the panel serves every game the app opens: a Field
        # choice left open in one was shown at the next one's Market)
        key = (summary["season_number"], seat, left)
        if key != self._key or app.session is not self._session:
            self._key, self.pending, self.marking = key, None, False
            self._session = app.session
            self.ids.discount.value = 0
        self.offers = market["offers"]
        if self.pending is not None:  # the choice stays open, with the rules' new answers
            self.pending = next(o for o in self.offers if o["item"] == self.pending["item"])
        self.build()

    def build(self) -> None:
        box = self.ids.offers
        box.clear_widgets()
        u = App.get_running_app().u
        self.choosing_field = self.pending is not None and self.pending["item"] == "field"
        if self.choosing_field:
            return self._fields(box, u)
        if self.pending is not None:
            return self._discard(box, u)
        self.heading = ""
        grid = GridLayout(cols=2, spacing=u * 4)
        for offer in self.offers:
            grid.add_widget(self._card(offer, u))
        box.add_widget(grid)

    def _card(self, offer: dict, u: float) -> "OfferCard":
        """The whole card is the button: a big target, its name and price at the action size."""
        ok = offer["reason"] is None
        card = OfferCard(title=ITEM_TITLES[offer["item"]], ok=ok, orientation="horizontal")
        tall = App.get_running_app().portrait     # half a portrait screen: the name wraps
        name = Txt(text=card.title, fs=theme.ACTION_FS, bold=True, ink=theme.INK,
                   shorten=not tall)
        if tall:
            name.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
        else:
            words_to_fit(name, card.title, ITEM_SHORT.get(offer["item"], card.title))
        price = Txt(text=str(offer["cost"]), fs=theme.FIGURE_FS, bold=True, halign="right",
                    ink=theme.INK, size_hint_x=None, width=u * 30)
        name.far = price.far = True
        card.add_widget(name)
        card.add_widget(price)
        card.item, card.reason = offer["item"], offer["reason"]
        card.bind(on_release=lambda *_: self.buy(offer))
        return card

    def buy(self, offer: dict) -> None:
        """An unavailable offer is still sent: the rules refuse it, saying why."""
        if offer["reason"] is None and (offer["item"] == "field" or offer.get("discard_first")):
            self.pending = offer
            self.build()
            return
        self._buy({"item": offer["item"]})

    def _buy(self, args: dict) -> None:
        discount = int(self.ids.discount.value)
        if discount:
            args["discount"] = discount
        buyer = self.buyer
        if send(Command("buy", buyer, args)) and args["item"].endswith("_potion"):
            from ui.games.cauldron.potion import CauldronPotionDialog

            CauldronPotionDialog.open_for(buyer)

    def _fields(self, box, u: float) -> None:
        """Each type one large button, all in view at once (no scrolling at 800x480): buy it, or,
        after "Run out?", mark it run out of the box (``fields_exhausted``). A type that
        cannot be bought is still tappable: the rules then say why."""
        offer = self.pending
        summary = App.get_running_app().summary
        if self.marking:
            self.heading = "Which types have run out? (tap one again to unmark it)"
        else:
            self.heading = ("Which Field? " + ("Its Ingredient comes too"
                                                if offer.get("bonus_ingredient") else
                                                "(no Ingredient at 25 or more)"))
        out = [k for k in d.INGREDIENTS if offer["fields"][k]]
        if out and not self.marking:
            # one line, the types by name (the rule's whole sentence, two lines here, left the
            # rows under a finger's height beside the seats' strip; a tap on one says it)
            rule = Label(text="Run out of the box: " + ", ".join(ingredient_name(k) for k in out),
                         font_size=App.get_running_app().fu * theme.DETAIL_FS, color=REASON_INK,
                         halign="left", valign="middle",
                         size_hint_y=None)
            rule.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                      texture_size=lambda w, ts: setattr(w, "height", ts[1]))
            box.add_widget(rule)
        # 7 types, the mark, Cancel: three rows of three, each name whole at the action size
        cols = 3
        grid = GridLayout(cols=cols, spacing=u * 4)
        for kind in d.INGREDIENTS:
            grid.add_widget(self._field_button(kind, offer["fields"][kind],
                                               kind in summary["fields_exhausted"]))
        mark = FlatButton(title="Done marking" if self.marking else "Run out?",
                          fs=theme.ACTION_FS, selected=self.marking, fill=theme.GREY_BTN)
        mark.bind(on_release=lambda *_: self.mark_mode(not self.marking))
        grid.add_widget(mark)
        grid.add_widget(self._cancel())
        box.add_widget(grid)

    def _field_button(self, kind: str, problem: str | None, marked: bool) -> FlatButton:
        if self.marking:
            fill, ink = (theme.BAD, theme.INK) if marked else ingredient_colours(kind)
            # the heading says a tap marks it; "run out" under a marked one's short name
            b = FlatButton(title=ingredient_name(kind), fill=fill, ink=ink, fs=theme.ACTION_FS,
                           caption_fs=theme.DETAIL_FS, caption="run out" if marked else "",
                           selected=marked)
            # "run out" stays under its name: the short word where the whole takes two lines
            name_to_fit(b, kind)
            b.run_out = kind
            b.bind(on_release=lambda _b: self.run_out(kind))
            return b
        fill, ink = ingredient_colours(kind) if not problem else (theme.OPTION, theme.INK)
        # its whole name alone (on two lines where it must): one the rules refuse is grey,
        # the line above says why, and so does a tap
        b = FlatButton(title=ingredient_name(kind), fill=fill, ink=ink, fs=theme.ACTION_FS)
        if App.get_running_app().portrait:   # a third of 480 units: the short word
            name_to_fit(b, kind)
        b.kind = kind
        b.bind(on_release=lambda _b: self._buy({"item": "field", "field": kind}))
        return b

    def mark_mode(self, on: bool) -> None:
        self.marking = on
        self.build()

    def run_out(self, kind: str) -> None:
        """Mark a type as run out of the box; tapped again, the mark comes off if it was the
        last thing done (undo), else the rules say it is already marked."""
        app = App.get_running_app()
        if kind in app.summary["fields_exhausted"]:
            done = app.session.done_steps()
            last = done[-1].command if done else None
            if last is not None and last.do == "fields_exhausted" and \
                    last.args.get("ingredient") == kind:
                app.undo()
                return
        send(Command("fields_exhausted", args={"ingredient": kind}))

    def _discard(self, box, u: float) -> None:
        offer = self.pending
        self.heading = f"3 Spells held, the most: discard one to buy {ITEM_TITLES[offer['item']]}"
        hand = App.get_running_app().summary["players"][App.get_running_app().prompt["seat"]][
            "spell_hand"]
        grid = GridLayout(cols=3, spacing=u * 6, size_hint_y=None,
                          height=max(u * 56, App.get_running_app().fu * 70))
        for kind in d.SPELL_KINDS:
            b = FlatButton(title=kind.title(), fs=theme.ACTION_FS, disabled=not hand[kind])
            b.bind(on_release=lambda _b, k=kind: self._buy({"item": offer["item"], "discard": k}))
            grid.add_widget(b)
        grid.add_widget(self._cancel())
        box.add_widget(grid)
        box.add_widget(BoxLayout())

    def _cancel(self) -> FlatButton:
        b = FlatButton(title="Cancel", fs=theme.ACTION_FS)
        b.bind(on_release=lambda *_: self.cancel())
        return b

    def cancel(self) -> None:
        self.pending, self.marking = None, False
        self.build()

    def pass_turn(self) -> None:
        send(Command("pass", self.buyer))
