"""The Cauldron Quest board drawn with the canvas: the wizard's circle, six paths to the central
cauldron, every space, the potion bottles (numbered, with their ingredient once revealed), the
obstacles, the wizard's hat; and the spaces the team may tap now, ringed in gold.

Where the spaces are comes from the game's settings (``circle_spaces``, ``path_spaces``,
``obstacle_space``) in the summary; path 1 is at the top and the circle counts clockwise, as
the space names do (``c0`` is where path 1 begins). A tap names a space (or the cauldron) to the
screen, which decides what it means; the board knows no rules. What lies in the board's box
(its corners' buttons and words) is kept off the wizard's circle: the board takes the largest
circle that clears it (``placed``).
"""

from __future__ import annotations

import math
from typing import Any, Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Line
from kivy.properties import DictProperty, ListProperty, ObjectProperty
from kivy.uix.floatlayout import FloatLayout

from ui import theme
from ui.games.quest import draw
from ui.games.quest.pieces import reach, spread
from ui.widgets.icons import disc

PATHS = (1, 2, 3, 4, 5, 6)
CAULDRON = "cauldron"
PATH_INK = theme.rgba("#7A6248")
#: the wizard's ring's reach over the board's radius (its band, a bottle or the hat on it),
#: which the board keeps clear of what lies in its corners, and the least share of its box's
#: radius it takes to do so
RING_OUT, SHRINK = 0.9, 0.8
#: units from a live space's centre within which a finger picks it (a 48-unit target: 9 mm on
#: the 7-inch panel)
TOUCH_REACH = 24
#: units between two pieces' fingertips (a bottle's, the wizard's): crowded pieces are drawn
#: apart to 2 * TOUCH_REACH + PIECE_GAP (ui/games/quest/pieces.py)
PIECE_GAP = 4
WIZARD = "wizard"


class QuestBoard(FloatLayout):
    """``summary``: the game's summary. ``targets``: spaces to ring in gold, with a gold dot
    (tap to go there). ``selected``: bottles picked so far (on a gold disc). ``choosable``:
    bottles the team may pick now (ringed in white).
    ``on_pick(space)`` is called with the space (or "cauldron") a finger touched."""

    summary = DictProperty({})
    targets = ListProperty([])
    selected = ListProperty([])
    choosable = ListProperty([])
    on_pick = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._redraw = Clock.create_trigger(self.redraw, -1)
        self.bind(pos=self._redraw, size=self._redraw, summary=self._redraw,
                  targets=self._redraw, selected=self._redraw, choosable=self._redraw)

    # -- geometry --------------------------------------------------------------------------
    @property
    def settings(self) -> dict[str, Any]:
        return self.summary.get("settings") or {"circle_spaces": 24, "path_spaces": 5,
                                                 "obstacle_space": 2}

    def geometry(self) -> dict[str, float]:
        s = self.settings
        cx, cy, radius = self.placed()
        ring_r = radius * 0.8
        pot_r = radius * 0.2
        step = (ring_r - pot_r) / (s["path_spaces"] + 0.75)
        arc = 2 * math.pi * ring_r / s["circle_spaces"]
        return {"R": radius, "ring": ring_r, "pot": pot_r, "step": step, "cx": cx, "cy": cy,
                "rc": min(arc * 0.36, radius * 0.075), "rp": min(step * 0.4, radius * 0.065)}

    def corners(self) -> list[tuple[float, float, float, float]]:
        """What lies over the board's box (its siblings: Home, the turn, Break obstacle, the
        paths blocked), as (x, y, right, top) in the board's coordinates."""
        if self.parent is None:
            return []
        return [(w.x, w.y, w.right, w.top) for w in self.parent.children
                if w is not self and w.opacity > 0 and w.width > 0 and w.height > 0]

    def placed(self) -> tuple[float, float, float]:
        """The board's centre and radius: the largest circle (down to SHRINK of the box's)
        whose wizard's ring (RING_OUT of the radius: its band, the bottles and the hat on it)
        clears what lies in the box's corners, as near the box's middle as they let it be
        (a ring's spaces once lay under Break obstacle and the paths blocked)."""
        key = (tuple(self.pos), tuple(self.size), tuple(self.corners()))
        if key != getattr(self, "_placed_key", None):
            self._placed_key, self._placed = key, self._place(*key)
        return self._placed

    @staticmethod
    def _place(pos, size, corners) -> tuple[float, float, float]:
        (x, y), (w, h) = pos, size
        cx, middle, most = x + w / 2, y + h / 2, min(w, h) / 2
        radius = most
        for radius in (most * (1 - k / 100) for k in range(int((1 - SHRINK) * 100) + 1)):
            low, high, out = y + radius, y + h - radius, radius * RING_OUT
            for x0, y0, x1, y1 in corners:
                dx = 0.0 if x0 <= cx <= x1 else min(abs(cx - x0), abs(cx - x1))
                if dx >= out:
                    continue
                reach = math.sqrt(out * out - dx * dx)
                if (y0 + y1) / 2 < middle:
                    low = max(low, y1 + reach)      # below the centre: the centre above it
                else:
                    high = min(high, y0 - reach)
            if low <= high:
                return cx, min(max(middle, low), high), radius
        return cx, middle, radius

    def angle(self, space: str) -> float:
        """The direction of a circle space or a path, in radians (path 1 straight up)."""
        if space.startswith("c"):
            n = self.settings["circle_spaces"]
            return math.pi / 2 - int(space[1:]) * 2 * math.pi / n
        path = int(space[1:].split(".")[0])
        return math.pi / 2 - (path - 1) * math.pi / 3

    def xy(self, space: str) -> tuple[float, float]:
        """Where a space's centre is drawn, in window-parent coordinates."""
        g = self.geometry()
        cx, cy = g["cx"], g["cy"]
        if space == CAULDRON:
            return cx, cy
        a = self.angle(space)
        if space.startswith("c"):
            r = g["ring"]
        else:
            r = g["ring"] - int(space.split(".")[1]) * g["step"]
        return cx + r * math.cos(a), cy + r * math.sin(a)

    def spaces(self) -> list[str]:
        s = self.settings
        out = [f"c{i}" for i in range(s["circle_spaces"])]
        out += [f"p{p}.{k}" for p in PATHS for k in range(1, s["path_spaces"] + 1)]
        return out

    def live(self) -> list[str]:
        """The spaces a tap means something on now: the gold targets and the spaces of the
        bottles the team may pick (or has picked)."""
        bottles = self.summary.get("bottles", {})
        held = {str(b) for b in [*self.choosable, *self.selected]}
        return [*self.targets, *(space for b, space in bottles.items() if b in held)]

    def piece_space(self, piece: str) -> str:
        """The space a piece stands on: ``b3`` is bottle 3, ``wizard`` the wizard."""
        if piece == WIZARD:
            return f"c{self.summary.get('wizard', 0)}"
        return self.summary["bottles"][piece[1:]]

    def pieces(self) -> dict[str, tuple[float, float]]:
        """Where each piece on the board is drawn (``piece_space``'s keys): on its space, or
        drawn apart from a piece too near for a fingertip each (``pieces.spread``)."""
        if not self.summary:
            return {}
        keys = [f"b{b}" for b, space in self.summary.get("bottles", {}).items()
                if space != CAULDRON] + [WIZARD]
        homes = {k: self.xy(self.piece_space(k)) for k in keys}
        g = self.geometry()
        u = App.get_running_app().u
        key = (tuple(sorted(homes.items())), u, g["R"])
        if key != getattr(self, "_pieces_key", None):
            least = (2 * TOUCH_REACH + PIECE_GAP) * u
            self._pieces_key = key
            # within the board's rim (a fingertip's half inside it), never off the ring
            within = max(g["ring"], g["R"] * 0.95 - least / 2)
            self._pieces = spread(homes, least, (g["cx"], g["cy"]), within)
        return self._pieces

    def piece_at(self, x: float, y: float) -> str | None:
        """The piece whose fingertip (within TOUCH_REACH units of where it is drawn, less only
        where two are too near: never one over another's) a finger at (x, y) is on."""
        near = self._near_pieces(x, y)
        return min(near)[1] if near else None

    def _near_pieces(self, x: float, y: float) -> list[tuple[float, str]]:
        """(distance, piece) for each piece whose fingertip (x, y) is on."""
        places = self.pieces()
        u = App.get_running_app().u
        reaches = reach(places, TOUCH_REACH * u, PIECE_GAP * u)
        return [(d, k) for k, (px, py) in places.items()
                if (d := math.hypot(x - px, y - py)) <= reaches[k]]

    def space_at(self, x: float, y: float) -> str | None:
        """The space (or "cauldron") under a finger at (x, y), or None. A piece (a bottle, the
        wizard) takes a finger within its own reach (``piece_at``), a gold target one within
        TOUCH_REACH units, the nearer of the two where both could: a circle space is about
        40 px from the next at 800x480, less than a fingertip, and the bottles drawn there are
        smaller still; the spaces nothing can happen on do not take the tap from those that
        can."""
        g = self.geometry()
        u = App.get_running_app().u
        near = [(d, self.piece_space(k)) for d, k in self._near_pieces(x, y)]
        near += [(d, space) for space in self.targets
                 if (d := math.hypot(x - self.xy(space)[0], y - self.xy(space)[1]))
                 <= TOUCH_REACH * u or (space == CAULDRON and d <= g["pot"] * 0.95)]
        if near:
            return min(near)[1]
        cx, cy = g["cx"], g["cy"]
        if math.hypot(x - cx, y - cy) <= g["pot"] * 0.95:
            return CAULDRON
        best, best_d = None, None
        for space in self.spaces():
            sx, sy = self.xy(space)
            d = math.hypot(x - sx, y - sy)
            near_enough = max(g["rc"] if space.startswith("c") else g["rp"],
                              g["step"] * 0.5) * 1.25
            if d <= near_enough and (best_d is None or d < best_d):
                best, best_d = space, d
        return best

    def on_touch_down(self, touch):
        if super().on_touch_down(touch):
            return True
        if not self.collide_point(*touch.pos) or not self.summary:
            return False
        space = self.space_at(*touch.pos)
        if space is None:
            return False
        if self.on_pick is not None:
            self.on_pick(space)
        return True

    # -- drawing ---------------------------------------------------------------------------
    def redraw(self, *_args) -> None:
        self.canvas.before.clear()
        if not self.summary or self.width < 50:
            return
        g = self.geometry()
        cx, cy = g["cx"], g["cy"]
        summary = self.summary
        with self.canvas.before:
            draw.disc(cx, cy, g["R"] * 0.995, draw.GOLD)
            draw.disc(cx, cy, g["R"] * 0.98, draw.BOARD)
            draw.ring(cx, cy, g["ring"], draw.RING, g["rc"] * 1.35)
            for p in PATHS:
                self._path(p, g)
            for space in self.spaces():
                x, y = self.xy(space)
                r = g["rc"] if space.startswith("c") else g["rp"]
                draw.disc(x, y, r + 1.5, draw.SPACE_EDGE)
                draw.disc(x, y, r, draw.SPACE)
            self._cauldron(g)
            for p in summary.get("obstacles", []):
                x, y = self.xy(f"p{p}.{self.settings['obstacle_space']}")
                draw.obstacle(x, y, g["step"] * 1.15)
            places = self.pieces()
            for k, (x, y) in places.items():
                self._leader(self.xy(self.piece_space(k)), (x, y), g)
            for b, space in summary.get("bottles", {}).items():
                if space != CAULDRON:
                    self._bottle(int(b), places[f"b{b}"], space, g)
            for space in self.targets:
                self._target(space, g)
            wx, wy = places[WIZARD]
            draw.hat(wx, wy + g["rc"] * 0.25, g["rc"] * 3.0)

    def _path(self, p: int, g: dict[str, float]) -> None:
        cx, cy = g["cx"], g["cy"]
        a = self.angle(f"p{p}.1")
        blocked = p in self.summary.get("obstacles", [])
        Color(*PATH_INK)
        inner, outer = g["pot"], g["ring"]
        Line(points=[cx + inner * math.cos(a), cy + inner * math.sin(a),
                     cx + outer * math.cos(a), cy + outer * math.sin(a)], width=g["rp"] * 0.9)
        a += math.pi / self.settings["circle_spaces"]   # between two circle spaces
        bx = cx + g["R"] * 0.925 * math.cos(a)
        by = cy + g["R"] * 0.925 * math.sin(a)
        badge = g["R"] * 0.062
        draw.disc(bx, by, badge + 1.5, draw.WHITE)
        draw.disc(bx, by, badge, theme.BAD if blocked else theme.rgba("#3A2F52"))
        draw.text(bx, by, str(p), badge * 1.45, draw.WHITE)

    def _cauldron(self, g: dict[str, float]) -> None:
        cx, cy = g["cx"], g["cy"]
        draw.cauldron(cx, cy, g["pot"] * 2.1)
        inside = len(self.summary.get("in_cauldron", []))
        needed = len(self.summary.get("needed", [])) or 3
        draw.text(cx, cy - g["pot"] * 0.25, f"{inside}/{needed}", g["pot"] * 0.62, draw.WHITE)

    def _target(self, space: str, g: dict[str, float]) -> None:
        x, y = self.xy(space)
        if space == CAULDRON:
            draw.ring(x, y, g["pot"] * 1.08, draw.GOLD, max(3.0, g["R"] * 0.02))
            return
        r = (g["rc"] if space.startswith("c") else g["rp"]) * 1.3
        Color(*draw.GOLD[:3], 0.45)
        disc(pos=(x - r, y - r), size=(2 * r, 2 * r))
        draw.ring(x, y, r, draw.GOLD, max(2.0, g["R"] * 0.014))
        draw.disc(x, y, r * 0.3, draw.GOLD)

    @staticmethod
    def _leader(home: tuple[float, float], at: tuple[float, float], g: dict[str, float]) -> None:
        """A piece drawn off its space (too near another): a line back to the space it is on,
        and a dot there."""
        if math.hypot(at[0] - home[0], at[1] - home[1]) < 1:
            return
        Color(*draw.WHITE)
        Line(points=[*home, *at], width=max(1.2, g["R"] * 0.008))
        draw.disc(*home, max(2.5, g["rp"] * 0.45), draw.WHITE)

    def _bottle(self, b: int, at: tuple[float, float], space: str, g: dict[str, float]) -> None:
        x, y = at
        on_circle = space.startswith("c")
        size = (g["rc"] * 2.5) if on_circle else min(g["step"] * 1.3, g["rp"] * 3.2)
        found = self.summary.get("revealed", {}).get(str(b))
        wrong = found is not None and found not in self.summary.get("needed", [])
        if b in self.selected:
            draw.disc(x, y, size * 0.62, draw.WHITE)
            draw.disc(x, y, size * 0.55, draw.GOLD)
        elif b in self.choosable:
            draw.ring(x, y, size * 0.62, draw.WHITE, max(1.5, g["R"] * 0.011))
        glass = theme.rgba("#7D8790") if wrong else draw.GLASS
        draw.bottle(x, y, size, str(b), glass=glass)
        if found:
            icon = size * 0.62
            ix, iy = x + size * 0.42, y + size * 0.3
            draw.disc(ix, iy, icon * 0.56, draw.GOLD if not wrong else draw.SPACE_EDGE)
            draw.ingredient(ix, iy, icon, found)


def bottle_targets(picker: Callable[[int], list[str]], bottles: list[int]) -> dict[int, list[str]]:
    """{bottle: spaces it may go to} for the bottles given, keeping those with somewhere to go."""
    out = {b: picker(b) for b in bottles}
    return {b: t for b, t in out.items() if t}
