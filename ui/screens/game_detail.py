"""One stored game: its result (places, scores, the winner), when and how long, how it was set
up, its log in words, and a chart of how each seat's score moved (Cauldron Quest: the team's
progress and the paths blocked), with a button that hands the play to BG Stats as a QR code.

The only screen that reads a game's log: its steps once, folded once for the chart
(companion/history/series.py) and told in words from the same rows, when the game is opened.
The log is a RecycleView (a widget per line on screen) of the game bar's log rows, under the
same headings for each round or turn, the names in their seat colours."""

from __future__ import annotations

import importlib.util

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.core import palette
from companion.games import all_games, get_rules
from companion.history import browse
from companion.history.series import story
from ui import theme
from ui.text.markup import plain
from ui.screens.back import BackTo
from ui.screens.history import length_words, variant_words
from ui.screens.home import ACCENT_HEX
from ui.text.played import game_when
from ui.widgets.chart import ChartLine
from ui.widgets.game_log import name_colours, told_rows

#: What the chart's title says for each title's series.
CHART_TITLES = {"witchs_brew": "Points after each round", "cauldron": "Magik, season by season",
                "quest": "The team's progress, turn by turn"}
#: Cauldron Quest's lines: the ingredients in the cauldron, the paths blocked.
QUEST_COLOURS = (theme.GOOD, theme.BAD)
#: Setup keys worth a player's words on the detail (the rest are the board's own settings).
SETUP_WORDS = {"needed": "Needed", "path_spaces": "Path spaces", "share_spaces": "Shared spaces",
               "milestones": "Milestones"}


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def result_markup(play) -> str:
    """One line per seat, best first, the winner in the accent colour and bold; Cauldron's
    places as stored, Witch's Brew's by score (a shared win shares the place); a co-operative
    game says whether the team won."""
    if getattr(all_games().get(play.game), "cooperative", False):
        won = any(s.winner for s in play.seats)
        team = ", ".join(plain(s.name) for s in play.seats)
        if play.status != "finished":
            return f"{team}: not finished"
        return (f"[b][color={ACCENT_HEX}]Won together[/color][/b]\n{team}" if won
                else f"Lost together\n{team}")
    if play.status != "finished":
        return "\n".join(plain(s.name) for s in play.seats) + "\nNot finished"
    ranked = sorted(play.seats, key=lambda s: (s.detail.get("place", 0) or 0, not s.winner,
                                               -(s.score or 0), s.seat))
    lines, place = [], 0
    for i, s in enumerate(ranked):
        if "place" in s.detail:
            place = s.detail["place"]
        elif i == 0 or (s.score, s.winner) != (ranked[i - 1].score, ranked[i - 1].winner):
            place = i + 1
        line = f"{_ordinal(place)}  {plain(s.name)}  {s.score}"
        lines.append(f"[b][color={ACCENT_HEX}]{line}  (won)[/color][/b]" if s.winner else line)
    return "\n".join(lines)


def about_words(play) -> str:
    """When, how long, the variants and the setup a table chose."""
    out = [game_when(play)]
    if play.minutes is not None:
        out[0] += f", {length_words(play.minutes)}"
    out.append(f"Variants: {variant_words(play.variants)}" if play.variants else "No variants")
    chosen = []
    for key, words in SETUP_WORDS.items():
        value = play.setup.get(key)
        if value in (None, False, [], {}):
            continue
        if isinstance(value, list):
            value = ", ".join(str(v).replace("_", " ") for v in value)
        elif isinstance(value, dict):
            value = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in value.items())
        elif value is True:
            value = "yes"
        chosen.append(f"{words}: {value}")
    if chosen:
        out.append("; ".join(chosen))
    return "\n".join(out)


def chart_lines(game: str, found, colours) -> list[ChartLine]:
    """The series' lines in the seats' colours (black, which the dark screen would hide, drawn
    grey; the legend names each line); Quest's two team lines in good and bad."""
    if game == "quest":
        return [ChartLine(line.name, QUEST_COLOURS[i % 2], line.values, line.most)
                for i, line in enumerate(found.lines)]
    shades = palette.seat_colours(colours, len(found.lines))
    out = []
    for line, colour in zip(found.lines, shades):
        rgba = theme.MUTED if colour.hex == "#000000" else theme.rgba(colour.hex)
        out.append(ChartLine(line.name, rgba, line.values, line.most))
    return out


class GameDetailScreen(BackTo, Screen):
    heading = StringProperty("")
    result = StringProperty("")
    about = StringProperty("")
    chart_title = StringProperty("")
    #: whether the BG Stats dialog is there to open (ui/widgets/qr.py)
    can_share = BooleanProperty(False)

    def __init__(self, **kwargs) -> None:
        self.play = None
        self._told: list = []      # (step, its lines), the done steps in order
        self._names: list[str] = []
        self._colours: dict[str, str] = {}
        self._width: float | None = None
        super().__init__(**kwargs)

    def on_kv_post(self, _base) -> None:
        App.get_running_app().bind(u=lambda *_: self._fill_log(self.ids.log.width))

    def open_game(self, game_id: int, back: str = "home") -> None:
        """Show this screen with one game (a history row's tap, from home or history)."""
        self.show_game(game_id, back)
        if self.play is not None:
            App.get_running_app().show(self.name)

    def show_game(self, game_id: int, back: str = "home") -> None:
        """Read one game: its play from the lists' rows, its steps once for chart and words."""
        app = App.get_running_app()
        self.back_to = back
        self.play = browse.play(app.store.conn, game_id)
        if self.play is None:
            app.refuse(f"Game #{game_id} is not in this history")
            return
        found, self._names, self._told = story(app.store, game_id)
        colours = app.store.setup_of(game_id).get("colours")
        self._colours = name_colours(get_rules(self.play.game), self._names, colours)
        play = self.play
        self.heading = play.title
        self.result = result_markup(play)
        self.about = about_words(play)
        self.chart_title = CHART_TITLES.get(play.game, "Score")
        chart = self.ids.chart
        chart.x_title, chart.y_title = found.x_title, found.y_title
        chart.marks, chart.flags = list(found.marks), list(found.flags)
        chart.lines = chart_lines(play.game, found, colours)
        self.can_share = (play.status == "finished"
                          and importlib.util.find_spec("ui.widgets.qr") is not None)
        self._fill_log(self.ids.log.width)
        self.ids.log.scroll_y = 1

    def log_resized(self, rv) -> None:
        if rv.width != self._width:
            self._fill_log(rv.width)

    def _fill_log(self, width: float) -> None:
        u = App.get_running_app().u
        self._width = width
        room = width - u * 16   # the row's room for words, beside the scroll bar
        if self.play is None:
            return
        rules = get_rules(self.play.game)
        self.ids.log.data = told_rows(rules, self._names, self._told, room, u, self._colours)

    def share(self) -> None:
        """BG Stats: the play as its push-play link in a QR code (ui/widgets/qr.py)."""
        if self.play is None or not self.can_share:
            return
        from ui.widgets.qr import show_play_qr

        show_play_qr(self.play)
