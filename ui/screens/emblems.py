"""Each game's emblem for Home's new-game tiles, drawn with Kivy canvas shapes (no image files):
a brew vial for Witch's Brew, the pot for Cauldron, the wizard's hat for Cauldron Quest, each
on a light disc so it reads on the game's own colour (``theme.GAME_COLOURS``). The shapes are
Cauldron Quest's own drawings (``ui.games.quest.draw``), so the pictures speak one language."""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

from ui import theme
from ui.games.quest import draw
from ui.widgets.common import Box

DISC = theme.rgba("#F4EEDC")
VIAL = theme.rgba("#A66BE0")


def emblem(game: str, cx: float, cy: float, s: float) -> None:
    """The game's picture centred on (cx, cy) in a square of side ``s``, on the open canvas."""
    draw.disc(cx, cy, s * 0.5, DISC)
    if game == "witchs_brew":
        draw.bottle(cx, cy, s * 0.78, glass=VIAL)
    elif game == "cauldron":
        draw.cauldron(cx, cy, s * 0.74)
    elif game == "quest":
        draw.hat(cx, cy, s * 0.72)


class Emblem(Widget):
    """A game's emblem as big as fits the widget."""

    game = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        later = Clock.create_trigger(self.redraw)
        self.bind(pos=later, size=later, game=later)

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        s = min(self.width, self.height)
        if s > 2 and self.game:
            with self.canvas:
                emblem(self.game, self.center_x, self.center_y, s)


class GameTile(ButtonBehavior, Box):
    """Home's button for a new game: its emblem, title and (where there is room) its second
    line, on the game's own colour. ``compact``: emblem beside the title, no second line (an
    unfinished game to resume needs the room)."""

    game = StringProperty("")
    title = StringProperty("")
    caption = StringProperty("")
    compact = BooleanProperty(False)
    fill = ColorProperty(theme.GOOD)

    def on_game(self, *_args) -> None:
        self.fill = theme.rgba(theme.GAME_COLOURS.get(self.game, "#3BB58A"))

    def on_release(self) -> None:
        App.get_running_app().new_game(self.game)
