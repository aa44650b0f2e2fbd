"""One Cauldron seat as the table sees it: name, colour and Magik, its zone, what it holds
(pool, Cellars, Spells, Potions, cards still to enter) and where it stands this turn. A tap opens
the seat's own entries (Instant Spells, Magik changes, discards, potion cards). Compact (while
dice or a phase take the room below): name, Magik and where it stands only."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import (
    BooleanProperty, ColorProperty, NumericProperty, StringProperty,
)
from kivy.uix.gridlayout import GridLayout

from ui import theme
from ui.games.cauldron.common import CHARACTER_NAMES, ZONE_WORDS, counts_markup, short
from ui.widgets.common import SeatBox


NARROW = 5   # seats from which a card is too narrow for the character beside the zone


class CauldronSeatCard(SeatBox):
    player = StringProperty("")
    magik = NumericProperty(0)
    colour = ColorProperty(theme.INK)
    colour_ink = ColorProperty(theme.DARK_INK)
    #: the seat's colour where it edges the card: its own, or white for a near-black seat
    #: (chosen at setup to match its pieces; a black edge would vanish on the dark table)
    edge = ColorProperty(theme.INK)
    status = StringProperty("")
    zone = StringProperty("")
    character = StringProperty("")
    pool = StringProperty("")
    cellars = StringProperty("")
    holds = StringProperty("")
    current = BooleanProperty(False)
    compact = BooleanProperty(False)

    def show(self, seat: int, player: dict, hex_colour: str, status: str, current: bool,
             compact: bool, narrow: bool = False) -> None:
        """``narrow`` (five or six seats): the zone without the character, no "No Cellar", Spells
        and Potions on two lines, so every card fits its height; the seat's dialog has it all."""
        self.seat, self.player, self.magik = seat, player["name"], player["magik"]
        self.colour, self.colour_ink = theme.rgba(hex_colour), theme.ink_on(hex_colour)
        self.edge = theme.edge(hex_colour)
        self.current, self.compact = current, compact
        self.character = "" if narrow else CHARACTER_NAMES.get(player["character"] or "", "")
        self.zone = ZONE_WORDS.get(player["zone"] or "", "")
        self.status = status
        self.pool = counts_markup(player["pool"]) or "[color=#A9B3BF]Pool empty[/color]"
        cells = [short(c) if c else "empty" for c in player["cellars"]]
        self.cellars = ("Cellar: " + ", ".join(cells)) if cells else ("" if narrow else "No Cellar")
        owed = len(player["owed"])
        potions = f"Potions {len(player['potions']) + owed}"
        if owed:
            potions += f" ({owed} new)"
        self.holds = f"Spells {player['spells']}" + ("\n" if narrow else "   ") + potions


class CauldronSeatRow(GridLayout):
    """A card per seat, left to right in seat order: one row, or on a portrait screen two or
    three to a row (seats.kv)."""

    def show(self, summary: dict, prompt: dict, statuses: list[str], opener,
             compact: bool = False) -> None:
        app = App.get_running_app()
        players = summary["players"]
        if len(self.children) != len(players):
            self.clear_widgets()
            for _ in players:
                self.add_widget(CauldronSeatCard(opener=opener))
        for seat, (card, player) in enumerate(zip(reversed(self.children), players)):
            card.show(seat, player, app.session.state["players"][seat]["colour"],
                      statuses[seat], prompt.get("seat") == seat, compact,
                      narrow=len(players) >= NARROW)

    def cards(self) -> list[CauldronSeatCard]:
        return list(reversed(self.children))
