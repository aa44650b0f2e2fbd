"""The whole game's log (the game bar's dialog, and a stored game's detail): its lines under a
heading for each round or turn in the game's words ("Set 1, round 2: Anna leads", "Season 2
Harvest: Ben's turn", "Turn 3: Leo"; ``GameRules.chapter``), the seats' names in their seat
colours (named as well, so colour is never the only cue).

The dialog is one RecycleView: a game of thousands of steps builds a screenful of rows, never
one per step; each row's height comes from its words (ui/widgets/wrap.py), not a render. A
die's entry has a Fix button when the game's rules (``fixable`` in its dice module) would accept
a correction of that roll now; it opens the game's own fix dialog. An older die's entry has no
button: a line under it, in the muted words of a status, says "Too late to fix" and the rule's
reason (a grey "Too late" button would look like a control and answer with an error)."""

from __future__ import annotations

import importlib
import re
from functools import lru_cache
from itertools import chain
from typing import Any, Callable, Iterable, Iterator, Sequence

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.utils import get_hex_from_color

from companion.core import palette
from companion.core.engine import GameRules, Step
from ui import theme
from ui.text.markup import plain
from ui.widgets.common import load_rules_once
from ui.widgets.wrap import lines_needed

#: The games whose dice are fixed from the log: the rules' dice module (``die_step(events)``,
#: ``fixable(state, events, later events)``); the game's UI lends the function that opens its
#: own fix dialog for a step's roll (``open_fix(events)`` in the app's ``games``).
DICE_RULES = {"quest": "companion.games.quest.dice", "cauldron": "companion.games.cauldron.dice"}
#: What a die's entry says: its button while the rules allow a fix, else the status line's
#: first words, before the rule's reason.
FIX, TOO_LATE = "Fix", "Too late to fix"
#: The button's width, in units, beside a die's entry.
FIX_WIDTH = 120
#: Text sizes in units: a line, a heading.
#: a line's and a heading's size (game_log.kv draws them so): the type scale's floor, and a
#: little above it
LINE_FS, HEADING_FS = theme.DETAIL_FS, theme.DETAIL_FS + 4


def dice_fix(game: str, games: dict[str, Any]
             ) -> tuple[Any, Callable[[Sequence[Any]], None]] | None:
    """The game's rules dice module and its UI's ``open_fix`` (from ``games``, the app's table
    of the games' UIs, handed here), or None (a game without dice)."""
    open_fix = getattr(games.get(game), "open_fix", None)
    if game not in DICE_RULES or open_fix is None:
        return None
    return importlib.import_module(DICE_RULES[game]), open_fix


def later_events(steps: Sequence[Step], index: int) -> Iterator:
    """The events of the steps after ``steps[index]``, nearest first, read only as needed."""
    return chain.from_iterable(steps[j].events for j in range(index + 1, len(steps)))


def name_colours(rules: GameRules, names: Sequence[str],
                 colours: Sequence[Any] | None) -> dict[str, str]:
    """Each seat's name and the hex its name is written in on the dark log: its seat colour
    as the setup chose it or by default (a near-black seat's in white, as its edge is); none
    for a team game, whose seats have no colours."""
    if rules.cooperative:
        return {}
    shades = palette.seat_colours(colours, len(names))
    return {name: get_hex_from_color(theme.edge(c.hex)) for name, c in zip(names, shades)}


@lru_cache(maxsize=256)
def _bolder(name: str, px: float) -> float:
    """How much wider a name is in bold than as measured for its row (wrap.py measures plain)."""
    plain_w = CoreLabel(font_size=px).get_extents(name)[0]
    return max(0.0, CoreLabel(font_size=px, bold=True).get_extents(name)[0] - plain_w)


@lru_cache(maxsize=16)
def _finder(colours: tuple[tuple[str, str], ...]) -> tuple[re.Pattern, dict[str, str]] | None:
    """One pattern for a table's names (escaped as markup, the longest first, whole words
    only) and each one's colour: made once per table, not once a line."""
    by_name = {plain(n): hex_ for n, hex_ in colours if n}
    if not by_name:
        return None
    names = sorted(by_name, key=len, reverse=True)
    return re.compile(r"(?<!\w)(" + "|".join(map(re.escape, names)) + r")(?!\w)"), by_name


def in_colours(text: str, colours: dict[str, str], px: float = 0) -> tuple[str, float]:
    """``text`` as markup that shows it as written, the seats' names in their colours (and
    bold), and the room the bold names take beyond their plain width at ``px``."""
    shown = plain(text)
    found = _finder(tuple(colours.items())) if colours else None
    if found is None:
        return shown, 0.0
    pattern, by_name = found
    room = 0.0

    def paint(match: re.Match) -> str:
        nonlocal room
        name = match.group(1)
        room += _bolder(name, px) if px else 0.0
        return f"[b][color={by_name[name]}]{name}[/color][/b]"

    return pattern.sub(paint, shown), room


def row_data(text: str, width: float, u: float, step: int = 0, fix: str = "",
             die: bool = False, *, heading: bool = False, late: bool = False,
             colours: dict[str, str] | None = None) -> dict:
    """A log row and its height: as many lines as its words wrap onto at ``width``
    (ui/widgets/wrap.py), so a long one wraps whole; a row with a button at least as tall as
    the button; a heading larger, with room above it. ``text`` is as the log says it, its
    markup (``shown``) has the names in their colours; ``late``: a die entry's status line
    (too late to fix, and why), drawn muted."""
    if fix:
        width -= u * (FIX_WIDTH + 8)
    fs = HEADING_FS if heading else LINE_FS
    shown, bolder = in_colours(text, colours or {}, u * fs)
    # bold is measured plain (wrap.py): a heading a little narrower, a line less its names' room
    width = width * 0.94 if heading else width - bolder
    rows = lines_needed(text, width, u * fs)
    height = u * (34 + 29 * (rows - 1)) if not heading else u * (46 + 34 * (rows - 1))
    return {"text": text, "shown": shown, "heading": heading,
            "height": max(height, u * 56) if fix else height, "step": step, "die": die,
            "fix": fix, "late": late}


def told_rows(rules: GameRules, names: Sequence[str],
              told: Iterable[tuple[Step, Sequence[str]]], width: float, u: float,
              colours: dict[str, str] | None = None,
              fix_of: Callable[[int, Step], str] | None = None) -> list[dict]:
    """The rows of a log: each step's lines (``told``: done steps in order with their words)
    under the heading its round or turn opens (``rules.chapter``); ``fix_of(index, step)``:
    "" (no die), FIX (its button), or why a fix is too late (a status line under its
    lines, no button)."""
    rows, memo, said = [], {}, ""
    for index, (step, lines) in enumerate(told):
        heading = rules.chapter(step.events, names, memo)
        if heading:
            rows.append(row_data(heading, width, u, step.n, heading=True, colours=colours))
        fix = fix_of(index, step) if fix_of is not None else ""
        button = fix if fix == FIX else ""
        for k, line in enumerate(lines):
            rows.append(row_data(line, width, u, step.n, button if k == 0 else "", bool(fix),
                                 colours=colours))
        if fix and not button:   # the rule once: the next roll it holds for says "as above"
            words = f"{TOO_LATE}: {fix}" if fix != said else f"{TOO_LATE}, as above"
            said = fix
            rows.append(row_data(words, width, u, step.n, die=True, late=True))
    return rows


class GameLog(ModalView):
    """The whole game's log, newest last, scrolled to the end; the seats' clocks on top. A die's
    entry carries its Fix button, or a line saying why it is too late; a refusal shows here,
    in the dialog."""

    seats = StringProperty("")
    refusal = StringProperty("")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        app = App.get_running_app()
        self.seats = app.clock_seats
        width = Window.width * self.size_hint_x - app.u * 54  # the rows' text width
        session = app.session
        steps = app.log_steps()
        if session is None:
            self.ids.rv.data = []
            return
        fixes = dice_fix(session.rules.name, app.games)

        def fix_of(index: int, step: Step) -> str:
            if fixes is None or not fixes[0].die_step(step.events):
                return ""
            reason = fixes[0].fixable(session.state, step.events, later_events(steps, index))
            return FIX if reason is None else reason

        colours = name_colours(session.rules, session.names, session.setup.get("colours"))
        self.ids.rv.data = told_rows(session.rules, session.names,
                                     zip(steps, app.log_entries()), width, app.u, colours,
                                     fix_of)
        self.ids.rv.scroll_y = 0

    def fix(self, n: int) -> None:
        """A die entry's button: the game's fix dialog for that roll when the rules allow it
        now (asked again at the tap), else the rule's words here; nothing changes."""
        app = App.get_running_app()
        fixes = dice_fix(app.session.rules.name, app.games) if app.session is not None else None
        steps = app.log_steps()
        index = next((i for i, step in enumerate(steps) if step.n == n), None)
        if fixes is None:
            return
        if index is None:
            self.refusal = "That entry is no longer in the game: it was undone"
            return
        rules, open_fix = fixes
        reason = rules.fixable(app.session.state, steps[index].events, later_events(steps, index))
        if reason is not None:
            self.refusal = reason
            return
        self.dismiss(animation=False)   # the fix dialog takes its place at once
        open_fix(steps[index].events)


class GameLogRow(BoxLayout):
    """One line of the log (a RecycleView row), or a round's or turn's heading: its step,
    whether that step holds a die, on a die step's first line its Fix button (or none), and
    whether it is a die's status line (``late``: too late to fix, and why)."""

    text = StringProperty("")
    shown = StringProperty("")
    heading = BooleanProperty(False)
    step = NumericProperty(0)
    die = BooleanProperty(False)
    fix = StringProperty("")
    late = BooleanProperty(False)

    def tapped(self) -> None:
        log = self.parent
        while log is not None and not isinstance(log, GameLog):
            log = log.parent
        if log is not None:
            log.fix(self.step)


load_rules_once(__file__)   # the rows' rule, for the game detail's list as well as the dialog
