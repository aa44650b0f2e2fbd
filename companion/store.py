"""SQLite storage: every game, its players, its log of steps and events, its results.

One file in the user data directory. WAL journal and ``synchronous=FULL``: a step is one
transaction, committed before the screen shows its result, so a power cut cannot lose it. The
step that ends a game is written in the same transaction as the results it finishes (and an
undo past the end with the reopening), so a game is never "running" with its end in its log.
Undo and redo only change a step's status; nothing a player entered is deleted. A value the
file cannot keep (a whole number beyond SQLite's 64 bits, a broken character) is refused before
anything is written. How the file is opened (what is moved aside
and what is refused, one writer, read-only use) is in companion/store_open.py; how a step is
written while playing, in companion/store_journal.py.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from companion.core.engine import DROPPED, GameRules, Session, Step
from companion.core.errors import CompanionError, SetupError, StoreError
from companion.core.gate import INT64_MAX, INT64_MIN
from companion.core.model import Command, Event
from companion.store_open import (
    WriterLock, connect_reader, open_writer, refuse_odd_path,
)
from companion.store_journal import (  # noqa: F401 (GameJournal, unstorable: the store's API)
    GameJournal, _now, _saving, _settle, _Tx, unstorable,
)
from companion.store_schema import has_column, read_clocks, write_clocks

if TYPE_CHECKING:
    from companion.check import Problem

#: A dropped step as a session holds it (a redo branch a new command replaced, or a bad step
#: ``check --repair`` set aside): never folded, replayed or exported, so its row is not parsed;
#: it stays in the file as stored (``companion export --raw`` shows it).
SET_ASIDE = Command("set_aside")


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
    """The game database. ``notice`` says if a bad file was moved aside when opening.

    A writer (the default) holds the database's one-writer lock until ``close()``; with
    ``readonly=True`` it only reads an existing companion database and changes nothing."""

    def __init__(self, path: str | os.PathLike[str] = ":memory:", *,
                 readonly: bool = False) -> None:
        self.path = str(path)
        self.readonly = readonly
        self.notice: str | None = None
        self._lock: WriterLock | None = None
        if readonly:
            self.conn = connect_reader(self.path)
            return
        if self.path != ":memory:":
            refuse_odd_path(self.path)
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._lock = WriterLock.take(self.path)
        try:
            self.conn, self.notice = open_writer(self.path)
        except BaseException:
            self._release()
            raise

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def close(self) -> None:
        try:
            self.conn.close()
        finally:
            self._release()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games -----------------------------------------------------------------------------
    def new_game(self, rules: GameRules, setup: dict[str, Any]) -> Session:
        """Validate the setup (SetupError if it cannot be played), store it, return the session."""
        clean, initial = rules.start({"game": rules.name, **setup})
        setup = {"game": rules.name, **clean}
        names = [p["name"] for p in rules.summary(initial)["players"]]
        problem = unstorable(setup, "setup") or unstorable(names, "players")
        if problem:
            raise SetupError(problem)
        now = _now()
        with _saving("Not saved, so the game was not started"), _Tx(self.conn):
            cur = self.conn.execute(
                "INSERT INTO games (game, setup, created_at, updated_at) VALUES (?, ?, ?, ?)",
                (rules.name, json.dumps(setup), now, now))
            game_id = int(cur.lastrowid)
            self.conn.executemany("INSERT INTO players (game_id, seat, name) VALUES (?, ?, ?)",
                                  [(game_id, i, name) for i, name in enumerate(names)])
        return Session(rules, setup, journal=GameJournal(self, game_id), game_id=game_id)

    def open_session(self, game_id: int) -> Session:
        """Resume a stored game exactly: same state, same undo history."""
        from companion.games import get_rules

        game, setup = self._game_row(game_id)
        rules = get_rules(game)
        try:
            steps = list(self.steps(game_id))
            session = Session(rules, setup, steps, journal=GameJournal(self, game_id),
                              game_id=game_id)
        except CompanionError:
            raise
        except Exception:  # a malformed row, or events today's rules reject: name it, never crash
            from companion.check import check_game

            found = check_game(self.conn, game_id)
            raise StoreError(f"Game #{game_id} cannot be read"
                             f"{f' from step {found.step} on' if found and found.step else ''}: "
                             "companion check --repair sets the bad steps aside (nothing is "
                             "deleted) and the game resumes at its last good state") from None
        self._reconcile(session)
        return session

    def _reconcile(self, session: Session) -> None:
        """A game stored by an older companion, which wrote a game's results in a second
        transaction, may have been killed in between: 'running' with its end in its log. Its
        status and results are set right, once, from the fold."""
        if self.readonly:  # a reader changes nothing; the session is right from its fold
            return
        game_id = session.game_id
        status = self.conn.execute("SELECT status FROM games WHERE id = ?",
                                   (game_id,)).fetchone()[0]
        kept = self.conn.execute("SELECT count(*) FROM results WHERE game_id = ?",
                                 (game_id,)).fetchone()[0] > 0
        over = session.over
        if (status == "finished") == over and kept == over:
            return
        results = session.rules.results(session.state) if over else None
        with _saving("Not saved, so the game was not set right"), _Tx(self.conn):
            _settle(self.conn, game_id, results, _now())

    # -- a game whose log does not fold ---------------------------------------------------
    def damage(self, game_id: int) -> "Problem | None":
        """What keeps a stored game from folding (its setup, or its first bad step), or None."""
        from companion.check import check_game

        return check_game(self.conn, game_id)

    def last_good(self, game_id: int, problem: "Problem") -> Session | None:
        """A damaged game as it stood before its first bad step (to look at, not to play), or
        None when even its setup cannot be played."""
        from companion.games import get_rules

        if problem.step is None:
            return None
        game, setup = self._game_row(game_id)
        return Session(get_rules(game), setup, list(self.steps(game_id, before=problem.step)))

    def repair(self, game_id: int) -> list[str]:
        """``companion check --repair`` for one game: its bad steps kept but left out (or its
        unplayable setup set aside as abandoned); what was done, in words."""
        from companion.check import repair

        problem = self.damage(game_id)
        with _saving("Not saved, so nothing was repaired"):
            return repair(self.conn, [problem]) if problem else []

    def raw_log(self, game_id: int) -> list[str]:
        from companion.check import raw_log

        self._game_row(game_id)  # an unknown game number is a StoreError naming it
        return raw_log(self.conn, game_id)

    def abandon(self, game_id: int) -> None:
        """Stop offering a running game for resume; its log stays."""
        with _saving("Not saved, so the game was not abandoned"), _Tx(self.conn):
            self.conn.execute("UPDATE games SET status = 'abandoned', updated_at = ? "
                              "WHERE id = ? AND status = 'running'", (_now(), game_id))

    def _game_row(self, game_id: int) -> tuple[str, dict[str, Any]]:
        row = None
        if isinstance(game_id, int) and INT64_MIN <= game_id <= INT64_MAX:
            row = self.conn.execute("SELECT game, setup FROM games WHERE id = ?",
                                    (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"There is no game number {game_id} in {self.path}")
        return row[0], json.loads(row[1])

    def played(self, game_id: int) -> tuple[str, str | None]:
        """When a game was started and when it finished (None while it runs), ISO UTC."""
        self._game_row(game_id)
        started, finished = self.conn.execute(
            "SELECT created_at, finished_at FROM games WHERE id = ?", (game_id,)).fetchone()
        return started, finished

    def setup_of(self, game_id: int) -> dict[str, Any]:
        return self._game_row(game_id)[1]

    def steps(self, game_id: int, before: int = INT64_MAX) -> Iterator[Step]:
        """The stored steps in order; ``before`` stops at a step (a damaged game's last good
        state is the fold of the steps before its first bad one)."""
        events: dict[int, list[Event]] = {}
        for step, type_, data, automatic, undoable in self.conn.execute(
                "SELECT step, type, data, automatic, undoable FROM events WHERE game_id = ? "
                "AND step < ? ORDER BY step, seq", (game_id, before)):
            events.setdefault(step, []).append(
                Event(type_, json.loads(data), bool(automatic), bool(undoable)))
        source = "source" if has_column(self.conn, "steps", "source") else "NULL"  # a reader's old file
        for n, command, status, came in self.conn.execute(
                f"SELECT n, command, status, {source} FROM steps WHERE game_id = ? AND n < ? "
                "ORDER BY n", (game_id, before)):
            if status == DROPPED:  # out of the game for good: only its number counts
                yield Step(n, SET_ASIDE, (), status)
                continue
            yield Step(n, Command.from_dict(json.loads(command)), tuple(events.get(n, ())), status,
                       came)

    def clocks(self, game_id: int) -> dict[str, Any] | None:
        """A game's chess clock as last kept (ui/table_clock.py says what it holds), or None."""
        return read_clocks(self.conn, game_id)

    def keep_clocks(self, game_id: int, data: dict[str, Any]) -> None:
        with _saving("Not saved, so the clocks were not kept"), _Tx(self.conn):
            write_clocks(self.conn, game_id, data, _now())

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
