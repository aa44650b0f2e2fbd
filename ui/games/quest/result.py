"""Cauldron Quest's end: a cooperative game, so the whole table wins or the wizard does.

The win is big and happy (the cauldron with the three ingredients, stars); the loss says
plainly that the wizard won and invites the team to try again. Both say how close it was (the
paths still open, the ingredients that made it into the cauldron) and how long the game took;
"Play again" sets up the same table, and "BG Stats" shows the play as a QR code. Read from the
summary and the store."""

from __future__ import annotations

import math

from kivy.app import App
from kivy.properties import ListProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.games.quest.state import NEEDED
from ui.text.played import hours_minutes, minutes_played
from ui.games.quest import draw

PATHS = 6


def together(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def paths_words(blocked: int) -> str:
    """How close the wizard came: the paths still open at the end."""
    still = PATHS - blocked
    if still == PATHS:
        return f"All {PATHS} paths were still open."
    if still == 0:
        return f"All {PATHS} paths are blocked."
    if still == 1:
        return f"Only 1 of the {PATHS} paths was still open!"
    return f"{still} of the {PATHS} paths were still open."


def cauldron_words(inside: list[str], needed: int = NEEDED) -> str:
    """The ingredients that made it, for a lost game ("The newt eye made it into the
    cauldron: 1 of 3")."""
    if not inside:
        return "No ingredient reached the cauldron."
    found = together([f"the {draw.INGREDIENT_WORDS[i].lower()}" for i in inside])
    return f"{found[0].upper()}{found[1:]} made it into the cauldron: {len(inside)} of {needed}."


def length_words(started: str | None, finished: str | None, turns: int) -> str:
    """The game's length from the store's ISO start and finish ("12 turns in 34 minutes")."""
    turned = f"{turns} turn{'s' if turns != 1 else ''}"
    minutes = minutes_played(started, finished) if finished else None
    if minutes is None:
        return f"{turned}."
    if minutes < 1:
        return f"{turned} in less than a minute."
    if minutes < 60:
        return f"{turned} in {minutes} minute{'s' if minutes != 1 else ''}."
    return f"{turned} in {hours_minutes(minutes)}."


class QuestScene(Widget):
    """The picture: the cauldron with the ingredients and stars, or the wizard's hat over six
    obstacles."""

    outcome = StringProperty("")
    ingredients = ListProperty([])

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, outcome=self.redraw,
                  ingredients=self.redraw)

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        s = min(self.width, self.height)
        if s < 20:
            return
        cx, cy = self.center
        with self.canvas:
            if self.outcome == "won":
                for i in range(10):
                    a = i * 2 * math.pi / 10 + 0.3
                    draw.star(cx + math.cos(a) * s * 0.42, cy + math.sin(a) * s * 0.44,
                              s * (0.04 + 0.02 * (i % 3)), draw.GOLD)
                draw.cauldron(cx, cy - s * 0.14, s * 0.56)
                n = len(self.ingredients)
                for i, name in enumerate(self.ingredients):
                    x = cx + (i - (n - 1) / 2) * s * 0.27
                    draw.ingredient(x, cy + s * 0.24, s * 0.24, name)
            elif self.outcome == "lost":
                for i in range(6):
                    x = cx + (i - 2.5) * s * 0.15
                    draw.obstacle(x, cy - s * 0.34, s * 0.12)
                draw.hat(cx, cy + s * 0.06, s * 0.62)


class QuestResultScreen(Screen):
    outcome = StringProperty("")
    headline = StringProperty("")
    subline = StringProperty("")
    paths = StringProperty("")
    length = StringProperty("")
    team = StringProperty("")

    def on_pre_enter(self, *_args):
        self.refresh()

    def refresh(self, *_args) -> None:
        app = App.get_running_app()
        summary = app.summary
        if app.session is None or not summary.get("over") or summary.get("game") != "quest":
            return
        names = [p["name"] for p in summary["players"]]
        self.outcome = summary["outcome"]
        scene = self.ids.scene
        scene.outcome, scene.ingredients = self.outcome, list(summary["in_cauldron"])
        if self.outcome == "won":
            self.headline = "WE WON TOGETHER!"
            found = together([draw.INGREDIENT_WORDS[i].lower() for i in summary["in_cauldron"]])
            found = found[0].upper() + found[1:]
            self.subline = f"The spell is broken! {found}: all in the cauldron."
            self.paths = paths_words(len(summary["obstacles"]))
            self.team = f"Great teamwork, {together(names)}!"
        else:
            self.headline = "The wizard wins this time"
            self.subline = paths_words(len(summary["obstacles"]))
            self.paths = cauldron_words(list(summary["in_cauldron"]))
            self.team = f"Try again together, {together(names)}!"
        started, finished = app.store.played(app.session.game_id)
        self.length = length_words(started, finished, summary["turn_no"])
