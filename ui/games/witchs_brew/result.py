"""Game over: the podium, the winner(s) and a shared victory said plainly.

Standings come from the rules (``results``: score, tie-break, winner), never recounted here."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from ui import theme
from ui.widgets.common import Box, Chip, Txt

PODIUM = (1, 0, 2)  # left to right: 2nd, 1st, 3rd
HEIGHTS = (1.0, 0.72, 0.5)


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


class ResultScreen(Screen):
    headline = StringProperty("")
    others = StringProperty("")

    def on_kv_post(self, _base):
        app = App.get_running_app()
        app.bind(revision=self.refresh, u=self.refresh)

    def on_pre_enter(self, *_args):
        self.refresh()

    def refresh(self, *_args) -> None:
        app = App.get_running_app()
        if app.session is None or not app.session.over or app.session.rules.name != "witchs_brew":
            return
        self.headline = app.prompt["text"].replace("Game over: ", "")
        places = ranked(app.session.rules.results(app.session.state))
        colours = [p["colour"] for p in app.session.state["players"]]
        box = self.ids.podium
        box.clear_widgets()
        for index in PODIUM:
            if index < len(places):
                box.add_widget(self._step(app, index, places[index], colours))
            else:
                box.add_widget(BoxLayout())
        self.others = "     ".join(
            f"{n + 1}.  " + ", ".join(f"{r['name']} {r['score']}" for r in place)
            for n, place in enumerate(places) if n >= len(PODIUM))

    def _step(self, app, index: int, place: list[dict], colours: list[str]) -> BoxLayout:
        u = app.u
        column = BoxLayout(orientation="vertical", spacing=u * 4)
        column.add_widget(BoxLayout(size_hint_y=1 - HEIGHTS[index]))
        for r in place:
            column.add_widget(Chip(text=r["name"], fill=theme.rgba(colours[r["seat"]]),
                                   ink=theme.ink_on(colours[r["seat"]]),
                                   fs=24 if index == 0 else 21, size_hint_y=None,
                                   height=u * (40 if index == 0 else 34)))
        column.add_widget(Txt(text=f"{place[0]['score']} points", fs=22, bold=True,
                              halign="center", size_hint_y=None, height=u * 30))
        if index == 0:
            word = "WINNER" if len(place) == 1 else "SHARED VICTORY"
            column.add_widget(Txt(text=word, fs=20, bold=True, ink=theme.ACCENT,
                                  halign="center", size_hint_y=None, height=u * 26))
        block = Box(size_hint_y=HEIGHTS[index], bg=theme.ACCENT if index == 0 else theme.SURFACE_HI)
        block.add_widget(Txt(text=str(index + 1), fs=48, bold=True, halign="center",
                             ink=theme.DARK_INK if index == 0 else theme.INK))
        column.add_widget(block)
        column.place = [r["name"] for r in place]
        return column
