"""The Cauldron Quest board as a graph: the wizard's circle, six paths, the cauldron.

Spaces are short strings so a table script can type them: ``c0`` .. ``c23`` on the wizard's
circle (``c0`` is where path 1 begins, counting clockwise), ``p2.3`` for path 2, space 3 counted
from the circle toward the cauldron, and ``cauldron``. Path ``p`` begins on the circle at
``c{(p-1) * spacing}``; its last space touches the cauldron. How many spaces there are is a
setting (the rulebook does not say), so everything here takes the settings.

Those ids are for scripts only: players never see them. :func:`describe` names a space as the
table sees it ("the second space of path 3"), and every refusal and prompt uses it.
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any, Iterable

CAULDRON = "cauldron"
PATHS = (1, 2, 3, 4, 5, 6)
_SPACE = re.compile(r"^(?:c(\d+)|p(\d)\.(\d+)|cauldron)$")

Settings = dict[str, Any]


def spacing(settings: Settings) -> int:
    """Circle spaces from one path's entrance to the next."""
    return settings["circle_spaces"] // len(PATHS)


def circle(i: int, settings: Settings) -> str:
    return f"c{i % settings['circle_spaces']}"


def entrance(path: int, settings: Settings) -> str:
    """The circle space where ``path`` begins."""
    return circle((path - 1) * spacing(settings), settings)


def on_path(path: int, k: int) -> str:
    return f"p{path}.{k}"


def obstacle_space(path: int, settings: Settings) -> str:
    """The path space an obstacle for ``path`` covers."""
    return on_path(path, settings["obstacle_space"])


def start_space(bottle: int, settings: Settings) -> str:
    """Where bottle ``n`` stands at setup: on path n's entrance, or down path n (setting)."""
    k = settings["start_space"]
    return entrance(bottle, settings) if k == 0 else on_path(bottle, k)


def circle_index(space: str) -> int | None:
    return int(space[1:]) if space.startswith("c") and space != CAULDRON else None


def parse_space(value: str, settings: Settings) -> str | None:
    """The space a script names (case and surrounding blanks do not matter), in its canonical
    spelling, or None if there is no such space on this board."""
    match = _SPACE.match(value.strip().lower())
    if not match:
        return None
    c, p, k = match.groups()
    if c is not None:
        return f"c{int(c)}" if int(c) < settings["circle_spaces"] else None
    if p is not None:
        on_board = int(p) in PATHS and 1 <= int(k) <= settings["path_spaces"]
        return on_path(int(p), int(k)) if on_board else None
    return CAULDRON


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
            "tenth", "eleventh", "twelfth")


def describe(space: str, settings: Settings) -> str:
    """A space as players see it on the board: "path 2's entrance", "the wizard's circle,
    3 spaces past path 1's entrance" (clockwise, the wizard's way), "the second space of path 3"
    (counted from the circle), "the cauldron"."""
    if space == CAULDRON:
        return "the cauldron"
    i = circle_index(space)
    if i is not None:
        path, past = i // spacing(settings) + 1, i % spacing(settings)
        if past == 0:
            return f"path {path}'s entrance"
        return (f"the wizard's circle, {past} space{'s' if past > 1 else ''} past path {path}'s "
                "entrance")
    path, k = (int(x) for x in space[1:].split("."))
    return f"the {ORDINALS[k - 1]} space of path {path}"


def describe_all(spaces: Iterable[str], settings: Settings, joiner: str = " or ") -> str:
    return joiner.join(describe(space, settings) for space in spaces) or "nowhere"


def neighbours(space: str, settings: Settings) -> list[str]:
    """Spaces one step away, in a fixed order (clockwise first, then down a path)."""
    length = settings["path_spaces"]
    if space == CAULDRON:
        return [on_path(p, length) for p in PATHS]
    i = circle_index(space)
    if i is not None:
        out = [circle(i + 1, settings), circle(i - 1, settings)]
        if i % spacing(settings) == 0:
            out.append(on_path(i // spacing(settings) + 1, 1))
        return out
    path, k = (int(x) for x in space[1:].split("."))
    inward = CAULDRON if k == length else on_path(path, k + 1)
    outward = entrance(path, settings) if k == 1 else on_path(path, k - 1)
    return [outward, inward]


def all_spaces(settings: Settings) -> list[str]:
    spaces = [circle(i, settings) for i in range(settings["circle_spaces"])]
    spaces += [on_path(p, k) for p in PATHS for k in range(1, settings["path_spaces"] + 1)]
    return spaces


def walk_ends(start: str, steps: int, settings: Settings, barriers: Iterable[str] = (),
              exact: bool = True) -> set[str]:
    """Where a bottle on ``start`` can stop after moving ``steps`` spaces (exactly, or 1 up to
    ``steps``) without turning back and without passing a barrier (the wizard, an obstacle).
    The cauldron counts as reached with any number up to ``steps``: no exact roll needed."""
    blocked = set(barriers)
    ends: set[str] = set()

    def go(space: str, left: int, seen: frozenset[str]) -> None:
        for nxt in neighbours(space, settings):
            if nxt in seen or nxt in blocked:
                continue
            if nxt == CAULDRON:
                ends.add(CAULDRON)
                continue
            if left == 1 or not exact:
                ends.add(nxt)
            if left > 1:
                go(nxt, left - 1, seen | {nxt})

    if steps > 0:
        go(start, steps, frozenset({start}))
    return ends


def nearest(start: str, settings: Settings, barriers: Iterable[str],
            taken: Iterable[str]) -> list[str]:
    """The nearest spaces a knocked bottle may go to: free, not a barrier, not its own space,
    at the fewest steps from ``start`` without passing a barrier. Never the cauldron."""
    blocked, full = set(barriers), set(taken)
    for avoid in (blocked, set()):
        seen, frontier, dist = {start}, deque([start]), {start: 0}
        found: list[str] = []
        best = None
        while frontier:
            space = frontier.popleft()
            if best is not None and dist[space] >= best:
                break
            for nxt in neighbours(space, settings):
                if nxt in seen or nxt == CAULDRON or nxt in avoid:
                    continue
                seen.add(nxt)
                dist[nxt] = dist[space] + 1
                if nxt not in blocked and nxt not in full:
                    best = dist[nxt]
                    found.append(nxt)
                frontier.append(nxt)
        if found:
            return sorted(found, key=sort_key)
    return []


def sort_key(space: str) -> tuple[int, int, int]:
    i = circle_index(space)
    if i is not None:
        return (0, i, 0)
    if space == CAULDRON:
        return (2, 0, 0)
    path, k = (int(x) for x in space[1:].split("."))
    return (1, path, k)
