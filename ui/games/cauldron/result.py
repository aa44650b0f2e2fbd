"""Cauldron's end: every seat in one large row, best first (ties share a place), with what made
its score (Magik, the Potions brewed, the milestones it triggered), how long the game took,
"Play again" with the same seats, and the play as a QR code for BG Stats.

The standings are the rules' podium (``summary["podium"]``), never recounted here; the length
comes from the store (``played``: the game's start and finish)."""

from __future__ import annotations


from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.games.cauldron import data as d
from ui import theme
from ui.text.played import hours_minutes, local_clock, minutes_played
from ui.games.cauldron.common import CHARACTER_NAMES
from ui.widgets.common import Box, Chip

ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def places(podium: list[dict]) -> list[list[dict]]:
    """[[first], [second, second], ...]: the podium grouped by place, best first."""
    out: list[list[dict]] = []
    for entry in podium:
        if out and out[-1][0]["place"] == entry["place"]:
            out[-1].append(entry)
        else:
            out.append([entry])
    return out


def length_text(started: str | None, finished: str | None) -> str:
    """'Played 1 h 05 min (19:02 to 20:07)', the clock times in local time."""
    minutes = minutes_played(started, finished) if finished else None
    if minutes is None:
        return ""
    return (f"Played {hours_minutes(minutes)} "
            f"({local_clock(started)} to {local_clock(finished)})")


def breakdown(summary: dict, seat: int) -> str:
    """'3 Potions brewed  -  triggered Magik Overflow, The Breaking'."""
    player = summary["players"][seat]
    brews = player.get("brews", 0)
    parts = [f"{brews} Potion{'s' if brews != 1 else ''} brewed"]
    marks = [d.MILESTONE_TEXT[k] for k, m in summary["milestones"].items()
             if m["reached"] and m["by"] == player["name"]]
    parts.append("triggered " + ", ".join(marks) if marks else "no milestone triggered")
    return "  -  ".join(parts)


class CauldronResultScreen(Screen):
    headline = StringProperty("")
    length = StringProperty("")

    def on_kv_post(self, _base):
        App.get_running_app().bind(u=self.refresh, portrait=self.refresh)   # the app refreshes it on a change

    def on_pre_enter(self, *_args):
        self.refresh()

    def refresh(self, *_args) -> None:
        app = App.get_running_app()
        summary = app.summary
        if app.session is None or not summary.get("over") or summary.get("game") != "cauldron":
            return
        self.headline = app.prompt["text"]
        self.length = self._length(app)
        colours = [p["colour"] for p in app.session.state["players"]]
        box = self.ids.standings
        box.clear_widgets()
        rows = [r for place in places(summary["podium"]) for r in place]
        tallest = 142 if app.portrait else 76    # portrait: the breakdown under the name
        room = box.height - app.u * 6 * len(rows)
        row_h = max(app.u * 48, min(app.u * tallest, room / max(1, len(rows))))
        # the winner's row as tall as its breakdown needs at the detail size where the others
        # keep a finger's height; theirs then says what fits (their Magik and place always)
        first = self._row(app, rows[0], summary, colours[rows[0]["seat"]], row_h) if rows \
            else None
        if first is not None:
            # portrait: the breakdown under the place, name and Magik (their line of 44)
            width = box.width - app.u * 20 if app.portrait else \
                box.width - app.u * (20 + 30) - app.fu * (64 + 160 + 150)
            need = first.said_needs(app.fu, width) + (app.u * 46 if app.portrait else 0)
            rest = (room - need) / max(1, len(rows) - 1)
            if need > row_h and rest >= app.u * 40:
                first.height, row_h = need, min(app.u * tallest, rest)
        for i, r in enumerate(rows):
            row = first if i == 0 else self._row(app, r, summary, colours[r["seat"]], row_h)
            box.add_widget(row)

    @staticmethod
    def _length(app) -> str:
        game_id = getattr(app.session, "game_id", None)
        if game_id is None:
            return ""
        try:
            return length_text(*app.store.played(game_id))
        except Exception:  # noqa: BLE001 - a game kept nowhere has no length to show
            return ""

    def _row(self, app, r: dict, summary: dict, hex_colour: str, row_h: float) -> BoxLayout:
        u = app.u
        first = r["winner"]
        row = Box(size_hint_y=None, height=row_h, spacing=u * 10, padding=(u * 10, u * 4),
                  bg=theme.SURFACE_HI if first else theme.SURFACE)
        card = row
        if app.portrait:   # the place, name and Magik on a line, the breakdown under them
            row.orientation, row.spacing = "vertical", u * 2
            line = BoxLayout(size_hint_y=None, height=u * 44, spacing=u * 10)
            row.add_widget(line)
            row = line
        row.add_widget(_label(ORDINAL.get(r["place"], f"{r['place']}th"), theme.FIGURE_FS, u,
                              width=app.fu * 64, ink=theme.ACCENT if first else theme.INK,
                              far=True))
        character = CHARACTER_NAMES.get(summary["players"][r["seat"]]["character"] or "", "")
        name = Chip(text=r["name"], fill=theme.rgba(hex_colour), ink=theme.ink_on(hex_colour),
                    fs=theme.NAME_FS, size_hint_x=None, width=app.fu * 160)
        name.far = True
        row.add_widget(name)
        title = "Grand Infuser" if first else character
        if first and character:
            title += f" ({character})"
        ink = "#FFC24B" if first else "#A9B3BF"
        # six seats at 800x480: the breakdown alone
        roomy = row_h >= u * (110 if app.portrait else 70)
        words = f"[b][color={ink}]{title}[/color][/b]\n" if title and (roomy or first) else ""
        said = _label(words + breakdown(summary, r["seat"]), theme.DETAIL_FS, u)
        if not first:
            # a short row: its breakdown's first line alone where the whole does not fit
            room = row_h - u * (54 if app.portrait else 8)   # under the portrait's name line
            said.bind(texture_size=lambda w, ts, h=room: _first_line(w, h))
        card.said_needs = lambda fu, width, s=said: _needs(s, fu, width)
        if app.portrait:
            row.add_widget(Widget())
        else:
            row.add_widget(said)
        row.add_widget(_label(f"{r['magik']} Magik", theme.FIGURE_FS, u, width=app.fu * 150,
                              halign="right", far=True))
        if app.portrait:
            card.add_widget(said)
        card.place, card.name = r["place"], r["name"]
        return card


def _needs(label: Label, fu: float, width: float) -> float:
    """The height a row needs for its breakdown, wrapped at ``width``."""
    from ui.widgets.common import text_needs

    return text_needs(True, label.text, label.font_size, label.font_name, False,
                      max(1.0, width), "left")[1] + fu * 12


def _first_line(label: Label, height: float) -> None:
    """Say less, never cut: the breakdown's first part alone in a row too short for it."""
    if label.texture_size[1] > height and "  -  " in label.text:
        label.text = label.text.split("  -  ")[0]


def _label(text: str, fs: float, u: float, width: float | None = None, ink=theme.INK,
           halign: str = "left", far: bool = False) -> Label:
    """Wraps at its width; never shortened. ``far``: a figure read from every chair."""
    fu = App.get_running_app().fu
    lab = Label(text=text, font_size=fu * fs, bold=fs > theme.DETAIL_FS, color=ink,
                halign=halign, valign="middle", markup=True)
    lab.far = far
    lab.bind(size=lambda w, s: setattr(w, "text_size", (s[0], None)))
    if width is not None:
        lab.size_hint_x, lab.width = None, width
    return lab
