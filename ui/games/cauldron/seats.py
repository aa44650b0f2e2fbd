"""One Cauldron seat as the table sees it from a chair: name, colour and Magik, where it stands
this turn (or its character and zone), and its counters as big digits: Potions beside a drawn
vial (cards still to enter said as "new"), Spells beside a drawn star, and the pool as a chip
per ingredient in its colour with its word and count. A tap opens the seat's own entries
(Instant Spells, Magik changes, discards, potion cards), which name everything whole.

The sizes are font units (``app.fu``), so Large text really enlarges the card's words. What
does not fit the card then goes, least needed first (``CauldronSeatCard.fit``): the Cellar line,
then the chips beyond the last row (a "+N" chip says how many more), the words only where not
even two chips with words would fit (the chips keep colour and count). A card with height to
spare (a larger window) lists the seat's potion cards (name and Magik) and Spells (kind and
count) under the pool, and with room still left draws its counters' digits larger. Compact
(the Market's strip under the offers, which take the body): name, Magik and the counters
alone, no line of words, no chips (``compact_height``)."""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty, ColorProperty, ListProperty, NumericProperty, StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.games.cauldron import data as d
from ui import theme
from ui.games.cauldron.common import (
    CHARACTER_NAMES, ZONE_WORDS, hands_on_phones, ingredient_colours, short,
)
from ui.widgets.common import Box, SeatBox, text_needs
from ui.widgets.icons import Icon  # noqa: F401 (kv class)

NARROW = 5   # seats from which a card is too narrow for the character beside the zone
#: font units: the counters' digits, the chips' words, the card's rows
DIGIT_FS, WORD_FS, ROW_H, GAP = 28, theme.DETAIL_FS, 35, 3
#: font units: the listed cards' names and their lines; the counters' row, and larger
COUNTERS_H, ROOMY_H, NAME_FS, LINE_H, LINE_GAP = 36, 46, theme.DETAIL_FS, 34, 6
#: the counters' digits (Potions, Spells): counts read from a chair, capitals of 21 px
COUNT_FS = 30
#: units: a compact card's padding above and below (its rows have no gaps between them)
COMPACT_PAD = 4
SPELL_NAMES = {"basic": "Basic Spell", "advanced": "Advanced Spell"}
CHIP_PAD, CHIP_GAP = 7, 4    # a chip's padding either side, and between its word and count


class PoolChip(Box):
    """An ingredient of the pool: its colour, its short word (unless the card lacks the room)
    and its count in big digits."""

    word = StringProperty("")
    count = StringProperty("")
    ink = ColorProperty(theme.DARK_INK)


class CardLine(BoxLayout):
    """A line of the seat's cards: a drawn vial or star, the card's name (on two lines if it
    must) and its number in big digits (a potion's Magik, how many Spells of a kind)."""

    shape = StringProperty("vial")
    name = StringProperty("")
    count = StringProperty("")


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
    #: the line under the name: the character and the zone where one line holds both, else
    #: the character alone (the track says the zone; a second line took the counts' room)
    line_words = StringProperty("")
    cellars = StringProperty("")
    potions = NumericProperty(0)
    owed = NumericProperty(0)
    spells = NumericProperty(0)
    #: (kind, count) of every ingredient in the pool, in the box's order
    pool = ListProperty([])
    #: (shape, name, count) of every card the seat holds: its potions, then its Spells by kind
    cards = ListProperty([])
    #: fit() found room to spare after the cards; roomy: every card of the row did, so all of
    #: them draw their counters' digits larger (the same size across the table)
    spare = BooleanProperty(False)
    roomy = BooleanProperty(False)
    current = BooleanProperty(False)
    compact = BooleanProperty(False)
    narrow = BooleanProperty(False)
    #: too short for the name, a line of words and the counters (ui/games/cauldron/seats.kv)
    tight = BooleanProperty(False)
    #: tall enough for the counters under the name (the Omen's and the board's phase leave a
    #: card less: its line of words then, not an empty band)
    counters_room = BooleanProperty(True)
    #: the game uses Spells (not the Simple Game): the star and its count
    spells_used = BooleanProperty(True)
    #: what fit() left out: the Cellar line, the chips' words, how many chips
    show_cellars = BooleanProperty(True)
    #: fit() found no chips and no card it could list, and a line's room (``rest``) left:
    #: where every card of the row is so, the row gives the room to their counters
    #: (``counters_extra``, the same on each card: their digits stay level)
    empty = BooleanProperty(False)
    rest = NumericProperty(0)
    counters_extra = NumericProperty(0)

    def __init__(self, **kwargs):
        self._fit_soon = Clock.create_trigger(self.fit, 0)
        super().__init__(**kwargs)
        for name in ("size", "pool", "cards", "compact", "cellars", "status", "character", "zone",
                     "tight"):
            self.fbind(name, self._fit_soon)
        App.get_running_app().fbind("fu", self._fit_soon)

    def on_kv_post(self, _base):
        # the status line takes its height from its words a frame later
        self.ids.status.fbind("height", self._fit_soon)

    def show(self, seat: int, player: dict, hex_colour: str, status: str, current: bool,
             compact: bool, narrow: bool = False, spells_used: bool = True) -> None:
        """``narrow`` (five or six seats): the zone without the character, so the card's
        status line stays one line; the seat's dialog has it all."""
        self.seat, self.player, self.magik = seat, player["name"], player["magik"]
        self.colour, self.colour_ink = theme.rgba(hex_colour), theme.ink_on(hex_colour)
        self.edge = theme.edge(hex_colour)
        self.current, self.compact, self.narrow = current, compact, narrow
        self.spells_used = spells_used
        self.character = "" if narrow else CHARACTER_NAMES.get(player["character"] or "", "")
        self.zone = ZONE_WORDS.get(player["zone"] or "", "")
        # narrow: "Gathered" rather than "Has gathered", on one line, leaving the pool room
        self.status = status.removeprefix("Has ").capitalize() if narrow else status
        if narrow and self.status == "Stolen":
            self.status = "Stole"
        self.pool = [(k, player["pool"][k]) for k in d.INGREDIENTS if player["pool"].get(k)]
        cells = [short(c) if c else "empty" for c in player["cellars"]]
        self.cellars = ("Cellar: " + ", ".join(cells)) if cells else ""
        self.owed = len(player["owed"])
        self.potions = len(player["potions"]) + self.owed
        self.spells = player["spells"]
        # Hands on phones: the potion cards are on the seat's phone, the Pi says
        # only how many (the vial's digit)
        hidden = hands_on_phones()
        vials = [] if hidden else [("vial", p["name"], f"+{p['yield']}")
                                   for p in player["potions"]]
        self.cards = vials + [("star", SPELL_NAMES[k], str(n))
                              for k, n in player["spell_hand"].items() if n]

    # -- fitting the card ---------------------------------------------------------------------
    def fit(self, *_args) -> None:
        """Lay the pool's chips in rows the card's width holds, leaving out what its height does
        not: the Cellar line, then the chips beyond the last row (their words kept while two
        chips with words fit, else the counts alone). The height left lists the cards, and
        what is left after all of them makes the counters' digits larger."""
        box, listed = self.ids.get("pool_rows"), self.ids.get("card_rows")
        if box is None or listed is None:
            return
        box.clear_widgets()
        listed.clear_widgets()
        fu = App.get_running_app().fu
        if self.compact or self.width <= 0:
            box.height = 0
            self.spare = self.empty = False
            return
        width = self.width - 2 * self.padding[0]
        both = "  -  ".join(t for t in (self.character, self.zone) if t)
        fits = text_needs(False, both, fu * theme.DETAIL_FS, "Roboto", False, None,
                          "left")[0] <= width + 1
        self.line_words = both if fits or not self.character else self.character
        self.counters_room = self.height >= 2 * self.padding[1] + 3 * self.spacing \
            + fu * (40 + COUNTERS_H)
        self.tight = self.height < self._whole_height(width, fu)
        fixed = sum(c.height for c in self.children if c.size_hint_y is None
                    and c not in (box, self.ids.cellar, self.ids.counters))
        room = self.height - 2 * self.padding[1] - fixed - COUNTERS_H * fu \
            - self.spacing * (len(self.children) - 1)
        cellar_h = text_needs(False, self.cellars, fu * WORD_FS, "Roboto", False, width,
                              "left")[1] if self.cellars else 0
        keep = max(0, int((room + GAP * fu) // ((ROW_H + GAP) * fu)))   # rows the room holds
        for show_cellars, words in ((True, True), (False, True)):
            rows = self._rows(width, fu, words)
            if self._height(rows, fu) + (cellar_h if show_cellars else 0) <= room + 1:
                break
        else:   # fewer chips with their words, a "+N" for the rest; else counts without words
            rows = self._cut(rows, keep, width, fu)
            if sum(1 for row in rows for chip in row if chip.word) < 2:
                rows = self._rows(width, fu, False)
                rows = self._cut(rows, keep, width, fu)
        self.show_cellars = show_cellars
        for row in rows:
            line = BoxLayout(size_hint_y=None, height=fu * ROW_H, spacing=fu * GAP)
            for chip in row:
                line.add_widget(chip)
            box.add_widget(line)
        box.height = self._height(rows, fu)
        left = room - box.height - (cellar_h if show_cellars else 0)   # the last child's
        lines = self._card_lines(left, width, fu)
        for line in lines:
            listed.add_widget(line)
        listed.add_widget(Widget())   # the lines at the top, under the pool
        rest = left - sum(line.height for line in lines)
        # no chips and a line's room but not two (a larger window's Omen or board phase): the
        # room goes to the counters, drawn larger in its middle, not an empty band
        self.rest = rest
        self.empty = not lines and not rows and rest >= LINE_H * fu
        self.spare = len(lines) == len(self.cards) and rest >= (ROOMY_H - COUNTERS_H) * fu

    def _whole_height(self, width: float, fu: float) -> float:
        """The height the name, the line of words (the status, else the character and zone,
        as many lines as they wrap to) and the counters need: under it the card is tight."""
        words = self.status or self.line_words
        size = fu * theme.DETAIL_FS
        line = text_needs(False, words, size, "Roboto", bool(self.status), width, "left")[1] \
            if words else 0
        counters = fu * COUNTERS_H if self.counters_room else 0
        return 2 * self.padding[1] + 3 * self.spacing + fu * 40 + counters + line

    def _card_lines(self, room: float, width: float, fu: float) -> list[CardLine]:
        """The seat's cards as lines, as many as ``room`` holds: all, else the potions alone
        (the star's count says the Spells), else the first potions and "N more" (the seat's
        dialog, a tap away, lists them all); none where not even two lines fit."""
        made = [card_line(shape, name, count, width, fu) for shape, name, count in self.cards]
        potions = [line for line in made if line.shape == "vial"]

        def need(lines):
            return sum(line.height for line in lines)   # no gap: a line's height spaces it

        for lines in (made, potions):
            if lines and need(lines) <= room + 1:
                return lines
        kept: list[CardLine] = []
        for line in potions:
            if need(kept + [line, more_line(len(potions) - len(kept) - 1, width, fu)]) \
                    > room + 1:
                break
            kept.append(line)
        return kept + [more_line(len(potions) - len(kept), width, fu)] if kept else []

    @staticmethod
    def _height(rows: list, fu: float) -> float:
        return len(rows) * ROW_H * fu + max(0, len(rows) - 1) * GAP * fu

    def _rows(self, width: float, fu: float, words: bool) -> list[list[PoolChip]]:
        rows: list[list[PoolChip]] = [[]]
        used = 0.0
        for kind, count in self.pool:
            chip = chip_for(kind, str(count), fu, words)
            if rows[-1] and used + GAP * fu + chip.width > width:
                rows.append([])
                used = 0.0
            used += (GAP * fu if rows[-1] else 0) + chip.width
            rows[-1].append(chip)
        return [r for r in rows if r]

    def _cut(self, rows: list, keep: int, width: float, fu: float) -> list:
        """The first ``keep`` rows, the last of them ending in "+N" for the chips left out."""
        if keep >= len(rows):
            return rows
        if keep == 0:
            return []
        kept = rows[:keep]
        left = sum(len(r) for r in rows[keep:])
        more = chip_for("", f"+{left}", fu, False)
        while kept[-1] and sum(c.width for c in kept[-1]) + GAP * fu * len(kept[-1]) \
                + more.width > width:
            kept[-1].pop()
            left += 1
            more = chip_for("", f"+{left}", fu, False)
        kept[-1].append(more)
        return kept


def compact_height(u: float, fu: float) -> float:
    """A compact card's height: its name's box (40 font units, seats.kv) and the counters' row
    under it, between its padding."""
    return 2 * COMPACT_PAD * u + fu * (40 + COUNTERS_H)


def chip_for(kind: str, count: str, fu: float, words: bool) -> PoolChip:
    """A chip as wide as its word and digits need (``kind`` '': the "+N" of chips left out)."""
    fill, ink = ingredient_colours(kind) if kind else (theme.SURFACE_HI, theme.INK)
    word = short(kind) if kind and words else ""
    need = text_needs(False, count, fu * DIGIT_FS, "Roboto", True, None, "left")[0]
    if word:
        need += text_needs(False, word, fu * WORD_FS, "Roboto", True, None, "left")[0]
    return PoolChip(word=word, count=count, bg=fill, ink=ink, size_hint_x=None,
                    width=need + fu * (2 * CHIP_PAD + CHIP_GAP + 2))


def card_line(shape: str, name: str, count: str, width: float, fu: float) -> CardLine:
    """A line as tall as its name needs at the card's width (two lines for a long one)."""
    digits = text_needs(False, count, fu * DIGIT_FS, "Roboto", True, None, "left")[0]
    name_w = max(fu * 40, width - fu * (NAME_FS + 2 * LINE_GAP) - digits)
    tall = text_needs(False, name, fu * NAME_FS, "Roboto", False, name_w, "left")[1]
    return CardLine(shape=shape, name=name, count=count, size_hint_y=None,
                    height=max(fu * LINE_H, tall))


def more_line(left: int, width: float, fu: float) -> CardLine:
    """The line after the potions a card has room for: how many more, and where they are."""
    return card_line("vial", f"{left} more: tap the card", "", width, fu)


class CauldronSeatRow(GridLayout):
    """A card per seat, left to right in seat order: one row, or on a portrait screen two or
    three to a row (seats.kv)."""

    #: its cards are compact (the Market's strip)
    compact = BooleanProperty(False)
    #: cards with nothing to list give their room to the counters (the Omen's and the board's
    #: phase, where the pools do not change: not the turns', whose digits would shrink again
    #: at the first gather)
    counts_take_room = BooleanProperty(False)

    def show(self, summary: dict, prompt: dict, statuses: list[str], opener,
             compact: bool = False, counts_take_room: bool = False) -> None:
        app = App.get_running_app()
        players = summary["players"]
        self.compact, self.counts_take_room = compact, counts_take_room
        if len(self.children) != len(players):
            self.clear_widgets()
            for _ in players:
                card = CauldronSeatCard(opener=opener)
                for name in ("spare", "empty", "rest"):
                    card.fbind(name, self._even)
                self.add_widget(card)
        for seat, (card, player) in enumerate(zip(reversed(self.children), players)):
            card.show(seat, player, app.session.state["players"][seat]["colour"],
                      statuses[seat], prompt.get("seat") == seat, compact,
                      narrow=len(players) >= NARROW,
                      spells_used=d.SIMPLE not in summary["variants"])

    @staticmethod
    def columns(n: int, portrait: bool, compact: bool = False) -> int:
        """How many of ``n`` cards share a row (seats.kv's ``cols``): portrait, two or three
        to a row, three compact ones in one (the Market's strip, a row's height under it)."""
        if portrait and not (compact and n <= 3):
            return 2 if n <= 4 else 3
        return max(1, n)

    def on_counts_take_room(self, *_args) -> None:
        self._even()

    def _even(self, *_args) -> None:
        """Larger digits where every card has room to spare; where every card has nothing
        to list (and ``counts_take_room``), their counters' row takes the room the least of
        them has left (a larger window's Omen or board phase had an empty band under the
        counts)."""
        cards = self.children
        empty = self.counts_take_room and bool(cards) and all(card.empty for card in cards)
        roomy = empty or all(card.spare for card in cards)
        extra = min(card.rest for card in cards) - (ROOMY_H - COUNTERS_H) \
            * App.get_running_app().fu if empty else 0
        for card in cards:
            card.roomy, card.counters_extra = roomy, max(0.0, extra)

    def cards(self) -> list[CauldronSeatCard]:
        return list(reversed(self.children))
