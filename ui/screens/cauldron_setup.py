"""Cauldron setup in two panels: the seats (clockwise: name, colour, character, the ability as
the card reads), then the variants and where the Magik Track prints its three milestones.

Names, characters and milestone positions start from the last Cauldron game in the database
(a table's board does not change). The rules validate the setup; a SetupError is shown here."""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.vkeyboard import VKeyboard

from companion.core.errors import CompanionError
from companion.games.cauldron import RULES
from companion.games.cauldron import data as d
from companion.games.cauldron.state import SEAT_COLOURS
from ui import theme
from ui.widgets.cauldron_common import CHARACTER_NAMES, colour_name
from ui.widgets.common import FlatButton

MIN_SEATS, MAX_SEATS = RULES.players
DEFAULT_MILESTONES = {"magik_overflow": 12, "rituals_of_power": 20, "the_breaking": 28}


class CauldronSetupRow(BoxLayout):
    seat = NumericProperty(0)
    character = StringProperty("")


class CharacterPicker(ModalView):
    """The seven characters; one taken by another seat (or the Wizard in a Simple Game) says so."""

    title = StringProperty("")

    def __init__(self, screen, row, **kwargs):
        super().__init__(**kwargs)
        self.title = f"Character for {row.ids.name.text.strip() or 'seat %d' % (row.seat + 1)}"
        taken = {r.character: r.ids.name.text for r in screen.rows[: screen.count]
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


class CauldronSetupScreen(Screen):
    lift = NumericProperty(0)
    count = NumericProperty(4)
    panel = StringProperty("players")
    variants = ListProperty([])
    error = StringProperty("")

    def on_kv_post(self, _base):
        self.rows = []
        for seat in range(MAX_SEATS):
            row = CauldronSetupRow(seat=seat)
            row.ids.colour.fill = theme.rgba(SEAT_COLOURS[seat])
            row.ids.colour.ink = theme.ink_on(SEAT_COLOURS[seat])
            row.ids.colour.text = f"{seat + 1}  {colour_name(SEAT_COLOURS[seat]).capitalize()}"
            for field in (row.ids.name, row.ids.ability):
                field.bind(focus=lambda *_: Clock.schedule_once(self._keep_visible))
            self.rows.append(row)
        # Strong references: a panel out of the tree must live on (ids are weak proxies).
        self.players_panel = self.ids.players_panel.__self__
        self.rules_panel = self.ids.rules_panel.__self__
        self.steppers = {k: self.ids[k].__self__ for k in d.MILESTONES}
        self.show_panel("players")

    def _keep_visible(self, *_args) -> None:
        """With the docked touch keyboard, lift the form so the field typed in stays visible."""
        focused = next((f for r in self.rows for f in (r.ids.name, r.ids.ability) if f.focus), None)
        keyboard = next((w for w in Window.children if isinstance(w, VKeyboard)), None)
        if focused is None or keyboard is None:
            self.lift = 0
            return
        bottom = focused.to_window(focused.x, focused.y)[1] - self.lift
        top = keyboard.y + keyboard.height * keyboard.scale
        self.lift = max(0, top + App.get_running_app().u * 8 - bottom)

    # -- starting values ----------------------------------------------------------------
    def on_pre_enter(self, *_):
        """Start from the last Cauldron table (else the last table's names)."""
        self.error = ""
        app = App.get_running_app()
        last, milestones = self._last_cauldron(app)
        players = last.get("players", []) if last else []
        if not players and app.store is not None and app.store.games():
            players = app.store.games()[0].players
        players = [p if isinstance(p, dict) else {"name": p} for p in players]
        self.count = len(players) if MIN_SEATS <= len(players) <= MAX_SEATS else 4
        self.variants = list(last.get("variants", [])) if last else []
        for seat, row in enumerate(self.rows):
            p = players[seat] if seat < len(players) else {}
            row.ids.name.text = p.get("name", f"Player {seat + 1}")
            row.character = p.get("character") or ""
            row.ids.ability.text = p.get("ability", "")
            row.ids.ability.cursor = (0, 0)
        for key, stepper in self.steppers.items():
            stepper.value = milestones.get(key, DEFAULT_MILESTONES[key])
        self.show_panel("players")

    @staticmethod
    def _last_cauldron(app) -> tuple[dict | None, dict]:
        """The last Cauldron game's setup, and its milestone positions (set at setup or later)."""
        if app.store is None:
            return None, {}
        game = next((i for i in app.store.games() if i.game == "cauldron"), None)
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
        box.add_widget(self.players_panel if name == "players" else self.rules_panel)
        self._place()

    def change_count(self, by: int) -> None:
        self.count = max(MIN_SEATS, min(MAX_SEATS, self.count + by))
        self._place()

    def _place(self) -> None:
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

    def setup(self) -> dict:
        players = []
        for row in self.rows[: self.count]:
            entry = {"name": row.ids.name.text.strip()}
            if row.character:
                entry["character"] = row.character
            if row.ids.ability.text.strip():
                entry["ability"] = row.ids.ability.text.strip()
            players.append(entry)
        return {"game": RULES.name, "players": players,
                "variants": [v for v in d.VARIANTS if v in self.variants],
                "milestones": {k: int(s.value) for k, s in self.steppers.items()}}

    def start(self) -> None:
        problem = App.get_running_app().start_game(self.setup())
        self.error = problem or ""
