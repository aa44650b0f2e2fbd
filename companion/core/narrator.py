"""The game's log in words, kept step by step.

A game's words for a step (``GameRules.describe``) depend on the steps before it: whose turn it
was, which role is in play. Those facts travel in a small ``memo`` the game keeps in order. Told
from the start after every undo, a 10,000-step game would take a noticeable pause at the table;
the narrator instead keeps the lines of the done steps and copies of the memo every
:data:`MEMO_EVERY` steps, so an undo, a redo or a new step costs at most that many steps'
words, whatever the game's length. Only the tail of a game ever changes (undo takes back the
last done step), so the lines kept for the steps before it stay true.
"""

from __future__ import annotations

import copy
from typing import Any

from companion.core.engine import Session, Step

#: A copy of the memo every this many done steps.
MEMO_EVERY = 32

Entry = tuple[Step, list[str]]


def line_sources(step: Step, lines: list[str]) -> list[str | None]:
    """Where each of a step's lines came from: the step's source on its first line, the
    press's own, and on none after it: those are what the rules did next (another seat's
    automatic pass is the table's, not the phone's that caused it)."""
    return [step.source if i == 0 else None for i in range(len(lines))]


def _copy(memo: dict[str, Any]) -> dict[str, Any]:
    return {k: (v if k == "setup" else copy.deepcopy(v)) for k, v in memo.items()}


class Narrator:
    """One session's log in words: ``sync()`` after each change says what to keep and add."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.entries: list[Entry] = []       # the done steps told so far, oldest first
        self._memos: dict[int, dict[str, Any]] = {0: {"setup": session.setup}}
        self._memo = _copy(self._memos[0])   # the memo after the last entry

    def sync(self) -> tuple[int, list[Entry]]:
        """Bring the words up to the session's done steps: returns how many of the entries
        told before still hold (the others were undone or dropped) and the ones added."""
        done = self.session.done_steps_view()
        kept = min(len(self.entries), len(done))
        while kept and self.entries[kept - 1][0].n != done[kept - 1].n:
            kept -= 1
        if kept < len(self.entries):
            del self.entries[kept:]
            self._memo = self._memo_at(kept)
        added = [self._tell(step) for step in done[kept:]]
        return kept, added

    def words(self, step: Step) -> list[str]:
        """What one step did, done or just undone (the next after the done ones), as the log
        says it; any other step is told from the start (rare: the log dialog's old entries)."""
        self.sync()
        for told, lines in reversed(self.entries[-MEMO_EVERY:]):
            if told.n == step.n:
                return lines
        if step.status != "done":
            return self.session.rules.describe(step.command, step.events, self.session.names,
                                               _copy(self._memo))
        return self.session.words(step)

    def _tell(self, step: Step) -> Entry:
        lines = self.session.rules.describe(step.command, step.events, self.session.names,
                                            self._memo)
        self.entries.append((step, lines))
        if len(self.entries) % MEMO_EVERY == 0:
            self._memos[len(self.entries)] = _copy(self._memo)
        return step, lines

    def _memo_at(self, position: int) -> dict[str, Any]:
        """The memo after ``position`` entries: from the nearest copy at or before it, told
        again over at most MEMO_EVERY steps (their lines are kept, only the memo moves)."""
        for old in [k for k in self._memos if k > position]:
            del self._memos[old]
        start = position - position % MEMO_EVERY
        memo = _copy(self._memos[start])
        names = self.session.names
        for step, _ in self.entries[start:position]:
            self.session.rules.describe(step.command, step.events, names, memo)
        return memo
