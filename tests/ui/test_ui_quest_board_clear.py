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
