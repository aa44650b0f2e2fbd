"""Opening the store: only a damaged or foreign file is moved aside (after a copy was made);
every other failure leaves the file exactly as it was and says what to do; readers change
nothing; odd paths are refused; creation is race-free; one writer; owner-only files."""

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
from companion.core import Command, StoreError
from companion.games import get_rules
from companion.store import Store
from companion.store.opening import copy_aside

ROOT = Path(__file__).resolve().parents[2]
RULES = get_rules("witchs_brew")
FIVE = {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Daniel", "Emma"]}
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _stored(db: Path) -> bytes:
    """A database holding one game, closed; its bytes."""
    with Store(db) as store:
        store.new_game(RULES, FIVE)
    return db.read_bytes()


def _listing(folder: Path) -> list[str]:
    """The folder's files, but the clean-close mark: any opening takes it away (a start that
    fails only checks the whole file next time)."""
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(".clean"))


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
    before = _stored(db)
    listing = _listing(tmp_path)
    real = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: FailingAt(real(*a, **k), at, code,
                                                                      "injected"))
    with pytest.raises(StoreError) as caught:
        Store(db)
    assert str(db) in str(caught.value) and words in str(caught.value)
    assert "left as it was" in str(caught.value)
    assert db.read_bytes() == before and _listing(tmp_path) == listing
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
    assert _listing(tmp_path) == ["c.sqlite3", "c.sqlite3.lock"]
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
    _stored(db)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 7")
    conn.close()
    before, listing = db.read_bytes(), _listing(tmp_path)
    with pytest.raises(StoreError, match="written by a newer companion \\(schema 7\\): update"):
        Store(db)
    assert db.read_bytes() == before and _listing(tmp_path) == listing


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
    assert os.stat(path).st_mode == kind and _listing(tmp_path) == [path.name]


def test_dev_null_is_refused(tmp_path):
    with pytest.raises(StoreError, match="/dev/null is not a regular file"):
        Store("/dev/null")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert not os.path.exists("/dev/null.lock")


def test_a_folder_is_refused_by_readers_too(tmp_path):
    with pytest.raises(StoreError, match="is a folder, not a game database"):
        Store(tmp_path, readonly=True)
    assert _listing(tmp_path) == []


# -- readers ---------------------------------------------------------------------------------
def test_a_reader_never_creates_a_missing_database(tmp_path):
    with pytest.raises(StoreError, match="no such file \\(no game was ever stored there\\)"):
        Store(tmp_path / "sub" / "c.sqlite3", readonly=True)
    assert _listing(tmp_path) == []


def test_history_without_a_database_yet_creates_none(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "new" / "c.sqlite3"))
    assert main(["history"]) == 0
    assert "No games yet." in capsys.readouterr().out
    assert main(["export", "--log", "1"]) == 2
    assert "no game was ever stored" in capsys.readouterr().err
    assert _listing(tmp_path) == []


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
    assert db.read_bytes() == before and _listing(tmp_path) == ["notes.db"]


def test_export_reads_a_game_without_writing_to_the_file(tmp_path, capsys):
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        session = store.new_game(RULES, FIVE)
        store.conn.execute("UPDATE games SET status = 'abandoned'")
    before = db.read_bytes()
    assert main(["export", "--log", str(session.game_id), "--db", str(db)]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["game"] == "witchs_brew"
    assert db.read_bytes() == before


# -- one writer ------------------------------------------------------------------------------
def test_a_second_writer_is_refused_while_readers_still_work(tmp_path, capsys):
    db = tmp_path / "c.sqlite3"
    _stored(db)
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
    _stored(db)
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
    _stored(db)
    assert (tmp_path / "c.sqlite3.clean").exists()
    assert sorted(_checks(db, monkeypatch)) == sorted(LISTED)
    assert sorted(_checks(db, monkeypatch)) == sorted(LISTED)   # closed clean again


@pytest.mark.parametrize("after", ["no mark", "a -wal", "changed", "a bad mark"])
def test_after_anything_but_a_clean_close_the_whole_file_is_checked(tmp_path, monkeypatch,
                                                                    after):
    db = tmp_path / "c.sqlite3"
    _stored(db)
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
