"""Game over: every seat on its own row in large type, the score broken down as the rulebook
counts it (potion points + vials), the tie-break said in words when it decided, the game's
length, "Play again" with the same seats, and the play as a QR code for BG Stats.

Standings come from the rules (``results``: score, tie-break, winner) and the potions and vials
from the state, never recounted another way here; the length from the store's start and finish.
"""

from __future__ import annotations


from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from ui import theme
from ui.text.played import hours_minutes, minutes_played
from ui.widgets.common import Box, Chip, Txt, text_needs

#: Column widths in units: place, potions, vials, points, drops + gold (the name takes the rest).
COLUMNS = {"place": 44, "potions": 104, "vials": 84, "score": 96, "tiebreak": 160}
#: The same columns on a portrait screen (480 units wide): the name keeps what is left.
PORTRAIT_COLUMNS = {"place": 30, "potions": 92, "vials": 60, "score": 70, "tiebreak": 76}


def columns(portrait: bool) -> dict[str, int]:
    return PORTRAIT_COLUMNS if portrait else COLUMNS


def ranked(results: list[dict]) -> list[list[dict]]:
    """Places, best first; the winners share the first place, equal others share theirs."""
    winners = [r for r in results if r["winner"]]
    rest = sorted((r for r in results if not r["winner"]),
                  key=lambda r: (-r["score"], -r["tiebreak"], r["seat"]))
    places = [winners]
    for r in rest:
        last = places[-1][0]
        if len(places) > 1 and (last["score"], last["tiebreak"]) == (r["score"], r["tiebreak"]):
            places[-1].append(r)
        else:
            places.append([r])
    return places


def tie_break_words(results: list[dict]) -> str:
    """Whether the tie-break decided, and how, in the rulebook's words."""
    best = max(r["score"] for r in results)
    top = [r for r in results if r["score"] == best]
    if len(top) == 1:
        return "Most points: no tie-break needed"
    winners = [r for r in top if r["winner"]]
    names = " and ".join(r["name"] for r in top)
    if len(winners) == len(top):
        return (f"{names} tied on {best} points and on drops + gold left "
                f"({winners[0]['tiebreak']}): a shared victory")
    losers = ", ".join(f"{r['name']} {r['tiebreak']}" for r in top if not r["winner"])
    who = " and ".join(r["name"] for r in winners)
    return (f"Tied on {best} points: most drops + gold left wins "
            f"({who} {winners[0]['tiebreak']}, {losers})")


def game_length(started: str, finished: str | None) -> str:
    """ "42 min", "1 h 05 min": from the store's ISO start and finish (now while unfinished)."""
    minutes = minutes_played(started, finished)
    if minutes is None:
        return "an unknown time"
    return "under 1 min" if minutes < 1 else hours_minutes(minutes)


def _far(label):
    label.far = True
    return label


class ResultScreen(Screen):
    headline = StringProperty("")
    verdict = StringProperty("")
    #: the verdict's chip beside the headline, where both fit on its line
    verdict_fits = BooleanProperty(True)
    tie_break = StringProperty("")
    length = StringProperty("")
    #: the length as drawn: a count and its unit never split between two lines ("42 min")
    length_drawn = StringProperty("")

    def on_kv_post(self, _base):
        app = App.get_running_app()
        app.bind(u=self.refresh, portrait=self.refresh)   # the app refreshes it on a change
        self.bind(width=lambda *_a: self._fit_verdict(app), headline=lambda *_a:
                  self._fit_verdict(app))

    def on_pre_enter(self, *_args):
        self.refresh()

    def _fit_verdict(self, app) -> None:
        chip = app.fu * (120 if self.verdict == "WINNER" else 216)
        need = text_needs(False, self.headline, app.fu * theme.HEADLINE_FS, "Roboto", True,
                          None, "left")[0]
        self.verdict_fits = need + chip + app.u * 10 < self.width - app.u * 20

    def refresh(self, *_args) -> None:
        app = App.get_running_app()
        if app.session is None or not app.session.over or app.session.rules.name != "witchs_brew":
            return
        self.headline = app.prompt["text"].replace("Game over: ", "")
        results = app.session.rules.results(app.session.state)
        self.tie_break = tie_break_words(results)
        self.verdict = "WINNER" if sum(r["winner"] for r in results) == 1 else "SHARED VICTORY"
        self._fit_verdict(app)
        game_id = getattr(app.session, "game_id", None)
        self.length = ("Played in " + game_length(*app.store.played(game_id))
                       if game_id is not None and app.store is not None else "")
        self.length_drawn = self.length.replace(" min", "\u00a0min").replace(
            " h ", "\u00a0h\u00a0")
        players = app.session.state["players"]
        box = self.ids.standings
        box.clear_widgets()
        above = 0    # places as in sport (1, 2, 3, 3, 5), as Cauldron's and BG Stats' are
        for place in ranked(results):
            for r in place:
                box.add_widget(self._row(app, above + 1, r, players[r["seat"]]))
            above += len(place)

    def _row(self, app, place: int, result: dict, player: dict) -> BoxLayout:
        """One seat: place, name in its colour, potion points + vials = points, drops + gold."""
        u, widths = app.u, columns(app.portrait)
        winner = result["winner"]
        row = Box(spacing=u * (6 if app.portrait else 8), padding=(u * 6, 0),
                  bg=theme.SURFACE_HI if winner else theme.SURFACE, radius=8)
        ink = theme.ACCENT if winner else theme.INK
        potions = sum(p["points"] for p in player["potions"])
        count = len(player["potions"])
        # the place, the name and the points are read from every chair (``far``)
        row.add_widget(_far(Txt(text=str(place), fs=theme.FIGURE_FS, bold=True, ink=ink,
                                halign="center", size_hint_x=None, width=u * widths["place"])))
        row.add_widget(_far(Chip(text=result["name"], fill=theme.rgba(player["colour"]),
                                 ink=theme.ink_on(player["colour"]), fs=theme.NAME_FS)))
        cells = (("potions", f"{potions} ({count})", theme.DETAIL_FS),
                 ("vials", f"+ {player['vials']}", theme.DETAIL_FS),
                 ("score", f"= {result['score']}", theme.FIGURE_FS),
                 ("tiebreak", str(result["tiebreak"]), theme.DETAIL_FS))
        for key, text, fs in cells:
            cell = Txt(text=text, fs=fs, bold=key == "score", ink=ink, halign="center",
                       size_hint_x=None, width=u * widths[key])
            row.add_widget(_far(cell) if key == "score" else cell)
        row.seat_name = result["name"]
        return row
