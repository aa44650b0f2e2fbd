"""Cauldron Quest at a fingertip (9 mm: 48 units on the 7-inch panel): each bottle on the board
and the wizard take a finger alone, crowded or not (two bottles side by side on a path were 22
units apart at 800x480, the wizard beside a bottle 44), and every control of the table's
phases is 48 units each way with a gap to the next (the magic dice's faces were six in 298
units with 2 between them). Screenshots: quest_board_crowded_*, quest_large_board_crowded_*."""

from __future__ import annotations

import math

from layout_reading import targets
from test_ui_quest_screens import do, quest, start
from test_ui_text_size import large  # noqa: F401 (the fixture)
from ui_helpers import frames, resize, shot

from ui.games.quest.board import PIECE_GAP, TOUCH_REACH

#: units between two controls' edges: a finger meant for one does not land on the next
GAP = 4
#: a board as crowded as play makes it: three bottles on one path (two side by side), one at
#: the next path's end by the cauldron, two on the circle either side of the wizard
CROWDED = {"bottles": {"1": "p1.1", "2": "p1.2", "3": "p1.5", "4": "c1", "5": "p2.5",
                       "6": "c23"}, "wizard": 0}


def test_each_bottle_and_the_wizard_take_a_finger_alone(app):
    _alone(app, "quest_board_crowded")


def test_each_piece_alone_on_the_smaller_board_of_large_text(app, large):  # noqa: F811
    _alone(app, "quest_large_board_crowded")


def _alone(app, name: str) -> None:
    """On the crowded board, at both sizes: each piece is on the board, picked alone within
    a fingertip of its centre, two fingertips and a gap from every other piece."""
    start(app)
    board = quest(app).ids.board
    try:
        for size in ((800, 480), (1280, 720)):
            resize(*size)
            board.summary = {**app.summary, **CROWDED}
            shot(name)
            u = app.u
            places = board.pieces()
            assert set(places) == {"b1", "b2", "b3", "b4", "b5", "b6", "wizard"}
            g = board.geometry()
            for k, (x, y) in places.items():
                # on the board, and a tap at its centre or anywhere within a fingertip of it
                # picks it and nothing else
                assert math.hypot(x - g["cx"], y - g["cy"]) < g["R"], (size, k)
                assert board.piece_at(x, y) == k, (size, k)
                assert board.space_at(x, y) == board.piece_space(k), (size, k)
                for n in range(8):
                    a = n * math.pi / 4
                    r = 0.95 * TOUCH_REACH * u
                    assert board.piece_at(x + r * math.cos(a), y + r * math.sin(a)) == k, \
                        (size, k, n)
                # no other piece within two fingertips and a gap: the areas never meet
                for o, (ox, oy) in places.items():
                    if o != k:
                        d = math.hypot(x - ox, y - oy) / u
                        assert d >= 2 * TOUCH_REACH + PIECE_GAP - 0.5, (size, k, o, round(d))
            # where no piece is too near another (the start), each is drawn on its space
            board.summary = dict(app.summary)
            frames()
            for k, place in board.pieces().items():
                assert place == board.xy(board.piece_space(k)), (size, k)
    finally:
        resize(800, 480)


def _fingertips(app, where: str) -> None:
    """Every enabled control the window shows: 48 units each way, GAP from every other."""
    u = app.u
    shown = [(k, w) for k, w in targets().items() if w.opacity > 0.5]
    assert shown, where
    for k, w in shown:
        assert w.width >= 48 * u - 1 and w.height >= 48 * u - 1, \
            (where, k, round(w.width / u), round(w.height / u))
    for i, (k, a) in enumerate(shown):
        ax0, ay0 = a.to_window(a.x, a.y)
        for o, b in shown[i + 1:]:
            bx0, by0 = b.to_window(b.x, b.y)
            apart = max(bx0 - (ax0 + a.width), ax0 - (bx0 + b.width),
                        by0 - (ay0 + a.height), ay0 - (by0 + b.height))
            assert apart >= GAP * u - 1, (where, k, o, round(apart / u, 1))


def test_every_control_of_each_phase_is_a_fingertip_with_a_gap(app):
    s = start(app)
    try:
        for size in ((800, 480), (1280, 720)):
            resize(*size)
            s = start(app)
            _fingertips(app, f"roll {size}")
            do(s, "action_roll", a="bottle", b=3)
            quest(app).pick("c0")
            frames()
            _fingertips(app, f"move {size}")
            do(s, "move_bottle", bottle=1, to="p1.3")
            do(s, "action_roll", a="bottle", b="spell")
            frames()
            _fingertips(app, f"announce {size}")
            do(s, "announce_spell", spell="omniscience")
            frames()
            magic = quest(app).panels["magic"]
            assert magic.entry                          # the faces row takes taps
            _fingertips(app, f"magic {size}")
            do(s, "magic_roll", dice=[2, 5, 4])
            do(s, "keep", dice=["magic1", "magic3"])
            frames()
            _fingertips(app, f"magic kept {size}")
            do(s, "magic_roll", dice=[2, 6, 4])
            quest(app).pick("c4")
            frames()
            _fingertips(app, f"ingredient {size}")
            do(s, "reveal", bottle=2, ingredient="newt_eye")
            do(s, "action_roll", a="hat", b="spell")
            frames()
            _fingertips(app, f"block {size}")
    finally:
        resize(800, 480)
