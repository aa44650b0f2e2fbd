"""Cauldron setup in three panels: the seats (clockwise: name, the colour of the seat's pieces
from the palette, character, the ability as the card reads); the variants and where the Magik Track prints its three milestones; the table
rules where tables differ (who opens the Market, Quick Game milestones, the Fields in the box,
and per seat: an ability once per season, the most Cellars its card allows).

Everything starts from the last Cauldron game in the database (a table's board and habits do
not change), found a page of games at a time; a seat's "Who?" lists the players seen before
(:mod:`ui.widgets.players`). The rules validate the setup; a SetupError is shown here."""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty, DictProperty, ListProperty, NumericProperty, StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.core.errors import CompanionError
from companion.games.cauldron import RULES
from companion.games.cauldron import data as d
from companion.core import palette
from ui import theme
from ui.kiosk.keyboard import keyboard_lift
from ui.games.cauldron.common import CHARACTER_NAMES, ingredient_colours, short
from ui.games.cauldron.entry import CauldronCount
from ui.games.cauldron.potion import earlier_catalogue
from ui.games.cauldron.setup_check import setup_problems
from ui.widgets.common import (
    Chip, FlatButton, Stepper, Txt, distinct_colours, paint,
)
from ui.widgets.players import (ColouredSeats, last_game, last_of, seat_field, start_game,
                                typed_name)

MIN_SEATS, MAX_SEATS = RULES.players
DEFAULT_MILESTONES = {"magik_overflow": 12, "rituals_of_power": 20, "the_breaking": 28}


def suggested_supply(box_fields: int) -> dict[str, int]:
    """A first guess at the Field tiles of each type in the box (dealt ones included) that adds
    up to what the box holds (``box_fields``, 44 in the printed box): shared out evenly."""
    kinds = list(d.INGREDIENTS)
    base, extra = divmod(box_fields, len(kinds))
    return {k: base + (1 if i < extra else 0) for i, k in enumerate(kinds)}

PANELS = ("players", "rules", "settings")


class CauldronSetupRow(BoxLayout):
    seat = NumericProperty(0)
    problem = StringProperty("")        # what the rules say about this seat, in its row
    character = StringProperty("")
    once = BooleanProperty(False)       # the ability is once per season (its card says so)
    max_cellars = NumericProperty(d.MAX_CELLARS)
    colour = StringProperty("")         # the palette name of this seat's pieces


class FieldSupplyPicker(ModalView):
    """How many Field tiles of each type the box holds (those on the table included)."""

    def __init__(self, screen, **kwargs):
        super().__init__(size_hint=(0.9, 0.94), auto_dismiss=False, background="",
                         background_color=(0, 0, 0, 0), overlay_color=(0, 0, 0, 0.75), **kwargs)
        from kivy.factory import Factory

        u = App.get_running_app().u
        frame = Factory.CauldronEntryFrame()
        frame.add_widget(Txt(text="Field tiles in the box, per type (dealt ones included)",
                             fs=21, bold=True, ink=theme.ACCENT, size_hint_y=None,
                             height=u * 32))
        grid = BoxLayout(spacing=u * 12)
        self.steppers = {}
        guess = suggested_supply(screen.box_fields())
        columns = [BoxLayout(orientation="vertical", spacing=u * 6) for _ in range(2)]
        for i, kind in enumerate(d.INGREDIENTS):
            fill, ink = ingredient_colours(kind)
            stepper = Stepper(label=short(kind), value=screen.supply.get(kind, guess[kind]),
                              minimum=0, maximum=60, signed=False, fill=fill, ink=ink)
            self.steppers[kind] = stepper
            columns[i % 2].add_widget(stepper)
        for column in columns:
            column.add_widget(BoxLayout())
            grid.add_widget(column)
        frame.add_widget(grid)
        row = BoxLayout(size_hint_y=None, height=u * 56, spacing=u * 8)
        unknown = FlatButton(title="Unknown after all", caption="say when a type runs out", fs=19)
        unknown.bind(on_release=lambda *_: self.done(screen, {}))
        use = FlatButton(title="Use these counts", caption="a type sells out at its count", fs=19,
                         fill=theme.ACCENT, ink=theme.DARK_INK)
        use.bind(on_release=lambda *_: self.done(
            screen, {k: int(s.value) for k, s in self.steppers.items()}))
        row.add_widget(unknown)
        row.add_widget(use)
        frame.add_widget(row)
        self.add_widget(frame)

    def done(self, screen, counts: dict) -> None:
        screen.supply = counts
        self.dismiss()


class CharacterPicker(ModalView):
    """The seven characters; one taken by another seat (or the Wizard in a Simple Game) says so."""

    title = StringProperty("")

    def __init__(self, screen, row, **kwargs):
        super().__init__(**kwargs)
        self.title = f"Character for {typed_name(row.ids.name)}"
        taken = {r.character: typed_name(r.ids.name) for r in screen.rows[: screen.count]
                 if r is not row and r.character}
        grid = self.ids.grid
        for key in (*d.CHARACTERS, ""):
            caption = ""
            if key in taken:
                caption = f"taken: {taken[key]}"
            elif key == "wizard" and d.SIMPLE in screen.variants:
                caption = "not in the Simple Game"
            b = FlatButton(title=CHARACTER_NAMES.get(key, "None"), caption=caption, fs=21,
                           selected=key == row.character, disabled=bool(caption),
                           fill=theme.CALM if key else theme.GREY_BTN)
            b.bind(on_release=lambda _b, k=key: self.pick(screen, row, k))
            grid.add_widget(b)

    def pick(self, screen, row, key: str) -> None:
        screen.set_character(row, key)
        self.dismiss()


class CauldronSetupScreen(ColouredSeats, Screen):
    lift = NumericProperty(0)
    count = NumericProperty(4)
    panel = StringProperty("players")
    variants = ListProperty([])
    error = StringProperty("")
    note = StringProperty("")            # a known player seated without their usual colour
    market_start = StringProperty("left")
    quick_passes = BooleanProperty(True)
    supply = DictProperty({})            # empty: the box's counts are unknown
    #: a Cauldron game was set up before: the milestones and settings shown are kept from it
    kept = BooleanProperty(False)

    _again: dict | None = None           # the setup "Play again" brings, until shown
    _settings: dict = {}                 # the table settings it started from
    refused = False                      # a start was refused: edits ask the rules again

    def on_kv_post(self, _base):
        self.rows = []
        for seat in range(MAX_SEATS):
            row = CauldronSetupRow(seat=seat, colour=palette.PALETTE[seat].name)
            paint(row)
            for field in (row.ids.name, row.ids.ability):
                field.bind(focus=lambda *_: Clock.schedule_once(self._keep_visible))
            row.ids.name.bind(text=self._recheck)
            row.bind(character=self._recheck)
            self.rows.append(row)
        # Strong references: a panel out of the tree must live on (ids are weak proxies).
        self.players_panel = self.ids.players_panel.__self__
        self.rules_panel = self.ids.rules_panel.__self__
        self.settings_panel = self.ids.settings_panel.__self__
        self.steppers = {k: self.ids[k].__self__ for k in d.MILESTONES}
        App.get_running_app().bind(u=lambda *_: self.panel == "settings" and self._seat_rules())
        self.show_panel("players")

    def _keep_visible(self, *_args) -> None:
        """With the docked touch keyboard, lift the form so the field typed in stays visible."""
        focused = next((f for r in self.rows for f in (r.ids.name, r.ids.ability) if f.focus), None)
        self.lift = keyboard_lift(focused, self.lift)

    # -- starting values ----------------------------------------------------------------
    def on_pre_enter(self, *_):
        """Start from the last Cauldron table (else the last table's names)."""
        self.error = ""
        self.note = ""
        self.refused = False
        for row in self.rows:
            row.problem = ""
        app = App.get_running_app()
        last, milestones = self._last_cauldron(app)
        if self._again is not None:      # "Play again": that game's seats, not the latest
            last, self._again = self._again, None
            milestones = dict(last.get("milestones") or milestones)
        self._fill(app, last, milestones)
        earlier_catalogue(app, fresh=True)  # the potion cards of earlier games, read once

    def prefill(self, setup: dict) -> None:
        """The seats of a finished game (``app.play_again``): the same players in the same
        order, with their characters and abilities, the same variants, milestones and table
        settings, ready to check and start."""
        self._again = dict(setup)
        if self.manager is not None and self.manager.current == self.name:
            self.on_pre_enter()

    def _fill(self, app, last: dict | None, milestones: dict) -> None:
        self.kept = last is not None
        players = last.get("players", []) if last else []
        if not players:
            latest = last_game(app.store)
            players = latest.players if latest else []
        players = [p if isinstance(p, dict) else {"name": p} for p in players]
        self.count = len(players) if MIN_SEATS <= len(players) <= MAX_SEATS else 4
        self.variants = list(last.get("variants", [])) if last else []
        for seat, row in enumerate(self.rows):
            p = players[seat] if seat < len(players) else {}
            seat_field(row.ids.name, p.get("name", ""), seat)
            row.character = p.get("character") or ""
            row.ids.ability.text = p.get("ability", "")
            row.ids.ability.cursor = (0, 0)
            row.once = bool(p.get("once_per_season", False))
            row.max_cellars = p.get("max_cellars", d.MAX_CELLARS)
        distinct_colours(self.rows, (last or {}).get("colours") or ())
        for key, stepper in self.steppers.items():
            stepper.value = milestones.get(key, DEFAULT_MILESTONES[key])
        settings = {**d.DEFAULT_SETTINGS, **((last or {}).get("settings") or {})}
        self._settings = settings
        self.market_start = settings["market_start"]
        self.quick_passes = settings["quick_passes_milestones"]
        self.supply = dict(settings["field_supply"] or {})
        self.show_panel("players")

    @staticmethod
    def _last_cauldron(app) -> tuple[dict | None, dict]:
        """The last Cauldron game's setup, and its milestone positions (set at setup or later)."""
        if app.store is None:
            return None, {}
        game = last_of(app.store, "cauldron")
        if game is None:
            return None, {}
        setup = app.store.setup_of(game.id)
        milestones = dict(setup.get("milestones") or {})
        if not milestones:
            try:
                state = app.store.open_session(game.id).state
                milestones = {k: m["position"] for k, m in state["milestones"].items()
                              if m["position"] is not None}
            except CompanionError:
                milestones = {}
        return setup, milestones

    # -- editing ------------------------------------------------------------------------
    def show_panel(self, name: str) -> None:
        self.panel = name
        box = self.ids.panel
        box.clear_widgets()
        box.add_widget({"players": self.players_panel, "rules": self.rules_panel,
                        "settings": self.settings_panel}[name])
        self._place()
        if name == "settings":
            self._seat_rules()
        self._recheck()

    def change_count(self, by: int) -> None:
        self.count = max(MIN_SEATS, min(MAX_SEATS, self.count + by))
        self._place()
        self._recheck()

    def _place(self) -> None:
        distinct_colours(self.rows[: self.count])
        box = self.ids.seats
        box.clear_widgets()
        for row in self.rows[: self.count]:
            box.add_widget(row)

    def pick_character(self, row) -> None:
        CharacterPicker(self, row).open()

    def set_character(self, row, key: str) -> None:
        ability = row.ids.ability.text.strip()
        known = set(d.ABILITIES.values())
        row.character = key
        if not ability or ability in known:  # the printed text follows the character
            row.ids.ability.text = d.ABILITIES.get(key, "")
            row.ids.ability.cursor = (0, 0)  # show the start of the text, not its end

    def toggle_variant(self, key: str) -> None:
        self.variants = ([v for v in self.variants if v != key] if key in self.variants
                         else [*self.variants, key])
        self._recheck()

    # -- table rules ----------------------------------------------------------------------
    def _seat_rules(self) -> None:
        """Per seat, as its character card says: once per season, the most Cellars."""
        box = self.ids.seat_rules
        box.clear_widgets()
        u = App.get_running_app().u
        for row in self.rows[: self.count]:
            line = BoxLayout(size_hint_y=None, height=u * 52, spacing=u * 6)
            hex_colour = (palette.find(row.colour) or palette.PALETTE[row.seat]).hex
            line.add_widget(Chip(text=typed_name(row.ids.name),
                                 fill=theme.rgba(hex_colour), ink=theme.ink_on(hex_colour),
                                 size_hint_x=None, width=u * 100))
            once = FlatButton(title="Once a season" if row.once else "Any time", fs=18,
                              caption="ability", selected=row.once,
                              fill=theme.CALM if row.once else theme.GREY_BTN)
            once.bind(on_release=lambda _b, r=row: self.toggle_once(r))
            line.add_widget(once)
            count = CauldronCount(value=row.max_cellars, was=d.MAX_CELLARS, maximum=6,
                                  size_hint_x=None, width=u * 128, button_w=u * 48)
            count.bind(value=lambda c, v, r=row: setattr(r, "max_cellars", int(v)))
            line.add_widget(count)
            box.add_widget(line)

    def toggle_once(self, row) -> None:
        row.once = not row.once
        self._seat_rules()

    def count_fields(self) -> None:
        FieldSupplyPicker(self).open()

    def box_fields(self) -> int:
        """The Fields the box holds in all (the table's setting, else the printed box's)."""
        return int(self._settings.get("box_fields") or d.DEFAULT_SETTINGS["box_fields"])

    @staticmethod
    def supply_text(supply: dict) -> str:
        if not supply:
            return "The table marks a type when none is left in the box"
        return "  ".join(f"{short(k)} {n}" for k, n in supply.items())

    def setup(self) -> dict:
        players = []
        for row in self.rows[: self.count]:
            entry = {"name": typed_name(row.ids.name)}
            if row.character:
                entry["character"] = row.character
            if row.ids.ability.text.strip():
                entry["ability"] = row.ids.ability.text.strip()
            if row.once:
                entry["once_per_season"] = True
            if row.max_cellars != d.MAX_CELLARS:
                entry["max_cellars"] = int(row.max_cellars)
            players.append(entry)
        kept = {k: v for k, v in self._settings.items()   # those this screen does not show
                if k in d.DEFAULT_SETTINGS and v != d.DEFAULT_SETTINGS[k]}
        settings = {**kept, "market_start": self.market_start,
                    "quick_passes_milestones": self.quick_passes,
                    "field_supply": dict(self.supply) or None}
        return {"game": RULES.name, "players": players,
                "variants": [v for v in d.VARIANTS if v in self.variants],
                "milestones": {k: int(s.value) for k, s in self.steppers.items()},
                "settings": settings,
                "colours": [row.colour for row in self.rows[: self.count]]}

    def start(self) -> None:
        problem = start_game(self.setup(), self.rows[: self.count])
        self.error = problem or ""
        if problem and (setup_problems(self.setup()) != ({}, "")):
            self.refused = True          # from now on every edit asks again, until it is fixed
            self.show_problems()

    def _recheck(self, *_args) -> None:
        if self.refused:
            Clock.unschedule(self.show_problems)
            Clock.schedule_once(self.show_problems, 0.2)

    def show_problems(self, *_args) -> None:
        """Each problem at the row of the seat it concerns; the rest under the form. A fixed
        problem goes at once (the rules are asked again on every edit after a refused start)."""
        seats, general = setup_problems(self.setup())
        for row in self.rows:
            row.problem = seats.get(row.seat, "") if row.seat < self.count else ""
        if not general and seats and self.panel != "players":   # its row is out of sight
            seat = min(seats)
            name = typed_name(self.rows[seat].ids.name)
            general = f"{name}: {seats[seat]}"
        self.error = general
        if not seats and not general:
            self.refused = False
