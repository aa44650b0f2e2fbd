"""The Cauldron table: the season and phase with the prompt, whose turn it is, every seat's
Magik and holdings, and below them what the phase asks for: the potion cards and "begin" at
setup, the Omen, filling the board, dice, the turn's Actions, the Market.

Everything shown is read from ``app.summary`` and ``app.prompt``; every tap is a command or an
input the rules judge. The Magik track can be opened over the seats at any time."""

from __future__ import annotations

from itertools import combinations

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.core.text.markup import MarkupLabel as CoreMarkupLabel
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget
from kivy.utils import escape_markup, get_hex_from_color

from companion.core.model import Command
from companion.games.cauldron import data as d
from ui import theme
from ui.games.cauldron import entries, potion  # noqa: F401 (kv classes)
from ui.games.cauldron.ask import ask_now, new_parts
from ui.games.cauldron.common import ingredient_colours, ingredient_name, send, short, words_to_fit
from ui.games.cauldron.dice import CauldronDicePanel, CauldronFixDieDialog
from ui.games.cauldron.market import CauldronMarketPanel
from ui.games.cauldron.potion import earlier_catalogue
from ui.games.cauldron.seats import CauldronSeatRow, compact_height
from ui.games.cauldron.track import TAG_WORD, CauldronTrack
from ui.games.cauldron.turn import CauldronTurnPanel
from ui.widgets.common import Chip, FlatButton, Stepper, Txt, text_needs

PHASE_WORDS = {
    "milestones": "Before play", "setup": "Setup", "omen": "Omen", "fill": "Fill board",
    "turn_order": "Turn order", "turns": "Turns", "closing": "Closing",
    "market": "Purchases", "over": "Game over",
}
#: the height of what the phase asks for, under the seats (dice and the market take the whole
#: body: the faces and the offers are the large targets then)
#: (the phase's 120: its title and a row of buttons with a caption each)
LOWER = {"turn": 72, "dice": 0, "market": 0, "phase": 120, "track": 72}
#: the same on a portrait screen (480 units wide): the turn's actions and the track's tools in
#: two rows, the phase's panel taller for its narrower columns
PORTRAIT_LOWER = {"turn": 136, "dice": 0, "market": 0, "phase": 248, "track": 150}
#: how many of the phase panel's buttons share a row on a portrait screen
PORTRAIT_COLUMNS = {"setup": 3, "omen": 2, "fill": 2, "milestones": 2}
#: units the Market keeps above the seats' strip under it (the seats were once hidden at the
#: market): three rows of offers a finger tall, each its name and price on one line, and
#: beside them the discount and Pass; portrait: the names on two lines, and the discount and
#: Pass below them (market.kv). Where the body has less (Large text, a headline on two lines,
#: four or more seats in portrait), the strip goes for that time
MARKET_ROOM = 3 * 56 + 2 * 4
PORTRAIT_MARKET_ROOM = 3 * 76 + 2 * 4 + 8 + 30 + 56 + 56 + 6 * 2
#: units: the Field choice's heading, its line of types run out and three rows of buttons
#: with two-line names (beside the strip they were cut to their last line)
FIELD_ROOM = 30 + 6 + 30 + 6 + 3 * 72 + 2 * 6
DEFAULT_MILESTONES = {"magik_overflow": 12, "rituals_of_power": 20, "the_breaking": 28}


def where_text(summary: dict) -> str:
    """'Harvest Season 2  -  Turns' (also the home screen's resume card)."""
    season = "Market Season" if summary["season"] == "market" else "Harvest Season"
    return f"{season} {summary['season_number']}  -  {PHASE_WORDS.get(summary['phase'], '')}"


class CauldronPhasePanel(BoxLayout):
    """Setup (cards to enter, begin), the Omen, filling the board, milestone positions."""

    heading = StringProperty("")

    def words(self) -> str:
        """What the panel says (its title, its chips' and buttons' words): the detail under
        the headline leaves out a part these say already ("5 Spider Web" on a chip)."""
        texts = [self.heading] + [getattr(w, "title", "") or getattr(w, "text", "")
                                  for w in self.ids.body.walk()]
        return "\n".join(t for t in texts if isinstance(t, str))

    def show(self, summary: dict, prompt: dict) -> None:
        phase = prompt["phase"]
        box = self.ids.body
        box.clear_widgets()
        app = App.get_running_app()
        u = app.u
        if app.portrait:   # in rows of two or three; else one row
            box.cols, box.rows = PORTRAIT_COLUMNS.get(phase, 2), None
        else:
            box.rows, box.cols = 1, None
        if phase == "setup":
            # the panel's title says what the panel adds, never the headline again (said once)
            self.heading = "Tap a seat for its cards"
            for p in summary["players"]:
                owed = len(p["owed"])
                # the name alone (the seat's card above says its new cards): blue while it
                # has cards to enter, grey once they are in; the panel's title says why to tap
                b = FlatButton(title=p["name"], fs=theme.ACTION_FS,
                               fill=theme.CALM if owed else theme.GREY_BTN)
                b.bind(on_release=lambda _b, n=p["name"]: self.enter_cards(n))
                box.add_widget(b)
            # Begin may come before every dealt card is entered: its words say so before the
            # tap (and the log after it), never a silent start without the cards
            missing = sum(len(p["owed"]) for p in summary["players"])
            # (a caption shorter than the title: the button's words are read at their size)
            # (portrait: a third of the row, the title alone on its two lines)
            box.add_widget(self._go("Begin anyway" if missing else "Begin",
                                    f"{missing} missing" if missing and not app.portrait else "",
                                    lambda: send(Command("begin"))))
        elif phase == "omen":
            self.heading = "What it changes"
            box.add_widget(self._go("Enter the Omen", "",
                                    self.open_omen, width=None))
            b = FlatButton(title="Nothing to enter", caption="no change",
                           fs=theme.ACTION_FS, caption_fs=theme.DETAIL_FS)
            b.bind(on_release=lambda *_: send(Command("omen", args={"text": ""})))
            box.add_widget(b)
        elif phase == "fill":
            self.heading = "Put on the Fields"
            from companion.games.cauldron.decide_harvest import expected_board

            board = expected_board(App.get_running_app().session.state)
            kinds = [k for k in d.INGREDIENTS if board[k]]
            for kind in kinds:
                fill, ink = ingredient_colours(kind)
                # whole names while a few types share the row; more, the seat cards' words
                name = ingredient_name(kind) if len(kinds) <= 4 else short(kind)
                box.add_widget(Chip(text=f"{board[kind]} {name}", fill=fill, ink=ink,
                                    fs=theme.DETAIL_FS, shorten=False))
            box.add_widget(self._go("Board filled", "",
                                    lambda: send(Command("fill_board"))))
        elif phase == "milestones":
            # Large text: the headline says where they are printed; the steppers keep the room
            self.heading = "" if app.font_factor > 1 else "As printed on the board"
            self.steppers = {}
            for key, text in d.MILESTONE_TEXT.items():
                column = BoxLayout(orientation="vertical", spacing=u * 2)
                name = Txt(fs=theme.DETAIL_FS, bold=True, halign="center", size_hint_y=None,
                           height=max(u * 28, app.fu * 29))
                words_to_fit(name, text, TAG_WORD[key])    # "Rituals" where it must
                column.add_widget(name)
                s = Stepper(label="", value=DEFAULT_MILESTONES[key], minimum=d.MILESTONE_MIN,
                            maximum=d.MILESTONE_MAX, signed=False, height=u * 56)
                s.children[-1].size_hint_x = 0.01  # no label chip: the name is above
                self.steppers[key] = s
                column.add_widget(s)
                box.add_widget(column)
            box.add_widget(self._go("Set", "", self.set_milestones))

    def _go(self, title: str, caption: str, action, width: float | None = 210) -> FlatButton:
        app = App.get_running_app()
        u = app.u
        b = FlatButton(title=title, caption=caption, fs=theme.ACTION_FS,
                       caption_fs=theme.DETAIL_FS, fill=theme.GOOD, ink=theme.DARK_INK)
        if width and not app.portrait:   # portrait: a cell of the panel's rows
            b.size_hint_x, b.width = None, u * width
        b.bind(on_release=lambda *_: action())
        return b

    @staticmethod
    def enter_cards(name: str) -> None:
        from ui.games.cauldron.potion import CauldronPotionDialog

        CauldronPotionDialog.open_for(name)

    @staticmethod
    def open_omen() -> None:
        from ui.games.cauldron.entries import CauldronOmenDialog

        CauldronOmenDialog().open()

    def set_milestones(self) -> None:
        send(Command("set_milestones", args={"milestones": {
            k: int(s.value) for k, s in self.steppers.items()}}))


class CauldronScreen(Screen):
    #: drawn in regions that keep their own pictures (ui/widgets/still.py)
    in_regions = True
    where = StringProperty("")
    turn_name = StringProperty("")
    ask = StringProperty("")          # what the rulebook asks now, in large type
    turn_text = StringProperty("")
    notes = StringProperty("")
    detail = StringProperty("")       # under the headline: what it and the panel do not say
    turn_fill = ColorProperty(theme.CALM)
    turn_ink = ColorProperty(theme.INK)
    mode = StringProperty("")
    show_track = BooleanProperty(False)
    headline_only = BooleanProperty(False)   # the banner's headline only: the body needs the room
    owed = NumericProperty(0)
    lower_height = NumericProperty(120)
    where_px = NumericProperty(theme.DETAIL_FS)

    def on_kv_post(self, _base):
        self.track = CauldronTrack()
        self.seats = CauldronSeatRow(spacing=6)
        self.turn_panel = CauldronTurnPanel()
        self.dice = CauldronDicePanel()
        self.market = CauldronMarketPanel()
        self.phase_panel = CauldronPhasePanel()
        self.tools = CauldronTrackTools()
        self.nothing = Widget()           # under the market: it takes the whole body
        app = App.get_running_app()
        app.bind(u=self.refresh, portrait=self.refresh)   # the app refreshes it on every change of its game
        self.bind(show_track=self.refresh)
        self.turn_panel.bind(choice=self.refresh)
        self._refit_market = Clock.create_trigger(self._market_fits, 0)
        self.ids.upper.fbind("height", self._refit_market)
        self.market.fbind("choosing_field", self._refit_market)

    def on_pre_enter(self, *_):
        self.show_track = False
        earlier_catalogue(App.get_running_app(), fresh=True)  # read once, before any dialog
        self.refresh()

    def refresh(self, *_args) -> None:
        app = App.get_running_app()
        summary, prompt = app.summary, app.prompt
        if not summary or app.session is None or summary.get("game") != "cauldron":
            return
        self.fit_where()
        self.owed = sum(len(p["owed"]) for p in summary["players"])
        self._banner(app, summary, prompt)
        self._body(app, summary, prompt)
        self.fit_detail()

    def fit_where(self, *_args) -> None:
        """The season over the phase in the top row, at the detail size (the table's text size
        where it fits, else normal): "Harvest Season 2" over "Turns", or "Harvest 2" where the
        row is narrower (the cards owed, Large text). Never smaller: a chair reads it too."""
        app = App.get_running_app()
        if not app.summary or app.summary.get("game") != "cauldron":
            return
        label, summary = self.ids.where, app.summary
        season = "Market" if summary["season"] == "market" else "Harvest"
        phase = PHASE_WORDS.get(summary["phase"], "")
        n = summary["season_number"]
        texts = [f"{season} Season {n}\n{phase}", f"{season} {n}\n{phase}"]
        # Large text: at its size or not at all (the season's word alone, else nothing)
        sizes = (app.fu * theme.DETAIL_FS,) if app.font_factor > 1 else (app.u * theme.DETAIL_FS,)
        tries = [(t, s) for s in sizes for t in texts] + [
            (t, sizes[0]) for t in (f"{season} {n}", season, "")]   # the season
        for text, size in tries:
            need = text_needs(False, text, size, label.font_name, True, None, "left")
            if need[0] <= label.width + 1 and need[1] <= label.height + 1:
                break
        self.where, self.where_px = text, size

    def fit_detail(self, *_args) -> None:
        """The new parts of the rules' sentence, then the notes (an Omen), as many whole as
        the box under the headline holds: nothing is said twice, no line is cut in half (the
        log has every step whole)."""
        if not hasattr(self, "dice"):   # laid out before its panels are made
            return
        label = self.ids.detail
        said = "\n".join((self.where, self.ask, self.dice.heading if self.mode == "dice" else "",
                         self.phase_panel.words() if self.mode == "phase" else ""))
        parts = [escape_markup(p) for p in new_parts(self.turn_text, said)]
        notes = [escape_markup(n) for n in self.notes.split("\n") if n]
        colour = get_hex_from_color(theme.ACCENT)
        noted = "  ".join(f"[color={colour}]{n}[/color]" for n in notes)
        # the most parts that fit, in their order, with the notes if they fit too; else the notes
        tries = [list(c) + extra for k in range(len(parts), 0, -1)
                 for c in combinations(parts, k) for extra in ([noted], [])] + [[noted]]
        self.detail = next((text for text in ("; ".join(x for x in t if x) for t in tries)
                            if text and self._fits(text, label)), "")

    @staticmethod
    def _fits(text: str, label) -> bool:
        core = CoreMarkupLabel(text=text, font_size=label.font_size, text_size=(label.width, None))
        core.refresh()
        return core.texture is None or core.texture.size[1] <= label.height + 1

    def _banner(self, app, summary, prompt) -> None:
        seat, who = prompt["seat"], prompt["turn"]
        self.ask = ask_now(app.session.state, prompt)
        self.turn_text = prompt["text"]
        self.notes = "\n".join(prompt["notes"])
        if seat is None:
            self.turn_name = "Whole table"
            self.turn_fill, self.turn_ink = theme.SURFACE_HI, theme.INK
        else:
            hex_colour = app.session.state["players"][seat]["colour"]
            self.turn_name = who
            self.turn_fill, self.turn_ink = theme.rgba(hex_colour), theme.ink_on(hex_colour)

    def mode_for(self, prompt: dict) -> str:
        phase = prompt["phase"]
        if self.show_track:
            return "track"
        if "die" in prompt["inputs"]:
            return "dice"
        if phase in ("turns", "closing"):
            return "turn"
        return "market" if phase == "market" else "phase"

    def _body(self, app, summary, prompt) -> None:
        mode = self.mode = self.mode_for(prompt)
        if mode == "turn":   # first: a new turn or the closing closes the last one's choices
            self.turn_panel.show(summary, prompt)
        # portrait: the market's offers need the room its strip below does not say again
        # the Market: the buyer's Magik is on its card in the strip, else beside the offers
        # Large text: the turn's two rows of actions, the phase's panel, leave the seats no
        # room for a detail line
        self.headline_only = mode in ("track", "market") or (
            mode == "turn" and bool(self.turn_panel.choice)) or (
            mode in ("turn", "phase") and app.font_factor > 1)
        strip = self.market_strip(app) if mode == "market" else 0   # before the body changes
        # Large text: the turn's actions and the track's tools in two rows, as in portrait
        two_rows = app.portrait or (app.font_factor > 1 and mode in ("turn", "track"))
        self.lower_height = app.u * (PORTRAIT_LOWER if two_rows else LOWER)[mode]
        if mode == "phase" and not app.portrait and Window.height >= app.u * 560:
            # a larger window: the panel as tall as before, the seats' cards no empty band
            self.lower_height = app.u * 156
        lower = {"turn": self.turn_panel, "dice": self.nothing, "market": self.nothing,
                 "phase": self.phase_panel, "track": self.tools}[mode]
        if mode == "market":   # the seats in a strip under the offers, where it leaves them room
            lower = self.seats if strip else self.nothing
            self.seats.spacing = app.u * 6
            self.seats.show(summary, prompt, self.statuses(summary, prompt), self.open_seat,
                            compact=True)
        if mode in ("market", "dice"):
            upper = self.market if mode == "market" else self.dice
        elif mode == "track":
            upper = self.track
            self.track.legend = True
            self.track.show(summary, prompt["seat"])
        elif mode == "turn" and self.turn_panel.choice:
            upper = self.turn_panel.choices   # the chosen action's choices over the seats
        else:
            upper = self.seats
            self.seats.spacing = app.u * 6
            self.seats.show(summary, prompt, self.statuses(summary, prompt), self.open_seat,
                            counts_take_room=mode == "phase")
        if mode in ("market", "dice"):
            upper.show(summary, prompt)
        elif mode != "turn":
            lower.show(summary, prompt)
        for box, widget in ((self.ids.upper, upper), (self.ids.lower, lower)):
            if widget.parent is not box:
                if widget.parent is not None:
                    widget.parent.remove_widget(widget)
                box.clear_widgets()
                box.add_widget(widget)
        if mode == "market":
            self._place_strip(strip)

    def market_strip(self, app) -> float:
        """The height of the seats' strip under the Market's offers (compact cards: name,
        Magik, Potions and Spells; portrait: in the seat row's rows), or 0 where the body
        would leave the Market less than its room (MARKET_ROOM; the Field choice's nine
        buttons, FIELD_ROOM). A Spell to discard keeps it: the discount and Pass stay where
        they were."""
        n = len(app.summary["players"])
        cols = self.seats.columns(n, app.portrait, compact=True)
        rows = -(-n // cols)
        strip = rows * compact_height(app.u, app.fu) + (rows - 1) * app.u * 6
        body = self.ids.upper.height + self.ids.lower.height
        room = app.u * max(PORTRAIT_MARKET_ROOM if app.portrait else MARKET_ROOM,
                           FIELD_ROOM if self.market.choosing_field else 0)
        if app.portrait and self.market.choosing_field:   # names on two lines: all the room
            return 0
        return strip if body - strip >= room - 1 else 0

    def _market_fits(self, *_args) -> None:
        """The body's height changed (a message in the band above, a two-line headline, a
        new window size): the strip comes, goes or takes its new height with it."""
        app = App.get_running_app()
        if self.mode == "market" and app.summary:
            strip = self.market_strip(app)
            if abs(strip - self.lower_height) > 0.5:
                self._place_strip(strip)

    def _place_strip(self, strip: float) -> None:
        """The seats' strip under the Market at ``strip`` units high, or nothing (0); the
        offers stay the same widgets (a finger on one keeps it)."""
        self.lower_height = strip
        self.market.with_seats = bool(strip)
        widget = self.seats if strip else self.nothing
        if widget.parent is not self.ids.lower:
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
            self.ids.lower.clear_widgets()
            self.ids.lower.add_widget(widget)

    @staticmethod
    def statuses(summary: dict, prompt: dict) -> list[str]:
        seat = prompt["seat"]
        out = ["" for _ in summary["players"]]
        if seat is None:
            return out
        n = len(out)
        if prompt["phase"] == "market":
            out[seat] = "Buying now"
        else:
            action = summary["action"]
            done = {"gather": "Has gathered", "brew": "Has brewed"}.get(action, f"Has {action}")
            if action == "steal":      # in the state's own words: a failed steal took nothing
                success = (summary.get("steal") or {}).get("success")
                done = {None: "Stealing", True: "Has stolen", False: "Steal failed"}[success]
            out[seat] = done if action else "Acts now"
        nxt = (seat + 1) % n
        if nxt != seat and prompt["phase"] != "closing":
            out[nxt] = "Next"
        return out

    def open_seat(self, seat: int) -> None:
        from ui.games.cauldron.entries import CauldronSeatDialog

        CauldronSeatDialog(seat).open()

    def open_cards(self) -> None:
        from ui.games.cauldron.potion import CauldronPotionDialog

        CauldronPotionDialog.open_for()



class CauldronTrackTools(GridLayout):
    """Under the open track: who has the fewest and the most Magik (a roll-off when a card asks
    and seats are tied), fixing a misread die, and back to the table."""

    lsp = StringProperty("")
    hsp = StringProperty("")

    def show(self, summary: dict, prompt: dict) -> None:
        self.lsp, self.hsp = summary["lsp"] or "", summary["hsp"] or ""
        self.begun = prompt["phase"] not in ("milestones", "setup")

    @staticmethod
    def open_fix() -> None:
        CauldronFixDieDialog().open()

    @staticmethod
    def rolloff(kind: str) -> None:
        """Start the roll-off; the dice panel then takes over the table."""
        if send(Command("rolloff", args={"kind": kind})):
            App.get_running_app().screens.get_screen("cauldron").show_track = False
