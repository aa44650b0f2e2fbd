"""One seat at the table: name and colour, counters, score, and this round's answer.

The table screen fills it from ``session.summary()``; the panel only shows. A tap on it opens
the manual correction for that seat (the table, not the app, has the last word). While the
companion has applied a free gain for the seat (a gatherer's drops, the Warlock's gold) and
no new role is announced, the panel has a **No thanks** button: the seat declines it
(``abstain``), and exactly that gain goes back."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty

from companion.core import palette
from companion.core.model import Command
from companion.games.witchs_brew.roles import amount
from ui import theme
from ui.widgets.common import SeatBox, text_needs
from ui.widgets.icons import Counter  # noqa: F401 (the kv rules use it)

#: a bold digit's width over its font size (Roboto's 0.57), and the least a counter's icon may
#: be beside it, over the same: a line of counts too narrow for four so shows three, larger
#: rather than cramped (Large text once drew 2-pixel icons between the digits)
DIGIT_EM, ICON_LEAST = 0.57, 0.45

#: Status kinds -> (fill, ink). The word is always shown as well.
STATUS_STYLE = {
    "awaited": (theme.ACCENT, theme.DARK_INK),
    "holder": (theme.rgba("#FFE08A"), theme.DARK_INK),
    "favor": (theme.GOOD, theme.DARK_INK),
    "lost": (theme.GREY_BTN, theme.INK),
    "passed": (theme.GREY_BTN, theme.INK),
    "done": (theme.CALM, theme.INK),
    "quiet": (theme.SURFACE_HI, theme.MUTED),
}


class SeatPanel(SeatBox):
    player = StringProperty("")
    colour = ColorProperty(theme.INK)
    colour_ink = ColorProperty(theme.DARK_INK)
    colour_name = StringProperty("")
    #: the seat's colour where it edges the panel: its own, or white for a near-black seat
    #: (a black seat's border would vanish on the dark table)
    edge = ColorProperty(theme.INK)
    red = NumericProperty(0)
    white = NumericProperty(0)
    green = NumericProperty(0)
    gold = NumericProperty(0)
    vials = NumericProperty(0)
    potions = NumericProperty(0)
    score = NumericProperty(0)
    cards_left = NumericProperty(0)
    status = StringProperty("")
    status_fill = ColorProperty(theme.SURFACE_HI)
    status_ink = ColorProperty(theme.MUTED)
    awaited = BooleanProperty(False)
    holder = BooleanProperty(False)
    compact = BooleanProperty(False)
    three = BooleanProperty(False)     # the second line of counts without the potions brewed
    name_w = NumericProperty(0)        # the name's width on one line at 30 units
    one_line = BooleanProperty(False)  # No thanks in a short tile: one line of counters
    tight = BooleanProperty(False)     # too short for the status line as well
    bare = BooleanProperty(False)      # too short for any line of counts
    small = BooleanProperty(False)   # the counters' lines at their smaller height
    roomy = BooleanProperty(False)   # a tall tile: the counters' lines larger still
    row_h = NumericProperty(0)       # a line of counters' height
    name_h = NumericProperty(0)      # the name's line
    status_h = NumericProperty(0)    # the status line (with the score, when compact)
    digit_fs = NumericProperty(28)   # the counters' digits, in units
    #: what the seat would give back by declining the gain applied for it ("" : nothing)
    declinable = StringProperty("")
    #: what it was given is drops (the first line of counters), not gold or vials
    given_drops = BooleanProperty(False)

    def show(self, seat: int, player: dict, colour_hex: str, colour_name: str,
             status: str, kind: str, awaited: bool, holder: bool,
             free_gain: dict | None = None) -> None:
        """Fill the panel from one player of the summary (and the gain it may decline)."""
        self.seat = seat
        self.player = player["name"]
        fu = App.get_running_app().fu
        self.name_w = text_needs(False, self.player, fu * theme.NAME_FS, "Roboto", True, None,
                                 "left")[0]
        self.colour = theme.rgba(colour_hex)
        self.colour_ink = theme.ink_on(colour_hex)
        self.edge = theme.edge(colour_hex)
        known = palette.find(colour_hex)         # the palette's name, as chosen at setup
        self.colour_name = known.name if known is not None else colour_name
        for counter in ("red", "white", "green", "gold", "vials", "score", "cards_left"):
            setattr(self, counter, player[counter])
        self.potions = len(player["potions"])
        self.status = status
        self.status_fill, self.status_ink = STATUS_STYLE[kind]
        self.awaited = awaited
        self.holder = holder
        self.declinable = "" if not free_gain else ", ".join(
            amount(n, c) for c, n in free_gain["changes"].items() if n)
        self.given_drops = bool(free_gain) and any(
            free_gain["changes"].get(d) for d in ("red", "white", "green"))

    def on_touch_down(self, touch):
        """A touch on No thanks declines the gain; anywhere else opens the correction."""
        button = self.ids.no_thanks
        if self.declinable and button.collide_point(*touch.pos) \
                and not App.get_running_app().refusal:
            return button.on_touch_down(touch)
        return super().on_touch_down(touch)

    def decline(self) -> None:
        App.get_running_app().send(Command("abstain", self.player))
