"""How a stored game's score moved: each seat's score sampled over the game, for the chart in
the game detail.

The results table keeps only where a game ended, so the series comes from its log: the game
is folded once from its setup (the engine's own ``fold``, as ``companion check`` and a resume
do), and after each done step each title's measure is read from the state:

- Witch's Brew: each seat's points (potions and vials) at the start and after each round, the
  x axis marked where each set begins;
- Cauldron: each seat's Magik at the start and after each step, the x axis marked where each
  season begins (``marks``) and where a seat took a milestone (``flags``);
- Cauldron Quest (co-operative, no scores): the team's progress after each turn: the needed
  ingredients in the cauldron, and the paths blocked, each out of the most it can reach
  (``most``: three needed, six paths), so a game where none reached the cauldron reads "0 of 3"
  rather than a line on the axis.

The last point of a scored game is its final score as the results table holds it. One fold per
game asked for: the detail screen asks when it opens, never for a list. Its log in words comes
with it (:func:`story`), told from the same steps without a second fold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from companion.core.engine import DONE, GameRules, Step

State = dict[str, Any]


@dataclass(frozen=True)
class Line:
    """One line of the chart: a seat (``seat`` its number) or a team measure (``seat`` None),
    with its value at each sample, the first at the start of the game."""

    name: str
    seat: int | None
    values: tuple[int, ...]
    #: the most the line can reach (Quest's 3 needed, 6 paths); None for a score
    most: int | None = None


@dataclass(frozen=True)
class Series:
    """A game's lines, what one sample is (``x_title``: "round", "step", "turn") and what the
    values count (``y_title``)."""

    game: str
    x_title: str
    y_title: str
    lines: tuple[Line, ...]
    #: where the x axis is marked instead of by sample number: (sample, words), e.g. where
    #: each Cauldron season begins
    marks: tuple[tuple[int, str], ...] = ()
    #: what happened to a line at a sample: (sample, the line's index, words), e.g. a milestone
    flags: tuple[tuple[int, int, str], ...] = ()

    @property
    def samples(self) -> int:
        return max((len(line.values) for line in self.lines), default=0)


@dataclass(frozen=True)
class _Measure:
    x_title: str
    y_title: str
    #: the lines' names and seats, from the state at the start
    names: Callable[[State], list[tuple[str, int | None]]]
    #: the value of each line in a state
    values: Callable[[State], list[int]]
    #: the state's sample mark: a new sample is taken whenever it changes (None: every step)
    mark: Callable[[State], Any] | None
    #: the most each line can reach, from the state at the start (None: no bound)
    most: Callable[[State], list[int | None]] | None = None
    #: the x axis's mark for a state (a season's words): marked where it changes
    chapter: Callable[[State], str] | None = None
    #: what a state holds that the one before did not, by line: [(line index, words)]
    news: Callable[[State, State], list[tuple[int, str]]] | None = None


def _witchs_brew() -> _Measure:
    from companion.games.witchs_brew import state as st

    return _Measure("set", "points",
                    lambda s: [(p["name"], i) for i, p in enumerate(s["players"])],
                    lambda s: [st.score(p) for p in s["players"]],
                    lambda s: s["round"], chapter=lambda s: str(s["set"]))


def _cauldron() -> _Measure:
    from companion.history.tally import labels

    words = labels("cauldron")

    def taken(before: State, after: State) -> list[tuple[int, str]]:
        return [(m["by"], words.get(key, key)) for key, m in after["milestones"].items()
                if m["reached"] and not before["milestones"][key]["reached"]
                and isinstance(m["by"], int)]

    return _Measure("season", "Magik",
                    lambda s: [(p["name"], i) for i, p in enumerate(s["players"])],
                    lambda s: [p["magik"] for p in s["players"]],
                    None, chapter=lambda s: str(s["season_number"]), news=taken)


def _quest() -> _Measure:
    from companion.games.quest import board
    from companion.games.quest import state as st

    def values(s: State) -> list[int]:
        inside = st.in_cauldron(s)
        return [sum(1 for i in s["needed"] if i in inside), len(s["obstacles"])]

    return _Measure("turn", "",
                    lambda s: [("Needed in the cauldron", None), ("Paths blocked", None)],
                    values, lambda s: s["turn_no"],
                    most=lambda s: [len(s["needed"]), len(board.PATHS)])


MEASURES: dict[str, Callable[[], _Measure]] = {
    "witchs_brew": _witchs_brew, "cauldron": _cauldron, "quest": _quest,
}


def series(rules: GameRules, setup: dict[str, Any], steps: Iterable[Step]) -> Series:
    """Fold ``steps`` (the stored ones, in order; only the done ones count) from ``setup`` and
    sample the title's measure: at the start, whenever its mark changes (a new round or turn)
    the values as the previous one ended, and at the end. ValueError for a title without one."""
    if rules.name not in MEASURES:
        raise ValueError(f"game: no score series for {rules.name!r}")
    measure = MEASURES[rules.name]()
    _, state = rules.start(setup)
    names = measure.names(state)
    most = measure.most(state) if measure.most else [None] * len(names)
    samples = [measure.values(state)]
    mark = measure.mark(state) if measure.mark else None
    chapter = measure.chapter(state) if measure.chapter else None
    marks = [(0, chapter)] if chapter is not None else []
    flags: list[tuple[int, int, str]] = []
    pending = False   # the state after the last step is not sampled yet
    for step in steps:
        if step.status != DONE:
            continue
        before, state = state, rules.fold(state, list(step.events))
        if measure.mark is None:
            samples.append(measure.values(state))
            if measure.chapter and measure.chapter(state) != chapter:
                chapter = measure.chapter(state)
                marks.append((len(samples) - 1, chapter))
            if measure.news:
                flags += [(len(samples) - 1, line, words)
                          for line, words in measure.news(before, state)]
            continue
        now = measure.mark(state)
        if now != mark:
            samples.append(measure.values(state))
            mark, pending = now, False
            if measure.chapter and measure.chapter(state) != chapter:
                chapter = measure.chapter(state)
                marks.append((len(samples) - 1, chapter))
        else:
            pending = True
    if pending:
        samples.append(measure.values(state))
    lines = tuple(Line(name, seat, tuple(sample[i] for sample in samples), most[i])
                  for i, (name, seat) in enumerate(names))
    return Series(rules.name, measure.x_title, measure.y_title, lines, tuple(marks),
                  tuple(flags))


def told(rules: GameRules, setup: dict[str, Any], steps: Iterable[Step]) -> list[str]:
    """The done steps in the game's words, oldest first, as the in-game log tells them
    (``GameRules.describe`` with its memo, in order): no state is folded for them."""
    return [line for _, lines in told_steps(rules, setup, steps)[1] for line in lines]


def told_steps(rules: GameRules, setup: dict[str, Any],
               steps: Iterable[Step]) -> tuple[list[str], list[tuple[Step, list[str]]]]:
    """The seats' names and each done step with its lines, oldest first (as ``told``), for a
    log that heads its rounds (``GameRules.chapter``) and finds a step's lines."""
    setup, initial = rules.start(setup)
    names, memo = list(rules.seat_names(initial)), {"setup": setup}
    return names, [(step, rules.describe(step.command, step.events, names, memo))
                   for step in steps if step.status == DONE]


def of_game(store: Any, game_id: int) -> Series:
    """A stored game's series (``store``: a companion.store.Store): its setup and its steps
    as stored, folded once (not told in words: story). StoreError for a game that does not
    exist."""
    rules, setup, steps = _stored(store, game_id)
    return series(rules, setup, steps)


def story(store: Any, game_id: int) -> tuple[Series, list[str], list[tuple[Step, list[str]]]]:
    """A stored game's series, its seats' names and its log in words, step by step (the game
    detail, ``told_steps``), its steps read once."""
    rules, setup, steps = _stored(store, game_id)
    return (series(rules, setup, steps), *told_steps(rules, setup, steps))


def _stored(store: Any, game_id: int) -> tuple[GameRules, dict[str, Any], list[Step]]:
    from companion.games import get_rules

    setup = store.setup_of(game_id)
    return get_rules(setup["game"]), setup, list(store.steps(game_id))
