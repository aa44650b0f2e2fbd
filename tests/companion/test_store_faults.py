"""The store under real faults, in one place, with figures.

The opening logic is tested elsewhere with monkeypatched errors; an injected error only proves
that a code is classified, not that SQLite or the kernel ever raise it there. Here each fault is
provoked for real: a tmpfs card that fills up (and SQLite's own page limit, a genuine
SQLITE_FULL where no mount is possible), a write-protected file, folder and card (opened by an
unprivileged child, since root ignores permission bits), a writer lock held by another process,
two writers and three creators started together, malformed rows, a game whose end was stored
without its results. Each case checks the promise: the file is left exactly as it was (the same bytes,
nothing moved aside, no ``.unreadable-*`` file), the error says what to do, no acknowledged step
is lost, and the game plays on once the fault is gone. The tally of each case (tries, failures
found, steps acknowledged, steps lost) is printed under "figures: store faults".
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from companion.store.check import check
from companion.cli.main import build_parser, main
from companion.core import StoreError
from companion.games import get_rules
from companion.store import Store
from tests.support.autoplay import next_command, play
from tests.support.figures import report

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
RULES = get_rules("witchs_brew")
SETUP = {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}
NOBODY = 65534
TOPIC = "store faults"
FULL = "the SD card (disk) is full: free some space"
READ_ONLY = "the database is read-only"
# A child that dropped root cannot import (the interpreter may live in root's home): what the
# commands load lazily is loaded now.
build_parser()
importlib.import_module("companion.script")


# -- helpers ---------------------------------------------------------------------------------
def _played(db: Path, steps: int, seed: int = 1) -> tuple[int, list[dict[str, Any]]]:
    """A database holding one more game of ``steps`` steps, closed: the game's id and the
    commands it acknowledged (taken from the session: reading the file back would leave a -wal
    and a -shm beside it, and a folder holding those lets SQLite write in it)."""
    with Store(db) as store:
        session = store.new_game(RULES, SETUP)
        rng = random.Random(seed)
        for _ in range(steps):
            session.execute(next_command(session, rng))
        return session.game_id, [s.command.to_dict() for s in session.steps]


def _done(db: Path, game_id: int) -> list[dict[str, Any]]:
    """The commands of a game's done steps, read without writing."""
    with Store(db, readonly=True) as store:
        return [s.command.to_dict() for s in store.open_session(game_id).done_steps()]


def _sound(db: Path) -> None:
    """SQLite's integrity check and every game's fold: nothing found."""
    with Store(db, readonly=True) as store:
        assert check(store.conn) == []


def _copies(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if ".unreadable" in p.name]


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m companion ARGS`` in its own process."""
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, cwd=ROOT, env=ENV, timeout=60)


def _mount(folder: Path, options: str) -> bool:
    """A tmpfs card at ``folder``; False where this run may not mount one (not root)."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                          capture_output=True)
    return done.returncode == 0


def _unmount(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True)


@pytest.fixture
def card(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs card, unmounted after the test; skipped where none can be mounted."""
    folder = tmp_path / "card"
    if not _mount(folder, "size=2m,mode=0755"):
        pytest.skip("mounting a tmpfs needs root (CI and the dev box run the tests as root)")
    try:
        yield folder
    finally:
        _unmount(folder)


def _fill(card: Path, leave: int = 0) -> Path:
    """A filler file that takes the card's space until ``leave`` bytes are free."""
    filler = card / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for chunk in (65536, 4096, 512):
            try:
                while os.statvfs(card).f_bavail * os.statvfs(card).f_frsize - leave >= chunk:
                    os.write(fd, b"\0" * chunk)
            except OSError:
                pass
    finally:
        os.close(fd)
    return filler


# -- 1. a full card --------------------------------------------------------------------------
@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing"])
def test_opening_on_a_full_card_is_refused_in_words_and_moves_nothing(card, existing):
    """Three tries with 0, 4 and 16 KiB free each: every one refused with the full-card
    words, the file's bytes kept, no copy made, and no file added by a retry."""
    db = card / "c.sqlite3"
    game = _played(db, 12)[0] if existing else None
    before = db.read_bytes() if existing else None
    refused = tries = 0
    for leave in (0, 4096, 16384):
        filler = _fill(card, leave)
        listings = []
        for _ in range(3):
            tries += 1
            with pytest.raises(StoreError) as caught:
                Store(db)
            refused += 1
            assert FULL in str(caught.value) and "left as it was" in str(caught.value)
            assert str(db) in str(caught.value)
            listings.append(_listing(card))
            assert not _copies(card)
            if existing:
                assert db.read_bytes() == before
        assert listings[0] == listings[1] == listings[2], "a retry left a file behind"
        filler.unlink()
    with Store(db) as store:  # space again: the companion opens and plays on
        assert store.notice is None
        session = store.open_session(game) if existing else store.new_game(RULES, SETUP)
        session.execute(next_command(session, random.Random(5)))
    _sound(db)
    report(TOPIC, f"full card, {'existing' if existing else 'new'} database (tmpfs 2 MiB, "
                  f"0/4/16 KiB free): {refused} of {tries} opens refused in the full-card "
                  "words, 0 files moved or copied, 0 left behind by retries")


@pytest.mark.parametrize("how", ["card", "page-limit"])
def test_playing_until_the_card_is_full(tmp_path, how):
    """Every press on the full card is refused in words and not applied; once space is freed
    the very same press works, and every acknowledged step is in the file."""
    if how == "card":
        folder = tmp_path / "card"
        if not _mount(folder, "size=2m,mode=0755"):
            pytest.skip("mounting a tmpfs needs root; the page-limit case still runs")
    else:
        folder = tmp_path
    try:
        _play_until_full(folder / "c.sqlite3", how)
    finally:
        if how == "card":
            _unmount(folder)


def _play_until_full(db: Path, how: str) -> None:
    store = Store(db)
    session = store.new_game(RULES, SETUP)
    rng = random.Random(2)
    acknowledged: list[dict[str, Any]] = []
    for _ in range(10):
        command = next_command(session, rng)
        session.execute(command)
        acknowledged.append(command.to_dict())
    if how == "card":
        filler = _fill(db.parent)
    else:  # SQLite's own limit on the file's pages: a genuine SQLITE_FULL on any file system
        pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
        store.conn.execute(f"PRAGMA max_page_count = {pages}").fetchone()
    command, refused, presses = None, 0, 0
    while refused < 40:  # the card may still take a few steps (the WAL reuses its space)
        presses += 1
        assert presses < 400, "the card never filled"
        command = command or next_command(session, rng)
        steps, state = list(session.steps), session.state
        try:
            session.execute(command)
        except StoreError as problem:
            refused += 1
            assert str(problem).startswith(f"Not saved, so not applied: {FULL}"), problem
            assert session.steps == steps and session.state == state
            continue
        assert refused == 0, "a press was applied while the card was still full"
        acknowledged.append(command.to_dict())
        command = None
    if how == "card":
        filler.unlink()
    else:
        store.conn.execute("PRAGMA max_page_count = 1073741823").fetchone()
    session.execute(command)  # the very same press, once there is room
    acknowledged.append(command.to_dict())
    for _ in range(5):
        command = next_command(session, rng)
        session.execute(command)
        acknowledged.append(command.to_dict())
    if how == "card":  # switched off while the card is full: closing loses nothing
        filler = _fill(db.parent)
        store.close()
        filler.unlink()
        with Store(db) as store:
            session = store.open_session(session.game_id)
            command = next_command(session, rng)
            session.execute(command)
            acknowledged.append(command.to_dict())
    else:
        store.close()
    stored = _done(db, session.game_id)
    lost = sum(1 for c in acknowledged if c not in stored)
    assert stored == acknowledged and not _copies(db.parent)
    _sound(db)
    assert _cli("check", "--db", str(db)).returncode == 0
    label = "tmpfs 2 MiB" if how == "card" else "simulated: PRAGMA max_page_count"
    closed = ", closed on the full card and resumed" if how == "card" else ""
    report(TOPIC, f"full while playing ({label}): {refused} presses refused in the full-card "
                  f"words, the same press applied after space was freed{closed}; "
                  f"{len(acknowledged)} steps acknowledged, {lost} lost")


def test_a_new_game_on_a_full_card_is_refused_in_words(card):
    db = card / "c.sqlite3"
    with Store(db) as store:
        session = store.new_game(RULES, SETUP)
        _fill(card)
        with pytest.raises(StoreError, match=r"^Not saved, so the game was not started: the SD "
                                             r"card \(disk\) is full: free some space$"):
            for _ in range(20):  # the first ones may still fit in the WAL
                store.new_game(RULES, SETUP)
        assert [g.id for g in store.games()][-1] == session.game_id


# -- 2. a write-protected file, folder or card -----------------------------------------------
def _as_nobody(work: Callable[[], Any]) -> Any:
    """``work()`` in a forked child that dropped root (root ignores permission bits) and can
    import nothing new: its result (JSON) through a pipe."""
    if os.geteuid() != 0:
        return work()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        code = 0
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            os.write(write, json.dumps(work()).encode("utf-8"))
        except BaseException as problem:  # noqa: BLE001  (reported to the parent, never raised)
            os.write(write, json.dumps({"crash": repr(problem)}).encode("utf-8"))
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    data = b""
    while chunk := os.read(read, 65536):
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    return json.loads(data)


def _open_writer(db: Path) -> Callable[[], Any]:
    def work() -> Any:
        try:
            with Store(db) as store:
                return {"opened": len(store.games())}
        except StoreError as problem:
            return {"refused": str(problem)}
    return work


def _command(*args: str) -> Callable[[], Any]:
    def work() -> Any:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
        return [code, out.getvalue(), err.getvalue()]
    return work


@pytest.mark.parametrize("what", ["file", "folder", "card"])
def test_a_write_protected_database_is_refused_in_words_and_still_read(what):
    """The writer is refused before anything is written; history and export still work for
    the same user; once writable again, the game plays on."""
    folder = Path(tempfile.mkdtemp(prefix="companion-faults-"))
    folder.chmod(0o755)  # the unprivileged user must reach it; tmp_path's parents are 0700
    mounted = what == "card" and _mount(folder, "size=4m,mode=0755")
    if what == "card" and not mounted:
        shutil.rmtree(folder)
        pytest.skip("remounting a card read-only needs root")
    db = folder / "c.sqlite3"
    try:
        game, acknowledged = _played(db, 15)
        for path in [folder, *folder.iterdir()]:
            if os.geteuid() == 0 and what != "card":   # root runs the card's own steps
                os.chown(path, NOBODY, NOBODY)
        run = _as_nobody
        if what == "file":
            db.chmod(0o444)
        elif what == "folder":
            folder.chmod(0o555)
        else:  # the whole card write-protected: root is refused too
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
            run = lambda work: work()  # noqa: E731
        before, listing = db.read_bytes(), _listing(folder)
        result = run(_open_writer(db))
        assert "refused" in result, result
        assert READ_ONLY in result["refused"] and "left as it was" in result["refused"]
        assert db.read_bytes() == before and _listing(folder) == listing
        code, out, err = run(_command("history", "--db", str(db)))
        assert (code, err) == (0, "") and "Witch's Brew" in out and "15 steps" in out
        code, out, err = run(_command("export", "--log", str(game), "--db", str(db)))
        assert (code, err) == (0, "") and len(out.splitlines()) == 16
        assert db.read_bytes() == before and not _copies(folder)
        if what == "file":
            db.chmod(0o600)
        elif what == "folder":
            folder.chmod(0o755)
        else:
            subprocess.run(["mount", "-o", "remount,rw", str(folder)], check=True)
        for path in [folder, *folder.iterdir()]:   # root's again: root uses no one else's folder
            if os.geteuid() == 0:
                os.chown(path, 0, 0)
        with Store(db) as store:  # writable again: the game plays on
            session = store.open_session(game)
            session.execute(next_command(session, random.Random(3)))
        stored = _done(db, game)
        lost = len(acknowledged) - len(stored[:15])
        assert stored[:15] == acknowledged and len(stored) == 16
        _sound(db)
    finally:
        if mounted:
            _unmount(folder)
        shutil.rmtree(folder, ignore_errors=True)
    report(TOPIC, f"write-protected {what} ({'as root' if what == 'card' else 'as nobody'}): "
                  "1 writer refused in the read-only words before writing, history and export "
                  f"read all 15 steps, 0 files moved; {len(acknowledged)} steps acknowledged, "
                  f"{lost} lost, the game played on once writable")


# -- 3. the writer lock held by another process ----------------------------------------------
def test_a_writer_held_by_another_process_is_refused_by_pid_while_readers_read(tmp_path):
    db = tmp_path / "c.sqlite3"
    game, acknowledged = _played(db, 10)
    holder = subprocess.Popen([sys.executable, "-m", "tests.support.store_child", str(db), "-",
                               "--hold"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, cwd=ROOT, env=ENV)
    tries = 3
    try:
        assert holder.stdout.readline().strip() == "HOLDING"
        before = db.read_bytes()
        for _ in range(tries):
            with pytest.raises(StoreError) as caught:
                Store(db)
            assert f"already running (pid {holder.pid})" in str(caught.value)
            assert "companion history and export can read the games" in str(caught.value)
        history = _cli("history", "--db", str(db))
        assert history.returncode == 0 and "(10 steps)" in history.stdout, history.stderr
        exported = _cli("export", "--log", str(game), "--db", str(db))
        assert exported.returncode == 0 and len(exported.stdout.splitlines()) == 11
        assert db.read_bytes() == before and not _copies(tmp_path)
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
        holder.stdout.close()
    assert holder.returncode == 0
    with Store(db) as store:  # the holder is gone: this writer opens and plays on
        session = store.open_session(game)
        session.execute(next_command(session, random.Random(4)))
    stored = _done(db, game)
    assert stored[:10] == acknowledged and len(stored) == 11
    _sound(db)
    report(TOPIC, f"lock held by another process: {tries} of {tries} writers refused naming "
                  "its pid, history and export read meanwhile, the writer opened after it "
                  f"ended; {len(acknowledged)} steps acknowledged, "
                  f"{len(acknowledged) - len(stored[:10])} lost")


# -- 4. two writers at once ------------------------------------------------------------------
#: A writer that tries once: refused, or plays N steps of the newest game and holds the store
#: until its standard input closes (so the two attempts overlap).
WRITER = """
import random, sys, time
from companion.core import StoreError
from companion.store import Store
from tests.support.autoplay import next_command
db, start, steps, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
time.sleep(max(0.0, start - time.time()))
try:
    store = Store(db)
except StoreError as problem:
    print("REFUSED", problem, flush=True)
    sys.exit(0)
session = store.open_session(store.games()[0].id)
rng = random.Random(seed)
for _ in range(steps):
    session.execute(next_command(session, rng))
    print("ACK", flush=True)
print("WON", flush=True)
sys.stdin.read()
store.close()
"""


def test_two_writers_started_together_one_wins_the_other_is_refused(tmp_path):
    db = tmp_path / "c.sqlite3"
    game = _played(db, 5)[0]
    rounds, steps, acknowledged = 5, 4, 5
    for round_ in range(rounds):
        start = time.time() + 0.6
        writers = [subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db), str(start), str(steps), str(round_ * 2 + i)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=ROOT, env=ENV) for i in range(2)]
        ends: dict[int, str] = {}
        try:
            for writer in writers:
                for line in writer.stdout:
                    if line.startswith("ACK"):
                        acknowledged += 1
                    if line.startswith(("WON", "REFUSED")):
                        ends[writer.pid] = line.strip()
                        break
        finally:
            for writer in writers:
                writer.stdin.close()
                writer.wait(timeout=60)
                writer.stdout.close()
                writer.stderr.close()
        assert sorted(end.split()[0] for end in ends.values()) == ["REFUSED", "WON"], ends
        [winner] = [pid for pid, end in ends.items() if end == "WON"]
        [refusal] = [end for end in ends.values() if end != "WON"]
        assert f"already running (pid {winner})" in refusal
        assert all(writer.returncode == 0 for writer in writers)
    stored = _done(db, game)
    assert len(stored) == acknowledged == 5 + rounds * steps
    assert not _copies(tmp_path)
    _sound(db)
    report(TOPIC, f"two writers started together: {rounds} rounds, {rounds} won and {rounds} "
                  f"refused naming the winner's pid, {acknowledged} steps acknowledged, "
                  f"{acknowledged - len(stored)} lost, the log folds")


# -- 5. three creators on a new path ---------------------------------------------------------
def test_three_creators_on_a_new_folder_share_one_database_and_every_game_plays(tmp_path):
    """Beyond test_store_open's race (which counts the games): the folder is new too, and
    every game the racers started opens and plays on."""
    script = tmp_path / "setup.jsonl"
    script.write_text(json.dumps(SETUP) + "\n")
    rounds = 3
    for round_ in range(rounds):
        db = tmp_path / f"r{round_}" / "new" / "c.sqlite3"
        start = time.time() + 0.8
        children = [subprocess.Popen(
            [sys.executable, "-m", "tests.support.store_child", str(db), str(script),
             "--race", str(start)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=ROOT, env=ENV) for _ in range(3)]
        outs = [child.communicate(timeout=120) for child in children]
        assert all(child.returncode == 0 for child in children), [err for _, err in outs]
        assert sorted(int(out.split()[1]) for out, _ in outs) == [1, 2, 3]
        assert not _copies(db.parent)
        with Store(db) as store:
            assert store.notice is None
            for game in (1, 2, 3):
                session = store.open_session(game)
                session.execute(next_command(session, random.Random(game)))
        _sound(db)
    report(TOPIC, f"three creators on a new path: {rounds} rounds, {rounds * 3} games started, "
                  f"all in one database each round, 0 lost, 0 files moved, every game played on")


# -- 6. a malformed row ----------------------------------------------------------------------
@pytest.mark.parametrize("damage, step", [
    ("UPDATE steps SET command = '{\"do\": ' WHERE game_id = ? AND n = 12", 12),
    ("UPDATE events SET data = '[1, 2]' WHERE game_id = ? AND step = 9", 9),
], ids=["command-not-json", "event-not-an-object"])
def test_a_malformed_row_is_named_and_repair_resumes_the_game(tmp_path, damage, step):
    db = tmp_path / "c.sqlite3"
    good, bad = _played(db, 20, seed=1)[0], _played(db, 20, seed=2)[0]
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(damage, (bad,))
    rows = conn.execute("SELECT count(*) FROM steps").fetchone()[0]
    conn.close()
    before = db.read_bytes()
    with Store(db) as store:
        assert store.notice is None
        with pytest.raises(StoreError) as caught:
            store.open_session(bad)
        assert f"Game #{bad} cannot be read from step {step} on" in str(caught.value)
        assert "companion check --repair" in str(caught.value)
        assert len(store.open_session(good).steps) == 20  # the other game opens
    assert db.read_bytes() == before and not _copies(tmp_path)
    repaired = _cli("check", "--db", str(db), "--repair")
    assert repaired.returncode == 0, repaired.stderr
    assert f"game #{bad}, step {step}" in repaired.stderr
    with Store(db) as store:
        session = store.open_session(bad)
        assert len(session.done_steps()) == step - 1  # its last good state
        session.execute(next_command(session, random.Random(6)))  # and it plays on
        kept = store.conn.execute("SELECT count(*) FROM steps").fetchone()[0]
    assert kept == rows + 1  # every row kept, and the new step
    _sound(db)
    report(TOPIC, f"malformed row ({'command' if 'steps' in damage else 'event data'}): the "
                  f"store opened, 1 game refused naming step {step} and check --repair, 1 game "
                  f"opened, repair resumed at step {step - 1} keeping all {rows} rows")


# -- 7. a game's end stored without its results ----------------------------------------------
def test_a_finished_game_without_its_results_is_set_right_on_opening(tmp_path):
    """An older companion wrote the results in a second transaction: a kill in between left
    the game running with its end in its log (test_store.py tests it at length)."""
    finished, commands = play(SETUP, seed=3)
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        session = store.new_game(RULES, SETUP)
        for command in commands:
            session.execute(command)
        store.conn.execute("DELETE FROM results")
        store.conn.execute("UPDATE games SET status = 'running', finished_at = NULL")
    with Store(db) as store:
        assert store.open_session(session.game_id).over
        [info] = store.games("finished")
        assert {r["name"]: r["score"] for r in info.results} == \
            {r["name"]: r["score"] for r in RULES.results(finished.state)}
    assert len(_done(db, session.game_id)) == len(commands)
    _sound(db)
    report(TOPIC, f"finish gap (results missing): 1 game set right on opening, "
                  f"{len(commands)} steps acknowledged, 0 lost")
