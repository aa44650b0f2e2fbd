"""The game database (SQLite): ``Store`` is its face; beside it how the file is opened, written
step by step, laid out and migrated, read back, checked and repaired, and its player profiles."""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from companion.core.engine import CHECKPOINT_EVERY, GameRules, Session, Step
from companion.core.errors import CompanionError, SetupError, StoreError
from companion.core.values import INT64_MAX, INT64_MIN
from companion.store import profiles
from companion.files.walk import Place
from companion.store.aside import mark_clean, remove_leftovers
from companion.store.journal import (
    GameJournal, Tx, keep_checkpoint, rules_version, saving, settle, utc_now,
)
from companion.store.held import WriterLock, place_of, refuse_odd
from companion.store.opening import connect_reader, open_writer
from companion.store.profiles import Profile
from companion.store.schema import (  # noqa: F401 (unstorable: the store's API)
    dumps, has_column, read_clocks, unstorable, write_clocks,
)
from companion.store.steps import read_steps

if TYPE_CHECKING:
    from companion.store.check import Problem

def default_path() -> Path:
    """The database in the user data directory (platformdirs), or $COMPANION_DB."""
    if os.environ.get("COMPANION_DB"):
        return Path(os.environ["COMPANION_DB"])
    from platformdirs import user_data_dir

    return Path(user_data_dir("table-companion", appauthor=False)) / "companion.sqlite3"


def demo_path() -> Path:
    """Demo mode's own database, beside the real one (``companion.demo.sqlite3``): games played
    to try the app never appear in the table's history or statistics."""
    real = default_path()
    return real.with_name(f"{real.stem}.demo{real.suffix or '.sqlite3'}")


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
    #: The rules' summary after the latest change (None for an old game never opened since
    #: summaries were kept, or one whose setup cannot be played), and what keeps the game from
    #: folding when a fold found it (None otherwise): its line without a fold.
    summary: dict[str, Any] | None = None
    damaged: str | None = None
    #: The game's uuid (None only for a row written outside the store, or a reader's file
    #: from before version 4): the same game on every table it is imported into.
    uuid: str | None = None


class Store:
    """The game database. ``notice`` says if a bad file was moved aside when opening.

    A writer (the default) holds the database's one-writer lock until ``close()``; with
    ``readonly=True`` it only reads an existing companion database and changes nothing.

    One file in the user data directory: every game, its players, its log of steps and events,
    its results. Lists of games read one row per game, its line (summary, done steps, damage)
    kept in the same transaction as each step, never a game's log. WAL journal and
    ``synchronous=FULL``: a step is one transaction, committed before the screen shows its
    result, so a power cut cannot lose it. The step that ends a game is written in the same
    transaction as the results it finishes (and an undo past the end with the reopening), so a
    game is never "running" with its end in its log. Undo and redo only change a step's status;
    nothing a player entered is deleted. A value the file cannot keep (a whole number beyond
    SQLite's 64 bits, a broken character) is refused before anything is written. How the file
    is opened (what is moved aside and what is refused, one writer, read-only use) is in
    opening.py, the copies kept aside and the clean-close mark in aside.py; how a step is written while playing, in journal.py; how its steps are read
    back, in steps.py. Each game has a uuid and each seat a player profile (profiles.py), and
    the database a device id, so games from two tables merge by uuid
    (companion/history/merge.py) without collisions."""

    def __init__(self, path: str | os.PathLike[str] = ":memory:", *,
                 readonly: bool = False) -> None:
        self.path = str(path)
        self.readonly = readonly
        self.notice: str | None = None
        self._lock: WriterLock | None = None
        self._place: Place | None = None   # the writer's folder, held open for its life
        self._damaged: dict[int, str] = {}  # game -> what a failed open found, this run
        self._device: str | None = None
        if readonly:
            self.conn = connect_reader(self.path)
            return
        if self.path == ":memory:":
            self.conn, self.notice = open_writer(self.path)
            return
        self._place = place_of(self.path, make=True)
        try:
            refuse_odd(self._place)
            self._lock = WriterLock.take(self._place)
            gone = remove_leftovers(self._place)
            self.conn, self.notice = open_writer(self._place)
        except BaseException:
            self._release()
            raise
        if gone:
            said = (f"Removed what a restore or backup that was stopped left beside the game "
                    f"database: {', '.join(gone)}")
            self.notice = f"{self.notice}. {said}" if self.notice else said

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        if self._place is not None:
            self._place.close()
            self._place = None

    def close(self) -> None:
        try:
            self.conn.close()
            if self._lock is not None and self._place is not None:
                mark_clean(self._place)   # the writer, closed cleanly: the next start trusts it
        finally:
            self._release()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games -----------------------------------------------------------------------------
    def new_game(self, rules: GameRules, setup: dict[str, Any], *,
                 picked: list[str | None] | None = None) -> Session:
        """Validate the setup (SetupError if it cannot be played), store it, return the session.
        Each seat links to a player profile: the one ``picked`` for it (a profile uuid, when
        two profiles share a name), else the one of its name, made now if there is none."""
        clean, initial = rules.start({"game": rules.name, **setup})
        setup = {"game": rules.name, **clean}
        names = [p["name"] for p in rules.summary(initial)["players"]]
        problem = unstorable(setup, "setup") or unstorable(names, "players")
        if problem:
            raise SetupError(problem)
        now = utc_now()
        with saving("Not saved, so the game was not started"), Tx(self.conn):
            cur = self.conn.execute(
                "INSERT INTO games (game, setup, created_at, updated_at, summary, uuid, device) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (rules.name, dumps(setup), now, now, dumps(rules.summary(initial)),
                 str(uuid.uuid4()), self.device_id))
            game_id = int(cur.lastrowid)
            linked = profiles.link_seats(self.conn, names, setup, now, picked)
            self.conn.executemany(
                "INSERT INTO players (game_id, seat, name, profile_id) VALUES (?, ?, ?, ?)",
                [(game_id, i, name, linked[i]) for i, name in enumerate(names)])
        return Session(rules, setup, journal=GameJournal(self, game_id), game_id=game_id)

    # -- player profiles (profiles.py) -----------------------------------------------------
    @property
    def device_id(self) -> str:
        """This database's device id, made once (a reader's file from before version 4: "")."""
        if self._device is None:
            self._device = profiles.device_id(self.conn)
        return self._device

    def profiles(self, limit: int = 50) -> list[Profile]:
        """The players seen at this table, most recently played first, then by name."""
        if self.readonly and not has_column(self.conn, "profiles", "uuid"):
            return []  # a reader's file from before version 4
        return profiles.read_profiles(self.conn, limit)

    def update_profile(self, profile_uuid: str, *, name: str | None = None,
                       short_name: str | None = None, colour: str | None = None) -> Profile:
        """Rename a profile, give it a short name or a palette colour ("" clears either);
        SetupError naming the field, and nothing changed, for a blank or taken name, a short
        name over 6 letters or a colour not in the palette. Games keep the seat names they
        were played with."""
        with saving("Not saved, so the profile was not changed"), Tx(self.conn):
            changes = profiles.checked_changes(self.conn, profile_uuid, name=name,
                                               short_name=short_name, colour=colour)
            profiles.apply_changes(self.conn, profile_uuid, changes)
        found = profiles.read_profile(self.conn, profile_uuid)
        assert found is not None  # checked above, in the same transaction
        return found

    def open_session(self, game_id: int) -> Session:
        """Resume a stored game exactly: same state, same undo history."""
        from companion.games import get_rules

        game, setup = self._game_row(game_id)
        rules = get_rules(game)
        kept = self._checkpoints(game_id)
        checkpoint = kept[-1] if kept else None
        try:
            steps = list(self.steps(game_id))
            session = Session(rules, setup, steps, journal=GameJournal(self, game_id),
                              game_id=game_id, checkpoint=kept)
        except CompanionError:  # a setup today's rules refuse: the line says so too
            self._found_damaged(game_id)
            raise
        except Exception:  # a malformed row, or events today's rules reject: name it, never crash
            found = self._found_damaged(game_id)
            raise StoreError(f"Game #{game_id} cannot be read"
                             f"{f' from step {found.step} on' if found and found.step else ''}: "
                             "companion check --repair sets the bad steps aside (nothing is "
                             "deleted) and the game resumes at its last good state") from None
        self._damaged.pop(game_id, None)
        self._reconcile(session, checkpoint)
        return session

    def _found_damaged(self, game_id: int) -> "Problem | None":
        """What keeps a game that failed to open from folding; its line says so from now on
        (the home screen's damaged card). Kept in memory: a failed open changes nothing in the
        file, and the next run finds it again when the game is resumed."""
        from companion.store.check import check_game

        found = check_game(self.conn, game_id)
        if found is not None:
            self._damaged[game_id] = str(found)
        return found

    def _checkpoints(self, game_id: int) -> list[tuple[int, Any]]:
        """The kept states whose step is done, made by these rules (``rules_version``), oldest
        first: the session folds on from the latest, and an undo past it from the one before
        (none: the session folds from the start)."""
        if not has_column(self.conn, "checkpoints", "state"):  # a reader's file from before
            return []
        rows = self.conn.execute(
            "SELECT c.n, c.state FROM checkpoints c JOIN steps s ON s.game_id = c.game_id "
            "AND s.n = c.n WHERE c.game_id = ? AND s.status = 'done' AND c.version = ? "
            "ORDER BY c.n", (game_id, rules_version())).fetchall()
        return [(n, json.loads(state)) for n, state in rows]

    def _reconcile(self, session: Session, checkpoint: tuple[int, Any] | None) -> None:
        """What an older companion left behind is set right, once, from the fold: a game it
        killed between the step and the results (written then in a second transaction) is
        'running' with its end in its log; a game from before summaries has no line for the
        lists; a game without a checkpoint these rules made (older rules, or none yet) gets
        one at its latest done step, so the next resume folds nothing."""
        if self.readonly:  # a reader changes nothing; the session is right from its fold
            return
        game_id = session.game_id
        status, summary, done, damaged = self.conn.execute(
            "SELECT status, summary, done_steps, damaged FROM games WHERE id = ?",
            (game_id,)).fetchone()
        kept = self.conn.execute("SELECT count(*) FROM results WHERE game_id = ?",
                                 (game_id,)).fetchone()[0] > 0
        over = session.over
        ended = (status == "finished") == over and kept == over
        line = dumps(session.summary())
        done_steps = session.done_steps_view()  # read only: no copy of the log
        last = done_steps[-1].n if done_steps else None
        stale = checkpoint is None and len(done_steps) >= CHECKPOINT_EVERY
        if (ended and summary == line and done == len(done_steps) and damaged is None
                and not stale):
            return
        with saving("Not saved, so the game was not set right"), Tx(self.conn):
            self.conn.execute("UPDATE games SET summary = ?, done_steps = ?, damaged = NULL "
                              "WHERE id = ?", (line, len(done_steps), game_id))
            if stale:
                keep_checkpoint(self.conn, game_id, last, session.state)
            if not ended:
                results = session.rules.results(session.state) if over else None
                settle(self.conn, game_id, results, utc_now())

    # -- a game whose log does not fold ---------------------------------------------------
    def damage(self, game_id: int) -> "Problem | None":
        """What keeps a stored game from folding (its setup, or its first bad step), or None."""
        from companion.store.check import check_game

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
        from companion.store.check import repair

        problem = self.damage(game_id)
        self._damaged.pop(game_id, None)
        with saving("Not saved, so nothing was repaired"):
            return repair(self.conn, [problem]) if problem else []

    def raw_log(self, game_id: int) -> list[str]:
        from companion.store.check import raw_log

        self._game_row(game_id)  # an unknown game number is a StoreError naming it
        return raw_log(self.conn, game_id)

    def abandon(self, game_id: int) -> None:
        """Stop offering a running game for resume; its log stays."""
        with saving("Not saved, so the game was not abandoned"), Tx(self.conn):
            self.conn.execute("UPDATE games SET status = 'abandoned', updated_at = ? "
                              "WHERE id = ? AND status = 'running'", (utc_now(), game_id))

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
        """The stored steps in order (companion/store/steps.py); ``before`` stops at a step."""
        return read_steps(self.conn, game_id, before)

    def clocks(self, game_id: int) -> dict[str, Any] | None:
        """A game's chess clock as last kept (ui/table/clock.py says what it holds), or None."""
        return read_clocks(self.conn, game_id)

    def keep_clocks(self, game_id: int, data: dict[str, Any]) -> None:
        with saving("Not saved, so the clocks were not kept"), Tx(self.conn):
            write_clocks(self.conn, game_id, data, utc_now())

    def games(self, status: str | None = None, limit: int = -1, offset: int = 0, *,
              summaries: bool = False) -> list[GameInfo]:
        """Games newest first, optionally only 'running' or 'finished' ones, and only
        ``limit`` of them from ``offset``: each game's line as kept (never its log, never a
        fold), read in three statements per 500 games. With ``summaries=True`` each game's
        summary too (a finished game's line needs its results, not where it stood, and a
        summary can be 10 KB)."""
        line = self._line(summaries)
        ident = "uuid" if has_column(self.conn, "games", "uuid") else "NULL"
        query = f"SELECT id, game, status, created_at, updated_at, {line}, {ident} FROM games"
        args: tuple[Any, ...] = ()
        if status:
            query += " WHERE status = ?"
            args = (status,)
        rows = self.conn.execute(query + " ORDER BY id DESC LIMIT ? OFFSET ?",
                                 (*args, limit, offset)).fetchall()
        if not rows:
            return []
        players: dict[int, list[str]] = {}
        results: dict[int, list[dict[str, Any]]] = {}
        ids = [row[0] for row in rows]
        for at in range(0, len(ids), 500):  # well under SQLite's limit on parameters
            chunk = ids[at:at + 500]
            marks = ",".join("?" * len(chunk))
            for gid, name in self.conn.execute(
                    f"SELECT game_id, name FROM players WHERE game_id IN ({marks}) "
                    "ORDER BY game_id, seat", chunk):
                players.setdefault(gid, []).append(name)
            for gid, detail in self.conn.execute(
                    f"SELECT game_id, detail FROM results WHERE game_id IN ({marks}) "
                    "ORDER BY game_id, seat", chunk):
                results.setdefault(gid, []).append(json.loads(detail))
        return [GameInfo(gid, game, players.get(gid, []), st, created, updated, done,
                         results.get(gid, []), json.loads(summary) if summary else None,
                         damaged or self._damaged.get(gid), ident)
                for gid, game, st, created, updated, summary, done, damaged, ident in rows]

    def _line(self, summaries: bool) -> str:
        """The columns of a game's line (its summary only with ``summaries``); a reader's file
        from before version 3 has none, so its games are listed with their step count read
        from the log."""
        if has_column(self.conn, "games", "done_steps"):
            return f"{'summary' if summaries else 'NULL'}, done_steps, damaged"
        return ("NULL, (SELECT count(*) FROM steps WHERE steps.game_id = games.id AND "
                "steps.status = 'done'), NULL")

    def unfinished(self, limit: int = -1) -> list[GameInfo]:
        """Running games newest first (the latest ``limit``), with where each stands."""
        return self.games("running", limit, summaries=True)

    def history(self, limit: int, offset: int = 0) -> list[GameInfo]:
        """Finished games newest first, a page at a time (the home screen's list): results,
        players and when, without their summaries."""
        return self.games("finished", limit, offset)

    def count(self, status: str | None = None) -> int:
        if status:
            return self.conn.execute("SELECT count(*) FROM games WHERE status = ?",
                                     (status,)).fetchone()[0]
        return self.conn.execute("SELECT count(*) FROM games").fetchone()[0]
