"""Statistics: for one title or one player, the figures players ask for (games, wins, win rate,
scores, length, the longest run of wins) and what each title's games tell (Cauldron's Magik per
season, milestones and purchases; Witch's Brew's roles and ravens; Cauldron Quest's spells
beside their exact chance and the paths left open), as big numbers and labelled bars.

The figures come from companion/history/stats.py (the list rows, and one SQL statement per
title over the events; never a fold). What to show is worked out here as a :class:`View`
(pure data, so the tests read it), then drawn: a row of big numbers and, per figure, a heading,
a BarChart and a few lines. The players are picked from those the history has seen (their
profile's name where seats link to one), never typed."""

from __future__ import annotations

from dataclasses import dataclass

from kivy.app import App
from kivy.properties import ListProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.games import all_games
from companion.history.plays import read_plays
from companion.history.stats import (
    Figures, Stats, gather, player_key, players, profile_names,
)
from companion.history.tally import labels
from ui import theme
from ui.screens.home import wrapped
from ui.widgets.chart import BarChart, ChartBar
from ui.widgets.common import Box, FlatButton

#: Bars drawn in a chart at most (the rest are named in a line below it).
MOST_BARS = 8
#: A season is charted when at least this share of the games reached its end.
SEASON_SHARE = 0.2
WORKED, CHANCE = theme.GOOD, theme.rgba("#7A8699")


@dataclass(frozen=True)
class Tile:
    """A big number and what it counts."""

    value: str
    label: str


@dataclass(frozen=True)
class Block:
    """One figure: a heading, its bars (out of ``maximum``, 0: the largest) and lines."""

    heading: str
    bars: tuple[ChartBar, ...] = ()
    lines: tuple[str, ...] = ()
    maximum: float = 0


@dataclass(frozen=True)
class View:
    heading: str
    tiles: tuple[Tile, ...]
    blocks: tuple[Block, ...]


def pct(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.0%}"


def minutes(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f} min"


def games_words(n: int) -> str:
    return f"{n} game{'s' * (n != 1)}"


def _of(wins: int, games: int, rate: float | None) -> str:
    return f"{wins} of {games} ({pct(rate)})"


def _score_words(f: Figures) -> str:
    if f.average_score is None:
        return ""
    return f"score {f.average_score:g} on average, best {f.best_score}"


def player_view(stats: Stats, titles: dict[str, str], who: str) -> View:
    """One player's figures (``stats`` gathered for that player)."""
    if not stats.players:
        return View(f"{who}: no finished games yet", (), ())
    p = stats.players[0]
    f = p.overall
    tiles = (Tile(str(f.games), "games"), Tile(str(f.wins), f"wins ({pct(f.win_rate)})"),
             Tile(str(f.longest_streak), "longest streak"),
             Tile(minutes(f.average_minutes), "a game on average"))
    bars = tuple(ChartBar(titles.get(g, g), 100 * (t.win_rate or 0), theme.CALM,
                          _of(t.wins, t.games, t.win_rate)) for g, t in p.titles.items())
    lines = []
    for game, t in p.titles.items():
        parts = [_score_words(t), f"{minutes(t.average_minutes)} a game",
                 f"longest streak {t.longest_streak}"]
        lines.append(f"{titles.get(game, game)}: " + ", ".join(x for x in parts if x))
    blocks = [Block("Wins at each title", bars, tuple(lines), 100)]
    told = {t.game: t.from_log for t in stats.titles}
    mine = []
    ravens = told.get("witchs_brew", {}).get("ravens", {}).get("by", {})
    if "witchs_brew" in p.titles:
        mine.append(f"Ravens taken at Witch's Brew: {ravens.get(p.name, 0)}")
    milestones = told.get("cauldron", {}).get("milestones", {})
    taken = [f"{labels('cauldron').get(m, m)} {v['by'][p.name]}"
             for m, v in milestones.items() if v["by"].get(p.name)]
    if "cauldron" in p.titles:
        mine.append("Milestones taken at Cauldron: " + (", ".join(taken) or "none yet"))
    if mine:
        blocks.append(Block("From the games' logs", (), tuple(mine)))
    return View(f"{p.name}: {games_words(f.games)}", tiles, tuple(blocks))


def _wins_by_player(stats: Stats, game: str) -> Block:
    ranked = sorted(((p.titles[game], p.name) for p in stats.players if game in p.titles),
                    key=lambda fn: (-fn[0].wins, -fn[0].games, fn[1]))
    bars = tuple(ChartBar(name, f.wins, theme.CALM, _of(f.wins, f.games, f.win_rate))
                 for f, name in ranked[:MOST_BARS])
    rest = [f"{name} {f.wins} of {f.games}" for f, name in ranked[MOST_BARS:]]
    heading = "Games won with the team" if game == "quest" else "Wins by player"
    return Block(heading, bars, ("Also: " + ", ".join(rest),) if rest else ())


def _by(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {n}" for name, n in counts.items()) or "nobody yet"


def _cauldron(told: dict, extra: dict, games: int) -> list[Block]:
    words = labels("cauldron")
    seasons = [s for s in told["magik_by_season"] if s["games"] >= SEASON_SHARE * games]
    left = len(told["magik_by_season"]) - len(seasons)
    magik = Block("Magik at each season's end (average per seat)", tuple(
        ChartBar(f"Season {s['season']}", s["average"], theme.ACCENT,
                 f"{s['average']:g} ({games_words(s['games'])})") for s in seasons),
        (f"Later seasons, which fewer than {SEASON_SHARE:.0%} of the games reached, are left "
         "out.",) if left else (), 35)
    marks = told["milestones"]
    milestones = Block("Milestones taken", tuple(
        ChartBar(words.get(m, m), 100 * (v["share"] or 0), theme.CALM,
                 f"{v['taken']} of {games_words(v['games'])}") for m, v in marks.items()),
        tuple(f"{words.get(m, m)}: " + (f"season {v['average_season']:g} on average; "
                                        if v["average_season"] is not None else "")
              + _by(v["by"]) for m, v in marks.items()), 100)
    bought = told["purchases"]
    purchases = Block("Purchases by kind", tuple(
        ChartBar(words.get(k, k), v["count"], theme.GOOD, f"{v['count']} ({v['magik']} Magik)")
        for k, v in bought.items()))
    lines = []
    if extra.get("average_winning_magik") is not None:
        lines.append(f"Magik of the winner on average: {extra['average_winning_magik']:g}")
    if extra.get("characters"):
        lines.append("Wins by character: " + ", ".join(
            f"{c.title()} {v['wins']} of {v['seats']}" for c, v in extra["characters"].items()))
    return [magik, milestones, purchases] + ([Block("Results", (), tuple(lines))] if lines
                                             else [])


def _witchs_brew(told: dict, extra: dict, played: dict[str, int]) -> list[Block]:
    words = labels("witchs_brew")
    roles = Block("Full actions and favours by role (share of full actions)", tuple(
        ChartBar(words.get(k, k), 100 * (v["action_share"] or 0), theme.CALM,
                 f"{v['actions']} : {v['favours']} ({pct(v['action_share'])})")
        for k, v in told["roles"].items()), ("Full actions : favours, as claimed and "
                                            "answered \"so be it\".",), 100)
    ravens = told["ravens"]
    ranked = list(ravens["by"].items())
    taken = Block(f"Ravens taken: {ravens['taken']}, {ravens['per_game']:g} a game", tuple(
        ChartBar(name, n, theme.ACCENT, f"{n} in {games_words(played.get(name, 0))}")
        for name, n in ranked[:MOST_BARS]),
        ("Also: " + _by(dict(ranked[MOST_BARS:])),) if len(ranked) > MOST_BARS else ())
    lines = []
    if extra.get("average_winning_score") is not None:
        lines.append(f"Winning score on average: {extra['average_winning_score']:g}")
    lines.append(f"Shared wins: {extra.get('shared_wins', 0)}; decided by the tie-break: "
                 f"{extra.get('decided_by_tiebreak', 0)}")
    return [roles, taken, Block("Results", (), tuple(lines))]


def _quest(told: dict) -> list[Block]:
    words = labels("quest")
    bars = []
    for key, s in told["spells"].items():
        bars.append(ChartBar(words.get(key, key), 100 * (s["rate"] or 0), WORKED,
                             f"{s['worked']} of {s['cast']} ({pct(s['rate'])})"))
        bars.append(ChartBar("exact chance", 100 * (s["chance"] or 0), CHANCE,
                             pct(s["chance"])))
    exact = ", ".join(f"{words.get(k, k)} {s['exact']}" for k, s in told["spells"].items())
    spells = Block("Spells: how often each worked, beside its exact chance", tuple(bars),
                   (f"The exact chance is over three rolls, keeping the best dice: {exact}.",),
                   100)
    paths = told["paths_open"]
    counts = paths["games"]
    won = paths["average_when_won"]
    open_paths = Block("Paths left open at the end", tuple(
        ChartBar(f"{n} open", counts[n], theme.CALM, games_words(counts[n]))
        for n in sorted(counts, key=int, reverse=True)),
        (f"{paths['average']:g} on average" + (f"; {won:g} in the games won" if won is not None
                                               else ""),))
    return [spells, open_paths]


def title_view(stats: Stats, game: str, title: str) -> View:
    """One title's figures (``stats`` gathered for that title)."""
    if not stats.titles:
        return View(f"{title}: no finished games yet", (), ())
    t = stats.titles[0]
    f = t.figures
    if game == "quest":
        tiles = (Tile(str(f.games), "games"),
                 Tile(str(t.extra.get("team_wins", 0)), "won by the team"),
                 Tile(pct(t.extra.get("team_win_rate")), "team win rate"),
                 Tile(minutes(f.average_minutes), "a game on average"))
    else:
        tiles = (Tile(str(f.games), "games"),
                 Tile("-" if f.average_score is None else f"{f.average_score:g}",
                      "score on average"),
                 Tile("-" if f.best_score is None else str(f.best_score), "best score"),
                 Tile(minutes(f.average_minutes), "a game on average"))
    blocks = [_wins_by_player(stats, game)]
    if game == "cauldron" and t.from_log:
        blocks += _cauldron(t.from_log, t.extra, f.games)
    elif game == "witchs_brew" and t.from_log:
        played = {p.name: p.titles[game].games for p in stats.players if game in p.titles}
        blocks += _witchs_brew(t.from_log, t.extra, played)
    elif game == "quest" and t.from_log:
        blocks += _quest(t.from_log)
    return View(f"{title}: {games_words(f.games)}", tiles, tuple(blocks))


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


class StatsScreen(Screen):
    """``show_title(game)`` or ``show_player(key)``; Back goes to ``back_to``."""

    heading = StringProperty("")
    #: "game" or "player", and which one
    kind = StringProperty("game")
    chosen = StringProperty("witchs_brew")
    back_to = StringProperty("home")
    player_label = StringProperty("Player")

    def __init__(self, **kwargs) -> None:
        self._plays: list = []
        self._names: dict[str, str] = {}
        self._seen: dict[tuple[str, str], View] = {}  # this visit's views, by kind and choice
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

    def go_back(self) -> None:
        app = App.get_running_app()
        if self.back_to == "home":
            app.go_home()
        else:
            app.show(self.back_to)

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
                self._seen[key] = title_view(stats, self.chosen, titles[self.chosen])
        self.view = self._seen[key]
        self.player_label = self._names[self.chosen] if self.kind == "player" else "Player"
        for button in self.ids.titles.children:
            button.selected = self.kind == "game" and button.title == titles[self.chosen]
        self.draw()

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
