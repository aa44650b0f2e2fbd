"""The hostile folder: for every name in the one registry (companion/files/names.py) of what the
companion creates, opens or renames beside the database, an export, a backup, a stick's folder
and the configs, a symlink to a victim, a hard link to it, a FIFO, a folder and a dangling link
are planted in turn, then every command and writer that uses that name runs. The victim and the
history are unchanged and each run ends in one line (or none): a name added to the registry is
tried here at once. Figures: names, plants and runs tried, files changed, tracebacks."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import signal
import sqlite3
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.cli.main import main
from companion.core.errors import CompanionError
from companion.files import names
from tests.support.figures import report

PLANTS = ("symlink", "hardlink", "fifo", "folder", "dangling")
TALLY = {"runs": 0, "changed": 0, "tracebacks": 0, "plants": 0}
STAMP, TOKEN = "20260101-000000", "feedface"


def plant(path: Path, kind: str, victim: Path) -> None:
    if kind == "symlink":
        path.symlink_to(victim)
    elif kind == "hardlink":
        os.link(victim, path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
        (path / "inside").write_text("a file in a planted folder\n")
    else:
        path.symlink_to(path.parent / "nowhere")
    TALLY["plants"] += 1


def cli(*args: Any) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, err.getvalue()


def _hang(*_: Any) -> None:
    raise AssertionError("a run hung (a planted pipe was waited on)")


def attempt(run: Callable[[], Any]) -> str:
    """One run: what it said on standard error, or the one-line message it raised. Anything
    but the companion's own refusal or the system's OSError is a traceback a person would see."""
    TALLY["runs"] += 1
    old = signal.signal(signal.SIGALRM, _hang)
    signal.alarm(20)
    try:
        said = run()
    except (CompanionError, OSError) as problem:
        said = str(problem)
    except Exception:
        TALLY["tracebacks"] += 1
        raise
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    said = said if isinstance(said, str) else ""
    if "Traceback" in said or len(said.strip().splitlines()) > 1:
        TALLY["tracebacks"] += 1
        raise AssertionError(f"not one line: {said}")
    return said


def digest(path: Path) -> tuple[int, str] | None:
    try:
        st = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return None
    return st.st_ino, hashlib.sha256(path.read_bytes()).hexdigest()


def games(db: Path) -> set[str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)  # never its -wal
    try:
        return {u for (u,) in conn.execute("SELECT uuid FROM games")}
    finally:
        conn.close()


# -- what runs beside each kind of kept file ------------------------------------------------
def database_runs(db: Path, work: Path, exported: Path) -> dict[str, Callable[[], Any]]:
    """Every command and writer that opens, creates or renames a name beside the database."""
    from companion.store import Store

    def app() -> str:
        with Store(db) as store:   # the app's writer: opens, plays nothing, closes clean
            return store.notice or ""

    backup = work / "own.backup"
    return {
        "app": app,
        "check": lambda: cli("check", "--db", db)[1],
        "check --repair": lambda: cli("check", "--repair", "--db", db)[1],
        "history": lambda: cli("history", "--db", db)[1],
        "export --all": lambda: cli("export", "--all", "--db", db, "-o", work / "x.jsonl",
                                    "--force")[1],
        "backup": lambda: cli("backup", backup, "--db", db, "--force")[1],
        "restore": lambda: cli("restore", backup, "--db", db)[1] if backup.exists() else "",
        "import": lambda: cli("import", exported, "--db", db)[1],
    }


def file_runs(target: Path) -> dict[str, Callable[[], Any]]:
    """Every writer that makes a file next to ``target`` (the one writer's temporary too)."""
    from companion.files.write import write_whole
    from hardware.config import HardwareConfig, keep_unreadable, save_config
    from ui.table.settings import DEFAULTS, save_settings

    def bak() -> str:
        if not os.path.lexists(target):   # (the test itself never writes through a plant)
            target.write_text("[not toml\n")
        keep_unreadable(target)
        return ""

    return {
        "write": lambda: write_whole(target, "data\n", force=True) and "",
        "settings": lambda: save_settings(DEFAULTS, target) and "",
        "hardware": lambda: save_config(HardwareConfig.empty(), target) and "",
        "hardware .bak": bak,
    }


@pytest.fixture
def ground(small, tmp_path, monkeypatch):
    """A table's database in a folder of its own, its export, a victim beside them."""
    monkeypatch.setattr(names, "stamp", lambda: STAMP)
    monkeypatch.setattr(names, "token", lambda: TOKEN)
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    db = data / "c.sqlite3"
    shutil.copyfile(small[0], db)
    exported = tmp_path / "own.jsonl"
    exported.write_text("".join(line + "\n" for line in small[1]))
    victim = data / "victim.txt"     # same file system as every plant: a hard link works
    victim.write_text("another file, never to change\n")
    return db, exported, victim


def _concrete(name: names.Name, base: str) -> str:
    return name.of(base, pid=str(os.getpid()), stamp=STAMP, token=TOKEN)


BESIDE_DATABASE = [n for n in names.NAMES if n.beside == "database"]
BESIDE_FILE = [n for n in names.NAMES if n.beside in ("file", "hardware")]


@pytest.mark.parametrize("kind", PLANTS)
@pytest.mark.parametrize("name", BESIDE_DATABASE, ids=lambda n: n.pattern)
def test_a_name_beside_the_database_cannot_be_turned_against_a_file(ground, tmp_path, name,
                                                                    kind):
    db, exported, victim = ground
    if name is names.DATABASE:   # a new table's first start: the name is free until then
        db = db.with_name("new.sqlite3")
    where = db.parent / _concrete(name, db.name)
    plant(where, kind, victim)
    before_victim = digest(victim)
    before_games = set() if name is names.DATABASE else games(db)
    work = tmp_path / "work"
    work.mkdir()
    for label, run in database_runs(db, work, exported).items():
        attempt(run)
        if digest(victim) != before_victim:
            TALLY["changed"] += 1
        assert digest(victim) == before_victim, f"{label} changed the victim through {where}"
        if before_games:
            assert games(db) == before_games, f"{label} changed the history"


@pytest.mark.parametrize("kind", PLANTS)
@pytest.mark.parametrize("name", BESIDE_FILE, ids=lambda n: n.pattern)
def test_a_name_beside_an_export_or_a_config_cannot_be_turned_against_a_file(ground, tmp_path,
                                                                            name, kind):
    db, _, victim = ground
    out = victim.parent / "out"   # beside the victim, on its file system
    out.mkdir()
    target = out / "settings.json"
    plant(out / _concrete(name, target.name), kind, victim)
    before_victim, before_games = digest(victim), games(db)
    for label, run in file_runs(target).items():
        attempt(run)
        assert digest(victim) == before_victim, f"{label} changed the victim"
    code_said = attempt(lambda: cli("export", "--all", "--db", db, "-o", target, "--force")[1])
    assert digest(victim) == before_victim and games(db) == before_games, code_said
    attempt(lambda: cli("backup", target, "--db", db, "--force")[1])
    assert digest(victim) == before_victim and games(db) == before_games


@pytest.mark.parametrize("kind", PLANTS)
@pytest.mark.parametrize("name", [n for n in names.NAMES if n.beside == "stick"],
                         ids=lambda n: n.pattern)
def test_a_name_on_a_stick_cannot_be_turned_against_a_file(ground, tmp_path, name, kind):
    import datetime as dt

    from companion.history.usb import FOLDER, export, file_stem
    from companion.store import Store

    db, _, victim = ground
    stick = victim.parent / "stick"
    stick.mkdir()
    with Store(db, readonly=True) as store:
        device = store.device_id
        if name is names.STICK_FOLDER:
            plant(stick / FOLDER, kind, victim)
        else:
            (stick / FOLDER).mkdir()
            stem = file_stem(dt.date.today(), device)
            for ending in (".jsonl", ".csv"):
                plant(stick / FOLDER / f"{stem}{ending}", kind, victim)
        before = digest(victim)
        attempt(lambda: str(export(store.conn, stick, device) and ""))
    assert digest(victim) == before


def test_every_name_of_the_registry_is_planted_here():
    tried = {n.beside for n in names.NAMES}
    assert tried <= {"database", "file", "hardware", "stick"}, tried


@pytest.fixture(scope="module", autouse=True)
def _figures():
    yield
    report("files, round 3", f"hostile folder: {len(names.NAMES)} names of the registry x "
                             f"{len(PLANTS)} plants ({TALLY['plants']} planted), {TALLY['runs']}"
                             f" runs, files changed {TALLY['changed']}, tracebacks "
                             f"{TALLY['tracebacks']}")
