"""How a stored game's score moved: each seat's score sampled over the game, for the chart in
the game detail.

The results table keeps only where a game ended, so the series comes from its log: the game
is folded once from its setup (the engine's own ``fold``, as ``companion check`` and a resume
do), and after each done step each title's measure is read from the state:

- Witch's Brew: each seat's points (potions and vials) at the start and after each round;
- Cauldron: each seat's Magik at the start and after each step;
- Cauldron Quest (co-operative, no scores): the team's progress after each turn: the needed
  ingredients in the cauldron, and the paths blocked.

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


@dataclass(frozen=True)
class Series:
    """A game's lines, what one sample is (``x_title``: "round", "step", "turn") and what the
    values count (``y_title``)."""

    game: str
    x_title: str
    y_title: str
    lines: tuple[Line, ...]

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


def _witchs_brew() -> _Measure:
    from companion.games.witchs_brew import state as st

    return _Measure("round", "points",
                    lambda s: [(p["name"], i) for i, p in enumerate(s["players"])],
                    lambda s: [st.score(p) for p in s["players"]],
                    lambda s: s["round"])


def _cauldron() -> _Measure:
    return _Measure("step", "Magik",
                    lambda s: [(p["name"], i) for i, p in enumerate(s["players"])],
                    lambda s: [p["magik"] for p in s["players"]],
                    None)


def _quest() -> _Measure:
    from companion.games.quest import state as st

    def values(s: State) -> list[int]:
        inside = st.in_cauldron(s)
        return [sum(1 for i in s["needed"] if i in inside), len(s["obstacles"])]

    return _Measure("turn", "",
                    lambda s: [("Needed in the cauldron", None), ("Paths blocked", None)],
                    values, lambda s: s["turn_no"])


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
    samples = [measure.values(state)]
    mark = measure.mark(state) if measure.mark else None
    pending = False   # the state after the last step is not sampled yet
    for step in steps:
        if step.status != DONE:
            continue
        state = rules.fold(state, list(step.events))
        if measure.mark is None:
            samples.append(measure.values(state))
            continue
        now = measure.mark(state)
        if now != mark:
            samples.append(measure.values(state))
            mark, pending = now, False
        else:
            pending = True
    if pending:
        samples.append(measure.values(state))
    lines = tuple(Line(name, seat, tuple(sample[i] for sample in samples))
                  for i, (name, seat) in enumerate(names))
    return Series(rules.name, measure.x_title, measure.y_title, lines)


def told(rules: GameRules, setup: dict[str, Any], steps: Iterable[Step]) -> list[str]:
    """The done steps in the game's words, oldest first, as the in-game log tells them
    (``GameRules.describe`` with its memo, in order): no state is folded for them."""
    setup, initial = rules.start(setup)
    names, memo = list(rules.seat_names(initial)), {"setup": setup}
    return [line for step in steps if step.status == DONE
            for line in rules.describe(step.command, step.events, names, memo)]


def of_game(store: Any, game_id: int) -> Series:
    """A stored game's series (``store``: a companion.store.Store): its setup and its steps
    as stored, folded once (not told in words: story). StoreError for a game that does not
    exist."""
    rules, setup, steps = _stored(store, game_id)
    return series(rules, setup, steps)


def story(store: Any, game_id: int) -> tuple[Series, list[str]]:
    """A stored game's series and its log in words (the game detail), its steps read once."""
    rules, setup, steps = _stored(store, game_id)
    return series(rules, setup, steps), told(rules, setup, steps)


def _stored(store: Any, game_id: int) -> tuple[GameRules, dict[str, Any], list[Step]]:
    from companion.games import get_rules

    setup = store.setup_of(game_id)
    return get_rules(setup["game"]), setup, list(store.steps(game_id))
