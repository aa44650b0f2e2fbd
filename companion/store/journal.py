"""Writing while playing: one transaction per step, and what the card refuses said in words.

``GameJournal`` is the store's side of ``companion.core.engine.Journal``: each call is ONE
committed transaction holding the step (or its new status), what it does to the game's end, its
line for the lists (summary, done steps) and its checkpoint when it made one, so a cut between
two writes can never leave a finished game "running" or its line behind its log. ``saving``
turns what SQLite refuses while playing (full, read-only, locked, failing) into ``NotSaved`` in
players' words; ``unstorable`` (companion/store/schema.py) refuses, before anything is written,
a value the file cannot keep."""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Protocol

from companion import __version__

from companion.core.engine import DONE, Results, Standing, Step
from companion.core.errors import NotSaved, RuleViolation
from companion.store.opening import advice
from companion.store.schema import QUEUE, dumps, unstorable

#: Checkpoints kept per running game (the latest ones; see keep_checkpoint); a finished game
#: keeps its latest one only.
KEEP_CHECKPOINTS = 2


class Connected(Protocol):
    """What the journal needs of the store: its connection, read at each write (a test or a
    fault run may swap it)."""

    conn: sqlite3.Connection


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Tx:
    """``with Tx(conn):`` one IMMEDIATE transaction: commit on success, roll back on error."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            try:
                self.conn.execute("COMMIT")
                return
            except BaseException:  # a COMMIT the card refused may leave the transaction open
                self._rollback()
                raise
        self._rollback()

    def _rollback(self) -> None:
        """Roll back, unless SQLite already did (it may on a full card): a ROLLBACK then would
        fail and hide the error that says what to do."""
        if getattr(self.conn, "in_transaction", True):
            self.conn.execute("ROLLBACK")


def settle(conn: sqlite3.Connection, game_id: int, results: Results, now: str) -> None:
    """Inside a step's transaction: the game's status and results as its fold says. Results
    finish it; None reopens a finished game (an undo past the end) and leaves others be."""
    conn.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
    if results is None:
        conn.execute("UPDATE games SET status = 'running', finished_at = NULL "
                     "WHERE id = ? AND status = 'finished'", (game_id,))
        conn.execute("DELETE FROM outbox WHERE game_id = ? AND state = 'waiting'", (game_id,))
        return
    conn.executemany(
        "INSERT INTO results (game_id, seat, name, score, winner, detail) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, r["seat"], r["name"], r["score"], int(r["winner"]), dumps(r))
         for r in results])
    conn.execute("UPDATE games SET status = 'finished', finished_at = COALESCE(finished_at, ?), "
                 "updated_at = ? WHERE id = ?", (now, now, game_id))
    conn.execute(QUEUE, (now, game_id))


@contextmanager
def saving(what: str = "Not saved, so not applied") -> Iterator[None]:
    """A write while playing that the card refuses (full, read-only, locked, failing) is a
    StoreError in players' words: the transaction rolled back, the session unchanged (it writes
    before it applies), and the table can press again once the card works."""
    try:
        yield
    except sqlite3.Error as problem:
        words = advice(problem, then="") or f"the game database failed ({problem})"
        raise NotSaved(f"{what}: {words}") from None


class GameJournal:
    """A session's durable log in the store: each call is ONE committed transaction, holding
    the step (or its new status) and what it does to the game's end."""

    def __init__(self, store: Connected, game_id: int) -> None:
        self.store = store
        self.game_id = game_id

    def append(self, step: Step, dropped: list[int], standing: Standing) -> None:
        results = standing.results
        _refuse_unstorable(
            (step.command.to_dict(), step.command.do),
            *[(e.data, e.type) for e in step.events],
            (results, "results"))
        conn = self.store.conn
        now = utc_now()
        with saving(), Tx(conn):
            if dropped:
                conn.executemany("UPDATE steps SET status = 'dropped' WHERE game_id = ? AND n = ?",
                                 [(self.game_id, n) for n in dropped])
                conn.executemany("DELETE FROM checkpoints WHERE game_id = ? AND n = ?",
                                 [(self.game_id, n) for n in dropped])
            conn.execute("INSERT INTO steps (game_id, n, command, status, created_at, source) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (self.game_id, step.n,
                                                       dumps(step.command.to_dict()), DONE,
                                                       now, step.source))
            conn.executemany(
                "INSERT INTO events (game_id, step, seq, type, data, automatic, undoable) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(self.game_id, step.n, i, e.type, dumps(e.data), int(e.automatic),
                  int(e.undoable)) for i, e in enumerate(step.events)])
            self._stand(conn, standing, 1, now)

    def set_status(self, n: int, status: str, standing: Standing) -> None:
        results = standing.results
        _refuse_unstorable((results, "results"))
        conn = self.store.conn
        now = utc_now()
        with saving(), Tx(conn):
            conn.execute("UPDATE steps SET status = ? WHERE game_id = ? AND n = ?",
                         (status, self.game_id, n))
            self._stand(conn, standing, 1 if status == DONE else -1, now)

    def _stand(self, conn: sqlite3.Connection, standing: Standing, done: int, now: str) -> None:
        """Inside the change's transaction: the game's line for the lists (its summary, its
        done steps one more or one fewer), its checkpoint when the change made one, and its
        end. A change is only ever written to a game that folds, so its damage is none."""
        conn.execute("UPDATE games SET updated_at = ?, summary = ?, done_steps = done_steps + ?, "
                     "damaged = NULL WHERE id = ?",
                     (now, dumps(standing.summary), done, self.game_id))
        if standing.checkpoint is not None:
            keep_checkpoint(conn, self.game_id, *standing.checkpoint)
        if standing.results is not None:  # over: one is enough to undo the end and go on
            _prune(conn, self.game_id, 1)
        settle(conn, self.game_id, standing.results, now)


def keep_checkpoint(conn: sqlite3.Connection, game_id: int, n: int, state: Any) -> None:
    """The state after step n, with the version that folded it; only the latest
    KEEP_CHECKPOINTS of a game are kept (a resume needs the latest whose step is done; after an
    undo further back than those, the next resume folds from the start once and keeps a new
    one: Store._reconcile)."""
    conn.execute("INSERT OR REPLACE INTO checkpoints (game_id, n, state, version) "
                 "VALUES (?, ?, ?, ?)", (game_id, n, dumps(state), rules_version()))
    _prune(conn, game_id, KEEP_CHECKPOINTS)


def _prune(conn: sqlite3.Connection, game_id: int, keep: int) -> None:
    conn.execute("DELETE FROM checkpoints WHERE game_id = ? AND n < (SELECT min(n) FROM "
                 "(SELECT n FROM checkpoints WHERE game_id = ? ORDER BY n DESC LIMIT ?))",
                 (game_id, game_id, keep))


@lru_cache(maxsize=1)
def rules_version() -> str:
    """The companion's version and a digest of the rules' source (companion/core and
    companion/games): a checkpoint made by other rules (an update that fixed one) is never
    resumed from, even when the version number was not raised."""
    root = Path(__file__).parent.parent  # companion/
    digest = hashlib.sha256()
    for path in sorted([*root.glob("core/*.py"), *root.glob("games/**/*.py")]):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:12]}"


def _refuse_unstorable(*parts: tuple[Any, str]) -> None:
    for value, at in parts:
        problem = unstorable(value, at)
        if problem:
            raise RuleViolation(problem)
