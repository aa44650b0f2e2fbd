"""The store: durable steps, exact resume, history, bad files moved aside, every game stored
with its players."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime

import pytest

from companion.core import Command, RuleViolation, StoreError
from companion.games import get_rules
from companion.store import Store
from tests.support.autoplay import play

RULES = get_rules("witchs_brew")
FIVE = {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Daniel", "Emma"]}


def test_new_game_is_offered_for_resume_with_the_same_state_and_undo_history(tmp_path):
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        session = store.new_game(RULES, FIVE)
        session.execute(Command("play_role", "Anna", {"role": "warlock"}))
        session.execute(Command("so_be_it", "Barb"))
        session.execute(Command("claim", "Carl"))
        session.undo()
        live_state, live_steps = session.state, session.steps
    with Store(db) as store:
        [info] = store.unfinished()
        assert info.players == FIVE["players"] and info.steps == 2
        resumed = store.open_session(info.id)
        assert resumed.state == live_state
        assert [(s.n, s.status, s.command) for s in resumed.steps] == \
            [(s.n, s.status, s.command) for s in live_steps]
        assert resumed.can_redo
        resumed.redo()
        assert resumed.state["holder"] == 2


def test_a_new_command_after_undo_keeps_the_redo_branch_marked_dropped(tmp_path):
    with Store(tmp_path / "c.sqlite3") as store:
        session = store.new_game(RULES, FIVE)
        session.execute(Command("play_role", "Anna", {"role": "witch"}))
        session.execute(Command("pass", "Barb"))
        session.undo()
        session.execute(Command("claim", "Barb"))
        rows = store.conn.execute("SELECT n, status, command FROM steps ORDER BY n").fetchall()
    assert [(n, s) for n, s, _ in rows] == [(1, "done"), (2, "dropped"), (3, "done")]
    assert json.loads(rows[1][2]) == {"do": "pass", "player": "Barb"}


def test_a_refused_command_writes_nothing(tmp_path):
    with Store(tmp_path / "c.sqlite3") as store:
        session = store.new_game(RULES, FIVE)
        with pytest.raises(RuleViolation):
            session.execute(Command("claim", "Carl"))
        assert store.conn.execute("SELECT count(*) FROM steps").fetchone()[0] == 0


def test_a_finished_game_keeps_players_scores_and_winner(tmp_path):
    finished, commands = play({"players": ["Ann", "Bo", "Cy"]}, seed=3)
    with Store(tmp_path / "c.sqlite3") as store:
        session = store.new_game(RULES, {"players": ["Ann", "Bo", "Cy"]})
        for command in commands:
            session.execute(command)
        [info] = store.games("finished")
        assert store.unfinished() == []
        expected = {r["name"]: r["score"] for r in RULES.results(finished.state)}
        assert {r["name"]: r["score"] for r in info.results} == expected
        assert [r["name"] for r in info.results if r["winner"]] == finished.summary()["winners"]
        session.undo()  # undo past the end reopens the game
        assert store.games("finished") == [] and len(store.unfinished()) == 1


def test_wal_and_full_sync_are_on(tmp_path):
    with Store(tmp_path / "c.sqlite3") as store:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


@pytest.mark.parametrize("content", [b"this is not a database" * 50, b""])
def test_a_corrupt_file_is_reported_with_its_path_and_moved_aside(tmp_path, content):
    db = tmp_path / "c.sqlite3"
    db.write_bytes(content)
    with Store(db) as store:
        if not content:  # an empty file is a valid empty database: used as is
            assert store.notice is None
            return
        assert str(db) in store.notice and "moved to" in store.notice
        moved = [p for p in tmp_path.iterdir() if ".unreadable-" in p.name]
        assert len(moved) == 1 and moved[0].read_bytes() == content
        store.new_game(RULES, FIVE)  # the new file works


def test_a_foreign_database_is_moved_aside_never_overwritten(tmp_path):
    db = tmp_path / "notes.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE notes (text)")
    conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.commit()
    conn.close()
    with Store(db) as store:
        assert "not a table-companion database" in store.notice
    [moved] = [p for p in tmp_path.iterdir() if ".unreadable-" in p.name and p.suffix != ""]
    assert sqlite3.connect(moved).execute("SELECT text FROM notes").fetchone() == ("keep me",)


def test_a_folder_is_never_taken_for_a_database(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "keep.txt").write_text("mine")
    with pytest.raises(StoreError, match="is a folder, not a game database"):
        Store(tmp_path / "games")
    assert (tmp_path / "games" / "keep.txt").read_text() == "mine"
    assert [p.name for p in tmp_path.iterdir()] == ["games"]


@pytest.mark.parametrize("setup", [
    {"game": "witchs_brew", "players": ["Ann", "Bo", "Cy"]},
    {"game": "quest", "players": ["Ann", "Bo", "Cy"],
     "needed": ["rotten_egg", "newt_eye", "bat_wing"]},
    {"game": "cauldron", "players": ["Ann", "Bo", "Cy"]},
])
def test_every_game_is_stored_with_its_players_and_resumes(tmp_path, setup):
    with Store(tmp_path / "c.sqlite3") as store:
        session = store.new_game(get_rules(setup["game"]), setup)
        [info] = store.unfinished()
        assert info.game == setup["game"] and info.players == ["Ann", "Bo", "Cy"]
        assert store.open_session(session.game_id).state == session.state


def test_played_says_when_a_game_started_and_finished(tmp_path):
    with Store(tmp_path / "c.sqlite3") as store:
        session = store.new_game(RULES, FIVE)
        started, finished = store.played(session.game_id)
        assert finished is None and datetime.fromisoformat(started).tzinfo is not None
        with pytest.raises(StoreError, match="no game number 99"):
            store.played(99)
