"""Small Cauldron Quest widgets: a picture (die face, ingredient, spell, hat ...) drawn with the
canvas, and a big button that shows a picture and a word. No rules here."""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.properties import (
    BooleanProperty, ColorProperty, NumericProperty, ObjectProperty, StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

from ui import theme
from ui.games.quest import draw
from ui.widgets.common import Box, text_needs


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
        # drawn once per frame, after the layout has settled (a picture whose width and kind
        # change together was otherwise drawn where its box had been)
        later = Clock.create_trigger(self.redraw)
        self.bind(pos=later, size=later, kind=later, face=later, edge=later, scale=later)
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
    """A big button: a picture and a word (and a second line), at the table's text size
    (``app.fu``). ``terse``: the picture says what the word does (a die's face), so the word
    is left out where it does not fit whole, never drawn smaller."""

    kind = StringProperty("die")
    face = ObjectProperty(None, allownone=True)
    title = StringProperty("")
    caption = StringProperty("")
    selected = BooleanProperty(False)
    fill = ColorProperty(theme.GREY_BTN)
    ink = ColorProperty(theme.INK)
    fs = NumericProperty(theme.DETAIL_FS)
    picture = NumericProperty(0.5)   # share of the button the picture takes
    value = ObjectProperty(None, allownone=True)
    pad = NumericProperty(6)         # units left and right of the picture and words
    caption_fs = NumericProperty(0)  # the second line's size in units; 0: four fifths of fs
    fit = BooleanProperty(False)     # (vertical) the picture as big as the words below allow
    terse = BooleanProperty(False)
    shown_title = StringProperty("")  # the title, or '' where a terse one does not fit

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(height=self._fit, caption=self._fit, fit=self._fit, fs=self._fit, title=self._fit)
        self.bind(size=self._terse, title=self._terse, caption=self._terse, terse=self._terse, fs=self._terse,
                  orientation=self._terse, picture=self._terse)
        App.get_running_app().bind(fu=self._terse)
        self._terse()
        self._fit()
        self.bind(shown_title=self._fit)

    def _terse(self, *_args) -> None:
        app = App.get_running_app()
        room, tall = self.width - 2 * self.pad * app.u, self.height - 12 * app.u
        if self.orientation == "horizontal":
            room *= 1 - self.picture
        else:
            tall *= 1 - self.picture
        wide, high = text_needs(False, self.title, app.fu * self.fs, "Roboto", True, None,
                                "left") if self.title else (0, 0)
        cut = wide > room or (not self.caption and high > tall)
        shown = "" if self.terse and self.width > 1 and cut else self.title
        if shown != self.shown_title:
            self.shown_title = shown
            if not (shown or self.caption) and self.children:
                # the words' box keeps the size its share last gave it (kv's 0 is set once)
                self.children[0].size = (0, 0)

    def _fit(self, *_args) -> None:
        """The picture's share from the height left once the title (and caption) fit."""
        if not self.fit or self.orientation != "vertical" or self.height <= 1:
            return
        app = App.get_running_app()
        second = self.caption_fs or max(theme.DETAIL_FS, self.fs * 0.8)
        lines = self.title.count("\n") + 1 if self.shown_title else 0
        words = app.fu * (self.fs * 1.25 * lines + (second * 1.25 if self.caption else 0)) + app.u * 10
        self.picture = max(0.2, min(0.62, 1 - words / self.height))


class IngredientTile(Box):
    """One needed ingredient in the cauldron strip: picture, name, and IN or NEEDED."""

    ingredient = StringProperty("")
    inside = BooleanProperty(False)

    @staticmethod
    def words(room: float, height: float, u: float, ingredient: str, inside: bool) -> str:
        """The name at 24 units, on one line or a word a line as the tile's ``room`` beside
        its picture and its ``height`` (pixels) allow for every ingredient's name (the three
        tiles named alike, or all pictures alone: a shortened name reads worse); '' once it is
        IN (the picture says which)."""
        name = draw.INGREDIENT_WORDS.get(ingredient, "")
        if inside or not name:
            return ""
        measure = CoreLabel(font_size=u * 24, bold=True)
        room -= u * 10   # the tile's padding and the gap beside the picture
        names = draw.INGREDIENT_WORDS.values()
        if max(measure.get_extents(n)[0] for n in names) <= room:
            return name
        widest = max(measure.get_extents(w)[0] for n in names for w in n.split())
        lines = max(len(n.split()) for n in names)
        if widest <= room and height >= u * 30 * lines:
            return "\n".join(name.split())
        return ""
