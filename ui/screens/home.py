"""Home: start a game, pick up an unfinished one, look back at finished ones.

An unfinished game is offered first and plainly (players, set and round, when it was last
played), because after a power cut that is what the table wants.

Nothing here grows with the games ever played: each game's line (where it stands, its players,
results and step count) is one row the store keeps with every step, so no game's log is read or
folded to show it. The finished games are a RecycleView (a widget per row on screen, not per
game) filled a page at a time as the list is scrolled to its end. A game whose log does not
fold is found when it is resumed (its line then says so, and its card shows what repair would
keep); finding it sooner would mean folding every unfinished game at each visit."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from ui import theme
from ui.games import GAMES
from ui.screens.emblems import GameTile
from ui.screens.paging import add_in_place, at_the_end
from ui.text.markup import plain
from ui.text.played import game_when, when
from ui.widgets.common import Box, FlatButton, Txt, text_needs

MAX_RESUME = 3
#: Finished games read at a time; the next page when the list is scrolled to its end.
PAGE = 20
#: A finished game's row: its first line's font and height, its scores' font, the gap below.
HEAD_FS, SCORES_FS, ROW_GAP = 18, 18, 6
#: The winners' colour in a row's markup (theme.ACCENT).
ACCENT_HEX = "#FFC24B"


#: A space a line never breaks at: a name stays beside its score, "1 h 05 min" stays whole.
KEEP = "\u00a0"


def team_markup(names: list[str], won: bool) -> str:
    """A co-operative game's result line: the team, and whether it won (no points to show)."""
    team = ", ".join(plain(name) for name in names)
    return (f"[b][color={ACCENT_HEX}]{team}: won together[/color][/b]" if won
            else f"{team}: lost together")


def scores_markup(game: str, seats) -> str:
    """A finished game's scores, for Home's rows and History's: ``seats`` are (name, score,
    winner, seat); the winner(s) first in the accent colour, then by score; a co-operative
    game's team says whether it won."""
    if game in GAMES and GAMES[game].cooperative:
        return team_markup([name for name, *_ in seats], any(won for _, _, won, _ in seats))
    ranked = sorted(seats, key=lambda s: (not s[2], -(s[1] or 0), s[3]))
    return "   ".join(
        (f"[b][color={ACCENT_HEX}]{plain(name)}{KEEP}{score}{KEEP}(won)[/color][/b]"
         if won else f"{plain(name)}{KEEP}{score}") for name, score, won, _ in ranked)


def wrapped(text: str, fs: float, ink=theme.INK, bold: bool = False) -> Label:
    """A label as tall as its words at the card's width: a long "where" or a long list of
    names wraps onto a second line instead of being cut with '...'."""
    u = App.get_running_app().u
    label = Label(text=text, font_size=u * fs, bold=bold, color=ink, halign="left",
                  valign="top", size_hint_y=None)
    label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
               texture_size=lambda w, size: setattr(w, "height", size[1]))
    return label


def card_box(border, border_w: float) -> Box:
    """A resume card that grows with what it holds."""
    u = App.get_running_app().u
    card = Box(orientation="vertical", size_hint_y=None, padding=u * 8, spacing=u * 4,
               bg=theme.SURFACE, border=border, border_w=border_w)
    card.bind(minimum_height=card.setter("height"))
    return card


class HomeScreen(Screen):
    resuming = BooleanProperty(False)   # an unfinished game waits: its cards come first
    finished = BooleanProperty(False)   # finished games to list beside (else no empty pane)

    def __init__(self, **kwargs) -> None:
        self._finished: list = []   # the finished games read so far, newest first
        self._more = False          # another page may follow them
        self._width: float | None = None
        self._titles: dict[str, str] = {}
        self._cards: tuple | None = None   # what the resume cards show: unit, lines, "when"s
        self._rows: tuple | None = None    # the unit and "when"s the finished games' rows show
        super().__init__(**kwargs)

    def on_kv_post(self, _base):
        App.get_running_app().bind(u=lambda *_: self.refresh())

    def on_pre_enter(self, *_):
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        if app.store is None:
            return
        titles = {name: game.title for name, game in GAMES.items()}
        self._titles = titles
        if not self.ids.new_games.children:   # the same buttons every time: built once
            self._new_game_buttons(app)
        unfinished = app.store.unfinished(MAX_RESUME)
        # Cards and rows whose lines read the same are kept as they are: rebuilding them
        # re-renders every label's texture, most of a trip back home.
        cards = (app.u, [(info, when(info.updated_at)) for info in unfinished])
        if cards != self._cards:
            self._cards = cards
            self.ids.resume.clear_widgets()
            for info in unfinished:
                self.ids.resume.add_widget(self._resume_card(app, info, titles))
        else:
            for card in self.ids.resume.children:   # a first tap on Abandon is forgotten
                self._reset(card)
        self.ids.resume_title.opacity = 1 if unfinished else 0
        self.resuming = bool(unfinished)
        page = app.store.history(PAGE)
        rows = (app.u, [game_when(info) for info in page])
        if page != self._finished or rows != self._rows \
                or (page and self.ids.history.width != self._width):
            self._finished, self._more, self._width = [], True, None
            self.ids.history.data = []
            self.load_more(page)
        self._rows = rows
        self.ids.history_empty.text = ("" if self._finished or unfinished
                                       else "No finished games yet.")
        self.finished = bool(self._finished)
        self.ids.history.scroll_y = 1

    # -- finished games: a page at a time ----------------------------------------------------
    def load_more(self, page: list | None = None) -> None:
        """The next page of finished games (``page`` when it has been read already) onto the
        end of the list; where the list is scrolled stays where it was."""
        app = App.get_running_app()
        if not self._more or app.store is None:
            return
        if page is None:
            page = app.store.history(PAGE, len(self._finished))
        self._more = len(page) == PAGE
        if not page:
            return
        rv = self.ids.history
        self._finished += page
        add_in_place(rv, lambda: self._fill(rv.width), gap=app.u * 4)

    def history_scrolled(self, rv) -> None:
        """The list scrolled to its end: the next page, if there is one."""
        if self._more and at_the_end(rv):
            self.load_more()

    def history_resized(self, rv) -> None:
        if self._finished and rv.width != self._width:
            self._fill(rv.width)

    def _fill(self, width: float) -> None:
        """The rows of the games read so far, each as tall as its lines at ``width``."""
        self._width = width
        self.ids.history.data = [self._history_row(info, self._titles, width)
                                 for info in self._finished]

    def _new_game_buttons(self, app) -> None:
        """One tile per game the app can play, in its own colour with its emblem; they share
        the column's top, compact while an unfinished game waits."""
        box = self.ids.new_games
        box.clear_widgets()
        for game in GAMES.values():
            tile = GameTile(game=game.name, title=game.title, caption=game.caption,
                            compact=self.resuming)
            self.bind(resuming=tile.setter("compact"))
            box.add_widget(tile)

    def _resume_card(self, app, info, titles) -> Box:
        u = app.u
        title = titles.get(info.game, info.game)
        if info.damaged:   # a log that did not fold when resumed: shown, never a crash
            return self._damaged_card(app, info, title, info.damaged)
        where = f"{info.steps} step{'' if info.steps == 1 else 's'}"
        if info.game in GAMES and info.summary is not None:
            where = GAMES[info.game].where(info.summary)
        card = card_box(theme.ACCENT, 2)
        card.orientation = "horizontal"   # the buttons beside the words: two cards fit
        words = BoxLayout(orientation="vertical", size_hint_y=None, spacing=u * 4,
                          pos_hint={"top": 1})
        words.bind(minimum_height=words.setter("height"))
        words.add_widget(wrapped(f"{title}  -  {where}", 20, theme.ACCENT, bold=True))
        words.add_widget(wrapped(", ".join(info.players), 22, bold=True))
        words.add_widget(wrapped(f"Last played\n{when(info.updated_at)}", 16, theme.MUTED))
        buttons = BoxLayout(orientation="vertical", size_hint=(None, None), width=u * 124,
                            height=u * 110, spacing=u * 6)
        go = FlatButton(title="Resume", fill=theme.ACCENT, ink=theme.DARK_INK, fs=24)
        drop = FlatButton(title="Abandon", fill=theme.GREY_BTN, fs=18, size_hint_y=None,
                          height=u * 48)
        buttons.add_widget(go)
        buttons.add_widget(drop)
        card.add_widget(words)
        card.add_widget(buttons)
        card.game_id = info.id
        card.resume_button = go
        card.resets = [(b, b.title, b.fill, b.ink, b.fs) for b in (go, drop)]
        card.confirming = None
        go.bind(on_release=lambda *_: self._confirmed(card) or self._resume(app, info.id))
        drop.bind(on_release=lambda *_: self._ask(
            card, drop, go, "Abandon it", lambda: app.abandon(info.id)))
        return card

    @staticmethod
    def _ask(card, asked, confirm, words: str, then) -> None:
        """The first tap of a step that cannot be taken back asks once more, and never in the
        place it landed: ``asked`` becomes "Keep it" (a second tap there keeps the game) and
        ``confirm``, another button of the card, says ``words`` in red and does ``then``."""
        if card.confirming is not None:
            HomeScreen._reset(card)
            return
        card.confirming = then
        asked.title, asked.fill, asked.ink = "Keep it", theme.NAVIGATION, theme.INK
        confirm.title, confirm.fill, confirm.ink = words, theme.BAD, theme.INK
        confirm.fs = min(confirm.fs, asked.fs)     # a longer word where a short one fitted

    @staticmethod
    def _confirmed(card) -> bool:
        """A tap on the confirming button: the asked step is done (True), else nothing asked."""
        then = card.confirming
        if then is None:
            return False
        HomeScreen._reset(card)
        then()
        return True

    @staticmethod
    def _reset(card) -> None:
        card.confirming = None
        for button, title, fill, ink, fs in card.resets:
            button.title, button.fill, button.ink, button.fs = title, fill, ink, fs

    def _resume(self, app, game_id: int) -> None:
        """Resume; a game that does not open stays here, its card now saying why."""
        app.resume(game_id)
        if app.session is None or app.session.game_id != game_id:
            self.refresh()

    def _damaged_card(self, app, info, title: str, problem: str) -> Box:
        """A game whose stored log does not fold: where it breaks, how it stood before, its
        log saved as stored, and a repair that keeps every row (two taps, like abandon)."""
        u = app.u
        found = app.store.damage(info.id)
        if found is None:  # it folds, but cannot be opened: the store's own words
            head, before = "cannot be opened", str(problem)
        elif found.step is None:
            head, before = "its setup cannot be played", "Nothing to resume: save its log."
        else:
            head = f"damaged from step {found.step}"
            last = app.store.last_good(info.id, found)
            kept = len(last.done_steps())
            before = (f"Repair keeps it as it stood: {GAMES[info.game].where(last.summary())} "
                      f"({kept} step{'' if kept == 1 else 's'})")
        card = card_box(theme.BAD, 3)
        card.add_widget(wrapped(f"{title}  -  {head}", 20, theme.BAD, bold=True))
        card.add_widget(wrapped(", ".join(info.players), 20))
        card.add_widget(wrapped(before, 18))
        row = BoxLayout(size_hint_y=None, height=u * 52, spacing=u * 8)
        save = FlatButton(title="Save its log", fill=theme.SURFACE_HI, fs=18)
        card.confirming = None
        save.bind(on_release=lambda *_: self._confirmed(card) or app.save_raw_log(info.id))
        drop = FlatButton(title="Abandon", fill=theme.GREY_BTN, fs=18)
        drop.bind(on_release=lambda *_: self._ask(
            card, drop, save, "Abandon it", lambda: app.abandon(info.id)))
        row.add_widget(save)
        row.add_widget(drop)
        if found is not None and found.step is not None:
            fix = FlatButton(title="Repair", fill=theme.ACCENT, ink=theme.DARK_INK, fs=22)
            fix.bind(on_release=lambda *_: self._ask(
                card, fix, save, "Repair it", lambda: app.repair(info.id)))
            row.add_widget(fix)
            card.repair_button = fix
        card.add_widget(row)
        card.game_id, card.save_button = info.id, save
        card.resets = [(b, b.title, b.fill, b.ink, b.fs) for b in row.children]
        return card

    @staticmethod
    def _history_row(info, titles, width: float) -> dict:
        """A finished game's row for the RecycleView: when and what, then the scores (the
        winner first and bold), as tall as their lines at ``width`` (six seats wrap onto a
        third line rather than being cut)."""
        u = App.get_running_app().u
        head = f"{game_when(info)}  -  {titles.get(info.game, info.game)}"
        scores = scores_markup(info.game, [(r["name"], r["score"], r["winner"], r["seat"])
                                           for r in info.results])
        width = max(width, u * 40)
        head_h = text_needs(False, head, u * HEAD_FS, "Roboto", False, width, "left")[1]
        scores_h = text_needs(True, scores, u * SCORES_FS, "Roboto", False, width, "left")[1]
        return {"head": head, "scores": scores, "head_h": head_h, "game_id": info.id,
                "height": head_h + scores_h + u * ROW_GAP}
