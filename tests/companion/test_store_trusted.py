"""A database is what the companion made, or it is refused: a restored
file carrying triggers once abandoned every game, stored 999 for every seat, renamed profiles
and made each press take seconds, while ``companion check`` said "sound". Each probe here is
refused at restore and at start with the object named and nothing changed; ``check`` says the
file is not sound, ``check --repair`` removes the objects after keeping a copy; results rows
edited by hand are named by ``check``."""

from __future__ import annotations

import io
import random
import sqlite3
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.games import get_rules
from companion.history.backup import backup
from companion.store import Store
from companion.store.shape import Untrusted, read_schema, strangers
from tests.support.history import build_history
from tests.support.autoplay import next_command

#: The probe's triggers: each one what a hostile restored file carried.
TRIGGERS = {
    "abandons": "CREATE TRIGGER abandons AFTER INSERT ON steps BEGIN UPDATE games SET status = "
                "'abandoned' WHERE id != NEW.game_id; DELETE FROM results WHERE game_id != "
                "NEW.game_id; END",
    "scores_999": "CREATE TRIGGER scores_999 AFTER INSERT ON results BEGIN UPDATE results SET "
                  "score = 999, winner = 1 WHERE game_id = NEW.game_id; END",
    "renames": "CREATE TRIGGER renames AFTER INSERT ON profiles BEGIN UPDATE profiles SET "
               "name = 'Mallory', name_key = 'mallory' WHERE id = NEW.id; END",
    "slow": "CREATE TRIGGER slow AFTER INSERT ON steps BEGIN SELECT count(*) FROM steps a, "
            "steps b, steps c; END",
}


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A small history of every title with a few unfinished games: each test copies it."""
    path = tmp_path_factory.mktemp("original") / "c.sqlite3"
    with Store(path) as store:
        store.conn.execute("PRAGMA synchronous = OFF")
        build_history(store, {"witchs_brew": 3, "quest": 2, "cauldron": 1}, unfinished=1, seed=3)
    return path


def _copy(stored: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    backup(str(stored), str(target))
    return target


def _planted(path: Path, *statements: str) -> Path:
    """Objects added to a companion file behind the companion's back."""
    raw = sqlite3.connect(path)
    try:
        for statement in statements:
            raw.execute(statement)
        raw.commit()
    finally:
        raw.close()
    return path


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.endswith(("-shm", ".lock"))}


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def _names(path: Path) -> set[str]:
    raw = sqlite3.connect(path)
    try:
        return {name for _, name, _, _ in read_schema(raw)}
    finally:
        raw.close()


@pytest.fixture
def hostile(stored, tmp_path) -> Path:
    """A backup carrying the probe's four triggers."""
    return _planted(_copy(stored, tmp_path / "stick" / "backup.sqlite3"), *TRIGGERS.values())


def test_a_companion_file_of_every_version_has_no_strangers(stored):
    raw = sqlite3.connect(stored)
    try:
        assert strangers(read_schema(raw)) == []
    finally:
        raw.close()


def test_a_restore_of_a_file_with_triggers_is_refused_naming_each_and_changes_nothing(
        stored, hostile, tmp_path):
    db = _copy(stored, tmp_path / "table" / "companion.sqlite3")
    before, stick = _files(db.parent), _files(hostile.parent)
    code, out, err = _run("restore", "--db", str(db), str(hostile))
    assert code == 2 and out == ""
    for name in TRIGGERS:
        assert f"a trigger `{name}` that a companion database never has" in err
    assert "companion check --repair" in err and "nothing was changed" in err
    assert _files(db.parent) == before and _files(hostile.parent) == stick


def test_a_start_on_a_file_with_triggers_is_refused_and_nothing_is_moved_aside(hostile):
    before = _files(hostile.parent)
    for readonly in (False, True):
        with pytest.raises(Untrusted) as refused:
            Store(hostile, readonly=readonly)
        words = str(refused.value)
        assert "a trigger `abandons` that a companion database never has" in words
        assert "Nothing was changed; run companion check --repair" in words
    code, out, err = _run("history", "--db", str(hostile))
    assert code == 2 and "a trigger `scores_999`" in err
    empty = hostile.parent.parent / "no-games.jsonl"   # a regular file: a device is refused first
    empty.write_text("")
    code, out, err = _run("import", "--db", str(hostile), str(empty))
    assert code == 2 and "a trigger `renames`" in err
    after = _files(hostile.parent)
    after.pop("backup.sqlite3.clean", None)   # the writer's clean mark goes as it opens
    before.pop("backup.sqlite3.clean", None)
    assert after == before   # the file keeps its bytes and its name: no .unreadable copy


def test_check_says_a_file_with_triggers_is_not_sound_and_changes_nothing(hostile):
    before = hostile.read_bytes()
    code, out, err = _run("check", "--db", str(hostile))
    assert code == 1 and "sound:" not in out
    for name in TRIGGERS:
        assert f"companion check: the file: it carries a trigger `{name}`" in err
    assert "is not sound" in err and hostile.read_bytes() == before


def test_check_repair_keeps_a_copy_then_removes_them_and_the_games_play_as_before(
        stored, hostile):
    original = hostile.read_bytes()
    code, out, err = _run("check", "--repair", "--db", str(hostile))
    assert code == 0, err
    copies = [p for p in hostile.parent.iterdir() if ".before-repair-" in p.name]
    assert len(copies) == 1 and copies[0].read_bytes() == original
    assert f"kept a copy of the file as {copies[0]}" in out
    for name in TRIGGERS:
        assert f"repaired the file: removed the trigger `{name}`" in out
    assert "The game database is sound" in out
    assert not _names(hostile) & set(TRIGGERS)
    assert _names(hostile) == _names(stored)
    with Store(hostile) as store:   # a step and a new profile: no trigger fires any more
        listed = {g.id: (g.status, g.results) for g in store.games()}
        session = store.open_session(next(g.id for g in store.games() if g.status == "running"))
        session.execute(next_command(session, random.Random(1)))
        store.new_game(get_rules("witchs_brew"), {"players": ["Zed", "Yan", "Xia"]})
        assert {"Zed", "Yan", "Xia"} <= {p.name for p in store.profiles()}
        assert {i: g for i, g in ((g.id, (g.status, g.results)) for g in store.games())
                if i in listed} == listed
    assert _run("check", "--db", str(hostile))[0] == 0


@pytest.mark.parametrize("statement, words", [
    ("CREATE VIEW standings AS SELECT * FROM results", "a view `standings` that"),
    ("CREATE TABLE notes (x TEXT)", "a table `notes` that a companion database never has"),
    ("CREATE INDEX by_name ON results (name)", "an index `by_name` that"),
    ("CREATE VIRTUAL TABLE search USING fts5(name)", "a virtual table `search` that"),
    ("ANALYZE", "a table `sqlite_stat1` that"),   # the planner's figures, steering queries
])
def test_every_other_object_is_refused_by_name_and_removed_by_a_repair(
        stored, tmp_path, statement, words):
    db = _copy(stored, tmp_path / "table" / "companion.sqlite3")
    _planted(db, statement)
    with pytest.raises(Untrusted, match=words.replace("`", ".")):
        Store(db)
    code, out, err = _run("check", "--repair", "--db", str(db))
    assert code == 0, err
    assert _names(db) == _names(stored)
    Store(db).close()


def test_an_index_of_ours_made_otherwise_is_made_again_by_a_repair(stored, tmp_path):
    db = _copy(stored, tmp_path / "table" / "companion.sqlite3")
    _planted(db, "DROP INDEX games_by_status", "CREATE INDEX games_by_status ON games (game)")
    with pytest.raises(Untrusted, match="an index .games_by_status. not as a companion"):
        Store(db)
    code, out, _ = _run("check", "--repair", "--db", str(db))
    assert code == 0 and "made it again as a companion database has it" in out
    with Store(db) as store:
        assert store.conn.execute("SELECT sql FROM sqlite_schema WHERE name = "
                                  "'games_by_status'").fetchone()[0] == \
            "CREATE INDEX games_by_status ON games (status, id)"


def test_a_table_of_ours_changed_is_refused_and_a_repair_changes_nothing(stored, tmp_path):
    """Dropping a table of ours would lose rows: the refusal says to restore a backup."""
    db = _copy(stored, tmp_path / "table" / "companion.sqlite3")
    _planted(db, "PRAGMA writable_schema = ON",
             "UPDATE sqlite_schema SET sql = replace(sql, 'detail TEXT NOT NULL', "
             "'detail TEXT NOT NULL CHECK (score = 999)') WHERE name = 'results'")
    before = db.read_bytes()
    with pytest.raises(Untrusted, match="a table .results. whose columns or constraints"):
        Store(db)
    code, _, err = _run("check", "--repair", "--db", str(db))
    assert code == 2 and "restore a backup" in err and db.read_bytes() == before


def test_every_connection_runs_nothing_a_file_s_schema_asks_for(stored, tmp_path):
    db = _copy(stored, tmp_path / "table" / "companion.sqlite3")
    for readonly in (False, True):
        with Store(db, readonly=readonly) as store:
            assert store.conn.execute("PRAGMA trusted_schema").fetchone()[0] == 0


# -- results rows against the log --------------------------------------------------------------
def _finished(db: Path) -> tuple[int, list[dict]]:
    with Store(db, readonly=True) as store:
        game = next(g for g in store.games() if g.status == "finished" and len(g.results) > 1)
    return game.id, game.results


def test_results_rows_edited_by_hand_are_named_by_game_seat_and_value(stored, tmp_path):
    db = _copy(stored, tmp_path / "table" / "companion.sqlite3")
    game_id, results = _finished(db)
    first, second = results[0], results[1]
    _planted(db, f"UPDATE results SET score = 999 WHERE game_id = {game_id} AND seat = "
                 f"{first['seat']}",
             f"UPDATE results SET winner = 1 - winner WHERE game_id = {game_id} AND seat = "
             f"{second['seat']}")
    before = db.read_bytes()
    code, out, err = _run("check", "--db", str(db))
    assert code == 1 and "sound:" not in out
    assert (f"game #{game_id}: seat {first['seat']}: score stored 999, its log gives "
            f"{first['score']}") in err
    assert (f"game #{game_id}: seat {second['seat']}: winner stored "
            f"{1 - int(second['winner'])}, its log gives {int(second['winner'])}") in err
    assert len(err.strip().splitlines()) == 2 and db.read_bytes() == before
    code, out, _ = _run("check", "--repair", "--db", str(db))
    assert code == 0 and f"game #{game_id}: its status and results written again" in out
    assert _finished(db) == (game_id, results)


def test_a_deleted_results_row_and_a_game_set_abandoned_are_named(stored, tmp_path):
    """The probe's trigger left every earlier game abandoned with no results."""
    db = _copy(stored, tmp_path / "table" / "companion.sqlite3")
    game_id, results = _finished(db)
    _planted(db, f"DELETE FROM results WHERE game_id = {game_id}",
             f"UPDATE games SET status = 'abandoned' WHERE id = {game_id}")
    code, _, err = _run("check", "--db", str(db))
    assert code == 1
    assert f"game #{game_id}: it is stored as 'abandoned', but its log ends the game" in err
    for r in results:
        assert f"game #{game_id}: seat {r['seat']}: no results row; its log gives score" in err
    assert _run("check", "--repair", "--db", str(db))[0] == 0
    assert _finished(db) == (game_id, results)
