"""The Cauldron Quest action panels: what the team does now, one panel per phase.

Each panel is filled from the summary (and the screen's own picks) and sends what a tap means
through the app: dice as inputs (the same path as a dice reader), choices as commands. The
rules judge every one; a refusal is shown by the app and changes nothing.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from kivy.app import App
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.core.model import Command, InputEvent
from ui import theme
from ui.games.quest import draw
from ui.widgets.common import FlatButton, text_needs
from ui.games.quest.icons import PictureButton

DICE = random.SystemRandom()
FACE_WORDS = {"bottle": "Bottle", "hat": "Hat", "spell": "Spell"}
SPELLS = ("omniscience", "exchange", "great_sorcery")


def unique(faces: list[Any]) -> list[Any]:
    """A die's faces without repeats, in the order printed (numbers first, then symbols)."""
    seen: list[Any] = []
    for f in faces:
        if f not in seen:
            seen.append(f)
    return sorted(seen, key=lambda f: (isinstance(f, str), str(f) if isinstance(f, str) else f))


def face_word(face: Any) -> str:
    return FACE_WORDS.get(face, str(face)) if face is not None else "?"


class RollPanel(BoxLayout):
    """Touch entry of the two action dice (tap die A's face, then die B's), or a virtual
    roll. Each tap is a die input, exactly like the dice reader's."""

    recap = StringProperty("")
    faces_a = ListProperty([])
    faces_b = ListProperty([])

    def show(self, summary: dict, recap: str) -> None:
        self.recap = recap
        settings = summary["settings"]
        faces_a, faces_b = unique(settings["die_a"]), unique(settings["die_b"])
        if faces_a != self.faces_a or faces_b != self.faces_b:
            self.faces_a, self.faces_b = faces_a, faces_b
            for box, die, faces in ((self.ids.row_a, "action_a", faces_a),
                                    (self.ids.row_b, "action_b", faces_b)):
                box.clear_widgets()
                for face in faces:
                    # the face's word where it fits whole: the picture says it alone
                    b = PictureButton(kind="die", face=face, title=face_word(face), terse=True,
                                      orientation="vertical", picture=0.6, value=face, pad=2)
                    b.die = die
                    b.bind(on_release=lambda btn: self.enter(btn.die, btn.value))
                    box.add_widget(b)
        reading = summary.get("reading", {})
        for box, die in ((self.ids.row_a, "action_a"), (self.ids.row_b, "action_b")):
            for b in box.children:
                b.selected = die in reading and reading[die] == b.value

    def enter(self, die: str, face: Any) -> None:
        App.get_running_app().handle(InputEvent("die", die, face, source="touch"))

    def roll_for_us(self) -> None:
        """A virtual roll: every action die not entered yet gets a random face of its own six
        (``random.SystemRandom``), sent as that die's input."""
        app = App.get_running_app()
        settings = app.summary["settings"]
        for die in list(app.prompt.get("inputs", [])):
            if die in ("action_a", "action_b"):
                app.handle(InputEvent("die", die, DICE.choice(settings["die_" + die[-1]]),
                                      source="virtual"))


class InfoPanel(BoxLayout):
    """Big words saying what to tap, a smaller hint, and up to three buttons."""

    big = StringProperty("")
    hint = StringProperty("")
    kind = StringProperty("none")
    face = ObjectProperty(None, allownone=True)

    def show(self, big: str, hint: str,
             buttons: list[tuple[str, str, tuple, tuple, Callable[[], None]]] = (),
             kind: str = "none", face: Any = None) -> None:
        """``buttons``: (title, caption, fill, ink, action) each; ``kind``/``face``: a
        picture above the words."""
        self.big, self.hint, self.kind, self.face = big, hint, kind, face
        box = self.ids.buttons
        box.clear_widgets()
        for title, caption, fill, ink, action in buttons:
            b = FlatButton(title=title, caption=caption, fill=fill, ink=ink, fs=theme.ACTION_FS,
                           caption_fs=theme.DETAIL_FS)
            b.bind(on_release=lambda _b, act=action: act())
            box.add_widget(b)


class BlockPanel(BoxLayout):
    """Hat + spell: which path does the obstacle drawn show? Six path buttons."""

    blocked = ListProperty([])

    def on_kv_post(self, _base):
        for path in range(1, 7):
            b = FlatButton(title=f"Path {path}", fs=theme.ACTION_FS, fill=theme.rgba("#3A2F52"))
            b.path = path
            b.bind(on_release=lambda btn: self.block(btn.path))
            self.ids.paths.add_widget(b)

    def show(self, summary: dict) -> None:
        self.blocked = list(summary.get("obstacles", []))
        for b in self.ids.paths.children:
            is_blocked = b.path in self.blocked
            b.caption = "shut" if is_blocked else ""   # shorter than its title: read at 30
            b.disabled = is_blocked

    def block(self, path: int) -> None:
        App.get_running_app().send(Command("block_path", args={"path": path}))


class SpellButton(PictureButton):
    percent = StringProperty("")
    spell = StringProperty("")


class AnnouncePanel(BoxLayout):
    """Bottle + spell: announce the spell before the first roll, each with its exact odds."""

    def on_kv_post(self, _base):
        self.buttons = {}
        for spell in SPELLS:
            b = SpellButton(kind="spell", face=spell, spell=spell, picture=0.2,
                            fill=theme.rgba("#3A2F52"))
            b.bind(on_release=lambda btn: self.announce(btn.spell))
            self.buttons[spell] = b
            self.ids.spells.add_widget(b)

    def show(self, summary: dict) -> None:
        odds = summary.get("spell_odds") or {}
        for spell, b in self.buttons.items():
            # the spell and the dice it needs at a chair's size; what it does is said once
            # it worked (the big words), so no smaller second line here
            # (Large text: the name alone, its picture shows the dice it needs)
            b.title = (f"{draw.SPELL_WORDS[spell]}: {draw.BUTTON_GOALS[spell]}"
                       if App.get_running_app().font_factor <= 1 else draw.SPELL_WORDS[spell])
            b.percent = f"{odds[spell]['percent']}%" if spell in odds else ""

    def announce(self, spell: str) -> None:
        App.get_running_app().send(Command("announce_spell", args={"spell": spell}))


class IngredientPanel(BoxLayout):
    """The Spell of Omniscience worked: which ingredient is in the bottle turned over?"""

    bottle = NumericProperty(0)
    back = ObjectProperty(None, allownone=True)

    def on_kv_post(self, _base):
        for name, words in draw.INGREDIENT_WORDS.items():
            b = PictureButton(kind="ingredient", face=name, orientation="vertical", fit=True,
                              value=name, pad=2, fill=theme.SURFACE_HI)
            b.words = words
            b.bind(on_release=lambda btn: self.reveal(btn.value))
            self.ids.grid.add_widget(b)
        self.ids.grid.bind(size=self._name)
        App.get_running_app().bind(fu=self._name)

    def _name(self, *_args) -> None:
        """Every ingredient by its name where each name fits its button whole on one line at the
        table's text size; else all by their pictures alone (one name left out reads worse
        than none; a name on two lines leaves the picture no room)."""
        app = App.get_running_app()
        grid = self.ids.grid
        buttons = grid.children
        room = (grid.width - grid.spacing[0] * (grid.cols - 1)) / grid.cols - app.u * 6
        fits = room > 0 and all(
            text_needs(False, b.words, app.fu * theme.DETAIL_FS, "Roboto", True, None,
                       "left")[0] <= room for b in buttons)
        for b in buttons:
            b.title = b.words if fits else ""

    def show(self, bottle: int, summary: dict, back: Callable[[], None]) -> None:
        self.bottle, self.back = bottle, back
        shown = set(summary.get("revealed", {}).values())
        for b in self.ids.grid.children:
            b.disabled = b.value in shown
            b.caption = "needed" if b.value in summary.get("needed", []) else ""

    def reveal(self, name: str) -> None:
        App.get_running_app().send(Command("reveal", args={"bottle": self.bottle,
                                                           "ingredient": name}))
