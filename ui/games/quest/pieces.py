"""Where Cauldron Quest's pieces (the bottles on the board and the wizard) are drawn, so each
takes a fingertip of its own: a piece sits on its space unless another piece is nearer than a
finger's target and a gap (``least``), and then the two are drawn apart just far enough, a line
back to the space each stands on. Two path spaces are about 22 units apart at 800x480, the
circle's about 44: two bottles side by side on a path once shared one fingertip. Pure geometry,
no Kivy: the board gives the spaces' places and takes the pieces' places back."""

from __future__ import annotations

import math

Point = tuple[float, float]
#: passes of pushing crowded pieces apart; seven pieces settle in a few
PASSES = 200


def spread(homes: dict[str, Point], least: float, centre: Point, within: float) -> dict[str, Point]:
    """Each piece's place: its home (its space's centre) unless that is nearer than ``least``
    to another piece's place; crowded pieces are pushed apart along the line between them
    (two on one spot, along the board's radius), each kept within ``within`` of ``centre``."""
    at = {k: [x, y] for k, (x, y) in sorted(homes.items())}
    keys = list(at)
    for _ in range(PASSES):
        crowded = False
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                (ax, ay), (bx, by) = at[a], at[b]
                d = math.hypot(bx - ax, by - ay)
                if d >= least - 1e-6:
                    continue
                crowded = True
                if d < 1e-6:   # one spot: apart along the line from the board's centre
                    angle = math.atan2(ay - centre[1], ax - centre[0])
                    dx, dy = math.cos(angle), math.sin(angle)
                else:
                    dx, dy = (bx - ax) / d, (by - ay) / d
                push = (least - d) / 2 + 1e-3
                at[a] = [ax - dx * push, ay - dy * push]
                at[b] = [bx + dx * push, by + dy * push]
        for k in keys:
            x, y = at[k]
            r = math.hypot(x - centre[0], y - centre[1])
            if r > within + 1e-6:
                at[k] = [centre[0] + (x - centre[0]) * within / r,
                         centre[1] + (y - centre[1]) * within / r]
        if not crowded:
            break
    return {k: (x, y) for k, (x, y) in at.items()}


def reach(places: dict[str, Point], most: float, gap: float) -> dict[str, float]:
    """How far from its centre each piece takes a finger: ``most``, or less where another
    piece is nearer than twice that and the gap (so no two pieces' areas meet)."""
    out = {}
    for k, (x, y) in places.items():
        others = [math.hypot(x - ox, y - oy) for o, (ox, oy) in places.items() if o != k]
        out[k] = min([most] + [(d - gap) / 2 for d in others])
    return out
