"""Schema 3: each game's line (the rules' summary, its done steps) kept in the same transaction
as every step, undo and redo; checkpoints that let a resume fold only the tail of a game; lists
of games that read one row per game and never a log; a schema-2 file opened with every row.

Autoplayed games of all three titles, with undos, redos and dropped redo branches among their
steps. Nothing here is timed: the listing's figures go to the test summary, not to asserts."""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from typing import Any, Callable

import pytest

import companion.games
from companion.core import InputEvent, Session
from companion.core.engine import CHECKPOINT_EVERY, DeferredStep
from companion.core.errors import StoreError
from companion.games import get_rules
from companion.store import Store
from companion.store.steps import BATCH
from companion.store.journal import KEEP_CHECKPOINTS
from companion.store.schema import SCHEMA_VERSION
from tests.companion import cauldron_autoplay, quest_autoplay
from tests.support import autoplay
from tests.support.figures import median_ms, report

TITLES: dict[str, tuple[dict[str, Any], Callable[[Session, random.Random], Any]]] = {
    "witchs_brew": ({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Dora"]},
                    autoplay.next_command),
    "cauldron": ({"game": "cauldron", **cauldron_autoplay.setup_for(4)},
                 cauldron_autoplay.next_command),
    "quest": ({"game": "quest", "players": list(quest_autoplay.PLAYERS),
               "needed": list(quest_autoplay.NEEDED)},
              lambda s, rng: quest_autoplay.random_command(s.state, rng)),
}


def send(session: Session, move: Any) -> None:
    if isinstance(move, InputEvent):
        session.handle_input(move)
    else:
        session.execute(move)


def play_stored(store: Store, game: str, seed: int = 1, *, after: Callable[[Session], None]
                = lambda s: None, until: int | None = None) -> Session:
    """A whole autoplayed game (or its first ``until`` commands) written through the store,
    with an undo and a redo every 7 commands and, every 11, an undo followed by a new command
    (the redo branch dropped); ``after`` is called after every change."""
    setup, next_move = TITLES[game]
    rng = random.Random(seed)
    session = store.new_game(get_rules(game), dict(setup))
    after(session)
    played = 0
    while not session.over and (until is None or played < until):
        send(session, next_move(session, rng))
        played += 1
        after(session)
        if played % 7 == 0 and session.can_undo:
            session.undo()
            after(session)
            session.redo()
            after(session)
        if played % 11 == 0 and session.can_undo:
            session.undo()
            after(session)
    return session


def line(store: Store, game_id: int) -> tuple[Any, int]:
    summary, done = store.conn.execute("SELECT summary, done_steps FROM games WHERE id = ?",
                                       (game_id,)).fetchone()
    return json.loads(summary), done


def full_fold(store: Store, game_id: int) -> Session:
    """The game folded from its setup, every done step, no checkpoint."""
    game, setup = store._game_row(game_id)
    return Session(get_rules(game), setup, list(store.steps(game_id)))


@pytest.mark.parametrize("game", sorted(TITLES))
def test_the_line_is_the_rules_summary_after_every_step_undo_and_redo(tmp_path, game):
    changes = [0]

    with Store(tmp_path / "c.sqlite3") as store:
        def same(session: Session) -> None:
            changes[0] += 1
            summary, done = line(store, session.game_id)
            assert summary == session.rules.summary(session.state)
            assert done == len(session.done_steps())
            if changes[0] % 50 == 0:  # and the session's state is the fold of its log
                assert full_fold(store, session.game_id).state == session.state

        session = play_stored(store, game, after=same)
        assert session.over and changes[0] > 100
        assert full_fold(store, session.game_id).summary() == line(store, session.game_id)[0]
        [info] = store.games("finished", summaries=True)
        assert info.summary == session.summary() and info.steps == len(session.done_steps())
        report("storage per finished game", storage(store, game, len(session.steps)))


def storage(store: Store, game: str, steps: int) -> str:
    """What one finished game keeps, in bytes of payload (what its rows hold)."""
    q = store.conn.execute
    log = q("SELECT (SELECT sum(length(command) + length(created_at) + ifnull(length(source), 0))"
            " FROM steps) + (SELECT sum(length(type) + length(data)) FROM events)").fetchone()[0]
    kept = q("SELECT count(*), ifnull(sum(length(state)), 0) FROM checkpoints").fetchone()
    summary = q("SELECT length(summary) FROM games").fetchone()[0]
    return (f"{game}: {steps} steps; log {log / 1024:.1f} KiB ({log / steps:.0f} B a step); "
            f"{kept[0]} checkpoint(s) {kept[1] / 1024:.1f} KiB; summary {summary / 1024:.1f} "
            "KiB (payload, before SQLite's pages)")


@pytest.mark.parametrize("game", sorted(TITLES))
def test_every_state_of_a_game_round_trips_through_json(game):
    """A checkpoint is the state as JSON: it must read back exactly as it was."""
    setup, next_move = TITLES[game]
    rng = random.Random(2)
    session = Session(get_rules(game), dict(setup))
    while not session.over:
        send(session, next_move(session, rng))
        assert json.loads(json.dumps(session.state)) == session.state


def counting(monkeypatch) -> list[int]:
    """The rules every resume gets, counting the events their ``evolve`` folds."""
    folded = [0]
    real = companion.games.get_rules

    def rules_counting(name: str):
        rules = real(name)

        def evolve(state, event):
            folded[0] += 1
            return rules.evolve(state, event)

        return replace(rules, evolve=evolve)

    monkeypatch.setattr(companion.games, "get_rules", rules_counting)
    return folded


def events_after(session: Session, n: int) -> int:
    return sum(len(s.events) for s in session.done_steps() if s.n > n)


@pytest.mark.parametrize("game", sorted(TITLES))
def test_a_resume_folds_only_the_steps_after_the_latest_checkpoint(tmp_path, game, monkeypatch):
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        live = play_stored(store, game, until=150)
        game_id, state = live.game_id, live.state
        kept = [n for (n,) in store.conn.execute(
            "SELECT n FROM checkpoints WHERE game_id = ? ORDER BY n", (game_id,))]
    assert 0 < len(kept) <= KEEP_CHECKPOINTS
    folded = counting(monkeypatch)
    with Store(db) as store:
        resumed = store.open_session(game_id)
        assert resumed.state == state == full_fold(store, game_id).state
        done = [s.n for s in resumed.done_steps()]
        latest = max(n for n in kept if n in done)
        assert folded[0] == events_after(resumed, latest)
        assert len([n for n in done if n > latest]) < CHECKPOINT_EVERY
        assert folded[0] < sum(len(s.events) for s in resumed.done_steps()) / 3
        resumed.undo()
        resumed.redo()   # and it plays on as the live session would
        assert resumed.state == state


def test_a_checkpoint_other_rules_made_is_never_resumed_from(tmp_path, monkeypatch):
    """A rules fix in an update: the old checkpoints are passed over, the game is folded from
    its start by today's rules, and a checkpoint these rules made is kept for the next time."""
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        live = play_stored(store, "cauldron", until=120)
        game_id, state = live.game_id, live.state
        store.conn.execute("UPDATE checkpoints SET version = '0.0.1+older', "
                           "state = '{\"made\": \"by other rules\"}'")
    folded = counting(monkeypatch)
    with Store(db) as store:
        resumed = store.open_session(game_id)
        assert resumed.state == state
        assert folded[0] == events_after(resumed, 0)
        last = resumed.done_steps()[-1].n
        assert [n for (n,) in store.conn.execute(
            "SELECT n FROM checkpoints WHERE version != '0.0.1+older'")] == [last]
    folded[0] = 0
    with Store(db) as store:
        assert store.open_session(game_id).state == state and folded[0] == 0


def test_a_checkpoint_of_a_step_that_is_not_done_is_not_resumed_from(tmp_path):
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        live = play_stored(store, "witchs_brew", until=70)
        n = store.conn.execute("SELECT max(n) FROM checkpoints").fetchone()[0]
        while any(s.n >= n for s in live.done_steps()):
            live.undo()
        state = live.state
    with Store(db) as store:
        kept = store._checkpoints(live.game_id)
        assert not kept or kept[-1][0] < n
        assert store.open_session(live.game_id).state == state


def test_repair_drops_the_checkpoints_from_the_bad_step_on(tmp_path):
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        session = store.new_game(get_rules("witchs_brew"), TITLES["witchs_brew"][0])
        rng = random.Random(4)
        for _ in range(100):
            session.execute(autoplay.next_command(session, rng))
        game_id = session.game_id
        kept = [n for (n,) in store.conn.execute("SELECT n FROM checkpoints ORDER BY n")]
        assert kept == [64, 96]
        store.conn.execute("UPDATE events SET data = '[1, 2]' WHERE game_id = ? AND step = 70",
                           (game_id,))
    with Store(db) as store:
        assert store.repair(game_id)
        assert [n for (n,) in store.conn.execute("SELECT n FROM checkpoints")] == [64]
        resumed = store.open_session(game_id)
        good = Session(get_rules("witchs_brew"), store.setup_of(game_id),
                       list(store.steps(game_id, before=70)))
        assert resumed.state == good.state and len(resumed.done_steps()) == 69
        assert line(store, game_id) == (good.summary(), 69)
        assert store.games()[0].damaged is None


def test_a_failed_resume_marks_the_line_damaged_until_repaired(tmp_path):
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        session = play_stored(store, "quest", until=20)
        store.conn.execute("UPDATE events SET data = '[1, 2]' WHERE game_id = ? AND step = 9",
                           (session.game_id,))
    with Store(db) as store:
        assert store.unfinished()[0].damaged is None        # never folded to list it
        with pytest.raises(Exception):
            store.open_session(session.game_id)
        assert "step 9" in store.unfinished()[0].damaged
        store.repair(session.game_id)
        assert store.unfinished()[0].damaged is None



def waiting(steps) -> tuple[list[int], list[int]]:
    """The stored steps whose command and events have been built, and those still waiting."""
    deferred = [s for s in steps if isinstance(s, DeferredStep)]
    return ([s.n for s in deferred if s.__dict__["_load"] is None],
            [s.n for s in deferred if s.__dict__["_load"] is not None])


def test_a_resume_builds_only_the_batches_it_folds_and_the_rest_when_read(tmp_path):
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        live = play_stored(store, "cauldron", until=700)
        game_id = live.game_id
    assert len(live.steps) > 4 * BATCH
    with Store(db) as store:
        resumed = store.open_session(game_id)
        built, later = waiting(resumed.steps)
        assert 0 < len(built) <= 2 * BATCH and built[-1] == resumed.steps[-1].n
        assert len(later) > 2 * BATCH
        kept = [s for s in resumed.steps if s.status != "dropped"]   # dropped: set aside
        played = [s for s in live.steps if s.status != "dropped"]
        assert kept == played and played == kept and len(kept) > 4 * BATCH   # as played
        assert waiting(resumed.steps)[1] == []   # read, so built
        assert resumed.log() == live.log() and resumed.state == live.state


@pytest.mark.parametrize("row", [
    "UPDATE steps SET command = '{\"player\": \"Anna\"}' WHERE game_id = ? AND n = 5",
    "UPDATE steps SET command = '[\"claim\"]' WHERE game_id = ? AND n = 5",
    "UPDATE steps SET command = '{\"do\": ' WHERE game_id = ? AND n = 5",
    "UPDATE events SET data = '{\"n\": ' WHERE game_id = ? AND step = 5",
])
def test_a_bad_row_long_before_the_checkpoint_still_fails_the_resume(tmp_path, row):
    """Steps are built when read, but a row SQLite does not vouch for is read at once: the
    resume refuses the game naming the step, as it did when every step was built."""
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        game_id = play_stored(store, "cauldron", until=300).game_id
        store.conn.execute(row, (game_id,))
    with Store(db) as store:
        with pytest.raises(StoreError, match="from step 5 on"):
            store.open_session(game_id)


# -- a file written by schema 2 ---------------------------------------------------------------
SCHEMA_2 = """
CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, setup TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'abandoned')),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, finished_at TEXT);
CREATE TABLE players (game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
    name TEXT NOT NULL, PRIMARY KEY (game_id, seat));
CREATE TABLE steps (game_id INTEGER NOT NULL REFERENCES games(id), n INTEGER NOT NULL,
    command TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('done', 'undone', 'dropped')),
    created_at TEXT NOT NULL, source TEXT, PRIMARY KEY (game_id, n));
CREATE TABLE events (game_id INTEGER NOT NULL, step INTEGER NOT NULL, seq INTEGER NOT NULL,
    type TEXT NOT NULL, data TEXT NOT NULL, automatic INTEGER NOT NULL,
    undoable INTEGER NOT NULL, PRIMARY KEY (game_id, step, seq),
    FOREIGN KEY (game_id, step) REFERENCES steps(game_id, n));
CREATE TABLE results (game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
    name TEXT NOT NULL, score INTEGER NOT NULL, winner INTEGER NOT NULL, detail TEXT NOT NULL,
    PRIMARY KEY (game_id, seat));
CREATE TABLE clocks (game_id INTEGER PRIMARY KEY REFERENCES games(id), data TEXT NOT NULL,
    updated_at TEXT NOT NULL);
"""
V2_COLUMNS = {"games": "id, game, setup, status, created_at, updated_at, finished_at",
              "players": "game_id, seat, name", "steps": "*", "events": "*", "results": "*",
              "clocks": "*"}


def as_older_schema(source, target, schema: str, version: int,
                    columns: dict[str, str]) -> dict[str, list[tuple]]:
    """The games of ``source`` in a new file made with an older version's tables (``schema``,
    each table filled with its ``columns`` of today's); returns every row it holds."""
    raw = sqlite3.connect(target)
    raw.executescript(schema)
    raw.execute("PRAGMA application_id = 1413696848")
    raw.execute(f"PRAGMA user_version = {version}")
    raw.execute("ATTACH ? AS new", (str(source),))
    for table, kept in columns.items():
        raw.execute(f"INSERT INTO main.{table} SELECT {kept} FROM new.{table}")
    raw.commit()
    raw.execute("DETACH new")
    rows = {t: raw.execute(f"SELECT {c} FROM {t} ORDER BY 1, 2").fetchall()
            for t, c in columns.items()}
    raw.close()
    return rows


def as_schema_2(source, target) -> dict[str, list[tuple]]:
    """The games of ``source`` in a new file made with schema 2's tables, as that companion
    wrote them (spaced JSON and all); returns every row it holds."""
    return as_older_schema(source, target, SCHEMA_2, 2, V2_COLUMNS)


def test_a_schema_2_file_opens_keeps_every_row_and_lists_its_games(tmp_path):
    built = tmp_path / "new.sqlite3"
    states = {}
    with Store(built) as store:
        for game in sorted(TITLES):
            finished = play_stored(store, game)
            running = play_stored(store, game, seed=3, until=40)
            states[finished.game_id], states[running.game_id] = finished.state, running.state
    old = tmp_path / "old.sqlite3"
    rows = as_schema_2(built, old)
    with Store(old) as store:
        assert store.notice is None
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
        for table, columns in V2_COLUMNS.items():   # every row kept as it was
            assert store.conn.execute(f"SELECT {columns} FROM {table} ORDER BY 1, 2"
                                      ).fetchall() == rows[table]
        listed = store.games()
        assert sorted(i.id for i in listed) == sorted(states)
        for info in store.unfinished():   # filled once, in the opening transaction
            fold = full_fold(store, info.id)
            assert info.summary == fold.summary() and info.steps == len(fold.done_steps())
        for info in store.games("finished", summaries=True):  # results kept, summary when opened
            assert info.results and info.summary is None
            assert info.steps == len(full_fold(store, info.id).done_steps())
        for game_id, state in states.items():
            assert store.open_session(game_id).state == state
        assert all(i.summary is not None for i in store.games(summaries=True))


# -- listing: one row per game, never a log ---------------------------------------------------
def clone_games(store: Store, game_id: int, copies: int) -> None:
    """``copies`` more games exactly like ``game_id`` (all its rows), written straight into the
    file in one transaction: many finished games quickly, for the listing's figures."""
    conn = store.conn
    columns = {t: [r[1] for r in conn.execute(f"PRAGMA table_info({t})")]
               for t in ("games", "players", "steps", "events", "results", "checkpoints")}
    conn.execute("BEGIN IMMEDIATE")
    for _ in range(copies):
        rest = [c for c in columns["games"] if c not in ("id", "uuid")]  # a uuid is one game's
        new = conn.execute(f"INSERT INTO games ({', '.join(rest)}) SELECT {', '.join(rest)} "
                           "FROM games WHERE id = ?", (game_id,)).lastrowid
        for table in ("players", "steps", "events", "results", "checkpoints"):
            rest = [c for c in columns[table] if c != "game_id"]
            conn.execute(f"INSERT INTO {table} (game_id, {', '.join(rest)}) SELECT ?, "
                         f"{', '.join(rest)} FROM {table} WHERE game_id = ?", (new, game_id))
    conn.execute("COMMIT")


def statements(store: Store, call: Callable[[], Any]) -> list[str]:
    seen: list[str] = []
    store.conn.set_trace_callback(seen.append)
    try:
        call()
    finally:
        store.conn.set_trace_callback(None)
    return seen



def test_listing_reads_one_row_per_game_and_never_a_log(tmp_path):
    with Store(tmp_path / "c.sqlite3") as store:
        finished = {g: play_stored(store, g).game_id for g in sorted(TITLES)}
        running = play_stored(store, "cauldron", until=30)
        counts = {}
        for total in (50, 500):
            more = total - store.count("finished")
            for i, game_id in enumerate(finished.values()):
                clone_games(store, game_id, more // 3 + (i < more % 3))
            assert store.count("finished") == total
            page = lambda: store.history(20, 0)  # noqa: E731
            calls = {"games()": store.games, "unfinished()": store.unfinished,
                     "history(20, 0)": page}
            for name, call in calls.items():
                said = statements(store, call)
                assert not [s for s in said if " steps" in s or "events" in s], said
                counts[total, name] = len(said)
            plain = lambda: store.conn.execute(  # noqa: E731
                "SELECT id, updated_at FROM games WHERE status = 'finished' ORDER BY id DESC "
                "LIMIT 20").fetchall()
            report("store listing", f"{store.count('finished')} finished games: history(20) "
                   f"{median_ms(page):.2f} ms, unfinished() {median_ms(store.unfinished):.2f} "
                   f"ms, games() {median_ms(store.games, 3):.1f} ms; a plain SQL query of "
                   f"the same page {median_ms(plain):.2f} ms")
        assert counts[50, "history(20, 0)"] == counts[500, "history(20, 0)"]
        assert counts[50, "unfinished()"] == counts[500, "unfinished()"]
        assert [i.id for i in store.unfinished()] == [running.game_id]
        assert len(store.history(20, 0)) == 20 and len(store.history(20, 490)) == \
            store.count("finished") - 490
        assert store.history(20, 0)[0].summary is None and store.history(20, 0)[0].results
