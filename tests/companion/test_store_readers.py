"""Readers of the store change nothing: they never create a database, never move a foreign or
damaged one aside, and read a game without writing to the file."""

from __future__ import annotations

import json
import sqlite3

import pytest

from companion.cli.main import main
from companion.core import StoreError
from companion.store import Store
from tests.companion.store_opening import FIVE, RULES, files_in, stored


def test_a_reader_never_creates_a_missing_database(tmp_path):
    with pytest.raises(StoreError, match="no such file \\(no game was ever stored there\\)"):
        Store(tmp_path / "sub" / "c.sqlite3", readonly=True)
    assert files_in(tmp_path) == []


def test_history_without_a_database_yet_creates_none(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "new" / "c.sqlite3"))
    assert main(["history"]) == 0
    assert "No games yet." in capsys.readouterr().out
    assert main(["export", "--log", "1"]) == 2
    assert "no game was ever stored" in capsys.readouterr().err
    assert files_in(tmp_path) == []


@pytest.mark.parametrize("command", [["history"], ["export", "--log", "1"]])
@pytest.mark.parametrize("content, reason", [
    (None, "it is not a table-companion database"),
    (b"scribbles " * 500, "file is not a database"),
])
def test_read_only_commands_report_a_foreign_or_damaged_file_and_never_move_it(
        tmp_path, capsys, command, content, reason):
    db = tmp_path / "notes.db"
    if content is None:
        conn = sqlite3.connect(db)
        conn.execute("CREATE TABLE notes (text)")
        conn.execute("INSERT INTO notes VALUES ('keep me')")
        conn.commit()
        conn.close()
    else:
        db.write_bytes(content)
    before = db.read_bytes()
    assert main(command + ["--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert reason in err and "it was left as it is" in err and err.count("\n") == 1
    assert db.read_bytes() == before and files_in(tmp_path) == ["notes.db"]


def test_export_reads_a_game_without_writing_to_the_file(tmp_path, capsys):
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        session = store.new_game(RULES, FIVE)
        store.conn.execute("UPDATE games SET status = 'abandoned'")
    before = db.read_bytes()
    assert main(["export", "--log", str(session.game_id), "--db", str(db)]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["game"] == "witchs_brew"
    assert db.read_bytes() == before
