"""Cauldron Quest setup: the players (youngest first), the three ingredients the table drew from
the box for the cauldron (tap them, or let the companion draw), and the board facts the
rulebook does not print (defaults as in the rules; change them only if your box differs).

The names are checked here as they are typed, in people's words beside the row they concern
(empty, the same name twice, too long), and each line goes as soon as the row is fixed. The
rules still validate the whole setup; what they refuse about a seat ("Seat 2: ...") is shown on
that row, anything else under the start button until something changes. A result screen's
"Play again" fills the screen in with ``prefill``. A row's "Who?" lists the players seen before
(:mod:`ui.widgets.players`); the last table is found a page of games at a time.

No seat colours here, unlike Witch's Brew and Cauldron: Cauldron Quest is played as one team
with shared pieces (the six bottles, the wizard, the obstacles), so no player has pieces for a
colour to match, and a colour per child would be one more step before a children's game starts
while telling the table nothing the names do not."""

from __future__ import annotations

import random
import re
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.core.errors import CompanionError
from companion.core.gate import name_key
from companion.games.quest import RULES
from companion.games.quest.state import DEFAULTS, INGREDIENTS, NEEDED
from ui import theme
from ui.kiosk.keyboard import keyboard_lift
from ui.games.quest import draw
from ui.widgets.common import FlatButton, Stepper
from ui.widgets.players import last_game, last_of, pick_player, seat_field, start_game, typed_name
from ui.games.quest.dialogs import QuestDialog
from ui.games.quest.icons import PictureButton

MIN_PLAYERS, MAX_PLAYERS = RULES.players
FACTS = ("circle_spaces", "path_spaces", "obstacle_space", "die_a", "die_b")
B_FACES = (1, 2, 3, 4, 5, 6, "spell")
DRAW = random.SystemRandom()
NAME_LIMIT = 40      # the gate's limit for a player's name
SEAT_PROBLEM = re.compile(r"Seat (\d+): (.+)", re.S)


def default_facts() -> dict[str, Any]:
    return {k: (list(DEFAULTS[k]) if isinstance(DEFAULTS[k], list) else DEFAULTS[k])
            for k in FACTS}


def facts_words(facts: dict[str, Any]) -> str:
    hats = facts["die_a"].count("hat")
    b = " ".join("S" if f == "spell" else str(f) for f in facts["die_b"])
    return (f"{facts['circle_spaces']} circle spaces, {facts['path_spaces']} per path; "
            f"die A {6 - hats} bottles {hats} hats; die B {b}")


def name_problems(names: list[str]) -> list[str]:
    """What is wrong with each name, in the table's words ('' when nothing is)."""
    problems = []
    for i, name in enumerate(names):
        earlier = next((j for j in range(i) if name and name_key(names[j]) == name_key(name)),
                       None)
        if not name:
            problems.append("Write this player's name")
        elif len(name) > NAME_LIMIT:
            problems.append(f"A shorter name, please: at most {NAME_LIMIT} letters")
        elif earlier is not None:
            problems.append(f"Player {earlier + 1} is already called {names[earlier]}: "
                            f"add a letter, like {name} B")
        else:
            problems.append("")
    return problems


class QuestPlayerRow(BoxLayout):
    seat = NumericProperty(0)
    problem = StringProperty("")


class QuestSetupScreen(Screen):
    lift = NumericProperty(0)
    count = NumericProperty(3)
    chosen = ListProperty([])
    error = StringProperty("")
    facts_text = StringProperty("")

    def on_kv_post(self, _base):
        self.facts = default_facts()
        self._again: dict[str, Any] | None = None
        self.rows = []
        for seat in range(MAX_PLAYERS):
            row = QuestPlayerRow(seat=seat)
            seat_field(row.ids.name, "", seat)
            row.ids.name.bind(focus=lambda *_: Clock.schedule_once(self._keep_visible))
            row.ids.name.bind(text=lambda *_: self.check_names())
            self.rows.append(row)
        self.tiles = {}
        for name in INGREDIENTS:
            b = PictureButton(kind="ingredient", face=name, value=name,
                              title=draw.INGREDIENT_WORDS[name], fs=20, caption_fs=20,
                              picture=0.35,
                              fill=theme.SURFACE_HI)
            b.bind(on_release=lambda btn: self.toggle(btn.value))
            self.tiles[name] = b
            self.ids.ingredients.add_widget(b)
        self._place()

    def _keep_visible(self, *_args) -> None:
        """With the docked touch keyboard (kiosk), lift the form above it (as setup does)."""
        focused = next((r.ids.name for r in self.rows if r.ids.name.focus), None)
        self.lift = keyboard_lift(focused, self.lift)

    def on_pre_enter(self, *_):
        """Names and board facts from the last Cauldron Quest table (names else from the last
        game's), no ingredients drawn yet; or what ``prefill`` gave (Play again)."""
        self.error = ""
        app = App.get_running_app()
        last_quest = last_of(app.store, "quest")
        last = last_quest or last_game(app.store)
        names = last.players if last else []
        self.facts = default_facts()
        if last_quest is not None:
            try:
                setup = app.store.open_session(last_quest.id).setup
                self.facts.update({k: setup[k] for k in FACTS if k in setup})
            except CompanionError:
                pass
        self.count = len(names) if MIN_PLAYERS <= len(names) <= MAX_PLAYERS else 3
        for seat, row in enumerate(self.rows):
            seat_field(row.ids.name, names[seat] if seat < len(names) else "", seat)
        self.chosen = []
        self._place()
        if self._again is not None:
            self._fill(self._again)

    def on_leave(self, *_args) -> None:
        self._again = None

    def prefill(self, setup: dict[str, Any]) -> None:
        """The setup of the game just played (from its result screen's "Play again"): the same
        players in the same order, the same needed ingredients and board facts."""
        self._again = dict(setup)
        self._fill(self._again)

    def _fill(self, setup: dict[str, Any]) -> None:
        names = list(setup.get("players", []))
        if MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            self.count = len(names)
            for seat, row in enumerate(self.rows):
                seat_field(row.ids.name, names[seat] if seat < len(names) else "", seat)
        self.facts = default_facts()
        self.facts.update({k: setup[k] for k in FACTS if k in setup})
        needed = [n for n in setup.get("needed", []) if n in INGREDIENTS]
        self.chosen = needed if len(needed) == NEEDED else []
        self.error = ""
        self._place()

    def on_chosen(self, *_args) -> None:
        self.error = ""
        for name, b in self.tiles.items():
            b.selected = name in self.chosen
            b.caption = "in the cauldron" if name in self.chosen else ""
            b.fill = theme.rgba("#1E5C3A") if name in self.chosen else theme.SURFACE_HI

    def change_count(self, by: int) -> None:
        self.count = max(MIN_PLAYERS, min(MAX_PLAYERS, self.count + by))
        self._place()

    def _place(self) -> None:
        box = self.ids.players
        box.clear_widgets()
        for row in self.rows[: self.count]:
            box.add_widget(row)
        self.facts_text = facts_words(self.facts)
        self.check_names()

    def check_names(self) -> bool:
        """Each shown row's problem, said on that row (and gone once fixed); True if none."""
        self.error = ""
        problems = name_problems(self.names())
        for i, row in enumerate(self.rows):
            row.problem = problems[i] if i < len(problems) else ""
        return not any(problems)

    def pick_player(self, row) -> None:
        """A player seen before for this seat (:mod:`ui.widgets.players`); only the name, as
        Cauldron Quest has no seat colours."""
        pick_player(self.rows[: self.count], row, lambda _note: self.check_names())

    def toggle(self, name: str) -> None:
        """Tap the ingredients the table drew; a fourth tap replaces the first one tapped."""
        if name in self.chosen:
            self.chosen = [n for n in self.chosen if n != name]
        else:
            self.chosen = (list(self.chosen) + [name])[-NEEDED:]

    def draw_for_us(self) -> None:
        """A virtual draw (``random.SystemRandom``) for a table that wants the companion to
        choose: 3 of the 6 ingredients, to put face up in the cauldron."""
        self.chosen = DRAW.sample(list(INGREDIENTS), NEEDED)

    def names(self) -> list[str]:
        return [typed_name(row.ids.name) for row in self.rows[: self.count]]

    def setup(self) -> dict[str, Any]:
        setup: dict[str, Any] = {"game": "quest", "players": self.names(),
                                 "needed": list(self.chosen)}
        setup.update({k: v for k, v in self.facts.items() if v != DEFAULTS[k]})
        return setup

    def start(self) -> None:
        if not self.check_names():
            self._show_problem()
            return
        problem = start_game(self.setup(), self.rows[: self.count]) or ""
        seat = SEAT_PROBLEM.match(problem)
        if seat and 1 <= int(seat.group(1)) <= self.count:
            said = seat.group(2)
            self.rows[int(seat.group(1)) - 1].problem = said[0].upper() + said[1:]
            problem = ""
        self.error = problem
        self._show_problem()

    def _show_problem(self) -> None:
        """Scroll the player list to the first row with a problem (six rows may not fit),
        once the rows have their new heights."""
        Clock.schedule_once(self._scroll_to_problem)

    def _scroll_to_problem(self, *_args) -> None:
        row = next((r for r in self.rows[: self.count] if r.problem), None)
        listing, grid = self.ids.player_list, self.ids.players
        hidden = grid.height - listing.height
        if row is not None and hidden > 0:
            listing.scroll_y = max(0.0, min(1.0, 1 - (grid.top - row.top) / hidden))

    def open_facts(self) -> None:
        BoardFactsDialog(self).open()


class BoardFactsDialog(QuestDialog):
    """The board facts the rulebook leaves open; the defaults are the rules' own."""

    def __init__(self, screen: QuestSetupScreen, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.screen = screen
        self.title_fs, self.subtitle_fs = 26, 18   # a form before the table: its own sizes
        self.title = "Board facts (only if your box differs)"
        self.subtitle = ("Circle spaces from one path to the next, spaces on a path, where an "
                         "obstacle stands, the dice faces. Defaults: as most boxes print them.")
        self._build()

    def _build(self) -> None:
        u, facts = self.app.u, self.screen.facts
        body = self.ids.body
        body.clear_widgets()
        self.ids.buttons.clear_widgets()
        tall = self.app.portrait   # the steppers above the die, each the dialog's width
        grid = BoxLayout(spacing=u * 10, orientation="vertical" if tall else "horizontal")
        left = BoxLayout(orientation="vertical", spacing=u * 6, size_hint_x=1 if tall else 0.62)
        self.between = Stepper(label="Circle, per path", minimum=1, maximum=10,
                               value=facts["circle_spaces"] // 6, signed=False,
                               note=f"{facts['circle_spaces']} in all")
        self.path = Stepper(label="Path spaces", minimum=1, maximum=12, signed=False,
                            value=facts["path_spaces"])
        self.obstacle = Stepper(label="Obstacle on space", minimum=1, maximum=12,
                                signed=False, value=facts["obstacle_space"])
        self.hats = Stepper(label="Hats on die A", minimum=0, maximum=6, signed=False,
                            value=facts["die_a"].count("hat"))
        for s in (self.between, self.path, self.obstacle, self.hats):
            s.changed = self._changed
            left.add_widget(s)
        grid.add_widget(left)
        right = BoxLayout(orientation="vertical", spacing=u * 6, size_hint_x=1 if tall else 0.38)
        right.add_widget(Label(text="Die B faces (tap to change)", font_size=u * 18, bold=True,
                               color=theme.INK, size_hint_y=None, height=u * 30))
        faces = GridLayout(cols=3, spacing=u * 6, size_hint_y=None, height=u * 134)
        self.face_buttons = []
        for i, face in enumerate(facts["die_b"]):
            b = PictureButton(kind="die", face=face, picture=1, fill=theme.SURFACE_HI)
            b.index = i
            b.bind(on_release=self._cycle)
            self.face_buttons.append(b)
            faces.add_widget(b)
        right.add_widget(faces)
        right.add_widget(Label(text="Star = the spell symbol", font_size=u * 18,
                               color=theme.MUTED, size_hint_y=None, height=u * 24))
        right.add_widget(BoxLayout())
        grid.add_widget(right)
        body.add_widget(grid)
        reset = FlatButton(title="Defaults", fs=20)
        reset.bind(on_release=lambda *_: self.reset())
        done = FlatButton(title="Done", fs=22, fill=theme.GOOD, ink=theme.DARK_INK)
        done.bind(on_release=lambda *_: self.dismiss())
        self.add_buttons(reset, done)

    def _changed(self, _stepper) -> None:
        facts = self.screen.facts
        facts["circle_spaces"] = int(self.between.value) * 6
        self.between.note = f"{facts['circle_spaces']} in all"
        facts["path_spaces"] = int(self.path.value)
        facts["obstacle_space"] = int(self.obstacle.value)
        hats = int(self.hats.value)
        facts["die_a"] = ["bottle"] * (6 - hats) + ["hat"] * hats
        self.screen._place()

    def _cycle(self, button) -> None:
        faces = self.screen.facts["die_b"]
        faces[button.index] = B_FACES[(B_FACES.index(faces[button.index]) + 1) % len(B_FACES)]
        button.face = faces[button.index]
        self.screen._place()

    def reset(self) -> None:
        self.screen.facts = default_facts()
        self.screen._place()
        self._build()
