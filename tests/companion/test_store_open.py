"""Opening the store: only a damaged or foreign file is moved aside (after a copy was made);
every other failure leaves the file exactly as it was and says what to do; odd paths are
refused; creation is race-free; one writer; owner-only files."""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.core import StoreError
from companion.store import Store
from companion.store.opening import copy_aside
from tests.companion.store_opening import ENV, FIVE, ROOT, RULES, files_in, stored


class FailingAt:
    """A real connection that fails, as SQLite would, on the first statement starting with
    ``at``: the error carries SQLite's (possibly extended) result code."""

    def __init__(self, conn: sqlite3.Connection, at: str, code: int, message: str) -> None:
        self.conn, self.at, self.code, self.message = conn, at, code, message

    def execute(self, sql: str, *args):
        if sql.startswith(self.at):
            problem = sqlite3.OperationalError(self.message)
            problem.sqlite_errorcode = self.code
            problem.sqlite_errorname = f"code {self.code}"
            raise problem
        return self.conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.conn, name)


@pytest.mark.parametrize("code, at, words", [
    (sqlite3.SQLITE_FULL, "PRAGMA journal_mode", "the SD card (disk) is full: free some space"),
    (sqlite3.SQLITE_IOERR_WRITE, "PRAGMA journal_mode", "the card (disk) failed"),
    (sqlite3.SQLITE_READONLY, "BEGIN IMMEDIATE", "the database is read-only"),
    (sqlite3.SQLITE_READONLY_DBMOVED, "BEGIN IMMEDIATE", "the database is read-only"),
    (sqlite3.SQLITE_BUSY, "PRAGMA application_id", "another program holds the database locked"),
    (sqlite3.SQLITE_BUSY_RECOVERY, "SELECT count", "another program holds the database locked"),
    (sqlite3.SQLITE_LOCKED, "PRAGMA quick_check", "another program holds the database locked"),
    (sqlite3.SQLITE_CANTOPEN, "PRAGMA foreign_keys", "cannot be opened"),
    (sqlite3.SQLITE_PERM, "PRAGMA application_id", "does not allow access"),
])
def test_a_failure_that_is_not_damage_leaves_the_file_as_it_was(tmp_path, monkeypatch, code,
                                                               at, words):
    db = tmp_path / "c.sqlite3"
    before = stored(db)
    listing = files_in(tmp_path)
    real = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: FailingAt(real(*a, **k), at, code,
                                                                      "injected"))
    with pytest.raises(StoreError) as caught:
        Store(db)
    assert str(db) in str(caught.value) and words in str(caught.value)
    assert "left as it was" in str(caught.value)
    assert db.read_bytes() == before and files_in(tmp_path) == listing
    monkeypatch.undo()
    with Store(db) as store:
        assert store.notice is None and len(store.games()) == 1


def test_a_damaged_file_that_cannot_be_copied_aside_is_left_as_it_was(tmp_path, monkeypatch):
    db = tmp_path / "c.sqlite3"
    db.write_bytes(b"not a database at all" * 100)

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(shutil, "copyfileobj", full)
    with pytest.raises(StoreError, match="could not be copied aside .*left as it was: the SD "
                                         "card \\(disk\\) is full"):
        Store(db)
    assert files_in(tmp_path) == ["c.sqlite3", "c.sqlite3.lock"]
    assert db.read_bytes() == b"not a database at all" * 100


def test_a_damaged_file_is_copied_aside_before_a_new_one_is_started(tmp_path):
    db = tmp_path / "c.sqlite3"
    db.write_bytes(b"\x00garbage" * 600)
    with Store(db) as store:
        assert "file is not a database" in store.notice and "moved to" in store.notice
        store.new_game(RULES, FIVE)
    [copy] = [p for p in tmp_path.iterdir() if ".unreadable-" in p.name]
    assert copy.read_bytes() == b"\x00garbage" * 600
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    with Store(db) as store:
        assert store.notice is None and len(store.games()) == 1


def test_a_copy_aside_keeps_the_wal_sqlite_left(tmp_path):
    db = tmp_path / "c.sqlite3"
    db.write_bytes(b"damaged")
    Path(f"{db}-wal").write_bytes(b"its wal")
    copy = copy_aside(str(db), StoreError("the integrity check failed"))
    assert Path(copy).read_bytes() == b"damaged"
    assert Path(f"{copy}-wal").read_bytes() == b"its wal"
    assert db.read_bytes() == b"damaged"  # the copy alone changes nothing


def test_a_file_from_a_newer_companion_is_refused_and_kept(tmp_path):
    db = tmp_path / "c.sqlite3"
    stored(db)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 7")
    conn.close()
    before, listing = db.read_bytes(), files_in(tmp_path)
    with pytest.raises(StoreError, match="written by a newer companion \\(schema 7\\): update"):
        Store(db)
    assert db.read_bytes() == before and files_in(tmp_path) == listing


# -- paths that are not a regular file -------------------------------------------------------
def _fifo(tmp_path: Path) -> Path:
    os.mkfifo(tmp_path / "pipe")
    return tmp_path / "pipe"


def _device(tmp_path: Path) -> Path:
    """A device node like /dev/null, made here so that nothing outside the test is at risk."""
    os.mknod(tmp_path / "null", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    return tmp_path / "null"


@pytest.mark.parametrize("make", [_fifo, _device])
@pytest.mark.parametrize("readonly", [False, True])
def test_a_device_or_a_pipe_is_refused_and_never_moved(tmp_path, make, readonly):
    path = make(tmp_path)
    kind = os.stat(path).st_mode
    with pytest.raises(StoreError, match="is not a regular file \\(a device or a pipe\\)"):
        Store(path, readonly=readonly)
    assert os.stat(path).st_mode == kind and files_in(tmp_path) == [path.name]


def test_dev_null_is_refused(tmp_path):
    with pytest.raises(StoreError, match="/dev/null is not a regular file"):
        Store("/dev/null")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert not os.path.exists("/dev/null.lock")


def test_a_folder_is_refused_by_readers_too(tmp_path):
    with pytest.raises(StoreError, match="is a folder, not a game database"):
        Store(tmp_path, readonly=True)
    assert files_in(tmp_path) == []


# -- one writer ------------------------------------------------------------------------------
def test_a_second_writer_is_refused_while_readers_still_work(tmp_path, capsys):
    db = tmp_path / "c.sqlite3"
    stored(db)
    holder = subprocess.Popen([sys.executable, "-m", "tests.support.store_child", str(db), "-",
                               "--hold"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, cwd=ROOT, env=ENV)
    try:
        assert holder.stdout.readline().strip() == "HOLDING"
        with pytest.raises(StoreError, match=f"the companion is already running \\(pid "
                                             f"{holder.pid}\\)"):
            Store(db)
        with Store(db, readonly=True) as reader:
            assert len(reader.games()) == 1
        assert main(["history", "--db", str(db)]) == 0
        assert "Witch's Brew" in capsys.readouterr().out
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
        holder.stdout.close()
    assert holder.returncode == 0
    with Store(db) as store:  # released when the writer closed
        assert store.notice is None and len(store.games()) == 1


def test_the_lock_is_released_on_close(tmp_path):
    db = tmp_path / "c.sqlite3"
    first = Store(db)
    with pytest.raises(StoreError, match=f"already running \\(pid {os.getpid()}\\)"):
        Store(db)
    first.close()
    Store(db).close()


# -- creation --------------------------------------------------------------------------------
def test_a_new_database_and_its_side_files_are_for_the_owner_only(tmp_path):
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        store.new_game(RULES, FIVE)
        for name in ("c.sqlite3", "c.sqlite3-wal", "c.sqlite3-shm", "c.sqlite3.lock"):
            assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o600, name


@pytest.mark.parametrize("raw", [False, True], ids=["store", "schema-only"])
def test_three_processes_starting_at_once_share_one_new_database(tmp_path, raw):
    """Started together on a new path, every child gets its game into one file; nothing is
    taken for damage. ``schema-only`` races on creating the schema without the writer lock."""
    script = tmp_path / "setup.jsonl"
    script.write_text(json.dumps(FIVE) + "\n")
    for round_ in range(4):
        db = tmp_path / f"r{round_}" / "c.sqlite3"
        start = time.time() + 1.0
        children = [subprocess.Popen(
            [sys.executable, "-m", "tests.support.store_child", str(db), str(script),
             "--race", str(start), *(["--raw"] if raw else [])],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=ENV)
            for _ in range(3)]
        outs = [child.communicate(timeout=120) for child in children]
        assert all(child.returncode == 0 for child in children), [err for _, err in outs]
        ids = sorted(int(out.split()[1]) for out, _ in outs)
        assert ids == [1, 2, 3]
        assert not [p for p in db.parent.iterdir() if "unreadable" in p.name]
        with Store(db) as store:
            assert store.notice is None
            assert len(store.conn.execute("SELECT id FROM games").fetchall()) == 3


def test_a_side_file_another_writer_is_removing_is_not_taken_for_a_hard_link(tmp_path):
    """Linux's lstat can find a name and then read a link count of 0 when another process
    unlinks it in between: SQLite removing its -journal or -wal as the schema is made. That
    file is gone, not a hard link: the check passes it over (a CI run refused a new database
    for it). A real hard link beside the database is still refused."""
    import multiprocessing

    from companion.files.walk import Place
    from companion.store.held import refuse_odd_sides

    db = tmp_path / "c.sqlite3"
    db.touch()
    journal = tmp_path / "c.sqlite3-journal"
    stop = multiprocessing.Event()
    churn = multiprocessing.Process(target=_churn, args=(str(journal), stop))
    churn.start()
    caught = seen = 0
    try:
        with Place.of(str(db)) as place:
            deadline = time.monotonic() + 1.5
            while time.monotonic() < deadline and seen < 200:
                try:
                    refuse_odd_sides(place)
                except StoreError as problem:
                    caught += 1
                    raise AssertionError(problem) from None
                st = place.lstat(journal.name)
                seen += st is not None and st.st_nlink == 0
    finally:
        stop.set()
        churn.join()
    assert caught == 0
    journal.touch()
    os.link(journal, tmp_path / "elsewhere")
    with Place.of(str(db)) as place, pytest.raises(StoreError, match="hard link"):
        refuse_odd_sides(place)


def _churn(path: str, stop) -> None:
    while not stop.is_set():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        os.unlink(path)
