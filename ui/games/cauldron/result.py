"""Cauldron's end: the Grand Infuser on the top step, the others by Magik (ties share a place).

The standings are the rules' podium (``summary["podium"]``), never recounted here."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from ui import theme
from ui.widgets.common import Box, Chip, Txt

PODIUM = (1, 0, 2)  # left to right: 2nd, 1st, 3rd
HEIGHTS = (1.0, 0.72, 0.5)


def places(podium: list[dict]) -> list[list[dict]]:
    """[[first], [second, second], ...]: the podium grouped by place, best first."""
    out: list[list[dict]] = []
    for entry in podium:
        if out and out[-1][0]["place"] == entry["place"]:
            out[-1].append(entry)
        else:
            out.append([entry])
    return out


class CauldronResultScreen(Screen):
    headline = StringProperty("")
    others = StringProperty("")

    def on_kv_post(self, _base):
        App.get_running_app().bind(revision=self.refresh, u=self.refresh)

    def on_pre_enter(self, *_args):
        self.refresh()

    def refresh(self, *_args) -> None:
        app = App.get_running_app()
        summary = app.summary
        if app.session is None or not summary.get("over") or summary.get("game") != "cauldron":
            return
        self.headline = app.prompt["text"]
        ranked = places(summary["podium"])
        colours = [p["colour"] for p in app.session.state["players"]]
        characters = [p["character"] for p in summary["players"]]
        box = self.ids.podium
        box.clear_widgets()
        for index in PODIUM:
            if index < len(ranked):
                box.add_widget(self._step(app, index, ranked[index], colours, characters))
            else:
                box.add_widget(BoxLayout())
        self.others = "     ".join(
            f"{place[0]['place']}.  " + ", ".join(f"{r['name']} {r['magik']}" for r in place)
            for n, place in enumerate(ranked) if n >= len(PODIUM))

    def _step(self, app, index: int, place: list[dict], colours, characters) -> BoxLayout:
        u = app.u
        column = BoxLayout(orientation="vertical", spacing=u * 4)
        column.add_widget(BoxLayout(size_hint_y=1 - HEIGHTS[index]))
        for r in place:
            character = characters[r["seat"]]
            name = r["name"] + (f"  ({character.title()})" if character else "")
            column.add_widget(Chip(text=name, fill=theme.rgba(colours[r["seat"]]),
                                   ink=theme.ink_on(colours[r["seat"]]),
                                   fs=23 if index == 0 else 20, size_hint_y=None,
                                   height=u * (40 if index == 0 else 34)))
        column.add_widget(Txt(text=f"{place[0]['magik']} Magik", fs=22, bold=True,
                              halign="center", size_hint_y=None, height=u * 30))
        if index == 0 and place[0]["winner"]:
            column.add_widget(Txt(text="GRAND INFUSER", fs=20, bold=True, ink=theme.ACCENT,
                                  halign="center", size_hint_y=None, height=u * 26))
        block = Box(size_hint_y=HEIGHTS[index], bg=theme.ACCENT if index == 0 else theme.SURFACE_HI)
        block.add_widget(Txt(text=str(place[0]["place"]), fs=48, bold=True, halign="center",
                             ink=theme.DARK_INK if index == 0 else theme.INK))
        column.add_widget(block)
        column.place = [r["name"] for r in place]
        return column
