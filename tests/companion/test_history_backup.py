"""``companion backup`` and ``companion restore``: a history of games of all three titles
copied out with SQLite's online backup API (while a writer holds the lock, in this process and
in another one, and while it writes) and back, to the same history; a restore refuses, naming
why and changing nothing, a file that is not a companion database, one from a newer companion,
garbage, an empty file, and any restore while the app runs; the database it replaces is kept
aside; an older schema is brought up to date when the companion next opens it.
"""

from __future__ import annotations

import io
import os
import random
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from companion.cli.main import main
from companion.games import get_rules
from companion.history.backup import backup
from companion.history.plays import read_plays
from companion.store import Store
from companion.store.schema import APPLICATION_ID, SCHEMA_VERSION
from tests.support.history import build_history
from tests.companion.test_store_summary import as_schema_2
from tests.support import autoplay
from tests.support.figures import report

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
COUNTS = {"witchs_brew": 12, "quest": 8, "cauldron": 3}


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A small history of every title (and a few unfinished games), kept as the original: each
    test works on its own copy."""
    path = tmp_path_factory.mktemp("original") / "c.sqlite3"
    with Store(path) as store:
        store.conn.execute("PRAGMA synchronous = OFF")  # quick to build; commits as in play
        build_history(store, COUNTS, unfinished=2, seed=5)
    return path


@pytest.fixture
def db(stored, tmp_path):
    """This test's game database: a copy of the history (made by a backup, checked below)."""
    path = tmp_path / "table" / "companion.sqlite3"
    path.parent.mkdir()
    backup(str(stored), str(path))
    return path


def history_of(path: Path) -> dict[str, Any]:
    """Everything the lists and the figures read, and every game's log, as plain values."""
    with Store(path, readonly=True) as store:
        conn = store.conn
        return {"plays": [p.as_dict() for p in read_plays(conn, unfinished=True)],
                "steps": conn.execute("SELECT * FROM steps ORDER BY game_id, n").fetchall(),
                "events": conn.execute("SELECT * FROM events ORDER BY 1, 2, 3").fetchall(),
                "clocks": conn.execute("SELECT * FROM clocks ORDER BY game_id").fetchall()}


def listing(folder: Path) -> dict[str, bytes]:
    """The folder's files and their bytes (an -shm, SQLite's shared index, left out)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.endswith("-shm")}


def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(list(args))
    return code, out.getvalue()


# -- backup ----------------------------------------------------------------------------------
def test_a_backup_is_a_checked_owner_only_copy_of_the_whole_history(stored, db, tmp_path):
    target = tmp_path / "out" / "backup.sqlite3"
    target.parent.mkdir()
    code, said = cli("backup", str(target), "--db", str(db))
    games = sum(COUNTS.values()) + 2
    assert code == 0 and f"Backed up {games} game(s) to {target}" in said
    assert history_of(target) == history_of(stored)
    assert os.stat(target).st_mode & 0o777 == 0o600
    assert sorted(os.listdir(target.parent)) == ["backup.sqlite3"]  # one file: no -wal, no part
    raw = sqlite3.connect(target)
    assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    raw.close()


def test_a_backup_refuses_to_overwrite_unless_forced(db, tmp_path, capsys):
    target = tmp_path / "backup.sqlite3"
    target.write_bytes(b"yesterday's notes")
    assert main(["backup", str(target), "--db", str(db)]) == 2
    assert "already exists: give --force to replace it (nothing was written)" in (
        capsys.readouterr().err)
    assert target.read_bytes() == b"yesterday's notes"
    assert main(["backup", str(target), "--db", str(db), "--force"]) == 0
    assert history_of(target) == history_of(db)


@pytest.mark.parametrize("args, words", [
    (["{tmp}/b.sqlite3", "--db", "{tmp}/nowhere.sqlite3"], "no such file"),
    (["{tmp}/missing/b.sqlite3", "--db", "{db}"], "cannot be written"),
    (["{db}", "--db", "{db}"], "is the game database itself"),
    (["{tmp}/live.sqlite3", "--db", "{db}", "--force"], "is a database in use (its -wal is "),
])
def test_a_backup_that_cannot_be_made_says_why_and_leaves_nothing(db, tmp_path, capsys, args,
                                                                  words):
    (tmp_path / "live.sqlite3").write_bytes(b"a database another program has open")
    (tmp_path / "live.sqlite3-wal").write_bytes(b"its log")
    before = listing(tmp_path)
    filled = [a.format(tmp=tmp_path, db=db) for a in args]
    assert main(["backup", *filled]) == 2
    assert words in capsys.readouterr().err
    assert listing(tmp_path) == before


def test_a_backup_while_another_process_holds_the_writer_lock(db, tmp_path):
    """The app's process keeps the lock; the backup reads beside it and never takes it."""
    holder = subprocess.Popen([sys.executable, "-m", "tests.support.store_child", str(db), "-",
                               "--hold"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, cwd=ROOT, env=ENV)
    try:
        assert holder.stdout.readline().strip() == "HOLDING"
        target = tmp_path / "while-playing.sqlite3"
        assert cli("backup", str(target), "--db", str(db))[0] == 0
        assert history_of(target) == history_of(db)
        lock = Path(str(db) + ".lock").read_text().strip()
        assert lock == str(holder.pid)  # still the app's lock, still its pid
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
        holder.stdout.close()
    assert holder.returncode == 0


def test_backups_taken_while_the_writer_plays_each_hold_a_consistent_moment(db, tmp_path):
    """A writer in this process plays a game step by step (each step one transaction) while
    backups are taken: each copy holds a whole number of steps, between the ones before and
    after it, and the game plays from each copy's log to the same state."""
    with Store(db) as store:
        store.conn.execute("PRAGMA synchronous = OFF")
        session = store.new_game(get_rules("witchs_brew"), {"players": ["Ann", "Bo", "Cy"]})
        game, rng = session.game_id, random.Random(9)
        done = threading.Event()

        def play() -> None:
            try:
                while not session.over:
                    session.execute(autoplay.next_command(session, rng))
                    time.sleep(0.005)  # a table's pace, so that backups fall between steps
            finally:
                done.set()

        copies, counts = [], []
        player = threading.Thread(target=play)
        player.start()
        while not done.is_set() or not copies:
            target = tmp_path / f"copy-{len(copies)}.sqlite3"
            backup(str(db), str(target))
            copies.append(target)
        player.join()
        final = len(session.done_steps())
    for target in copies:
        with Store(target, readonly=True) as copy:
            counts.append(copy.conn.execute(
                "SELECT done_steps FROM games WHERE id = ?", (game,)).fetchone()[0])
            resumed = copy.open_session(game)  # its line and its log agree
            assert len(resumed.done_steps()) == counts[-1]
    assert counts == sorted(counts) and counts[-1] <= final
    report("history", f"backup while a writer plays: {len(copies)} backups during a game of "
                      f"{final} steps, holding {counts[0]} to {counts[-1]} steps "
                      f"({len(set(counts))} different moments), each whole")


# -- restore ---------------------------------------------------------------------------------
def test_backup_then_restore_gives_back_the_same_history(stored, db, tmp_path):
    saved = tmp_path / "saved.sqlite3"
    assert cli("backup", str(saved), "--db", str(db))[0] == 0
    with Store(db) as store:  # the table plays on after the backup, then wants it back
        store.abandon(store.unfinished()[0].id)
        store.conn.execute("DELETE FROM clocks")
    changed = history_of(db)
    assert changed != history_of(stored)
    code, said = cli("restore", str(saved), "--db", str(db))
    assert code == 0 and f"Restored {sum(COUNTS.values()) + 2} game(s) from {saved}" in said
    assert history_of(db) == history_of(stored)
    aside = [p for p in db.parent.iterdir() if ".before-restore-" in p.name]
    assert len(aside) == 1 and f"kept as {aside[0]}" in said
    assert history_of(aside[0]) == changed  # the database that was there, kept whole
    assert os.stat(db).st_mode & 0o777 == 0o600
    with Store(db) as store:  # the app opens it and plays on
        session = store.open_session(store.unfinished()[0].id)
        session.execute(autoplay.next_command(session, random.Random(2)))


def test_restore_keeps_aside_what_the_current_databases_wal_still_holds(stored, db, tmp_path):
    """Steps still in the current database's -wal (another connection keeps it open, so it is
    not folded back on close) are in the copy kept aside, not lost and not replayed into the
    restored file."""
    with Store(db) as store:
        session = store.open_session(store.unfinished()[0].id)
        game = session.game_id
    raw = sqlite3.connect(db, isolation_level=None)
    raw.execute("PRAGMA wal_autocheckpoint = 0")
    raw.execute("UPDATE games SET summary = NULL, done_steps = 999 WHERE id = ?", (game,))
    assert os.path.getsize(str(db) + "-wal") > 0
    try:
        assert cli("restore", str(stored), "--db", str(db))[0] == 0
    finally:
        raw.close()
    assert history_of(db) == history_of(stored)
    aside, = (p for p in db.parent.iterdir()
              if ".before-restore-" in p.name and not p.name.endswith("-wal"))
    with Store(aside, readonly=True) as kept:
        assert kept.conn.execute("SELECT done_steps FROM games WHERE id = ?",
                                 (game,)).fetchone()[0] == 999


def test_restore_into_a_new_place_needs_nothing_there(stored, tmp_path):
    fresh = tmp_path / "new" / "companion.sqlite3"
    assert cli("restore", str(stored), "--db", str(fresh))[0] == 0
    assert history_of(fresh) == history_of(stored)
    assert not [p for p in fresh.parent.iterdir() if "before-restore" in p.name]


def test_restore_of_an_older_schema_migrates_on_the_next_open(stored, db, tmp_path):
    old = tmp_path / "schema-2.sqlite3"
    as_schema_2(stored, old)
    code, said = cli("restore", str(old), "--db", str(db))
    assert code == 0 and ("The backup has schema 2: the companion brings it up to schema "
                          f"{SCHEMA_VERSION}") in said
    with Store(db) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        names = {p.uuid: p.name for p in store.profiles()}
    migrated, original = history_of(db)["plays"], history_of(stored)["plays"]
    assert len({p["uuid"] for p in migrated} - {p["uuid"] for p in original}) == len(original)
    for play in migrated:   # new uuids, new profiles of the same names: the rest as it was
        assert all(names[seat["profile"]] == seat["name"] for seat in play["players"])
    assert [anonymous(p) for p in migrated] == [anonymous(p) for p in original]


def anonymous(play: dict[str, Any]) -> dict[str, Any]:
    """A play without what a migration makes anew: its uuid, device and seats' profiles."""
    return {**{k: v for k, v in play.items() if k not in ("uuid", "device")},
            "players": [{k: v for k, v in seat.items() if k != "profile"}
                        for seat in play["players"]]}


def _other_program(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.execute("INSERT INTO notes VALUES ('not a game')")
    conn.commit()
    conn.close()


def _newer(path: Path, stored: Path) -> None:
    backup(str(stored), str(path))
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()


def _damaged(path: Path, stored: Path) -> None:
    """A backup with one of its table pages overwritten in the middle."""
    backup(str(stored), str(path))
    data = bytearray(path.read_bytes())
    page = 4096
    data[3 * page + 8: 3 * page + 400] = bytes(range(256)) + bytes(136)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("kind, words", [
    ("other program", "it is not a companion database (its application id is 0x00000000"),
    ("newer", f"it was written by a newer companion (schema {SCHEMA_VERSION + 1}; this one "
              f"reads up to schema {SCHEMA_VERSION}): update the companion first"),
    ("garbage", "it is not a database at all"),
    ("empty", "it is an empty file or database, not a companion database"),
    ("damaged", "cannot be restored: it fails SQLite's integrity check (On tree page "),
    ("missing", "no such file; nothing was restored"),
])
def test_restore_refuses_what_is_not_a_sound_companion_database(stored, db, tmp_path, capsys,
                                                                kind, words):
    source = tmp_path / f"{kind}.sqlite3"
    if kind == "other program":
        _other_program(source)
    elif kind == "newer":
        _newer(source, stored)
    elif kind == "garbage":
        source.write_bytes(bytes(random.Random(1).randrange(256) for _ in range(9000)))
    elif kind == "empty":
        source.write_bytes(b"")
    elif kind == "damaged":
        _damaged(source, stored)
    before, table = listing(tmp_path), listing(db.parent)
    assert main(["restore", str(source), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert words in err and str(source) in err
    if kind != "missing":
        assert "nothing was changed" in err
    assert listing(db.parent) == table and listing(tmp_path) == before


def test_restore_refuses_while_the_app_holds_the_writer_lock(stored, db, capsys):
    with Store(db):  # the app, running in this process
        table = listing(db.parent)
        assert main(["restore", str(stored), "--db", str(db)]) == 2
        err = capsys.readouterr().err
        assert f"the companion is already running (pid {os.getpid()})" in err
        assert "nothing was restored" in err
        assert listing(db.parent) == table


def test_restore_refuses_the_database_itself(db, capsys):
    assert main(["restore", str(db), "--db", str(db)]) == 2
    assert "is the game database itself: nothing to restore" in capsys.readouterr().err
