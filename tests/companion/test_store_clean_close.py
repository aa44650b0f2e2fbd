"""A clean close of the store: the next start checks only the tables the lists read (a reader
keeps the mark), anything else checks the whole file, and a log damaged at rest is named when
its game is resumed or counted."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.core import Command, StoreError
from companion.store import Store
from tests.companion.store_opening import FIVE, RULES, stored


# -- a clean close: the next start checks only the tables the lists read -------------------------
class Recording:
    """A real connection that keeps the PRAGMA quick_check statements it ran."""

    ran: list[str] = []

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, *args):
        if sql.startswith("PRAGMA quick_check"):
            Recording.ran.append(sql)
        return self.conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.conn, name)


def _checks(db: Path, monkeypatch, readonly: bool = False) -> list[str]:
    """The integrity checks a writer's (or a reader's) opening ran."""
    real = sqlite3.connect
    Recording.ran = []
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: Recording(real(*a, **k)))
    Store(db, readonly=readonly).close()
    monkeypatch.undo()
    return list(Recording.ran)


def test_a_reader_of_a_file_at_rest_checks_the_lists_tables_and_keeps_the_mark(tmp_path,
                                                                               monkeypatch):
    """``companion stats`` or ``history`` on a file its writer closed cleanly reads the lists'
    tables' check only, and leaves the mark for the app's next start; with the mark gone (a
    crash) a reader checks the whole file."""
    db = tmp_path / "c.sqlite3"
    stored(db)
    assert sorted(_checks(db, monkeypatch, readonly=True)) == sorted(LISTED)
    assert (tmp_path / "c.sqlite3.clean").exists()
    assert sorted(_checks(db, monkeypatch)) == sorted(LISTED)   # the writer still trusts it
    (tmp_path / "c.sqlite3.clean").unlink()
    assert _checks(db, monkeypatch, readonly=True) == ["PRAGMA quick_check"]


LISTED = ["PRAGMA quick_check(games)", "PRAGMA quick_check(players)",
          "PRAGMA quick_check(results)", "PRAGMA quick_check(clocks)",
          "PRAGMA quick_check(profiles)", "PRAGMA quick_check(meta)"]


def test_after_a_clean_close_only_the_listed_tables_are_checked(tmp_path, monkeypatch):
    db = tmp_path / "c.sqlite3"
    stored(db)
    assert (tmp_path / "c.sqlite3.clean").exists()
    assert sorted(_checks(db, monkeypatch)) == sorted(LISTED)
    assert sorted(_checks(db, monkeypatch)) == sorted(LISTED)   # closed clean again


@pytest.mark.parametrize("after", ["no mark", "a -wal", "changed", "a bad mark"])
def test_after_anything_but_a_clean_close_the_whole_file_is_checked(tmp_path, monkeypatch,
                                                                    after):
    db = tmp_path / "c.sqlite3"
    stored(db)
    mark = tmp_path / "c.sqlite3.clean"
    if after == "no mark":            # killed, or the plug pulled: the mark was never written
        mark.unlink()
    elif after == "a -wal":           # frames a connection left when the writer stopped
        shutil.copy(db, str(db) + "-wal")    # (an empty one is what a reader leaves: no frames)
    elif after == "changed":
        other = sqlite3.connect(db)
        with other:
            other.execute("UPDATE games SET updated_at = 'changed behind its back'")
        other.close()
    else:
        mark.write_text("{not json")
    assert _checks(db, monkeypatch) == ["PRAGMA quick_check"]


def test_a_damaged_log_in_a_file_at_rest_is_named_when_its_game_is_resumed(tmp_path):
    """Damage that appears while the file rests (same size and time) is not looked for at
    start; reading the game finds it, and the game is named, never a traceback."""
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        session = store.new_game(RULES, FIVE)
        game_id = session.game_id
        for _ in range(150):
            session.execute(Command("adjust", "Anna", {"changes": {"gold": 1}}))
            session.execute(Command("adjust", "Anna", {"changes": {"gold": -1}}))
    before = os.stat(db)
    look = sqlite3.connect(f"file:{db}?immutable=1", uri=True)   # leaves no -wal behind
    pages = [n for (n,) in look.execute("SELECT pageno FROM dbstat WHERE name = 'events'")]
    look.close()
    with open(db, "r+b") as raw:      # a page in the middle of the events' table, garbage
        page = pages[len(pages) // 2]
        raw.seek((page - 1) * 4096)
        raw.write(os.urandom(4096))
    os.utime(db, ns=(before.st_atime_ns, before.st_mtime_ns))
    with Store(db) as store:
        assert store.notice is None and [g.id for g in store.games()] == [game_id]
        with pytest.raises(StoreError, match=f"Game #{game_id}"):
            store.open_session(game_id)
        assert store.games()[0].damaged


def test_companion_stats_on_a_log_damaged_at_rest_says_so_in_one_line(tmp_path, capsys):
    """``companion stats`` reads the finished games' events: a page of them damaged while the
    file rested is found there, and said in one line with exit status 2, not a traceback."""
    from companion.cli.main import main
    from companion.cli.status import EXIT_UNUSABLE
    from tests.support.history import build_history

    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        build_history(store, {"witchs_brew": 6})
    before = os.stat(db)
    look = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    pages = [n for (n,) in look.execute("SELECT pageno FROM dbstat WHERE name = 'events'")]
    look.close()
    with open(db, "r+b") as raw:
        for page in pages[len(pages) // 3: 2 * len(pages) // 3]:
            raw.seek((page - 1) * 4096)
            raw.write(os.urandom(4096))
    os.utime(db, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert main(["stats", "--db", str(db)]) == EXIT_UNUSABLE
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith(f"companion stats: {db}: the game database")
    assert "malformed" in said[0] and "Traceback" not in said[0]
