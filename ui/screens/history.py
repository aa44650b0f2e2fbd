"""History: every finished game, newest first, with its title, date, length, variants and the
players' scores (the winner first and marked), filtered by title and by player, with a count.
A row opens the game's detail.

Like the home screen's list, nothing here grows with the history: the rows are a RecycleView
(a widget per row on screen) over the plays read a page at a time from the rows each game keeps
for the lists (companion/history/browse.py), never a log. The players are picked from those the
history has seen (profiles where the file links seats to them), never typed.

"To USB stick" writes every finished game to a mounted stick (companion/history/usb.py) for
spreadsheets and for another table's ``companion import``. Sticks are looked for when the screen
is entered and when the button is tapped, never polled. A history's logs take about 1 s per 100
games to read, so the export runs on a thread with its own read-only connection (SQLite's
connections stay on the thread that made them) and reports back through the Clock; the button
is disabled meanwhile."""

from __future__ import annotations

import sqlite3
import threading

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.core.errors import CompanionError
from companion.games import all_games
from companion.history import browse, usb
from companion.history.browse import Filter
from companion.store import Store
from ui import theme
from ui.screens.home import KEEP, scores_markup
from ui.screens.paging import add_in_place, at_the_end
from ui.text.played import game_when
from ui.widgets.common import FlatButton, text_needs

#: Games read at a time; the next page when the list is scrolled to its end.
PAGE = 20
#: A row's first line (when, what, how long) and its scores, in units; the gap below a row.
HEAD_FS, SCORES_FS, ROW_GAP = 18, 22, 10


def count_words(n: int) -> str:
    return f"{n} game{'' if n == 1 else 's'}"


def length_words(minutes: float | None) -> str:
    if minutes is None:
        return ""
    whole = int(round(minutes))
    words = f"{whole // 60} h {whole % 60:02d} min" if whole >= 60 else f"{whole} min"
    return words.replace(" ", KEEP)


def variant_words(variants) -> str:
    return ", ".join(v.replace("_", " ") for v in variants)


def head_words(play) -> str:
    parts = [game_when(play), play.title, length_words(play.minutes),
             variant_words(play.variants)]
    return "  -  ".join(p for p in parts if p)


class HistoryGameRow(ButtonBehavior, BoxLayout):
    """A finished game's row (a RecycleView row): a tap opens its detail."""

    head = StringProperty("")
    scores = StringProperty("")
    head_h = NumericProperty(0)
    game_id = NumericProperty(0)
    screen = ObjectProperty(None, allownone=True)

    def on_release(self) -> None:
        if self.screen is not None:
            self.screen.open_game(self.game_id)


class PlayerPicker(ModalView):
    """The players the history has seen, who played last first; "Anyone" clears the filter."""

    screen = ObjectProperty(None)

    def __init__(self, screen, players, **kwargs) -> None:
        super().__init__(screen=screen, **kwargs)
        u = App.get_running_app().u
        box = self.ids.choices
        for player in [None, *players]:
            label = "Anyone" if player is None else player.label
            button = FlatButton(title=label, fs=22, size_hint_y=None, height=u * 56,
                                fill=theme.OPTION,
                                selected=label == screen.player_label)
            button.player = player
            button.bind(on_release=self._chosen)
            box.add_widget(button)

    def _chosen(self, button) -> None:
        self.dismiss(animation=False)
        self.screen.choose_player(button.player)


class HistoryScreen(Screen):
    #: the title filter: a game's name, "" for every title
    game = StringProperty("")
    player_label = StringProperty("Anyone")
    counted = StringProperty("")
    #: the mounted stick's folder ("" when none), an export under way, what it said, whether
    #: it wrote its files
    stick = StringProperty("")
    exporting = BooleanProperty(False)
    usb_said = StringProperty("")
    usb_ok = BooleanProperty(False)
    usb_failed = BooleanProperty(False)
    #: where sticks are mounted and the mount table (tests give a fake tree)
    stick_roots = usb.ROOTS
    mounts_file = "/proc/mounts"

    def __init__(self, **kwargs) -> None:
        self._filter = Filter()
        self._plays: list = []     # the plays read so far, newest first
        self._more = False
        self._width: float | None = None
        self._seen: tuple | None = None   # (database, finished games) the list was read for
        super().__init__(**kwargs)

    def on_kv_post(self, _base) -> None:
        box = self.ids.titles
        for name, title in [("", "All titles"),
                            *((n, r.title) for n, r in all_games().items())]:
            button = FlatButton(title=title, fs=20, fill=theme.OPTION)
            button.game = name
            button.bind(on_release=lambda b: self.choose_title(b.game))
            box.add_widget(button)
        self._mark_title()
        App.get_running_app().bind(u=lambda *_: self._refill())

    def on_pre_enter(self, *_) -> None:
        """Read again only when games were finished (or the database changed) since: coming
        back from a game's detail keeps the list where it was scrolled."""
        app = App.get_running_app()
        if not self.exporting:
            self.look_for_stick()
        if app.store is None:
            return
        seen = (app.store.path, app.store.count("finished"))
        if self._seen is not None and seen[0] != self._seen[0]:   # another database: its players
            self.game, self.player_label, self._filter = "", "Anyone", Filter()
            self._mark_title()
        if seen != self._seen:
            self.refresh()

    # -- filters ----------------------------------------------------------------------------
    def choose_title(self, game: str) -> None:
        self.game = game
        self._filter = Filter(game or None, self._filter.name, self._filter.profile)
        self._mark_title()
        self.refresh()

    def choose_player(self, player) -> None:
        """A player from the picker (a browse.Player), or None for anyone."""
        self.player_label = "Anyone" if player is None else player.label
        keys = {"name": None, "profile": None} if player is None else player.filter_keys
        self._filter = Filter(self._filter.game, **keys)
        self.refresh()

    def open_stats(self) -> None:
        """The statistics of what the list shows: its title, its player (else where the
        statistics screen was left); Back returns here."""
        player = self._filter.profile or self._filter.name
        App.get_running_app().screens.get_screen("stats").open_from(
            "history", game=self._filter.game, player=player)

    def open_picker(self) -> None:
        app = App.get_running_app()
        PlayerPicker(self, browse.players(app.store.conn, self._filter.game)).open()

    def _mark_title(self) -> None:
        for button in self.ids.titles.children:
            button.selected = button.game == self.game   # drawn filled amber (theme.CHOSEN)

    # -- the list, a page at a time ---------------------------------------------------------
    def refresh(self) -> None:
        app = App.get_running_app()
        if app.store is None:
            return
        conn = app.store.conn
        self._seen = (app.store.path, app.store.count("finished"))
        total = browse.count(conn, self._filter)
        self.counted = count_words(total)
        self._plays, self._more, self._width = [], True, None
        self.ids.games.data = []
        self.load_more()
        self.ids.games.scroll_y = 1
        self.ids.empty.text = "" if self._plays else (
            "No finished games yet." if self._filter == Filter() else
            "No finished games with these choices.")

    def load_more(self) -> None:
        """The next page onto the end of the list; where it is scrolled stays where it was."""
        app = App.get_running_app()
        if not self._more or app.store is None:
            return
        page = browse.page(app.store.conn, self._filter, PAGE, len(self._plays))
        self._more = len(page) == PAGE
        if not page:
            return
        rv = self.ids.games
        self._plays += page
        add_in_place(rv, lambda: self._fill(rv.width))

    def games_scrolled(self, rv) -> None:
        if self._more and at_the_end(rv):
            self.load_more()

    def games_resized(self, rv) -> None:
        if self._plays and rv.width != self._width:
            self._fill(rv.width)

    def _refill(self) -> None:
        if self._plays:
            self._fill(self.ids.games.width)

    def _fill(self, width: float) -> None:
        self._width = width
        self.ids.games.data = [self._row(play, width) for play in self._plays]

    def _row(self, play, width: float) -> dict:
        """A play's row, as tall as its lines at ``width`` (less the row's padding)."""
        u = App.get_running_app().u
        head = head_words(play)
        scores = scores_markup(play.game, [(s.name, s.score, s.winner, s.seat) for s in play.seats])
        width = max(width - u * 20, u * 40)
        head_h = text_needs(False, head, u * HEAD_FS, "Roboto", False, width, "left")[1]
        scores_h = text_needs(True, scores, u * SCORES_FS, "Roboto", False, width, "left")[1]
        return {"head": head, "scores": scores, "head_h": head_h, "game_id": play.id,
                "screen": self, "height": max(head_h + scores_h + u * (ROW_GAP + 8), u * 56)}

    def open_game(self, game_id: int) -> None:
        App.get_running_app().screens.get_screen("game_detail").open_game(game_id, "history")

    # -- to a USB stick ---------------------------------------------------------------------
    def look_for_stick(self) -> usb.Stick | None:
        """The first mounted stick (a writable one first), said on the screen."""
        found = usb.sticks(usb.read_mounts(self.mounts_file), self.stick_roots)
        found.sort(key=lambda s: not s.writable)
        chosen = found[0] if found else None
        self.stick = str(chosen.path) if chosen else ""
        self.usb_ok = self.usb_failed = False
        self.usb_said = (f"USB stick at {chosen.path}" if chosen else
                         "No USB stick mounted: plug one in, then tap Look for a stick.")
        return chosen

    def to_usb(self) -> None:
        """Every finished game to the stick, on a thread; the screen says what was written."""
        app = App.get_running_app()
        if self.exporting or app.store is None:
            return
        chosen = self.look_for_stick()
        if chosen is None:
            self._exported("Not exported: no USB stick is mounted; plug one in and tap again.",
                           False)
            return
        if not chosen.writable:
            self._exported(f"Not exported: the stick at {chosen.path} is read-only (is its "
                           "lock switch on?).", False)
            return
        self.exporting, self.usb_said = True, f"Writing to {chosen.path}..."
        store, device = app.store, app.store.device_id
        if store.path == ":memory:":   # no file a second connection could read: here, at once
            self._exported(*_export(store.conn, chosen.path, device))
            return
        threading.Thread(target=self._export_file, args=(store.path, chosen.path, device),
                         name="usb-export", daemon=True).start()

    def _export_file(self, database: str, stick, device: str) -> None:
        try:
            with Store(database, readonly=True) as reader:
                done = _export(reader.conn, stick, device)
        except (CompanionError, OSError, sqlite3.Error) as problem:
            done = (f"Not exported: the game database could not be read ({problem}).", False)
        except Exception as problem:  # whatever it was, the button is not left busy for good
            done = (f"Not exported: {type(problem).__name__}: {problem}", False)
        Clock.schedule_once(lambda _dt: self._exported(*done))

    def _exported(self, words: str, ok: bool) -> None:
        self.exporting, self.usb_said, self.usb_ok, self.usb_failed = False, words, ok, not ok


def _export(conn, stick, device: str) -> tuple[str, bool]:
    """(what the screen says, whether the files were written)."""
    try:
        return usb.said(usb.export(conn, stick, device)), True
    except (CompanionError, OSError) as problem:
        return f"Not exported: {problem}", False
