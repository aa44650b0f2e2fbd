"""The Harvest turn of the seat whose turn it is: a row of large buttons in the game's words,
its one Action (Gather, Steal, Brew) and its Quick Actions (a quick brew, a Spell, the Cellars),
then End turn. While a die just entered can still be corrected (the turn order before the first
Action, this turn's steal), "Fix a die" joins the row.

An action that is possible now is coloured, one that is not is grey; a tap on either opens its
choices over the seats (``CauldronTurnChoices``): the board's Ingredients, the pools to steal
from, the potions with why each cannot be brewed now, or, for an action that is not possible,
the rules' reason in plain words. Every tap there is one command the rules judge; a refusal is
shown and changes nothing. Once the turn moves on, the seats come back."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.core.model import Command
from companion.games.cauldron import data as d
from companion.games.cauldron import potions as pt
from ui import theme
from ui.games.cauldron.ask import ask_now, new_parts
from ui.text.markup import plain
from ui.games.cauldron.common import (
    hands_on_phones, in_hand_words, ingredient_colours, ingredient_name, name_to_fit, pool_needs,
    recipe, send, why_not,
)
from ui.games.cauldron.dice import CauldronFixDieDialog, fixable
from ui.widgets.common import Box, FlatButton, seat_button

ACTIONS = ("gather", "steal", "brew", "spell", "cellar")
INGREDIENT_ROW = 74   # units: a whole name on two lines ("Poisonous Mushroom") and its count


def _text(text: str, fs: float = theme.DETAIL_FS, ink=theme.INK, grow: bool = False, **kw) -> Label:
    """A label that wraps at its width; ``grow``: only the width binds (the text is never cut,
    whoever holds it follows its texture's height)."""
    fu = App.get_running_app().fu
    kw.setdefault("valign", "middle")
    lab = Label(text=text, font_size=fu * fs, color=ink, halign="left", markup=True, **kw)
    if grow:
        lab.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
    else:
        lab.bind(size=lambda w, s: setattr(w, "text_size", s))
    return lab


class CauldronTurnChoices(Box):
    """Over the seats: the chosen action's heading, its choices, and the way back."""

    heading = StringProperty("")
    panel = None

    def back(self) -> None:
        self.panel.choose("")


class CauldronTurnPanel(GridLayout):
    choice = StringProperty("")        # "": the seats show; else the action whose choices show
    heading = StringProperty("")
    can_fix = BooleanProperty(False)   # a die just entered can still be corrected

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._key = self._session = None
        self.summary: dict = {}
        self.seat = 0
        self.who = ""
        self.picked: list[str] = []      # the Witch's first pick; the Any payment so far
        self.two = False                 # Little Helpers: gather two
        self.target: str | None = None   # steal: from whom
        self.any_for: dict | None = None # brew: the potion whose Any spaces are being paid
        self.revealed = False            # Hands on phones: the brew's Hidden entry is open
        self.choices = CauldronTurnChoices()
        self.choices.panel = self
        self.bind(heading=self.choices.setter("heading"))

    # -- state ---------------------------------------------------------------------------
    def show(self, summary: dict, prompt: dict) -> None:
        self.summary, self.seat, self.who = summary, prompt["seat"], prompt["turn"]
        options = summary["options"] or {}
        key = (summary["season_number"], self.seat, prompt["phase"], summary["action"])
        # a new turn, or another game (the panel serves every game the app opens: a brew list
        # left open in one showed over the next one's seats, at the same seat's first turn)
        session = App.get_running_app().session
        if key != self._key or session is not self._session:
            self._key, self._session = key, session
            self.choice = ""
            self._reset()
        self._buttons(summary, options)
        self.can_fix = fixable(App.get_running_app().session.state, ("turn_order", "steal"))
        self.build()

    @staticmethod
    def open_fix() -> None:
        CauldronFixDieDialog().open()

    def _reset(self) -> None:
        self.picked, self.two, self.target, self.any_for = [], False, None, None
        self.revealed = False            # Hands on phones: the brew's Hidden entry is open

    def choose(self, choice: str) -> None:
        """Open an action's choices ("" closes them: the seats show again)."""
        self._reset()
        for name in ACTIONS:
            self.ids[name].selected = name == choice
        self.build(choice)
        self.choice = choice

    @property
    def player(self) -> dict:
        return self.summary["players"][self.seat]

    def possible(self, summary: dict, options: dict) -> dict[str, bool]:
        """Which actions the current seat can take now (the rules' answers, asked before)."""
        free = options.get("action_free", False)
        hand = self.player.get("spell_hand", {})
        return {
            "gather": free and any(summary["ingredients_left"].values()),
            "steal": free and bool(options.get("steal_from")),
            "brew": bool(options.get("brew")),
            "spell": d.SIMPLE not in summary["variants"] and any(hand.values()),
            "cellar": bool(self.player["cellars"]),
        }

    def _buttons(self, summary: dict, options: dict) -> None:
        ids = self.ids
        self.can = self.possible(summary, options)
        for name in ACTIONS:
            button = ids[name]
            button.selected = self.choice == name
            # not possible now: still a live option (a tap says why), so never drawn greyed
            button.fill = theme.ACTION if self.can[name] else theme.OPTION
            button.ink = theme.INK
        end = options.get("end_turn")
        ids.end.fill = theme.DONE if end is None else theme.OPTION
        ids.end.ink = theme.DARK_INK if end is None else theme.INK

    def _witch(self) -> bool:
        return self.player["character"] == "witch"

    # -- the right side ------------------------------------------------------------------
    def build(self, choice: str | None = None) -> None:
        choice = self.choice if choice is None else choice
        box = self.choices.ids.content
        box.clear_widgets()
        if not choice:
            return
        self._building = choice
        getattr(self, f"_build_{choice}")(box)
        if all(w.size_hint_y is None for w in box.children):
            box.add_widget(Widget())  # the choices at the top, the slack below

    def _grid(self, box, cols: int = 4, row: float = 64) -> GridLayout:
        """``row``: 74 units for Ingredients, whose whole names may take two lines."""
        u = App.get_running_app().u
        grid = GridLayout(cols=cols, spacing=u * 6, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        grid.row_default_height = u * row
        grid.row_force_default = True
        box.add_widget(grid)
        return grid

    def _ingredient_button(self, kind: str, caption: str, on_tap, selected=False) -> FlatButton:
        fill, ink = ingredient_colours(kind)
        b = FlatButton(title=ingredient_name(kind), caption=caption, fill=fill, ink=ink,
                       fs=theme.ACTION_FS, selected=selected, caption_fs=theme.DETAIL_FS)
        name_to_fit(b, kind)
        b.kind = kind
        b.bind(on_release=lambda *_: on_tap(kind))
        return b

    def _blocked(self, box, reason: str) -> None:
        """An action that is not possible: the rules' reason, in large type, without the parts
        the headline says already ("..., then end the turn" under "Quick Actions if any, then
        end the turn": said once)."""
        self.heading = f"{self._building.capitalize()}: not possible now"
        app = App.get_running_app()
        said = ask_now(app.session.state, app.prompt) if app.session is not None else ""
        words = "; ".join(new_parts(reason, said)) or reason
        box.add_widget(_text(plain(words), theme.DETAIL_FS, theme.INK, valign="top"))

    def _build_gather(self, box) -> None:
        left = self.summary["ingredients_left"]
        kind = next((k for k in d.INGREDIENTS if left[k]), "spider_web")
        reason = why_not(Command("gather", self.who, {"ingredient": kind}))
        if reason:
            self.heading = "Gather"
            return self._blocked(box, reason)
        if self._witch():
            self.heading = ("Little Helpers: pick two Ingredients" if self.two else
                            "Gather one Ingredient from the board")
        else:
            self.heading = "Gather: tap the Ingredient taken from the board"
        grid = self._grid(box, row=INGREDIENT_ROW)
        # every kind the board holds this Harvest keeps its slot, one gathered to the last
        # as "none left": a tap meant for one kind never lands on the next
        fields = self.summary.get("fields") or {}
        for k in d.INGREDIENTS:
            if left[k] or fields.get(k):
                taken = self.picked.count(k)
                b = self._ingredient_button(k, f"{left[k] - taken} left", self._gather,
                                            selected=bool(taken))
                b.disabled = not left[k]
                grid.add_widget(b)
        if self._witch():
            # the heading says Little Helpers while two are taken
            toggle = FlatButton(title="Take two" if not self.two else "Take one",
                                fill=theme.ACTION if not self.two else theme.OPTION,
                                fs=theme.ACTION_FS)
            toggle.bind(on_release=lambda *_: self._toggle_two())
            grid.add_widget(toggle)

    def _toggle_two(self) -> None:
        self.two, self.picked = not self.two, []
        self.build()

    def _gather(self, kind: str) -> None:
        if not self.two:
            send(Command("gather", self.who, {"ingredient": kind}))
            return
        self.picked.append(kind)
        if len(self.picked) == 2:
            picked, self.picked = self.picked, []
            send(Command("gather", self.who, {"ingredients": picked}))
        self.build()

    def _build_steal(self, box) -> None:
        self.heading = "Steal from another pool: 4 or more on a die succeeds"
        options = self.summary["options"] or {}
        victims = options.get("steal_from", [])
        if not options.get("action_free"):
            return self._blocked(box, why_not(Command("steal", self.who, {})) or "")
        if not victims:
            return self._blocked(box, "Nobody has an Ingredient in the pool to steal "
                                      "(Ingredients in Cellars cannot be stolen)")
        if self.target is None:          # first whom, then which Ingredient: one grid at a time
            self.heading = "Steal: tap the player stolen from (4 or more on a die succeeds)"
            grid = self._grid(box, cols=max(3, len(victims)))
            for name in victims:
                b = seat_button(App.get_running_app().session, name, fs=theme.ACTION_FS)
                b.bind(on_release=lambda _b, n=name: self._target(n))
                grid.add_widget(b)
            return
        self.heading = f"Steal from {self.target}: which Ingredient?"
        pool = next(p for p in self.summary["players"] if p["name"] == self.target)["pool"]
        grid = self._grid(box, row=INGREDIENT_ROW)
        for kind in d.INGREDIENTS:
            if pool.get(kind):
                grid.add_widget(self._ingredient_button(kind, f"has {pool[kind]}", self._steal))
        other = FlatButton(title="Another player", fs=theme.ACTION_FS)
        other.bind(on_release=lambda *_: self._target(None))
        grid.add_widget(other)

    def _target(self, name: str | None) -> None:
        self.target = name
        self.build()

    def _steal(self, kind: str) -> None:
        send(Command("steal", self.who, {"target": self.target, "ingredient": kind}))

    def _build_brew(self, box) -> None:
        if self.any_for is not None:
            return self._build_any(box)
        potions = self.player["potions"]
        self.heading = "Brew a Potion"
        if not potions:
            return self._blocked(box, f"{self.who} has no potion card entered yet: "
                                      "tap Cards at the top to enter them")
        u = App.get_running_app().u
        if hands_on_phones() and not self.revealed:
            # the seat's cards are on its phone: here only how many, until its own entry opens
            box.add_widget(_text(plain(in_hand_words(self.player)), theme.DETAIL_FS, theme.INK,
                                 valign="top"))
            b = FlatButton(title=f"Hidden entry: {self.who}'s cards", fs=theme.ACTION_FS,
                           fill=theme.ACTION, size_hint_y=None, height=u * 64)
            b.bind(on_release=lambda *_a: self._reveal())
            box.add_widget(b)
            return
        scroll = ScrollView(do_scroll_x=False, bar_width=u * 6)
        rows = GridLayout(cols=1, spacing=u * 4, size_hint_y=None)
        rows.bind(minimum_height=rows.setter("height"))
        ready = (self.summary["options"] or {}).get("brew", [])
        for potion in potions:
            rows.add_widget(self._potion_row(potion, potion["name"] in ready, u))
        scroll.add_widget(rows)
        box.add_widget(scroll)

    def _reveal(self) -> None:
        self.revealed = True
        self.build()

    def _potion_row(self, potion: dict, ready: bool, u: float) -> BoxLayout:
        least = u * (108 if App.get_running_app().portrait else 72)  # portrait: a 3-line button
        row = PotionRow(size_hint_y=None, height=least, spacing=u * 8)
        flags = "".join(f" - {t}" for t, on in (("Quick", potion["quick"]),
                                                 ("Spell", potion["spell"])) if on)
        # its Magik as the caption (shorter than the name); Quick and Spell beside, with the
        # recipe
        b = FlatButton(title=potion["name"], fs=theme.ACTION_FS, size_hint_x=0.42,
                       caption_fs=theme.DETAIL_FS, caption=f"+{potion['yield']}",
                       fill=theme.ACTION if ready else theme.OPTION, ink=theme.INK)
        b.bind(on_release=lambda *_: self._brew(potion))
        row.add_widget(b)
        reason = potion["blocked"]
        if not ready and not reason:
            reason = why_not(Command("brew", self.who, {"potion": potion["name"]}))
        why = pool_needs(self.player, potion) if reason and reason == pt.lacks(
            self.player, potion) else (reason or "").split(" (a Potion takes")[0]
        words = (f"[b]{plain(recipe(potion))}[/b]{flags}"
                 + ("" if ready else f"\n[color=#F4A093]{plain(why)}[/color]"))
        lab = _text(words, theme.DETAIL_FS, theme.INK, grow=True, valign="top")
        # the row grows with the reason: nothing of it is cut
        lab.bind(texture_size=lambda _l, ts: setattr(row, "height", max(least, ts[1] + u * 4)))
        row.add_widget(lab)
        row.potion, row.ready, row.reason = potion["name"], ready, reason
        return row

    def _brew(self, potion: dict) -> None:
        command = Command("brew", self.who, {"potion": potion["name"]})
        reason = why_not(command)
        if pt.asks_for_any(reason):
            self.any_for, self.picked = potion, []
            self.build()
            return
        send(command)

    def _build_any(self, box) -> None:
        potion = self.any_for
        need = potion["ingredients"].count(d.ANY)
        self.heading = (f"{potion['name']}: which Ingredient pays the Any space"
                        f"{'s' if need > 1 else ''}? ({len(self.picked)} of {need})")
        pool = dict(self.player["pool"])
        for part in potion["ingredients"] + self.picked:
            if part != d.ANY and pool.get(part):
                pool[part] -= 1
        grid = self._grid(box, row=INGREDIENT_ROW)
        for kind in d.INGREDIENTS:
            if pool.get(kind):
                grid.add_widget(self._ingredient_button(kind, f"has {pool[kind]}", self._pay_any))
        back = FlatButton(title="Cancel", fs=theme.ACTION_FS)
        back.bind(on_release=lambda *_: self.choose("brew"))
        grid.add_widget(back)

    def _pay_any(self, kind: str) -> None:
        self.picked.append(kind)
        potion = self.any_for
        if len(self.picked) >= potion["ingredients"].count(d.ANY):
            paid, self.any_for, self.picked = self.picked, None, []
            send(Command("brew", self.who, {"potion": potion["name"], "any": paid}))
        self.build()

    def _build_spell(self, box) -> None:
        # the Magik a Spell moves is a seat's correction, on its card once the seats are back
        self.heading = "Cast a Spell and read it aloud (its Magik: tap that seat's card)"
        if d.SIMPLE in self.summary["variants"]:
            return self._blocked(box, "Simple Game: no Spells are used")
        hand = self.player["spell_hand"]
        # cast, the Dome; then discard: a row each, a finger tall, their words alone (how many
        # of a kind the seat holds is its card's star; a kind it holds none of is off)
        grid = self._grid(box, cols=3, row=60)
        for kind in d.SPELL_KINDS:
            b = FlatButton(title=f"Cast {kind.title()}", fill=theme.CALM, disabled=not hand[kind],
                           fs=theme.ACTION_FS)
            b.bind(on_release=lambda _b, k=kind: send(Command("cast_spell", self.who, {"kind": k})))
            grid.add_widget(b)
        dome = FlatButton(title="Magik Dome", fs=theme.ACTION_FS, disabled=not any(hand.values()))
        dome.bind(on_release=lambda *_: send(Command("cast_spell", self.who, {
            "kind": "advanced" if hand["advanced"] and not hand["basic"] else "basic",
            "dome": True, "name": "Magik Dome"})))
        grid.add_widget(dome)
        for kind in d.SPELL_KINDS:
            b = FlatButton(title=f"Discard {kind.title()}", fs=theme.ACTION_FS,
                           disabled=not hand[kind])
            b.bind(on_release=lambda _b, k=kind: send(Command("discard_spell", self.who,
                                                               {"kind": k})))
            grid.add_widget(b)

    def _build_cellar(self, box) -> None:
        cellars = self.player["cellars"]
        self.heading = "Cellar: move an Ingredient in, or out to the pool"
        if not cellars:
            return self._blocked(box, f"{self.who} has no Cellar: buy one in the Market Season")
        free = cellars.count(None)
        pool = self.player["pool"]
        grid = self._grid(box, row=INGREDIENT_ROW)
        for kind in d.INGREDIENTS:
            if pool.get(kind) and free:
                grid.add_widget(self._ingredient_button(
                    kind, "in", lambda k: send(Command(
                        "move_ingredient", self.who, {"ingredient": k, "to": "cellar"}))))
        for kind in sorted({c for c in cellars if c}):
            grid.add_widget(self._ingredient_button(
                kind, "out", lambda k: send(Command(
                    "move_ingredient", self.who, {"ingredient": k, "to": "pool"}))))
        if not grid.children:
            box.add_widget(_text("Nothing to move: the pool is empty and the Cellars too",
                                 theme.DETAIL_FS, theme.MUTED))

    def end_turn(self) -> None:
        send(Command("end_turn", self.who))


class PotionRow(BoxLayout):
    """One potion card of the brew list: its button, its recipe and what keeps it from being
    brewed. The rows are a list: each says its own card's reason in the same words."""

