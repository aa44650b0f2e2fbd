"""Entering a seat's potion cards, dealt at setup or bought in the Market, as the printed
cards they are: the dialog opens on the cards entered before (in this game, then the latest
earlier Cauldron games of the database), the kinds the seat is owed first, and one tap enters
one. "A new card" opens the whole entry (name, kind, Magik yield, ingredients with "Any", Quick,
Spell), preset from the kind the seat is owed and the Magik that kind usually gives. The rules
judge the ``add_potion`` command; a refusal shows in the dialog, which stays open. When a seat
has entered its last card, the next seat with cards waiting is chosen."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion.core.errors import RuleViolation
from companion.core.model import Command
from companion.games.cauldron import data as d
from companion.games.cauldron import potions as pt
from companion.history.entered import entered, newest_once
from ui import theme
from ui.games.cauldron.common import (
    KIND_SHORT, hands_on_phones, ingredient_colours, ingredient_name, name_to_fit, recipe,
)
from ui.widgets.common import FlatButton

MAX_INGREDIENTS = 10
#: The catalogue of earlier games, read when a Cauldron screen opens: database -> (the game in
#: play, its cards).
_catalogue: dict[str, tuple[int | None, list[dict]]] = {}
CARD_COMMANDS = ("add_potion", "buy")


def card_key(card: dict) -> tuple:
    """Two entries are the same card when name and ingredients agree."""
    return card["name"].casefold(), tuple(card["ingredients"])


def _card(command: Command) -> dict | None:
    """The potion card a command entered (``add_potion``, or ``buy`` with ``potion``), or None."""
    raw = command.args.get("potion") if command.do in CARD_COMMANDS else None
    if not isinstance(raw, dict):
        return None
    try:
        return pt.card(raw)
    except RuleViolation:
        return None


def read_cards(store, game_id: int) -> list[dict]:
    """The potion cards entered in one stored game: its accepted ``add_potion`` commands and
    purchases made with a card (``buy`` with ``potion``), in order."""
    cards = (_card(step.command) for step in store.steps(game_id) if step.status == "done")
    return [card for card in cards if card is not None]


def earlier_catalogue(app, fresh: bool = False) -> list[dict]:
    """The potion cards entered in the latest other Cauldron games of this database, newest
    first, once each (name and ingredients). Read from their stored commands in one statement
    when a Cauldron screen opens (``fresh``; companion.history.entered) and kept for the
    session; a dialog only reads the kept list."""
    if app.store is None:
        return []
    current = getattr(app.session, "game_id", None)
    kept = _catalogue.get(app.store.path)
    if kept is not None and not fresh and kept[0] == current:
        return kept[1]
    cards = newest_once(entered(app.store.conn, "cauldron", CARD_COMMANDS, exclude=current),
                        _card, card_key)
    _catalogue[app.store.path] = (current, cards)
    return _catalogue[app.store.path][1]


USUAL_MAGIK = {"easy": 3, "basic": 4, "advanced": 7}   # preset by kind; the card may differ


class CauldronPotionDialog(ModalView):
    title = StringProperty("")
    subtitle = StringProperty("")
    error = StringProperty("")
    kind = StringProperty("basic")
    quick = BooleanProperty(False)
    spell = BooleanProperty(False)
    parts = ListProperty([])
    #: 'pick' (the cards entered before) or 'new' (the whole entry)
    mode = StringProperty("pick")
    has_catalogue = BooleanProperty(False)

    @classmethod
    def open_for(cls, name: str | None = None) -> "CauldronPotionDialog":
        """Open for ``name``, else the first seat with cards waiting, else the current seat."""
        dialog = cls(name)
        dialog.open()
        return dialog

    def __init__(self, name: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.app = App.get_running_app()
        players = self.app.summary["players"]
        owing = [p["name"] for p in players if p["owed"]]
        self.name = name or (owing[0] if owing else
                             self.app.prompt.get("turn") or players[0]["name"])
        # the body shows one of the two; kv's ids are weak, so the other one is kept here
        self.bodies = {"pick": self.ids.picker.__self__, "new": self.ids.form.__self__}
        self._tabs()
        self._ingredient_buttons()
        self.select(self.name)

    def show_mode(self, mode: str) -> None:
        """The picker or the entry in the dialog's body, the other taken out of it."""
        self.mode = mode
        shown = self.bodies[mode]
        body = self.ids.body
        if shown.parent is not body:
            body.clear_widgets()
            body.add_widget(shown)

    # -- who ------------------------------------------------------------------------------
    @property
    def player(self) -> dict:
        return next(p for p in self.app.summary["players"] if p["name"] == self.name)

    def _tabs(self) -> None:
        box = self.ids.tabs
        box.clear_widgets()
        self.tab_buttons = {}
        for p in self.app.summary["players"]:
            owed = len(p["owed"])
            # blue while it has cards waiting (the heading says which): the name alone
            b = FlatButton(title=p["name"], fs=theme.ACTION_FS,
                           fill=theme.CALM if owed else theme.GREY_BTN)
            b.bind(on_release=lambda _b, n=p["name"]: self.select(n))
            self.tab_buttons[p["name"]] = b
            box.add_widget(b)

    def select(self, name: str) -> None:
        self.name = name
        for n, b in self.tab_buttons.items():
            b.selected = n == name
        owed = self.player["owed"]
        self.title = f"Enter a potion card for {name}"
        self.subtitle = ("Waiting: " + ", ".join(d.KIND_TEXT[k] for k in owed) if owed else
                         f"{name} has no card waiting: only a card from an Omen or a Spell "
                         "(entered as such)")
        self.error = ""
        self.reset(owed[0] if owed else "basic")
        self._catalogue()
        self.show_mode("pick" if self.has_catalogue else "new")

    # -- the form -------------------------------------------------------------------------
    def reset(self, kind: str = "basic") -> None:
        self.ids.potion_name.text = ""
        self.kind, self.quick, self.spell, self.parts = kind, False, False, []
        self.ids.yield_.value = USUAL_MAGIK[kind]

    def set_kind(self, kind: str) -> None:
        """The kind presets the Magik a card of it usually gives (changed only if it differs)."""
        self.kind = kind
        self.ids.yield_.value = USUAL_MAGIK[kind]

    def _ingredient_buttons(self) -> None:
        grid = self.ids.add_parts
        grid.clear_widgets()
        for kind in (*d.INGREDIENTS, d.ANY):
            fill, ink = ingredient_colours(kind)
            b = FlatButton(title=ingredient_name(kind), fill=fill, ink=ink, fs=theme.ACTION_FS)
            name_to_fit(b, kind)
            b.bind(on_release=lambda _b, k=kind: self.add_part(k))
            grid.add_widget(b)

    def add_part(self, kind: str) -> None:
        if len(self.parts) < MAX_INGREDIENTS:
            self.parts = [*self.parts, kind]

    def remove_last(self) -> None:
        self.parts = self.parts[:-1]

    def parts_text(self, parts) -> str:
        if not parts:
            return "Tap the Ingredients printed on the card"
        return recipe({"ingredients": parts})

    def card(self) -> dict:
        return {"name": self.ids.potion_name.text.strip(), "kind": self.kind,
                "yield": int(self.ids.yield_.value), "ingredients": list(self.parts),
                "quick": self.quick, "spell": self.spell}

    # -- earlier cards ------------------------------------------------------------------------
    def _catalogue(self) -> None:
        box = self.ids.catalogue
        box.clear_widgets()
        u = self.app.u
        seen: dict[tuple, dict] = {}
        mine = {p["name"].casefold() for p in self.player["potions"]}
        # Hands on phones: this game's cards are in hands (nobody else's), so only earlier
        # games' cards are offered, as on the phones (ui/table/phones.py)
        here = [] if hands_on_phones(self.app) else self.app.summary["catalogue"]
        for card in here + earlier_catalogue(self.app):
            if card_key(card) not in seen and card["name"].casefold() not in mine:
                seen[card_key(card)] = card
        owed = self.player["owed"]
        cards = sorted(seen.values(), key=lambda c: (c["kind"] not in owed, c["name"].casefold()))
        for card in cards:
            # its kind and Magik under the name (the name is what the held card shows; its
            # recipe is on the card): shorter than the name, so the name is read at its size
            said = f"{KIND_SHORT[card['kind']]} +{card['yield']}"
            b = FlatButton(title=card["name"], fs=theme.ACTION_FS, size_hint_y=None,
                           height=u * 86, caption_fs=theme.DETAIL_FS,
                           caption=said if len(said) < len(card["name"]) else f"+{card['yield']}",
                           fill=theme.SURFACE_HI if card["kind"] in owed else theme.SURFACE)
            b.bind(on_release=lambda _b, c=card: self.enter(c))
            box.add_widget(b)
        self.has_catalogue = bool(cards)
        waiting = " or ".join(dict.fromkeys(KIND_SHORT[k] for k in owed))
        self.ids.catalogue_title.text = (
            f"Tap the card {self.name} holds" + (f" ({waiting} first)" if waiting else "")
            + "; not listed: A new card")

    # -- sending ------------------------------------------------------------------------------
    def enter(self, card: dict | None = None) -> None:
        card = dict(card) if card is not None else self.card()
        args: dict = {"potion": {k: card[k] for k in ("name", "kind", "yield", "ingredients",
                                                       "quick", "spell")}}
        if card["kind"] not in self.player["owed"]:
            args["source"] = "correction"
        if self.app.send(Command("add_potion", self.name, args)):
            self.error = ""
            waiting = [p["name"] for p in self.app.summary["players"] if p["owed"]]
            if waiting:   # this seat's next card, else the next seat with cards waiting
                self._tabs()
                self.select(self.name if self.name in waiting else waiting[0])
            else:
                self.dismiss()
        else:
            self.error = self.app.refusal
            self.app.dismiss_refusal()
