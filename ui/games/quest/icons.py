"""Small Cauldron Quest widgets: a picture (die face, ingredient, spell, hat ...) drawn with the
canvas, and a big button that shows a picture and a word. No rules here."""

from __future__ import annotations

from kivy.properties import (
    BooleanProperty, ColorProperty, NumericProperty, ObjectProperty, StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

from ui import theme
from ui.games.quest import draw
from ui.widgets.common import Box


class Picture(Widget):
    """One picture, as big as fits the widget. ``kind``: die, ingredient, spell, hat, bottle,
    token, cauldron, obstacle, none. ``face``: the die face, the ingredient or spell name, the
    bottle's number, the token's "used"."""

    kind = StringProperty("die")
    face = ObjectProperty(None, allownone=True)
    edge = ColorProperty((0, 0, 0, 0))
    scale = NumericProperty(0.92)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, kind=self.redraw, face=self.redraw,
                  edge=self.redraw, scale=self.redraw)
        self.redraw()

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        s = min(self.width, self.height) * self.scale
        if s <= 2 or self.kind == "none":
            return
        cx, cy = self.center
        edge = self.edge if self.edge[3] > 0 else None
        with self.canvas:
            if self.kind == "die":
                draw.die(cx, cy, s * 0.9, self.face, edge=edge)
            elif self.kind == "ingredient" and self.face in draw.DRAW:
                draw.ingredient(cx, cy, s, self.face)
            elif self.kind == "spell" and self.face in draw.SPELL_DICE:
                d = min(self.width / 3.5, self.height * 0.62) * self.scale
                for i, n in enumerate(draw.SPELL_DICE[self.face]):
                    draw.die(cx + (i - 1) * d * 1.12, cy, d, n)
            elif self.kind == "hat":
                draw.hat(cx, cy, s)
            elif self.kind == "bottle":
                draw.bottle(cx, cy, s, str(self.face or ""))
            elif self.kind == "token":
                draw.token(cx, cy, s, bool(self.face))
            elif self.kind == "cauldron":
                draw.cauldron(cx, cy, s)
            elif self.kind == "obstacle":
                draw.obstacle(cx, cy, s * 0.8)


class PictureButton(ButtonBehavior, Box):
    """A big button: a picture and a word (and a smaller second line)."""

    kind = StringProperty("die")
    face = ObjectProperty(None, allownone=True)
    title = StringProperty("")
    caption = StringProperty("")
    selected = BooleanProperty(False)
    fill = ColorProperty(theme.GREY_BTN)
    ink = ColorProperty(theme.INK)
    fs = NumericProperty(19)
    picture = NumericProperty(0.5)   # share of the button the picture takes
    value = ObjectProperty(None, allownone=True)


class IngredientTile(Box):
    """One needed ingredient in the cauldron strip: picture, name, and IN or NEEDED."""

    ingredient = StringProperty("")
    inside = BooleanProperty(False)
