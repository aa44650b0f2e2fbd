"""The small engine every game runs on.

A game is data (:class:`GameRules`): how to set up, how to ``decide`` a command into events,
how to ``evolve`` state by one event, which ``flow`` events follow by themselves, what the table
is asked now (``prompt``). A :class:`Session` folds a game's log of steps: one step per accepted
command, holding the command's events and the automatic ones that followed. Undo marks the last
step "undone", redo marks it "done" again, a new command after undo marks the redo branch
"dropped". Nothing is ever deleted, and the state is always the fold of the "done" steps.

The fold is never redone from the start while playing: the session keeps the state after each
of the last few done steps and after every :data:`CHECKPOINT_EVERY`-th one, so undo costs at
most that many steps' fold however long the game, and redo one step's. The same checkpoints go
to the journal (the store keeps them beside the steps), so a resume folds only the steps after
the latest one. A checkpoint is the state after one step ``n``; it holds while ``n`` is done,
because undo only ever takes back the last done step: the done steps before ``n`` are then the
ones that were done when ``n`` was played.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Callable, Mapping, Protocol, Sequence

from companion.core import gate
from companion.core.errors import RuleViolation
from companion.core.model import Command, Event, InputEvent
from companion.core.steps import (  # noqa: F401 (DeferredStep, UNDONE: the engine's API)
    DONE, DROPPED, UNDONE, DeferredStep, Step, restatus,
)

State = dict[str, Any]

#: A flow that keeps producing events is a bug in a game's rules, never an endless loop.
FLOW_LIMIT = 200

#: A checkpoint every this many done steps (kept in memory and by the journal), and the states
#: after this many of the latest done steps besides: undo folds at most CHECKPOINT_EVERY steps.
CHECKPOINT_EVERY = 32
KEEP_RECENT = 8


def plain_words(command: Command, events: Sequence[Event], names: Sequence[str],
                memo: dict[str, Any]) -> list[str]:
    """A step in words for a game that has none of its own (the tests' small games): who, and
    what was asked. The three real games register their own words (``games/<game>/log.py``)."""
    what = command.do.replace("_", " ")
    return [f"{command.player} {what}" if command.player else what.capitalize()]


def no_chapters(events: Sequence[Event], names: Sequence[str], memo: dict[str, Any]) -> None:
    """A game without rounds or turns to head its log with (the tests' small games)."""
    return None


#: The fields of GameRules a game's package defines, taken by name (GameRules.gathered): its
#: functions, and the gate's tables (spelled in capitals).
PARTS = ("setup", "decide", "evolve", "flow", "prompt", "summary", "map_input", "results",
         "seat_names", "describe", "chapter")
TABLES = ("commands", "setup_keys")


@dataclass(frozen=True)
class GameRules:
    """One game, as data and pure functions of state. No clock, no randomness, no I/O."""

    name: str
    title: str
    setup: Callable[[dict[str, Any]], State]
    decide: Callable[[State, Command], list[Event]]
    evolve: Callable[[State, Event], State]
    flow: Callable[[State], list[Event]]
    prompt: Callable[[State], dict[str, Any]]
    summary: Callable[[State], dict[str, Any]]
    map_input: Callable[[State, InputEvent], Command | None]
    results: Callable[[State], list[dict[str, Any]]]
    #: The gate (companion.core.gate): every command's arguments, every setup key, and where
    #: the state keeps the players' names. ``decide`` and ``setup`` see only checked values.
    commands: Mapping[str, gate.Declared]
    setup_keys: Mapping[str, gate.Arg]
    seat_names: Callable[[State], Sequence[str]]
    players: tuple[int, int] = (2, 6)
    #: The table plays together against the game: one result for everyone, no points.
    cooperative: bool = False
    #: A step as the table says it: (command, its events, the seats' names, a memo the game
    #: keeps across the game's steps in order, from ``{"setup": the checked setup}``) -> lines
    #: in the game's words with who ("Carl claimed the Witch"), the command's first, then what
    #: followed by itself ("Round over: ..."). Never an id or a command's name.
    describe: Callable[[Command, Sequence[Event], Sequence[str], dict[str, Any]],
                       list[str]] = plain_words
    #: The heading a step opens in the log, in the game's words ("Set 1, round 2: Anna
    #: leads"), or None when it goes on under the one before: (its events, the seats' names, a
    #: memo the game keeps across the game's steps in order, from ``{}``).
    chapter: Callable[[Sequence[Event], Sequence[str], dict[str, Any]],
                      str | None] = no_chapters

    @classmethod
    def gathered(cls, parts: Mapping[str, Any], **given: Any) -> GameRules:
        """A game's rules from the parts its package names as the fields are named (``setup``,
        ``decide`` ... ``chapter``; the gate's tables as ``COMMANDS`` and ``SETUP_KEYS``), so
        each game lists its parts once, by importing them; ``given``: what is the game's alone
        (name, title, players ...), never taken from the parts."""
        found = {name: parts[name] for name in PARTS
                 if callable(parts.get(name)) and name not in given}   # never a submodule
        found.update({name: parts[name.upper()] for name in TABLES if name not in given})
        return cls(**found, **given)

    def is_over(self, state: State) -> bool:
        return bool(state.get("over"))

    def check(self, state: State, command: Command) -> Command:
        """The command as ``decide`` may trust it (canonical names, clean values), or
        RuleViolation naming the field."""
        return gate.check_command(self.commands, state, command, self.seat_names, game=self.title)

    def start(self, config: Any) -> tuple[dict[str, Any], State]:
        """The checked setup and the state before the first command, or SetupError."""
        clean = gate.check_setup(self.setup_keys, config, game=self.title)
        return clean, self.setup(clean)

    def accept(self, state: State, command: Command) -> tuple[Command, list[Event], State]:
        """Check one command at the gate, decide it, then run the automatic flow; returns the
        clean command, all events and the new state. Raises RuleViolation (and changes nothing)
        if the command is refused."""
        command = self.check(state, command)
        events, state = self.play(state, command)
        return command, events, state

    def play(self, state: State, command: Command) -> tuple[list[Event], State]:
        """Decide one command (already through the gate), then run the automatic flow."""
        events = list(self.decide(state, command))
        for event in events:
            state = self.evolve(state, event)
        for _ in range(FLOW_LIMIT):
            follow = [e.as_automatic() for e in self.flow(state)]
            if not follow:
                return events, state
            for event in follow:
                state = self.evolve(state, event)
            events.extend(follow)
        raise RuntimeError(f"{self.name}: the automatic flow did not settle")

    def fold(self, state: State, events: list[Event]) -> State:
        for event in events:
            state = self.evolve(state, event)
        return state


_step_n = attrgetter("n")


#: The finished game's results (``GameRules.results``), or None while it is not over.
Results = list[dict[str, Any]] | None


@dataclass(frozen=True)
class Standing:
    """Where a change leaves the game, for the journal to keep in the same transaction as the
    change: ``results`` when the game is over afterwards (None when it is not: an undo past the
    end reopens it); ``summary`` (``GameRules.summary``) so lists of games need no fold;
    ``checkpoint`` (step n, the state after it) every CHECKPOINT_EVERY done steps."""

    results: Results
    summary: dict[str, Any]
    checkpoint: tuple[int, State] | None = None


class Journal(Protocol):
    """Where a session writes its log durably before it shows a result (the store). Each call
    is one transaction together with the game's :class:`Standing` afterwards. A kill between
    two writes can then never leave a finished game "running" or its summary behind."""

    def append(self, step: Step, dropped: list[int], standing: Standing) -> None: ...

    def set_status(self, n: int, status: str, standing: Standing) -> None: ...


Listener = Callable[["Session", "Step | None"], None]


class Session:
    """One game being played: its rules, setup, log and current state."""

    def __init__(
        self,
        rules: GameRules,
        setup: dict[str, Any],
        steps: list[Step] | tuple[Step, ...] = (),
        *,
        journal: Journal | None = None,
        game_id: int | None = None,
        checkpoint: tuple[int, State] | Sequence[tuple[int, State]] | None = None,
    ) -> None:
        """``checkpoint``: the state after step n as the journal kept it (see the module
        docstring), or several; the latest whose step is done is folded on from, the others
        serve undo further back."""
        self.rules = rules
        self.setup, self.initial = rules.start(setup)
        self.steps: list[Step] = list(steps)
        self.journal = journal
        self.game_id = game_id
        self._listeners: list[Listener] = []
        self._by_n: dict[int, int] = {}     # step n -> its index in self.steps
        self._done: list[Step] = []         # the done steps, oldest first
        self._redo: list[Step] = []         # the undone steps after them, oldest first
        self._after: dict[int, State] = {}  # step n -> the state after it (checkpoints)
        self._last_n = 0                    # the highest step number so far
        self._index()
        self._state = self._resume(checkpoint)

    # -- reading -------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self._state

    @property
    def over(self) -> bool:
        return self.rules.is_over(self._state)

    def prompt(self) -> dict[str, Any]:
        return self.rules.prompt(self._state)

    def summary(self) -> dict[str, Any]:
        return self.rules.summary(self._state)

    def done_steps(self) -> list[Step]:
        return list(self._done)

    def done_steps_view(self) -> "Sequence[Step]":
        """The done steps without a copy, for readers that run after every change (the log in
        words): never to be changed by the caller."""
        return self._done

    @property
    def can_undo(self) -> bool:
        last = self._last_done()
        return last is not None and last.undoable

    @property
    def can_redo(self) -> bool:
        return self._first_undone() is not None

    @property
    def names(self) -> list[str]:
        """The seats' names as the setup gave them (the log speaks of seats by name)."""
        return list(self.rules.seat_names(self.initial))

    def log(self, upto: int | None = None) -> list[tuple[Step, list[str]]]:
        """The game so far in words: each done step (before step ``upto`` if given) with its
        lines, oldest first (see ``GameRules.describe``)."""
        names, memo = self.names, {"setup": self.setup}
        out: list[tuple[Step, list[str]]] = []
        for step in self.steps:
            if upto is not None and step.n >= upto:
                break
            if step.status == DONE:
                out.append((step, self.rules.describe(step.command, step.events, names, memo)))
        return out

    def words(self, step: Step) -> list[str]:
        """What one step did (done or not), in the game's words, as the log would say it."""
        names, memo = self.names, {"setup": self.setup}
        for earlier in self.steps:
            if earlier.n >= step.n:
                break
            if earlier.status == DONE:
                self.rules.describe(earlier.command, earlier.events, names, memo)
        return self.rules.describe(step.command, step.events, names, memo)

    def add_listener(self, listener: Listener) -> None:
        """Observers (screens, LEDs) are told after every change, with the step or None."""
        self._listeners.append(listener)

    # -- changing ------------------------------------------------------------------------
    def execute(self, command: Command, source: str | None = None) -> Step:
        """Play one command (``source``: where it came from, kept with the step). Durable
        before it returns; RuleViolation changes nothing."""
        if command.do in gate.ENGINE_COMMANDS:
            command = self.rules.check(self._state, command)
        if command.do == "undo":
            return self.undo()
        if command.do == "redo":
            return self.redo()
        command, events, state = self.rules.accept(self._state, command)
        n = self._last_n + 1
        step = Step(n=n, command=command, events=tuple(events), source=source)
        undone = self._redo
        dropped = [s.n for s in undone]
        if self.journal is not None:
            self.journal.append(step, dropped, self._standing(state, step, len(self._done) + 1))
        for old in undone:
            self.steps[self._by_n[old.n]] = restatus(old, DROPPED)
            self._after.pop(old.n, None)
        self._by_n[n] = len(self.steps)
        self._last_n = n
        self.steps.append(step)
        self._done.append(step)
        self._redo = []
        self._keep(step, state)
        self._state = state
        self._notify(step)
        return step

    def handle_input(self, event: InputEvent) -> Step:
        """Give a raw input its meaning now (the game's input map) and play it."""
        if event.kind == "button" and event.id in ("undo", "redo"):
            return self.execute(Command(event.id))
        command = self.rules.map_input(self._state, event)
        if command is None:
            what = "That die" if event.kind == "die" else "That button"
            # the screen shows the prompt already: there it is not said again (each thing said once)
            raise RuleViolation(f"{what} means nothing now: {self.prompt()['text']}",
                                screen=f"{what} means nothing now")
        return self.execute(command, source=event.source)

    def undo(self) -> Step:
        last = self._last_done()
        if last is None:
            raise RuleViolation("Nothing to undo: no command has been played yet")
        if not last.undoable:
            raise RuleViolation("Dice results cannot be undone; correct a misread die instead "
                                "(Fix on its entry in the log, or the Fix button beside the "
                                "dice)")
        return self._mark(last, UNDONE)

    def redo(self) -> Step:
        first = self._first_undone()
        if first is None:
            raise RuleViolation("Nothing to redo: undo something first")
        return self._mark(first, DONE)

    # -- internals -----------------------------------------------------------------------
    def _mark(self, step: Step, status: str) -> Step:
        marked = restatus(step, status)
        if status == UNDONE:   # the last done step: the state after the one before it
            position = len(self._done) - 1
            state = self._state_after(position)
        else:                  # redo: the first undone step, folded onto the state now
            position = len(self._done) + 1
            state = self.rules.fold(self._state, list(step.events))
        if self.journal is not None:
            self.journal.set_status(step.n, status,
                                    self._standing(state, marked if status == DONE else None,
                                                   position))
        self.steps[self._by_n[step.n]] = marked
        if status == DONE:
            self._done.append(marked)
            self._redo.pop(0)
            self._keep(marked, state)
        else:
            self._done.pop()
            self._redo.insert(0, marked)
        self._state = state
        self._notify(marked)
        return marked

    def _index(self) -> None:
        steps = self.steps
        self._by_n = {step.n: i for i, step in enumerate(steps)}
        if len(self._by_n) < len(steps):
            seen: set[int] = set()
            twice = next(step.n for step in steps if step.n in seen or seen.add(step.n))
            raise ValueError(f"Step {twice} appears twice in the log")
        self._last_n = max(self._by_n, default=0)
        self._done = [step for step in steps if step.status == DONE]
        self._redo = [step for step in steps if step.status == UNDONE]

    def _resume(self, checkpoint: tuple[int, State] | Sequence[tuple[int, State]] | None
                ) -> State:
        """The state after the done steps: from the checkpoint when its step is done, so only
        the steps after it are folded; from the setup otherwise."""
        start, state = 0, self.initial
        kept = [checkpoint] if isinstance(checkpoint, tuple) else list(checkpoint or ())
        done = self._done
        for n, after in sorted(kept, key=lambda c: c[0]):
            # The log is in step order, so a done step is found by halving (a long game's
            # resume looks up two checkpoints, not every step).
            at = bisect_left(done, n, key=_step_n)
            if at < len(done) and done[at].n == n:
                self._after[n] = after
                start, state = at + 1, after
        for i in range(start, len(self._done)):
            state = self.rules.fold(state, list(self._done[i].events))
            self._keep(self._done[i], state, position=i + 1)
        return state

    def _state_after(self, position: int) -> State:
        """The state after the first ``position`` done steps: from the nearest kept state
        before them, folding at most CHECKPOINT_EVERY steps (no copy of the log)."""
        done = self._done
        start, state = 0, self.initial
        for i in range(position - 1, -1, -1):
            kept = self._after.get(done[i].n)
            if kept is not None:
                start, state = i + 1, kept
                break
        for i in range(start, position):
            state = self.rules.fold(state, list(done[i].events))
            self._keep(done[i], state, position=i + 1)
        return state

    def _keep(self, step: Step, state: State, position: int | None = None) -> None:
        """Remember the state after ``step`` (at ``position`` among the done steps, the last
        by default): always for the latest, kept for every CHECKPOINT_EVERY-th, and the
        latest KEEP_RECENT besides."""
        position = len(self._done) if position is None else position
        self._after[step.n] = state
        old = position - KEEP_RECENT
        if old > 0 and old % CHECKPOINT_EVERY and old <= len(self._done):
            self._after.pop(self._done[old - 1].n, None)

    def _standing(self, state: State, step: Step | None, position: int) -> Standing:
        """The standing after ``step`` was played or put back at ``position`` among the done
        steps (None after an undo: the checkpoint of the step now last was kept already)."""
        checkpoint = None
        if step is not None and position % CHECKPOINT_EVERY == 0:
            checkpoint = (step.n, state)
        return Standing(self._results(state), self.rules.summary(state), checkpoint)

    def _results(self, state: State) -> Results:
        return self.rules.results(state) if self.rules.is_over(state) else None

    def _last_done(self) -> Step | None:
        return self._done[-1] if self._done else None

    def _first_undone(self) -> Step | None:
        return self._redo[0] if self._redo else None

    def _notify(self, step: Step | None) -> None:
        for listener in list(self._listeners):
            listener(self, step)
