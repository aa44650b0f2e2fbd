"""Cauldron Quest's board keeps the wizard's ring clear of what lies in its corners (once
the ring's spaces at the lower left and right lay half under Break obstacle and the paths
blocked, where the wizard could stand hidden): at 800x480, 1280x720 and portrait, every
circle space, with the band it is drawn on, is outside Home, the turn, Break obstacle and
the paths blocked."""

from __future__ import annotations

import math

from test_ui_quest_screens import start
from ui_helpers import frames, resize, tall_shot


def board(app):
    return app.screens.get_screen("quest").ids.board


def overlaps(cx, cy, r, rect) -> bool:
    """Whether the disc at (cx, cy) of radius r meets the rectangle (x, y, right, top)."""
    x0, y0, x1, y1 = rect
    nx, ny = min(max(cx, x0), x1), min(max(cy, y0), y1)
    return math.hypot(cx - nx, cy - ny) < r - 0.5


def test_no_circle_space_lies_under_a_corner(app):
    start(app)
    try:
        for size in ((800, 480), (1280, 720), (720, 1280)):
            resize(*size)
            frames()
            b = board(app)
            g = b.geometry()
            corners = b.corners()
            assert len(corners) == 4, corners     # Home, the turn, the token, the paths blocked
            assert g["R"] >= 0.8 * min(b.width, b.height) / 2, size   # still most of its box
            for space in [f"c{i}" for i in range(b.settings["circle_spaces"])]:
                x, y = b.xy(space)
                for rect in corners:
                    assert not overlaps(x, y, g["rc"] * 1.35, rect), (size, space, rect)
        tall_shot("quest_board_clear")
    finally:
        resize(800, 480)


def test_every_live_space_takes_a_fingertip_of_its_own(app):
    """A bottle the team may move, and each space it may go to, picks up a finger anywhere
    within 24 units of its centre (a 48-unit target, 9 mm on the 7-inch panel), unless another
    live space is nearer: a circle space is about 40 px from the next, and a tap 20 px off a
    bottle's centre once went to the empty space beside it, or nowhere. At both sizes."""
    from test_ui_quest_play import face, start as start_play
    from ui_helpers import tap

    from ui.games.quest.board import TOUCH_REACH

    start_play(app)
    tap(face("a", "bottle", app))
    tap(face("b", 2, app))
    b = board(app)
    for size in ((800, 480), (1280, 720)):
        resize(*size)
        frames()
        for picked in (False, True):
            table = app.screens.get_screen("quest")
            if picked:                                       # the targets of bottle 1
                table.pick(app.summary["bottles"]["1"])
                frames()
            live = b.live()
            assert live, "nothing to tap"
            places = {s: b.xy(s) for s in live}
            for space, (x, y) in places.items():
                others = [math.hypot(x - ox, y - oy) for s, (ox, oy) in places.items()
                          if s != space]
                reach = min([TOUCH_REACH * app.u] + [d / 2 - 1 for d in others])
                for k in range(8):
                    a = k * math.pi / 4
                    got = b.space_at(x + 0.95 * reach * math.cos(a), y + 0.95 * reach * math.sin(a))
                    assert got == space, (size, picked, space, k, got, round(reach / app.u))
            # the live spaces are far enough apart for a fingertip each
            least = min((math.hypot(ax - bx, ay - by) for s, (ax, ay) in places.items()
                         for t, (bx, by) in places.items() if s < t), default=None)
            assert least is None or least >= 30 * app.u, (size, picked, least / app.u)
        table.unpick()
    resize(800, 480)
