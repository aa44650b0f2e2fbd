"""The Magik track, 0 to 35: one lane per seat with its token (initial on the seat's colour),
the two Magik zones shaded and named, the milestones the table entered marked on their numbers
and named on tags under the lanes, joined to their positions, so the table reads them from a
metre without a key (who has the fewest and the most Magik: the buttons under it). Everything
comes from ``summary``.

It is drawn on the canvas (text as cached textures, not one Label per number): on a Pi a redraw
stays cheap, and it redraws only when something it shows has changed. On a portrait screen
(``app.portrait``) each name sits on a line above its lane, so the 36 positions take the whole
width, and the tags are on two rows."""

from __future__ import annotations

from dataclasses import dataclass

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import BooleanProperty, ListProperty
from kivy.uix.widget import Widget

from companion.games.cauldron import data as d
from ui import theme
from ui.widgets.icons import disc

CELLS = d.WIN + 1  # 0..35
# the milestone tags under the lanes, in units: the detail size, read from a chair
TAG_FS, TAG_H = theme.DETAIL_FS, 32
#: a milestone's tag in one word, where the row holds no more at the detail size
TAG_WORD = {"magik_overflow": "Overflow", "rituals_of_power": "Rituals",
            "the_breaking": "Breaking"}
#: units: the words of the zones and the track's numbers, at the type scale's floor
WORDS_FS = theme.DETAIL_FS
ENTHUSIASM_BG = theme.rgba("#1F4D3A")
ALCHEMY_BG = theme.rgba("#3E2F5C")
WIN_BG = theme.rgba("#7A5A12")
_textures: dict[tuple, object] = {}
#: Texts drawn shortened (an ellipsis) since the last ``clear()``: a test checks names never are.
SHORTENED: set[str] = set()


def texture(text: str, size: float, bold: bool = True, width: float | None = None):
    """White text as a texture (tinted by the Color before it), cached by text and size;
    shortened with an ellipsis only if it is wider than ``width``."""
    key = (text, round(size, 1), bold, None if width is None else round(width))
    if key not in _textures:
        if len(_textures) > 2000:
            _textures.clear()
        label = CoreLabel(text=text, font_size=size, bold=bold, color=(1, 1, 1, 1))
        label.refresh()
        if width and label.texture.width > width:
            SHORTENED.add(text)
            label = CoreLabel(text=text, font_size=size, bold=bold, color=(1, 1, 1, 1),
                              text_size=(width, None), shorten=True, shorten_from="right",
                              max_lines=1)
            label.refresh()
        _textures[key] = label.texture
    return _textures[key]


def text_at(text: str, size: float, colour, x: float, y: float, w: float, h: float,
            align: str = "center", bold: bool = True) -> None:
    """Draw ``text`` in the box (x, y, w, h), vertically centred, shortened to fit."""
    tex = texture(text, size, bold, width=w)
    tw, th = tex.size
    tx = x + (w - tw) / 2 if align == "center" else (x if align == "left" else x + w - tw)
    Color(*colour)
    Rectangle(texture=tex, pos=(round(tx), round(y + (h - th) / 2)), size=tex.size)


@dataclass(frozen=True)
class DrawnText:
    """A text drawn on the canvas, as the layout check reads a Label's (its words, its size in
    pixels, bold, and ``far``: read from every chair), so the type scale's floor judges the
    track's texts too (tests/ui/layout_reading.py). None of the track's is far: the names and
    Magik on its lanes are a key to the tokens at the detail size (six lanes share the body),
    the seats' cards on the table say them at a name's size."""

    text: str
    font_size: float
    bold: bool
    far: bool = False
    font_name: str = "Roboto"    # what CoreLabel draws with, unless told


class CauldronTrack(Widget):
    """``show(summary, current_seat)`` draws it; it redraws itself when resized.
    ``drawn_texts``: every text the last drawing put on the canvas."""

    legend = BooleanProperty(True)
    legend_text = ListProperty([])     # the legend's parts, also for tests and screen readers

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._data = None
        self._drawn = None
        self.drawn_texts: list[DrawnText] = []
        self._f = 1.0
        self._redraw = Clock.create_trigger(lambda *_: self.draw())
        self.bind(size=self._redraw, pos=self._redraw, legend=self._redraw,
                  parent=self._redraw)

    def show(self, summary: dict, seat: int | None) -> None:
        self._data = (summary, seat)
        self._redraw()

    def draw(self) -> None:
        """Rebuild only when something it shows has changed (and only while on screen)."""
        if (self._data is None or self.get_root_window() is None
                or self.width < 50 or self.height < 50):
            return          # off screen: a resize during another game must not draw this one
        summary, current = self._data
        app = App.get_running_app()
        colours = [p["colour"] for p in app.session.state["players"]] if app.session else []
        key = (tuple(self.pos), tuple(self.size), self.legend, app.u, app.fu, app.portrait,
               current,
               tuple(colours),
               tuple((p["name"], p["magik"]) for p in summary["players"]), summary.get("winner"),
               str(summary["milestones"]), summary["lsp"], summary["hsp"])
        if key == self._drawn:
            return
        self._drawn = key
        self.canvas.clear()
        with self.canvas:
            self._f = app.fu       # the texts' unit: Large text's, as every Label's
            self._paint(summary, current, colours, app.u, app.portrait)

    def _text(self, text: str, size: float, colour, x: float, y: float, w: float, h: float,
              align: str = "center", bold: bool = True, far: bool = False) -> None:
        text_at(text, size, colour, x, y, w, h, align, bold)
        self.drawn_texts.append(DrawnText(text, size, bold, far))

    def _paint(self, summary, current, colours, u, tall: bool = False) -> None:
        players = summary["players"]
        self.drawn_texts = []
        x0, y0 = self.pos
        w, h = self.size
        wf = WORDS_FS * self._f
        # the zones' words, the numbers (a line of their size): the lanes get the rest
        zone_h = num_h = max(30 * u, 1.2 * wf)
        self._tag_rows = 2 if tall else 1
        tags_h = (self._tag_h(u) + 4 * u) * self._tag_rows if self.legend else 0
        lanes_top = y0 + h - zone_h - num_h
        bottom = y0 + tags_h
        lane_h = (lanes_top - bottom) / max(1, len(players))
        # portrait: the name on a line above the lane's token, the track the whole width
        self._name_h = 26 * u if tall else 0
        name_fs = max(wf, min(theme.NAME_FS * u, (self._name_h or lane_h) * 0.74))
        name_w, longest = _name_column(players, name_fs, u)
        if tall:
            name_w = 0
        elif longest > name_w - 64 * u:    # a long name: smaller type (the floor), not "Chris..."
            name_fs = max(wf, name_fs * (name_w - 64 * u) / longest)
        cell = (w - name_w) / CELLS
        cx = x0 + name_w
        marks = {m["position"]: m["reached"] for m in summary["milestones"].values()
                 if m["position"] is not None}
        for first, last, colour in ((0, d.ENTHUSIASM_MAX, ENTHUSIASM_BG),
                                    (d.ADVANCED_ALCHEMY, d.NOT_BY_BREWING_MAX, ALCHEMY_BG),
                                    (d.WIN, d.WIN, WIN_BG)):
            Color(*colour)
            Rectangle(pos=(cx + first * cell, bottom), size=((last - first + 1) * cell,
                                                             lanes_top + num_h - bottom))
        for i in range(len(players)):
            y = lanes_top - (i + 1) * lane_h
            Color(*(theme.SURFACE_HI if i == current else theme.SURFACE))
            if tall:
                Rectangle(pos=(x0, y + lane_h - self._name_h), size=(w, self._name_h - 1))
            else:
                Rectangle(pos=(x0, y + 1), size=(name_w - 4 * u, lane_h - 2))
            Color(*theme.LINE)
            Line(points=[cx, y, cx + cell * CELLS, y], width=1)
        for k in range(0, CELLS, 5):
            Line(points=[cx + k * cell, bottom, cx + k * cell, lanes_top], width=1)
        for position, used in marks.items():
            # as wide as its two digits at the detail size (a cell is narrower), centred
            wide = max(cell, texture(str(position), wf).width + 4 * u)
            Color(*(theme.GREY_BTN if used else theme.ACCENT))
            Rectangle(pos=(cx + (position + 0.5) * cell - wide / 2, lanes_top), size=(wide, num_h))
            Color(theme.ACCENT[0], theme.ACCENT[1], theme.ACCENT[2], 0.45)
            Line(points=[cx + (position + 0.5) * cell, bottom,
                         cx + (position + 0.5) * cell, lanes_top], width=1.2 * u)
        top = lanes_top + num_h
        if not tall:
            self._text("Magik", wf, theme.MUTED, x0 + 4 * u, top, name_w - 8 * u,
                       zone_h, "left")
        self._text("Enthusiasm", wf, theme.INK, cx, top,
                   (d.ENTHUSIASM_MAX + 1) * cell, zone_h)
        # portrait: narrow cells, so the name runs from two cells before its zone to the end
        early = 2 if tall else 0
        room = (d.NOT_BY_BREWING_MAX - d.ADVANCED_ALCHEMY + 1 + 2 * early) * cell
        # the zone's whole name where its cells hold it, else its last word (never cut)
        zone = "Advanced Alchemy" if texture("Advanced Alchemy", wf).width <= room \
            else "Alchemy"
        self._text(zone, wf, theme.INK, cx + (d.ADVANCED_ALCHEMY - early) * cell, top,
                   room, zone_h)
        for k in numbers(cell * WORDS_FS / wf, marks):
            ink = (theme.INK if marks[k] else theme.DARK_INK) if k in marks else (
                theme.INK if k % 5 == 0 else theme.MUTED)
            self._text(str(k), wf, ink, cx + (k - 0.5) * cell, lanes_top, 2 * cell,
                       num_h, bold=k % 5 == 0 or k in marks)
        for i, p in enumerate(players):
            self._lane(i, p, summary, current, colours, x0, cx, cell,
                       lanes_top - (i + 1) * lane_h, name_w, lane_h, name_fs, u)
        if self.legend:
            self._tags(summary, cx, cell, y0, bottom, u)

    def _lane(self, i, p, summary, current, colours, x0, cx, cell, y, name_w, lane_h, fs,
              u) -> None:
        hex_colour = colours[i] if i < len(colours) else "#FFFFFF"
        name_h = self._name_h
        if name_h:   # portrait: name and Magik on the lane's top line, the width of the track
            name_w, lane_h, y = self.width, lane_h - name_h, y + lane_h - name_h
            line_h, y_token = name_h, y - (lane_h)
        else:
            line_h, y_token = lane_h, y
        self._text(p["name"], fs, theme.ACCENT if i == current else theme.INK, x0 + 6 * u, y,
                   name_w - 58 * u, line_h, "left")
        floor = WORDS_FS * self._f
        self._text(str(p["magik"]), max(floor, min(theme.FIGURE_FS * u, line_h * 0.74)),
                   theme.INK, x0 + name_w - 52 * u, y, 42 * u, line_h, "right")
        y = y_token
        size = max(14 * u, min(lane_h - 2 * u, 44 * u))    # as large as the lane allows
        position = max(0, min(d.WIN, p["magik"]))
        tx, ty = cx + (position + 0.5) * cell - size / 2, y + (lane_h - size) / 2
        Color(*theme.DARK_INK)
        disc(pos=(tx - 2 * u, ty - 2 * u), size=(size + 4 * u, size + 4 * u))
        won = summary.get("winner") == p["name"]
        Color(*(theme.ACCENT if won else theme.rgba(hex_colour)))
        disc(pos=(tx, ty), size=(size, size))
        if size * 0.68 >= floor:    # the initial where it is read; else the colour alone
            self._text(p["name"][:1].upper(), size * 0.68, theme.ink_on(hex_colour), tx, ty, size,
                       size)

    def _tag_h(self, u: float) -> float:
        return max(TAG_H * u, 1.2 * TAG_FS * self._f)   # Large text: a line of its size

    def _tags(self, summary, cx, cell, y0, lanes_bottom, u) -> None:
        """Each milestone's name on a tag under its position (and the 35 that wins), joined to
        its line through the lanes; tags that would overlap are moved apart along the row, in
        the longest words that fit (the fewest / most Magik: the buttons under it)."""
        marks = sorted((m["position"], key, m) for key, m in summary["milestones"].items()
                       if m["position"] is not None)
        forms = []
        for full in (True, False, None):   # None: each name in a word, the fewest words
            said = []
            for position, key, m in marks:
                name = d.MILESTONE_TEXT[key] if full is not None else TAG_WORD[key]
                by = f"used: {m['by']}" if full and m["by"] else (m["by"] or "used")
                said.append((position, f"{position} {name}" + (f" ({by})" if m["reached"] else ""),
                             "used" if m["reached"] else "open"))
            said.append((d.WIN, f"{d.WIN} wins" + (" (by brewing)" if full else ""), "win"))
            forms.append(said)
        fs, pad, gap = TAG_FS * self._f, 8 * u, 6 * u
        row = (cx, cx + cell * CELLS)
        rows = self._tag_rows        # portrait: every other tag on a second row
        for said in forms:
            widths = [texture(text, fs).width + 2 * pad for _, text, _ in said]
            if all(sum(widths[r::rows]) + gap * (len(widths[r::rows]) - 1) <= row[1] - row[0]
                   for r in range(rows)) or said is forms[-1]:
                break
        anchors = [cx + (position + 0.5) * cell for position, _, _ in said]
        lefts = [0.0] * len(said)
        for r in range(rows):
            lefts[r::rows] = spread(anchors[r::rows], widths[r::rows], row, gap)
        self.legend_text = [text for _, text, _ in said]
        tag_h = self._tag_h(u)
        for n, ((position, text, kind), anchor, left, width) in enumerate(
                zip(said, anchors, lefts, widths)):
            tag_y = y0 + (rows - 1 - n % rows) * (tag_h + 4 * u)
            fill, ink = {"open": (theme.ACCENT, theme.DARK_INK),
                         "used": (theme.GREY_BTN, theme.INK),
                         "win": (WIN_BG, theme.INK)}[kind]
            Color(*fill)
            Line(points=[anchor, lanes_bottom, min(max(anchor, left + pad), left + width - pad),
                         tag_y + tag_h], width=1.2 * u)
            Rectangle(pos=(left, tag_y), size=(width, tag_h))
            self._text(text, fs, ink, left, tag_y, width, tag_h)


def spread(anchors: list[float], widths: list[float], row: tuple[float, float],
           gap: float) -> list[float]:
    """Left edges for boxes centred as near their anchors as the row allows, in order, none
    overlapping: pushed right past the one before, then back left from the row's end."""
    lefts = [min(max(a - wd / 2, row[0]), row[1] - wd) for a, wd in zip(anchors, widths)]
    for i in range(1, len(lefts)):
        lefts[i] = max(lefts[i], lefts[i - 1] + widths[i - 1] + gap)
    for i in range(len(lefts) - 1, -1, -1):
        limit = row[1] if i == len(lefts) - 1 else lefts[i + 1] - gap
        lefts[i] = min(lefts[i], limit - widths[i])
    return [max(left, row[0]) for left in lefts]


def numbers(cell: float, marks: dict) -> list[int]:
    """The positions whose numbers the axis says, at the detail size: each where a cell (in
    units) holds two digits, else the fives, the milestones and the 35 that wins, a five left
    out beside a milestone (their digits would touch)."""
    if cell >= 30:
        return list(range(CELLS))
    said = set(marks) | {d.WIN}
    return sorted(said | {k for k in range(0, CELLS, 5)
                          if not any(abs(k - m) == 1 for m in said)})


def _name_column(players, fs: float, u: float) -> tuple[float, float]:
    """Wide enough for the longest name at the lane's type (within 118 to 210 units), and that
    name's width."""
    longest = max((texture(p["name"], fs).width for p in players), default=0)
    return max(118 * u, min(longest + 64 * u, 210 * u)), longest
