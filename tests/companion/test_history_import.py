"""``companion import`` (companion/history/merge.py): a history of hundreds of games of all
three titles exported by one table and imported into an empty database is the same history
(plays, figures, profiles, every game resumable); importing again changes nothing; a game whose
uuid is here with other content is a conflict, named and left as it is; a file that is not
games, or a game that does not fold, changes nothing and names its line.
"""
from __future__ import annotations

import json
import sqlite3
import time
import uuid

import pytest

from companion.store.check import check
from companion.games import get_rules
from companion.history.backup import backup
from companion.history.plays import read_plays
from companion.history.stats import compute
from companion.store import Store
from tests.companion.exported import cli, export, plays_of, rows_of, write
from tests.support.figures import report


@pytest.fixture(scope="module")
def exported(history, tmp_path_factory):
    path, played = history
    out = tmp_path_factory.mktemp("exported") / "all.jsonl"
    started = time.perf_counter()
    lines = export(path, out)
    report("history", f"export --all of {len(lines)} games with their logs: "
                      f"{time.perf_counter() - started:.2f} s, {out.stat().st_size / 1e6:.1f} MB")
    return path, played, out


@pytest.fixture(scope="module")
def imported(exported, tmp_path_factory):
    source, played, out = exported
    db = tmp_path_factory.mktemp("imported") / "c.sqlite3"
    started = time.perf_counter()
    code, said, err = cli("import", out, "--db", db)
    report("history", f"import of {len(played)} games (each folded by the rules): "
                      f"{time.perf_counter() - started:.2f} s")
    assert code == 0, err
    assert said.strip().endswith(f"{len(played)} game(s) added, 0 already here, 0 conflict(s).")
    return source, played, out, db


# -- the round trip --------------------------------------------------------------------------
def test_an_exported_history_imported_into_an_empty_database_is_the_same(imported):
    source, played, _, db = imported
    assert plays_of(db) == plays_of(source)
    assert len(plays_of(db)) == len(played) > 200
    with Store(source, readonly=True) as a, Store(db, readonly=True) as b:
        assert compute(read_plays(b.conn)).as_dict() == compute(read_plays(a.conn)).as_dict()
        # the same profiles; each last played when its latest game started (the source's
        # games were dated after they were played, by the fixture)
        assert [p.__dict__ | {"last_played": None} for p in b.profiles(limit=99)] == sorted(
            [p.__dict__ | {"last_played": None} for p in a.profiles(limit=99)],
            key=lambda p: [q.uuid for q in b.profiles(limit=99)].index(p["uuid"]))
        latest = dict(b.conn.execute(
            "SELECT pr.uuid, max(g.created_at) FROM players p JOIN games g ON g.id = p.game_id "
            "JOIN profiles pr ON pr.id = p.profile_id GROUP BY pr.uuid"))
        assert {p.uuid: p.last_played for p in b.profiles(limit=99)} == latest
        assert b.device_id != a.device_id
        assert {p.device for p in read_plays(b.conn)} == {a.device_id}
        for table in ("steps", "events", "results", "clocks"):   # every row, by game uuid
            assert by_uuid(b.conn, table) == by_uuid(a.conn, table)
    assert cli("stats", "--json", "--db", db)[1] == cli("stats", "--json", "--db", source)[1]


def by_uuid(conn: sqlite3.Connection, table: str) -> list[tuple]:
    columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[1] != "game_id"]
    return sorted(conn.execute(f"SELECT g.uuid, {', '.join('t.' + c for c in columns)} FROM "
                               f"{table} t JOIN games g ON g.id = t.game_id").fetchall())


def test_imported_games_fold_and_the_running_ones_resume_where_they_stood(imported):
    source, _, _, db = imported
    with Store(db) as store:
        assert check(store.conn) == []
        mine = {g.uuid: g for g in store.games(summaries=True)}
        with Store(source, readonly=True) as original:
            theirs = {g.uuid: g for g in original.games(summaries=True)}
            running = [g for g in theirs.values() if g.status == "running"]
            assert running
            for game in running:
                assert store.open_session(mine[game.uuid].id).state == \
                    original.open_session(game.id).state
        assert {u: (g.status, g.steps, g.results) for u, g in mine.items()} == \
            {u: (g.status, g.steps, g.results) for u, g in theirs.items()}


def test_importing_the_same_file_again_changes_nothing(imported, tmp_path):
    _, played, out, db = imported
    before = rows_of(db)
    started = time.perf_counter()
    code, said, _ = cli("import", out, "--db", db)
    report("history", f"the same {len(played)} games imported again (each compared, none "
                      f"added): {time.perf_counter() - started:.2f} s")
    assert code == 0
    assert said.strip().endswith(f"0 game(s) added, {len(played)} already here, 0 conflict(s).")
    assert rows_of(db) == before


# -- the small history (conftest) for the rest ----------------------------------------------


def test_a_json_list_imports_like_json_lines(small, tmp_path):
    db, _ = small
    out = tmp_path / "all.json"
    export(db, out, "json")
    code, said, _ = cli("import", out, "--db", tmp_path / "new.sqlite3")
    assert code == 0 and "7 game(s) added" in said
    assert plays_of(tmp_path / "new.sqlite3") == plays_of(db)


def test_undone_dropped_and_corrected_steps_come_over_as_stored(small, tmp_path):
    db = tmp_path / "source.sqlite3"
    backup(str(small[0]), str(db))
    with Store(db) as store:   # a running game left with a step undone, to be redone there
        store.open_session(store.unfinished()[0].id).undo()
    target = tmp_path / "c.sqlite3"
    assert cli("import", write(tmp_path / "all.jsonl", export(db, tmp_path / "out.jsonl")),
               "--db", target)[0] == 0
    with Store(db, readonly=True) as a, Store(target) as b:
        statuses = {s for (s,) in a.conn.execute("SELECT status FROM steps")}
        assert statuses == {"done", "undone", "dropped"}
        for table in ("steps", "events", "results", "clocks"):
            assert by_uuid(b.conn, table) == by_uuid(a.conn, table)
        assert check(b.conn) == []
        theirs = {g.uuid: g.id for g in a.games()}
        for game in b.games():   # and each plays on here: same state, same undo history
            mine, original = b.open_session(game.id), a.open_session(theirs[game.uuid])
            assert (mine.state, mine.can_undo, mine.can_redo) == (
                original.state, original.can_undo, original.can_redo)


@pytest.mark.parametrize("tamper, differs", [
    (lambda g: g["stored"]["results"][0].update(score=g["stored"]["results"][0]["score"] + 1),
     "its results"),
    (lambda g: g["stored"]["log"].pop(), "its log from step"),
    (lambda g: g["stored"]["setup"].update(variants=["quick", "extra"]), "its setup"),
    (lambda g: g["stored"].update(created_at="2020-01-01T00:00:00+00:00"), "its created at"),
])
def test_a_game_here_with_other_content_is_a_conflict_left_as_it_is(small, tmp_path, tamper,
                                                                    differs):
    db, lines = small
    target = tmp_path / "c.sqlite3"
    assert cli("import", write(tmp_path / "all.jsonl", lines), "--db", target)[0] == 0
    before = rows_of(target)
    games = [json.loads(line) for line in lines]
    finished = next(i for i, g in enumerate(games) if g["status"] == "finished")
    tamper(games[finished])
    changed = write(tmp_path / "tampered.jsonl", [json.dumps(g) for g in games])
    code, said, _ = cli("import", changed, "--db", target)
    assert code == 0
    assert f"0 game(s) added, {len(games) - 1} already here, 1 conflict(s)." in said
    assert f"conflict: game {games[finished]['uuid']} (line {finished + 1}): {differs}" in said
    assert rows_of(target) == before


def test_a_local_running_game_is_never_overwritten(small, tmp_path):
    db, lines = small
    target = tmp_path / "c.sqlite3"
    assert cli("import", write(tmp_path / "all.jsonl", lines), "--db", target)[0] == 0
    with Store(target) as store:
        game = store.unfinished()[0]
        session = store.open_session(game.id)
        session.undo()   # the table here goes on with it: its log is no longer the file's
    before = rows_of(target)
    code, said, _ = cli("import", tmp_path / "all.jsonl", "--db", target)
    assert code == 0 and f"conflict: game {game.uuid}" in said and "its log from step" in said
    assert rows_of(target) == before


def test_a_new_game_that_does_not_fold_refuses_the_whole_file(small, tmp_path):
    db, lines = small
    games = [json.loads(line) for line in lines]
    bad = next(i for i, g in enumerate(games) if g["status"] == "finished" and i > 0)
    games[bad]["stored"]["results"][0]["score"] += 5
    for i, game in enumerate(games):   # new games here
        game["uuid"] = str(uuid.UUID(int=i + 1))
    target = tmp_path / "c.sqlite3"
    code, said, err = cli("import", write(tmp_path / "bad.jsonl", [json.dumps(g) for g in games]),
                          "--db", target)
    assert code == 2 and not said
    assert f"bad.jsonl, line {bad + 1}: game {games[bad]['uuid']} (" in err
    assert "its results are not what its log gives; nothing from this file was imported" in err
    assert plays_of(target) == []
    games[bad]["stored"]["results"][0]["score"] -= 5   # its results right, its log not
    step = next(s for s in games[bad]["stored"]["log"] if s["events"] and s["status"] == "done")
    step["events"][0]["type"] = "no_such_event"
    code, _, err = cli("import", write(tmp_path / "bad.jsonl", [json.dumps(g) for g in games]),
                       "--db", target)
    assert code == 2 and f"line {bad + 1}: game" in err
    assert f"does not fold: step {step['n']}: it cannot be read" in err
    assert plays_of(target) == []


def test_a_profile_named_like_one_here_with_another_uuid_is_kept_apart(small, tmp_path):
    db, lines = small
    target = tmp_path / "c.sqlite3"
    with Store(target) as store:
        store.new_game(get_rules("quest"), {"players": ["Anna"],
                                            "needed": ["rotten_egg", "newt_eye", "bat_wing"]})
    code, said, _ = cli("import", write(tmp_path / "all.jsonl", lines), "--db", target)
    assert code == 0 and "is not the Anna here (another profile): kept apart" in said
    with Store(target) as store:
        annas = [p for p in store.profiles() if p.name == "Anna"]
        assert len(annas) == 2 and len({p.uuid for p in annas}) == 2
        with Store(db, readonly=True) as source:
            theirs = next(p for p in source.profiles() if p.name == "Anna")
        assert theirs.uuid in {p.uuid for p in annas}


def test_a_seat_without_a_profile_never_moves_its_players_last_game_back(small, tmp_path):
    """An older game whose seat no profile held links by name, as a new game's seat does; the
    profile's last game stays the latest one, not the imported game's start."""
    _, lines = small
    games = [json.loads(line) for line in lines]
    for game in games:
        for seat in game["stored"]["seats"]:
            seat["profile"] = None
    older = [json.dumps(game) for game in games
             if "Anna" in [s["name"] for s in game["stored"]["seats"]]]
    assert older, "the small history has games with Anna"
    target = tmp_path / "c.sqlite3"
    with Store(target) as store:
        store.new_game(get_rules("quest"), {"players": ["Anna"],
                                            "needed": ["rotten_egg", "newt_eye", "bat_wing"]})
        before = next(p for p in store.profiles() if p.name == "Anna")
    code, said, _ = cli("import", write(tmp_path / "older.jsonl", older), "--db", target)
    assert code == 0 and "kept apart" not in said
    with Store(target) as store:
        annas = [p for p in store.profiles() if p.name == "Anna"]
    assert [(p.uuid, p.last_played) for p in annas] == [(before.uuid, before.last_played)]
    assert annas[0].games == 1 + len(older)
