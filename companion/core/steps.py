"""A game's log is a list of steps: one accepted command with every event it caused, and its
status ("done", "undone" when taken back, "dropped" when a new command replaced the redo
branch). Nothing is deleted: undo and redo change a step's status (:func:`restatus`). A step read
back from the store may be a :class:`DeferredStep`, built only when first read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from companion.core.model import Command, Event

DONE, UNDONE, DROPPED = "done", "undone", "dropped"


@dataclass(frozen=True)
class Step:
    """One accepted command and every event it caused, in order."""

    n: int
    command: Command
    events: tuple[Event, ...]
    status: str = DONE
    #: Where the command came from: the InputEvent's source ("gpio" button, "serial" tray,
    #: "keyboard", "touch" for the screen, "script"), or None when unknown (older records).
    source: str | None = None

    @property
    def undoable(self) -> bool:
        return all(e.undoable for e in self.events)


class DeferredStep(Step):
    """A step whose command and events are built the first time either is read: ``load``
    builds them for a whole batch of steps at once and gives each its own with ``fill``.
    A resume folds only the steps after its latest checkpoint, so the thousands before it
    wait until something reads them (the log in words, an undo far back). Equal to the
    :class:`Step` it stands for; a changed status makes a plain Step (see ``restatus``)."""

    def __init__(self, n: int, status: str, source: str | None,
                 load: Callable[[], None]) -> None:
        self.__dict__.update(n=n, status=status, source=source, _load=load)

    @classmethod
    def batch(cls, heads: list[tuple[int, str, str | None]],
              load: Callable[[], None]) -> list["DeferredStep"]:
        """One step per (n, status, source), all built by ``load`` (a long game's resume
        makes thousands: this skips a call of ``__init__`` each)."""
        made = [object.__new__(cls) for _ in heads]
        for step, (n, status, source) in zip(made, heads):
            step.__dict__.update(n=n, status=status, source=source, _load=load)
        return made

    def fill(self, command: Command, events: tuple[Event, ...]) -> None:
        self.__dict__.update(_command=command, _events=events, _load=None)

    @property
    def command(self) -> Command:  # type: ignore[override]
        if self._load is not None:
            self._load()
        return self.__dict__["_command"]

    @property
    def events(self) -> tuple[Event, ...]:  # type: ignore[override]
        if self._load is not None:
            self._load()
        return self.__dict__["_events"]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        return (self.n, self.status, self.source, self.command, self.events) == \
            (other.n, other.status, other.source, other.command, other.events)

    __hash__ = Step.__hash__


def restatus(step: Step, status: str) -> Step:
    """The same step with another status, always a plain Step."""
    return Step(step.n, step.command, step.events, status, step.source)
