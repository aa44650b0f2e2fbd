"""``companion check``: every game folded from its raw rows, each problem named with its game
and step; ``--repair`` sets aside (never deletes) what keeps a game from playing."""

from __future__ import annotations

import json
import random

import pytest

from companion.cli.main import main
from companion.games import get_rules
from companion.core.errors import StoreError
from companion.store import Store
from tests.support.autoplay import next_command

PLAYERS = ["Anna", "Barb", "Carl"]


def _stored(path, games: int = 2, steps: int = 30) -> list[int]:
    with Store(path) as store:
        ids = []
        for seed in range(games):
            session = store.new_game(get_rules("witchs_brew"), {"players": PLAYERS})
            rng = random.Random(seed)
            for _ in range(steps):
                session.execute(next_command(session, rng))
            ids.append(session.game_id)
    return ids


def _sql(path, statement: str, *args) -> None:
    with Store(path) as store:
        store.conn.execute(statement, args)


def test_a_sound_database_says_so(tmp_path, capsys):
    db = tmp_path / "c.sqlite3"
    _stored(db)
    assert main(["check", "--db", str(db)]) == 0
    assert "sound: 2 game(s), every one plays from its log" in capsys.readouterr().out


@pytest.mark.parametrize("damage, step, what", [
    ("UPDATE steps SET command = '{\"do\": 5' WHERE game_id = ? AND n = 12", 12, "JSONDecodeError"),
    ("UPDATE steps SET command = '{\"player\": \"Anna\"}' WHERE game_id = ? AND n = 7", 7,
     "its command is not a command"),
    ("UPDATE events SET data = '[]' WHERE game_id = ? AND step = 9", 9, "not an event"),
    ("UPDATE events SET data = '{\"seat\": 99, \"role\": \"witch\"}' "
     "WHERE game_id = ? AND step = 3 AND seq = 0", 3, "Error: "),
    ("DELETE FROM events WHERE game_id = ? AND step = 5", None, None),  # an empty step folds
])
def test_each_bad_row_is_named_with_its_game_and_step(tmp_path, capsys, damage, step, what):
    db = tmp_path / "c.sqlite3"
    first, second = _stored(db)
    _sql(db, damage, second)
    before = db.read_bytes()
    code = main(["check", "--db", str(db)])
    err = capsys.readouterr().err
    if step is None:
        assert code == 0 and err == ""
        return
    assert code == 1
    assert f"game #{second}, step {step}: it cannot be read" in err and what in err, err
    assert f"game #{first}" not in err
    assert db.read_bytes() == before  # checking changes nothing


def test_repair_sets_the_bad_steps_aside_and_the_game_resumes(tmp_path, capsys):
    db = tmp_path / "c.sqlite3"
    _, game = _stored(db)
    _sql(db, "UPDATE events SET data = '[]' WHERE game_id = ? AND step = 9", game)
    assert main(["check", "--db", str(db), "--repair"]) == 0
    out = capsys.readouterr().out
    assert f"repaired game #{game}: 22 step(s) from step 9 on kept but left out" in out
    with Store(db) as store:
        rows = store.conn.execute("SELECT count(*), sum(status = 'dropped') FROM steps "
                                  "WHERE game_id = ?", (game,)).fetchone()
        assert rows == (30, 22)  # nothing deleted
        session = store.open_session(game)
        assert len(session.done_steps()) == 8
        session.execute(next_command(session, random.Random(1)))  # and it plays on
    assert main(["check", "--db", str(db)]) == 0


def test_a_setup_this_companion_cannot_play_is_set_aside_as_abandoned(tmp_path, capsys):
    db = tmp_path / "c.sqlite3"
    _, game = _stored(db)
    _sql(db, "UPDATE games SET setup = ? WHERE id = ?",
         json.dumps({"game": "witchs_brew", "players": PLAYERS, "variant": "x"}), game)
    assert main(["check", "--db", str(db)]) == 1
    assert f"game #{game}: its setup cannot be played" in capsys.readouterr().err
    assert main(["check", "--db", str(db), "--repair"]) == 1  # still listed: nothing deleted
    with Store(db) as store:
        assert [g.status for g in store.games() if g.id == game] == ["abandoned"]
        assert [g.id for g in store.unfinished()] == [game - 1]


def test_no_database_yet_is_nothing_to_check(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "none.sqlite3"))
    assert main(["check"]) == 0
    assert "nothing to check" in capsys.readouterr().out
    assert not (tmp_path / "none.sqlite3").exists()


def test_a_game_that_does_not_fold_is_a_clear_store_error_and_the_others_open(tmp_path):
    db = tmp_path / "c.sqlite3"
    first, second = _stored(db)
    _sql(db, "UPDATE events SET data = '[]' WHERE game_id = ? AND step = 9", second)
    with Store(db) as store:
        with pytest.raises(StoreError, match=f"Game #{second} cannot be read from step 9 on: "
                                             "companion check --repair"):
            store.open_session(second)
        assert len(store.open_session(first).steps) == 30


def test_a_damaged_game_shows_its_last_good_state_and_repairs_from_the_store(tmp_path):
    db = tmp_path / "c.sqlite3"
    good, bad = _stored(db)
    _sql(db, "UPDATE steps SET command = 'not json' WHERE game_id = ? AND n = 12", bad)
    with Store(db) as store:
        assert store.damage(good) is None
        problem = store.damage(bad)
        assert (problem.game_id, problem.step) == (bad, 12)
        before = store.last_good(bad, problem)
        assert before.journal is None and len(before.steps) == 11
        with pytest.raises(StoreError):
            store.open_session(bad)
        assert store.repair(bad) == [f"game #{bad}: 19 step(s) from step 12 on kept but left "
                                     "out; it resumes at its last good state"]
        assert store.open_session(bad).state == before.state
        assert store.repair(bad) == []  # nothing left to repair


def test_a_setup_that_cannot_be_played_has_no_last_good_state(tmp_path):
    db = tmp_path / "c.sqlite3"
    [bad] = _stored(db, games=1)
    _sql(db, "UPDATE games SET setup = '{\"players\": []}' WHERE id = ?", bad)
    with Store(db) as store:
        problem = store.damage(bad)
        assert problem.step is None and store.last_good(bad, problem) is None


def test_the_raw_log_keeps_every_row_as_stored_even_a_malformed_one(tmp_path, capsys):
    db = tmp_path / "c.sqlite3"
    [game] = _stored(db, games=1, steps=5)
    _sql(db, "UPDATE steps SET command = X'00FF' WHERE game_id = ? AND n = 3", game)
    _sql(db, "UPDATE events SET data = 'oops' WHERE game_id = ? AND step = 2", game)
    assert main(["export", "--raw", "--log", str(game), "--db", str(db)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["raw_log"] == game and json.loads(lines[0]["setup"])["players"] == PLAYERS
    assert [line["n"] for line in lines[1:]] == [1, 2, 3, 4, 5]
    assert lines[3]["command"] == {"hex": "00ff"}
    assert {e["data"] for e in lines[2]["events"]} == {"oops"}
    assert json.loads(lines[1]["command"])["do"] == "play_role"
    assert main(["export", "--log", str(game), "--db", str(db)]) == 2  # it does not fold
