"""Reading a game's stored steps back as the engine's Steps, for a resume, a fold or an
export: two statements (the steps, their events), then the commands and events built
:data:`BATCH` steps at a time when one of them is first read (``DeferredStep``), so a resume
builds only the steps after its latest checkpoint. SQLite's ``json_valid`` vouches for each row;
a batch holding a row it does not vouch for is built at once, so a damaged row fails where it
always did, naming its step.
"""

from __future__ import annotations

import json
import sqlite3
from bisect import bisect_left, bisect_right
from typing import Any, Callable, Iterator

from companion.core.engine import DROPPED, DeferredStep, Step
from companion.core.values import INT64_MAX
from companion.core.model import Command, Event
from companion.store.schema import has_column

#: A dropped step as a session holds it (a redo branch a new command replaced, or a bad step
#: ``check --repair`` set aside): never folded, replayed or exported, so its row is not parsed;
#: it stays in the file as stored (``companion export --raw`` shows it).
SET_ASIDE = Command("set_aside")


#: Stored steps whose commands and events are built together, when one of them is first read.
BATCH = 128


def _batch_loader(rows: list[tuple[Any, ...]], events: list[tuple[Any, ...]],
                  steps: list[DeferredStep]) -> Callable[[], None]:
    """Builds the commands and events of ``steps`` (one per row of ``rows``, none dropped)
    from their rows, each step's events from ``events`` (ordered by step and seq)."""

    def load() -> None:
        by_step: dict[int, list[Event]] = {}
        for (step, type_, _, automatic, undoable, _), data in zip(events,
                                                                  loads_all(events, 2)):
            by_step.setdefault(step, []).append(Event(type_, data, bool(automatic),
                                                      bool(undoable)))
        for row, loaded, step in zip(rows, loads_all(rows, 1), steps):
            if not isinstance(loaded, dict):
                raise ValueError(f"step {row[0]}: its command is not a command")
            step.fill(Command(loaded.pop("do"), loaded.pop("player", None), loaded),
                      tuple(by_step.get(row[0], ())))

    return load


def loads_all(rows: list[tuple[Any, ...]], at: int) -> list[Any]:
    """The JSON texts in column ``at`` of ``rows`` (each row's last column: 1 when SQLite's
    ``json_valid`` found it well-formed), parsed. When SQLite found every one well-formed,
    each is exactly one JSON value, so they are parsed in one call as one array (a batch of
    steps is mostly this parsing); otherwise one by one, so a malformed row fails as it
    always did."""
    texts = [row[at] for row in rows]
    if texts and all(row[-1] == 1 for row in rows):
        values = json.loads("[" + ",".join(texts) + "]")
        if len(values) == len(texts):
            return values
    return [json.loads(text) for text in texts]


def read_steps(conn: sqlite3.Connection, game_id: int,
               before: int = INT64_MAX) -> Iterator[Step]:
    """The stored steps in order; ``before`` stops at a step (a damaged game's last good
    state is the fold of the steps before its first bad one). A dropped step's rows are
    never parsed (see SET_ASIDE). The others' commands and events are built
    :data:`BATCH` steps at a time when one of them is first read (``DeferredStep``): a
    resume folds only the steps after its latest checkpoint. A batch holding a row SQLite
    does not vouch for (malformed JSON, a command without "do") is built at once, so it
    fails here as it always did."""
    source = "source" if has_column(conn, "steps", "source") else "NULL"  # a reader's old file
    rows = conn.execute(
        f"SELECT n, command, status, {source}, CASE WHEN json_valid(command) THEN "
        "json_type(command, '$.do') IS NOT NULL ELSE 0 END FROM steps "
        "WHERE game_id = ? AND n < ? ORDER BY n", (game_id, before)).fetchall()
    found = conn.execute(
        "SELECT step, type, data, automatic, undoable, json_valid(data) FROM events "
        "WHERE game_id = ? AND step < ? ORDER BY step, seq", (game_id, before)).fetchall()
    at = [row[0] for row in found]         # each event's step, in the same order
    sound = [row[-1] == 1 for row in rows]  # SQLite vouches for the command
    sound_events = [row[-1] == 1 for row in found]
    for first in range(0, len(rows), BATCH):
        batch = rows[first:first + BATCH]
        lo, hi = bisect_left(at, batch[0][0]), bisect_right(at, batch[-1][0])
        events = found[lo:hi]
        vouched = False not in sound[first:first + BATCH] and False not in sound_events[lo:hi]
        kept = [row for row in batch if row[2] != DROPPED]
        if len(kept) < len(batch):
            gone = {row[0] for row in batch if row[2] == DROPPED}
            events = [row for row in events if row[0] not in gone]
        made: list[DeferredStep] = []
        load = _batch_loader(kept, events, made)
        made += DeferredStep.batch([(row[0], row[2], row[3]) for row in kept], load)
        if not vouched:
            load()
        if len(kept) == len(batch):
            yield from made
            continue
        made_at = iter(made)
        for n, _, status, _, _ in batch:
            # out of the game for good: only its number counts
            yield Step(n, SET_ASIDE, (), status) if status == DROPPED else next(made_at)
