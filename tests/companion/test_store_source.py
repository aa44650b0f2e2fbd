"""Schema 2 (companion/store/schema.py): each step keeps where its command came from, a game's
clocks are kept beside it, and a database written before both (schema 1) opens with every game
and step it holds: its steps' source unknown, the game playable on from where it stood."""

from __future__ import annotations

import os
import random
import sqlite3

from companion.core import Command, InputEvent
from companion.games import get_rules
from companion.store import Store
from companion.store.schema import SCHEMA_VERSION
from tests.companion.quest_autoplay import random_command
from tests.companion.test_store_summary import as_schema_2

SETUP = {"players": ["Ann", "Bob", "Cat"], "needed": ["rotten_egg", "newt_eye", "bat_wing"]}


def _play_some(store: Store) -> int:
    session = store.new_game(get_rules("quest"), SETUP)
    session.handle_input(InputEvent("die", "action_a", "hat", source="serial"))
    session.handle_input(InputEvent("die", "action_b", 2, source="serial"))
    session.execute(_legal(session), source="touch")
    return session.game_id


def _legal(session) -> Command:
    return random_command(session.state, random.Random(3))


def _version(path) -> int:
    raw = sqlite3.connect(path)
    try:
        return raw.execute("PRAGMA user_version").fetchone()[0]
    finally:
        raw.close()


def test_each_step_keeps_its_source_across_a_restart(tmp_path):
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        game_id = _play_some(store)
    with Store(db) as store:
        steps = list(store.steps(game_id))
        assert [s.source for s in steps] == ["serial", "serial", "touch"]
        session = store.open_session(game_id)
        assert session.log()[0][1] == ["Action die A read hat"]


def _as_schema_1(db) -> None:
    """The file as the companion before schema 2 wrote it: no source column, no clocks (nor
    the lines of schema 3 or the profiles of schema 4: the rows copied into schema 2's tables)."""
    older = db.with_name("older.sqlite3")
    as_schema_2(db, older)
    for side in ("", "-wal", "-shm"):
        if os.path.exists(f"{db}{side}"):
            os.remove(f"{db}{side}")
    os.replace(older, db)
    raw = sqlite3.connect(db)
    raw.execute("ALTER TABLE steps DROP COLUMN source")
    raw.execute("DROP TABLE clocks")
    raw.execute("PRAGMA user_version = 1")
    raw.commit()
    raw.close()


def test_a_schema_1_database_opens_migrated_and_keeps_every_row(tmp_path):
    db = tmp_path / "old.sqlite3"
    with Store(db) as store:
        game_id = _play_some(store)
        before = store.open_session(game_id).state
    _as_schema_1(db)
    assert _version(db) == 1
    with Store(db, readonly=True) as reader:  # a reader changes nothing, and still reads it
        assert [s.source for s in reader.steps(game_id)] == [None, None, None]
        assert reader.clocks(game_id) is None
    assert _version(db) == 1
    with Store(db) as store:
        assert store.notice is None
        assert _version(db) == SCHEMA_VERSION == 5
        assert sorted(p.name for p in store.profiles()) == ["Ann", "Bob", "Cat"]  # schema 4's
        assert store.games()[0].uuid and store.device_id
        session = store.open_session(game_id)
        assert session.state == before and len(session.steps) == 3
        assert [s.source for s in session.steps] == [None, None, None]
        session.execute(_legal(session), source="gpio")
        store.keep_clocks(game_id, {"game": 12.5, "seats": [1, 2, 3]})
    with Store(db) as store:
        assert [s.source for s in store.steps(game_id)] == [None, None, None, "gpio"]
        assert store.clocks(game_id) == {"game": 12.5, "seats": [1, 2, 3]}


def test_clocks_are_one_row_per_game_replaced(tmp_path):
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        game_id = _play_some(store)
        assert store.clocks(game_id) is None
        store.keep_clocks(game_id, {"game": 1.0})
        store.keep_clocks(game_id, {"game": 2.0, "paused": True})
        rows = store.conn.execute("SELECT count(*) FROM clocks").fetchone()[0]
        assert rows == 1 and store.clocks(game_id) == {"game": 2.0, "paused": True}
