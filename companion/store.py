"""SQLite storage: every game, its players, its log of steps and events, its results.

One file in the user data directory. WAL journal and ``synchronous=FULL``: a step is one
transaction, committed before the screen shows its result, so a power cut cannot lose it.
Undo and redo only change a step's status; nothing a player entered is deleted. A file that is
not ours (corrupt, or another program's database) is moved aside, never overwritten.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from companion.core.engine import DONE, GameRules, Session, Step
from companion.core.errors import StoreError
from companion.core.model import Command, Event

#: PRAGMA application_id marks the file as ours ("TCMP").
APPLICATION_ID = 0x54434D50
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'abandoned')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT
);
CREATE TABLE players (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE steps (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    command TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('done', 'undone', 'dropped')),
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
);
CREATE TABLE events (
    game_id INTEGER NOT NULL,
    step INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    automatic INTEGER NOT NULL,
    undoable INTEGER NOT NULL,
    PRIMARY KEY (game_id, step, seq),
    FOREIGN KEY (game_id, step) REFERENCES steps(game_id, n)
);
CREATE TABLE results (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    score INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    detail TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
"""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def default_path() -> Path:
    """The database in the user data directory (platformdirs), or $COMPANION_DB."""
    if os.environ.get("COMPANION_DB"):
        return Path(os.environ["COMPANION_DB"])
    from platformdirs import user_data_dir

    return Path(user_data_dir("table-companion", appauthor=False)) / "companion.sqlite3"


@dataclass(frozen=True)
class GameInfo:
    id: int
    game: str
    players: list[str]
    status: str
    created_at: str
    updated_at: str
    steps: int
    results: list[dict[str, Any]]


class Store:
    """The game database. ``notice`` says if a bad file was moved aside when opening."""

    def __init__(self, path: str | os.PathLike[str] = ":memory:") -> None:
        self.path = str(path)
        self.notice: str | None = None
        try:
            self.conn = self._open()
        except (sqlite3.DatabaseError, StoreError) as problem:
            if self.path == ":memory:":
                raise
            moved = self._move_aside()
            self.notice = (f"The game database {self.path} could not be read ({problem}); "
                           f"it was moved to {moved} and a new one was started")
            self.conn = self._open()

    # -- opening ---------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if tables and app_id != APPLICATION_ID:
                raise StoreError("it is not a table-companion database")
            if app_id == APPLICATION_ID:
                if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                    raise StoreError("the integrity check failed")
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise StoreError(f"it was written by a newer companion (schema {version})")
            if self.path != ":memory:":
                conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            if not tables:
                with _Tx(conn):
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            conn.close()
            raise
        return conn

    def _move_aside(self) -> str:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target = f"{self.path}.unreadable-{stamp}"
        n = 1
        while os.path.exists(target):
            n += 1
            target = f"{self.path}.unreadable-{stamp}-{n}"
        os.replace(self.path, target)
        for suffix in ("-wal", "-shm"):
            if os.path.exists(self.path + suffix):
                os.replace(self.path + suffix, target + suffix)
        return target

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games -----------------------------------------------------------------------------
    def new_game(self, rules: GameRules, setup: dict[str, Any]) -> Session:
        """Validate the setup (SetupError if it cannot be played), store it, return the session."""
        clean, initial = rules.start({"game": rules.name, **setup})
        setup = {"game": rules.name, **clean}
        now = _now()
        with _Tx(self.conn):
            cur = self.conn.execute(
                "INSERT INTO games (game, setup, created_at, updated_at) VALUES (?, ?, ?, ?)",
                (rules.name, json.dumps(setup), now, now))
            game_id = int(cur.lastrowid)
            self.conn.executemany(
                "INSERT INTO players (game_id, seat, name) VALUES (?, ?, ?)",
                [(game_id, i, p["name"]) for i, p in enumerate(rules.summary(initial)["players"])])
        return self._attach(Session(rules, setup, journal=GameJournal(self, game_id), game_id=game_id))

    def open_session(self, game_id: int) -> Session:
        """Resume a stored game exactly: same state, same undo history."""
        from companion.games import get_rules

        game, setup = self._game_row(game_id)
        rules = get_rules(game)
        steps = list(self.steps(game_id))
        return self._attach(Session(rules, setup, steps, journal=GameJournal(self, game_id),
                                    game_id=game_id))

    def _attach(self, session: Session) -> Session:
        session.add_listener(self._keep_results)
        return session

    def _keep_results(self, session: Session, step: Step | None) -> None:
        """A game that ends is recorded with its results; an undo past the end reopens it."""
        if session.game_id is None:
            return
        status = self.conn.execute("SELECT status FROM games WHERE id = ?",
                                   (session.game_id,)).fetchone()[0]
        if session.over:
            self.finish(session.game_id, session.rules.results(session.state))
        elif status == "finished":
            with _Tx(self.conn):
                self.conn.execute("DELETE FROM results WHERE game_id = ?", (session.game_id,))
                self.conn.execute("UPDATE games SET status = 'running', finished_at = NULL "
                                  "WHERE id = ?", (session.game_id,))

    def finish(self, game_id: int, results: list[dict[str, Any]]) -> None:
        now = _now()
        with _Tx(self.conn):
            self.conn.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
            self.conn.executemany(
                "INSERT INTO results (game_id, seat, name, score, winner, detail) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, r["seat"], r["name"], r["score"], int(r["winner"]), json.dumps(r))
                 for r in results])
            self.conn.execute("UPDATE games SET status = 'finished', finished_at = ?, "
                              "updated_at = ? WHERE id = ?", (now, now, game_id))

    def abandon(self, game_id: int) -> None:
        """Stop offering a running game for resume; its log stays."""
        with _Tx(self.conn):
            self.conn.execute("UPDATE games SET status = 'abandoned', updated_at = ? "
                              "WHERE id = ? AND status = 'running'", (_now(), game_id))

    def _game_row(self, game_id: int) -> tuple[str, dict[str, Any]]:
        row = self.conn.execute("SELECT game, setup FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"There is no game number {game_id} in {self.path}")
        return row[0], json.loads(row[1])

    def setup_of(self, game_id: int) -> dict[str, Any]:
        return self._game_row(game_id)[1]

    def steps(self, game_id: int) -> Iterator[Step]:
        events: dict[int, list[Event]] = {}
        for step, type_, data, automatic, undoable in self.conn.execute(
                "SELECT step, type, data, automatic, undoable FROM events WHERE game_id = ? "
                "ORDER BY step, seq", (game_id,)):
            events.setdefault(step, []).append(
                Event(type_, json.loads(data), bool(automatic), bool(undoable)))
        for n, command, status in self.conn.execute(
                "SELECT n, command, status FROM steps WHERE game_id = ? ORDER BY n", (game_id,)):
            yield Step(n, Command.from_dict(json.loads(command)), tuple(events.get(n, ())), status)

    def games(self, status: str | None = None) -> list[GameInfo]:
        """Games newest first, optionally only 'running' or 'finished' ones."""
        query = "SELECT id, game, status, created_at, updated_at FROM games"
        args: tuple[Any, ...] = ()
        if status:
            query += " WHERE status = ?"
            args = (status,)
        out = []
        for gid, game, st, created, updated in self.conn.execute(query + " ORDER BY id DESC", args):
            players = [r[0] for r in self.conn.execute(
                "SELECT name FROM players WHERE game_id = ? ORDER BY seat", (gid,))]
            steps = self.conn.execute("SELECT count(*) FROM steps WHERE game_id = ? AND "
                                      "status = 'done'", (gid,)).fetchone()[0]
            results = [json.loads(r[0]) for r in self.conn.execute(
                "SELECT detail FROM results WHERE game_id = ? ORDER BY seat", (gid,))]
            out.append(GameInfo(gid, game, players, st, created, updated, steps, results))
        return out

    def unfinished(self) -> list[GameInfo]:
        return self.games("running")


class _Tx:
    """``with _Tx(conn):`` one IMMEDIATE transaction: commit on success, roll back on error."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")


class GameJournal:
    """A session's durable log in the store: each call is one committed transaction."""

    def __init__(self, store: Store, game_id: int) -> None:
        self.store = store
        self.game_id = game_id

    def append(self, step: Step, dropped: list[int]) -> None:
        conn = self.store.conn
        now = _now()
        with _Tx(conn):
            if dropped:
                conn.executemany("UPDATE steps SET status = 'dropped' WHERE game_id = ? AND n = ?",
                                 [(self.game_id, n) for n in dropped])
            conn.execute("INSERT INTO steps (game_id, n, command, status, created_at) "
                         "VALUES (?, ?, ?, ?, ?)",
                         (self.game_id, step.n, json.dumps(step.command.to_dict()), DONE, now))
            conn.executemany(
                "INSERT INTO events (game_id, step, seq, type, data, automatic, undoable) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(self.game_id, step.n, i, e.type, json.dumps(e.data), int(e.automatic),
                  int(e.undoable)) for i, e in enumerate(step.events)])
            conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, self.game_id))

    def set_status(self, n: int, status: str) -> None:
        conn = self.store.conn
        with _Tx(conn):
            conn.execute("UPDATE steps SET status = ? WHERE game_id = ? AND n = ?",
                         (status, self.game_id, n))
            conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (_now(), self.game_id))
