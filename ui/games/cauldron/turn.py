"""The Harvest turn of the seat whose turn it is: its one Action (gather, steal, brew) and its
Quick Actions (quick brew, cast a Spell, move Ingredients to and from Cellars), then end turn.
While a die just entered can still be corrected (the turn order before the first Action, this
turn's steal), "Fix a die" shows beside the heading.

Buttons on the left choose what to do; the right side shows the choices for it, each from the
summary (board, pools, potions with why they cannot be brewed now). Every tap is one command the
rules judge; a refusal is shown and changes nothing."""

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
from ui.markup import plain
from ui.games.cauldron.common import (
    ingredient_colours, recipe, send, short, why_not,
)
from ui.games.cauldron.dice import CauldronFixDieDialog, fixable
from ui.widgets.common import FlatButton

ACTION_DONE = {"gather": "gathered", "steal": "stole", "brew": "brewed"}


def _text(text: str, fs: float = 18, ink=theme.INK, **kw) -> Label:
    u = App.get_running_app().u
    kw.setdefault("valign", "middle")
    lab = Label(text=text, font_size=u * fs, color=ink, halign="left", markup=True, **kw)
    lab.bind(size=lambda w, s: setattr(w, "text_size", s))
    return lab


class CauldronTurnPanel(BoxLayout):
    choice = StringProperty("")
    heading = StringProperty("")
    can_fix = BooleanProperty(False)   # a die just entered can still be corrected

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._key = None
        self.summary: dict = {}
        self.seat = 0
        self.who = ""
        self.picked: list[str] = []      # the Witch's first pick; the Any payment so far
        self.two = False                 # Little Helpers: gather two
        self.target: str | None = None   # steal: from whom
        self.any_for: dict | None = None # brew: the potion whose Any spaces are being paid

    # -- state ---------------------------------------------------------------------------
    def show(self, summary: dict, prompt: dict) -> None:
        self.summary, self.seat, self.who = summary, prompt["seat"], prompt["turn"]
        options = summary["options"] or {}
        key = (summary["season_number"], self.seat, prompt["phase"], summary["action"])
        if key != self._key:
            self._key = key
            self.choice = "gather" if options.get("action_free") else "brew"
            self._reset()
        self._buttons(summary, options)
        self.can_fix = fixable(App.get_running_app().session.state, ("turn_order", "steal"))
        self.build()

    @staticmethod
    def open_fix() -> None:
        CauldronFixDieDialog().open()

    def _reset(self) -> None:
        self.picked, self.two, self.target, self.any_for = [], False, None, None

    def choose(self, choice: str) -> None:
        self.choice = choice
        self._reset()
        for name in ("gather", "steal", "brew", "spell", "cellar"):
            self.ids[name].selected = name == choice
        self.build()

    @property
    def player(self) -> dict:
        return self.summary["players"][self.seat]

    def _buttons(self, summary: dict, options: dict) -> None:
        ids, free = self.ids, options.get("action_free", False)
        action = summary["action"]
        used = ("no more Actions" if summary["phase"] == "closing" else
                f"used: {ACTION_DONE.get(action, action)}" if action else "Action")
        ids.gather.caption = "two (Little Helpers)" if free and self._witch() else used
        ids.steal.caption = "4+ on a die" if free else used
        brewable = len(options.get("brew", []))
        ids.brew.caption = f"{brewable} ready now" if brewable else "none ready"
        ids.spell.caption = f"Quick  -  holds {self.player['spells']}"
        ids.cellar.caption = f"Quick  -  {len(self.player['cellars'])} Cellar(s)"
        end = options.get("end_turn")
        ids.end.caption = ("closes the Harvest" if summary["phase"] == "closing" else
                           "then the next seat") if end is None else (
            "take an Action first" if "must take one Action" in end else "not yet: tap for why")
        ids.end.fill = theme.GOOD if end is None else theme.GREY_BTN
        ids.end.ink = theme.DARK_INK if end is None else theme.INK
        for name in ("gather", "steal", "brew", "spell", "cellar"):
            button = ids[name]
            button.selected = self.choice == name
            action_kind = name in ("gather", "steal")
            button.fill = theme.CALM if (free or not action_kind) else theme.GREY_BTN

    def _witch(self) -> bool:
        return self.player["character"] == "witch"

    # -- the right side ------------------------------------------------------------------
    def build(self) -> None:
        box = self.ids.content
        box.clear_widgets()
        getattr(self, f"_build_{self.choice}")(box)
        if all(w.size_hint_y is None for w in box.children):
            box.add_widget(Widget())  # the choices at the top, the slack below

    def _grid(self, box, cols: int = 4) -> GridLayout:
        u = App.get_running_app().u
        grid = GridLayout(cols=cols, spacing=u * 6, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        grid.row_default_height = u * 58
        grid.row_force_default = True
        box.add_widget(grid)
        return grid

    def _ingredient_button(self, kind: str, caption: str, on_tap, selected=False) -> FlatButton:
        fill, ink = ingredient_colours(kind)
        b = FlatButton(title=short(kind), caption=caption, fill=fill, ink=ink, fs=20,
                       selected=selected)
        b.kind = kind
        b.bind(on_release=lambda *_: on_tap(kind))
        return b

    def _blocked(self, box, reason: str) -> None:
        box.add_widget(_text(plain(reason), 18, theme.MUTED, valign="top"))

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
        grid = self._grid(box)
        for k in d.INGREDIENTS:
            if left[k]:
                taken = self.picked.count(k)
                grid.add_widget(self._ingredient_button(k, f"{left[k] - taken} left", self._gather,
                                                        selected=bool(taken)))
        if self._witch():
            toggle = FlatButton(title="Take two" if not self.two else "Take one",
                                caption="Little Helpers" if not self.two else "back to one",
                                fill=theme.ACCENT if not self.two else theme.GREY_BTN,
                                ink=theme.DARK_INK if not self.two else theme.INK, fs=19)
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
        grid = self._grid(box, cols=max(3, len(victims)))
        grid.row_default_height = App.get_running_app().u * 46
        for name in victims:
            b = FlatButton(title=name, fs=19, selected=name == self.target)
            b.bind(on_release=lambda _b, n=name: self._target(n))
            grid.add_widget(b)
        if self.target is None:
            box.add_widget(_text("Tap the player stolen from", 17, theme.MUTED))
            return
        pool = next(p for p in self.summary["players"] if p["name"] == self.target)["pool"]
        grid = self._grid(box)
        grid.row_default_height = App.get_running_app().u * 52
        for kind in d.INGREDIENTS:
            if pool.get(kind):
                grid.add_widget(self._ingredient_button(kind, f"{self.target} has {pool[kind]}",
                                                        self._steal))

    def _target(self, name: str) -> None:
        self.target = name
        self.build()

    def _steal(self, kind: str) -> None:
        send(Command("steal", self.who, {"target": self.target, "ingredient": kind}))

    def _build_brew(self, box) -> None:
        if self.any_for is not None:
            return self._build_any(box)
        potions = self.player["potions"]
        self.heading = "Brew a Potion (a Quick one is a Quick Action)"
        if not potions:
            return self._blocked(box, f"{self.who} has no potion card entered yet: "
                                      "tap Cards at the top to enter them")
        u = App.get_running_app().u
        scroll = ScrollView(do_scroll_x=False, bar_width=u * 6)
        rows = GridLayout(cols=1, spacing=u * 4, size_hint_y=None)
        rows.bind(minimum_height=rows.setter("height"))
        ready = (self.summary["options"] or {}).get("brew", [])
        for potion in potions:
            rows.add_widget(self._potion_row(potion, potion["name"] in ready, u))
        scroll.add_widget(rows)
        box.add_widget(scroll)

    def _potion_row(self, potion: dict, ready: bool, u: float) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=u * 56, spacing=u * 8)
        flags = "".join(f" - {t}" for t, on in (("Quick", potion["quick"]),
                                                 ("Spell", potion["spell"])) if on)
        b = FlatButton(title=potion["name"], fs=17, size_hint_x=0.42,
                       caption=f"+{potion['yield']} Magik{flags}",
                       fill=theme.GOOD if ready else theme.GREY_BTN,
                       ink=theme.DARK_INK if ready else theme.INK)
        b.bind(on_release=lambda *_: self._brew(potion))
        row.add_widget(b)
        reason = potion["blocked"]
        if not ready and not reason:
            reason = why_not(Command("brew", self.who, {"potion": potion["name"]}))
        why = (reason or "").split(" (a Potion takes")[0]
        words = (f"[b]{plain(recipe(potion))}[/b]"
                 + ("" if ready else f"\n[color=#F4A093]{plain(why)}[/color]"))
        lab = _text(words, 15, theme.INK, max_lines=3, valign="top")
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
        grid = self._grid(box)
        for kind in d.INGREDIENTS:
            if pool.get(kind):
                grid.add_widget(self._ingredient_button(kind, f"spare {pool[kind]}", self._pay_any))
        back = FlatButton(title="Cancel", fs=18)
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
        self.heading = "Cast a Spell: read it aloud and do what it says"
        if d.SIMPLE in self.summary["variants"]:
            return self._blocked(box, "Simple Game: no Spells are used")
        hand = self.player["spell_hand"]
        grid = self._grid(box, cols=3)
        for kind in d.SPELL_KINDS:
            b = FlatButton(title=f"Cast {kind.title()}", caption=f"holds {hand[kind]}",
                           fill=theme.CALM, disabled=not hand[kind], fs=19)
            b.bind(on_release=lambda _b, k=kind: send(Command("cast_spell", self.who, {"kind": k})))
            grid.add_widget(b)
        dome = FlatButton(title="Magik Dome", caption="no more Spells", fs=18,
                          disabled=not any(hand.values()))
        dome.bind(on_release=lambda *_: send(Command("cast_spell", self.who, {
            "kind": "advanced" if hand["advanced"] and not hand["basic"] else "basic",
            "dome": True, "name": "Magik Dome"})))
        grid.add_widget(dome)
        for kind in d.SPELL_KINDS:
            b = FlatButton(title=f"Discard {kind.title()}", caption="at most 3 at turn end",
                           fs=17, disabled=not hand[kind])
            b.bind(on_release=lambda _b, k=kind: send(Command("discard_spell", self.who,
                                                               {"kind": k})))
            grid.add_widget(b)
        box.add_widget(_text("Magik it gives or takes: tap that seat's card", 15, theme.MUTED))

    def _build_cellar(self, box) -> None:
        cellars = self.player["cellars"]
        self.heading = "Move Ingredients into or out of a Cellar"
        if not cellars:
            return self._blocked(box, f"{self.who} has no Cellar: buy one in the Market Season")
        free = cellars.count(None)
        pool = self.player["pool"]
        grid = self._grid(box)
        grid.row_default_height = App.get_running_app().u * 52
        for kind in d.INGREDIENTS:
            if pool.get(kind) and free:
                grid.add_widget(self._ingredient_button(
                    kind, "into a Cellar", lambda k: send(Command(
                        "move_ingredient", self.who, {"ingredient": k, "to": "cellar"}))))
        for kind in sorted({c for c in cellars if c}):
            grid.add_widget(self._ingredient_button(
                kind, "out to the pool", lambda k: send(Command(
                    "move_ingredient", self.who, {"ingredient": k, "to": "pool"}))))
        if not grid.children:
            box.add_widget(_text("Nothing to move: the pool is empty and the Cellars too", 17,
                                 theme.MUTED))

    def end_turn(self) -> None:
        send(Command("end_turn", self.who))
