"""The magic dice panel: three dice (tap one to keep it or roll it again), the rolls left, the
exact chance that the announced spell still works with the best keep in plain words, touch
entry of the dice the team rolled, and a virtual roll.

The chance and its keep come from the summary (``spell.odds``, ``spell.keep``: the advice until
the team keeps dice, then the team's own choice, with ``spell.best`` beside it when better);
which dice are kept is read back from the dice the prompt still expects. Kept dice are sent as the
``keep`` command, dice as die inputs: the rules judge both.
"""

from __future__ import annotations

import random

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.core.model import Command, InputEvent
from ui import theme
from ui.games.quest.icons import PictureButton

MAGIC_DICE = ("magic1", "magic2", "magic3")
DICE = random.SystemRandom()


def _faces_words(faces: list[int]) -> str:
    """'the 2 and 4' (the dice by their faces), 'all three' when none stays."""
    return "the " + " and ".join(str(v) for v in faces) if faces else "none"


def advice_words(spell: dict) -> str:
    """'Keep the 2 and 4: 75% chance' from the summary's spell, one line (the dice tiles say
    which die is rolled); once the team kept dice, the chance of its own choice, and the best
    one's when that is better: 'Kept the 5: 28%, best 75%' (the tiles' tips say which)."""
    p = spell.get("odds", {}).get("percent", 0)
    if not spell.get("rolls_used"):
        return f"Roll all three: {p}% chance"
    dice = spell["dice"]

    def faces(keep: list[str]) -> list[int]:
        return [dice[MAGIC_DICE.index(d)] for d in keep]

    keep = faces(spell.get("keep", []))
    if not spell.get("chosen"):
        return (f"Keep {_faces_words(keep)}: {p}% chance" if keep
                else f"Roll all again: {p}% chance")
    mine = f"Kept {_faces_words(keep)}" if keep else "Rolling all"
    best = spell.get("best")
    if not best:
        return f"{mine}: {p}% chance"
    # which dice the best choice keeps is said once, on the dice tiles ("tip: keep it")
    return f"{mine}: {p}%, best {best['odds']['percent']}%"


class MagicPanel(BoxLayout):
    advice = StringProperty("")
    entry = StringProperty("")        # the die waiting for touch entry, '' when none
    can_stop = BooleanProperty(False)
    can_keep = BooleanProperty(False)

    def on_kv_post(self, _base):
        self.kept: list[str] = []
        self.dice_buttons = []
        for n, die in enumerate(MAGIC_DICE, start=1):
            b = PictureButton(kind="die", face=None, orientation="vertical", fit=True,
                              pad=2, fill=theme.SURFACE_HI)
            b.die, b.number = die, n
            b.bind(on_release=lambda btn: self.toggle_keep(btn.die))
            self.dice_buttons.append(b)
            self.ids.dice.add_widget(b)
        for face in range(1, 7):
            b = PictureButton(kind="die", face=face, picture=1, pad=2, fill=theme.SURFACE_HI)
            b.value = face
            b.bind(on_release=lambda btn: self.enter(btn.value))
            self.ids.faces.add_widget(b)

    def show(self, summary: dict, prompt: dict) -> None:
        spell = summary["spell"]
        reading = summary.get("reading", {})
        inputs = [d for d in prompt.get("inputs", []) if d in MAGIC_DICE]
        rolled = spell["rolls_used"] > 0
        self.kept = [d for d in MAGIC_DICE if rolled and d not in inputs and d not in reading]
        advised = (spell.get("best") or spell).get("keep", [])
        for i, b in enumerate(self.dice_buttons):
            d = b.die
            if d in reading:
                b.face, b.title, b.caption = reading[d], "new", "entered"
            elif not rolled:
                b.face, b.title, b.caption = None, f"Die {b.number}", ""
            else:
                b.face = spell["dice"][i]
                # a tip in the title's place where the team's choice differs from the best
                # (the tile's colour says kept): one line, so the die keeps its size
                differs = (d in advised) != (d in self.kept)
                b.title = (("tip: keep" if d in advised else "tip: roll") if differs
                           else "KEEP" if d in self.kept else "roll again")
                b.caption = ""
            if inputs and d == inputs[0] and (reading or not rolled):
                # the die the faces below are for while a roll is entered (the row has no
                # room for its name); between rolls the tile keeps its tip
                b.title = "next"
            b.selected = d in self.kept
            b.fill = theme.rgba("#5B4391") if d in self.kept else theme.SURFACE_HI
        self.can_keep = rolled
        self.can_stop = rolled
        self.advice = advice_words(spell)
        self.entry = inputs[0] if inputs else ""

    def toggle_keep(self, die: str) -> None:
        app = App.get_running_app()
        if not self.can_keep:
            app.refuse("Nothing to keep before the first magic roll: roll all three dice")
            return
        kept = [d for d in self.kept if d != die] if die in self.kept else [*self.kept, die]
        app.send(Command("keep", args={"dice": sorted(kept)}))

    def enter(self, face: int) -> None:
        if self.entry:
            App.get_running_app().handle(InputEvent("die", self.entry, face, source="touch"))

    def roll_for_us(self) -> None:
        """A virtual roll of every die not kept (``random.SystemRandom``), sent as die inputs."""
        app = App.get_running_app()
        for die in [d for d in app.prompt.get("inputs", []) if d in MAGIC_DICE]:
            app.handle(InputEvent("die", die, DICE.randint(1, 6), source="virtual"))

    def stop(self) -> None:
        App.get_running_app().send(Command("end_turn"))
