"""Statistics: for one title or one player, the figures players ask for (games, wins, win rate,
scores, length, the longest run of wins) and what each title's games tell (Cauldron's Magik per
season, milestones and purchases; Witch's Brew's roles and ravens; Cauldron Quest's spells
beside their exact chance and the paths left open), as big numbers and labelled bars.

The figures come from companion/history/stats.py (the list rows, and one SQL statement per
title over the events; never a fold). What to show is worked out as a :class:`View`
(ui/screens/stats_view.py, pure data, so the tests read it), then drawn here: a row of big
numbers and, per figure, a heading, a BarChart and a few lines. The players are picked from those the history has seen (their
profile's name where seats link to one), never typed."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import ListProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.games import all_games
from companion.history.plays import read_plays
from companion.history.stats import gather, player_key, players, profile_names
from ui import theme
from ui.screens.back import BackTo
from ui.screens.home import wrapped
from ui.screens.stats_view import View, everyone_colours, games_words, player_view, title_view
from ui.widgets.chart import BarChart
from ui.widgets.common import Box, FlatButton


class StatTile(Box):
    value = StringProperty("")
    label = StringProperty("")


class StatsPlayerPicker(ModalView):
    """The players the history has seen (``names``: key, name, finished games), a button each;
    a tap shows that player's figures."""

    names = ListProperty([])

    def __init__(self, screen: "StatsScreen", **kwargs) -> None:
        self.screen = screen
        super().__init__(**kwargs)

    def on_names(self, *_args) -> None:
        grid = self.ids.names
        grid.clear_widgets()
        for key, name, games in self.names:
            grid.add_widget(FlatButton(title=name, caption=games_words(games), caption_fs=18,
                                       fs=22, fill=theme.OPTION, size_hint_y=None,
                                       height=App.get_running_app().u * 64,
                                       on_release=lambda _b, k=key: self.chosen(k)))

    def chosen(self, key: str) -> None:
        self.dismiss()
        self.screen.show_player(key)


class StatsScreen(BackTo, Screen):
    """``show_title(game)`` or ``show_player(key)``; Back goes to ``back_to``."""

    heading = StringProperty("")
    #: "game" or "player", and which one
    kind = StringProperty("game")
    chosen = StringProperty("witchs_brew")
    player_label = StringProperty("Player")

    def __init__(self, **kwargs) -> None:
        self._plays: list = []
        self._names: dict[str, str] = {}
        self._seen: dict[tuple[str, str], View] = {}  # this visit's views, by kind and choice
        self._everyone: dict | None = None   # the players' colours (_colours)
        self.view: View | None = None
        super().__init__(**kwargs)

    def on_kv_post(self, _base) -> None:
        App.get_running_app().bind(u=lambda *_: self.draw() if self.view else None)
        for game, title in self.titles().items():
            self.ids.titles.add_widget(FlatButton(
                title=title, fs=20, fill=theme.OPTION,
                on_release=lambda _b, g=game: self.show_title(g)))

    @staticmethod
    def titles() -> dict[str, str]:
        return {name: rules.title for name, rules in all_games().items()}

    def on_pre_enter(self, *_args) -> None:
        self.reload()

    def reload(self) -> None:
        """The plays (list rows only) and the players' names, read once per visit."""
        store = App.get_running_app().store
        if store is None:
            return
        self._plays = read_plays(store.conn)
        self._names = players(self._plays, profile_names(store.conn))
        self._seen = {}
        self._everyone: dict | None = None   # the players' colours (_colours)
        played = [p.game for p in self._plays]
        if self.kind == "game" and played and self.chosen not in played:
            self.chosen = played[-1]   # a title with games, the latest played
        self.refresh()

    def show_title(self, game: str) -> None:
        self.kind, self.chosen = "game", game
        self.refresh()

    def show_player(self, key: str) -> None:
        self.kind, self.chosen = "player", key
        self.refresh()

    def open_from(self, back_to: str, *, game: str | None = None,
                  player: str | None = None) -> None:
        """Shown from another screen (``back_to``, where Back returns), at a title or a player
        when one is given, else where it was left."""
        self.back_to = back_to
        if player is not None:
            self.kind, self.chosen = "player", player
        elif game is not None:
            self.kind, self.chosen = "game", game
        app = App.get_running_app()
        if app.screens.current == "stats":
            self.reload()
        app.show("stats")

    def open_picker(self) -> None:
        picker = StatsPlayerPicker(self)
        played: dict[str, int] = {}
        for play in self._plays:
            if play.status == "finished":
                for seat in play.seats:
                    played[player_key(seat)] = played.get(player_key(seat), 0) + 1
        picker.names = [(key, name, played.get(key, 0)) for key, name in self._names.items()]
        picker.open()

    def refresh(self) -> None:
        store = App.get_running_app().store
        if store is None:
            return
        titles = self.titles()
        if self.kind != "player" or self.chosen not in self._names:
            if self.chosen not in titles:
                self.chosen = next(iter(titles))
            self.kind = "game"
        key = (self.kind, self.chosen)
        if key not in self._seen:  # a tab tapped again this visit is not read again
            if self.kind == "player":
                stats = gather(store.conn, player=self.chosen, plays=self._plays)
                self._seen[key] = player_view(stats, titles, self._names[self.chosen])
            else:
                stats = gather(store.conn, game=self.chosen, plays=self._plays)
                self._seen[key] = title_view(stats, self.chosen, titles[self.chosen],
                                             self._colours(store))
        self.view = self._seen[key]
        self.player_label = self._names[self.chosen] if self.kind == "player" else "Player"
        for button in self.ids.titles.children:
            button.selected = self.kind == "game" and button.title == titles[self.chosen]
        self.draw()

    def _colours(self, store) -> dict:
        """Every player's colour, made once a visit over the whole history's players: the
        same player is the same colour in every title's tab."""
        if self._everyone is None:
            chosen = {p.uuid: p.colour for p in store.profiles(limit=10_000) if p.colour}
            self._everyone = everyone_colours(self._names, chosen)
        return self._everyone

    def draw(self) -> None:
        """The view as widgets: the big numbers, then each block's heading, chart and lines."""
        view, u = self.view, App.get_running_app().u
        body = self.ids.body
        body.clear_widgets()
        self.heading = view.heading
        if view.tiles:
            row = GridLayout(cols=2 if App.get_running_app().portrait else len(view.tiles),
                             spacing=u * 8, size_hint_y=None)
            row.bind(minimum_height=row.setter("height"))
            for tile in view.tiles:
                row.add_widget(StatTile(value=tile.value, label=tile.label))
            body.add_widget(row)
        for block in view.blocks:
            body.add_widget(wrapped(block.heading, 22, theme.ACCENT, bold=True))
            if block.bars:
                chart = BarChart(bars=list(block.bars), maximum=block.maximum, fs=20,
                                 size_hint_y=None)
                chart.height = len(block.bars) * chart.row_height() * 1.15
                body.add_widget(chart)
            for line in block.lines:
                body.add_widget(wrapped(line, 20, theme.MUTED))
        self.ids.scroll.scroll_y = 1


def open_stats(app, *, game: str | None = None, player: str | None = None,
               back_to: str = "home") -> None:
    """Show the statistics of a title (a game's name) or a player (stats.player_key: a
    profile's uuid, or a name as typed); Back returns to ``back_to`` (a screen's name)."""
    app.screens.get_screen("stats").open_from(back_to, game=game, player=player)
