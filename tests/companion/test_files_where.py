"""Where a path really is, and whose database it is (docs/security.md, "Files and sticks"):
every command's path argument is judged the same however it is spelled (absolute, relative to
the current folder, through ``..``), by every folder from ``/`` down to where it really is; a
folder swapped for a link after the walk changes nothing (SQLite is handed the folder held,
not the spelling); another user's database (root's commands too) is refused in one line that
says who may run the command and how, and nothing is made beside it; a refused side file is
named with what it holds and kept, never advised away."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

from companion.cli.main import main
from tests.companion.store_faults import NOBODY, as_nobody, run_main
from tests.support.figures import report

TOPIC = "files: where a path is"
pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="another user's files need root")


def cli(*args: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def listing(folder: Path) -> dict[str, bytes | None]:
    """Every name under ``folder`` with its bytes (None for what is not a regular file)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        found[str(path.relative_to(folder))] = (path.read_bytes() if path.is_file()
                                                and not path.is_symlink() else None)
    return found


@contextlib.contextmanager
def home(small, data_owner: int, db_owner: int) -> Iterator[Path]:
    """``BASE/home/pi/data/c.sqlite3``: ``pi`` is another user's (nobody's) folder, ``data``
    and the database belong to the users given; every folder above reachable by nobody."""
    base = Path(tempfile.mkdtemp(prefix="companion-where-"))
    try:
        base.chmod(0o755)
        pi = base / "home" / "pi"
        pi.mkdir(parents=True)
        (base / "home").chmod(0o755)
        data = pi / "data"
        data.mkdir(mode=0o700)
        db = data / "c.sqlite3"
        shutil.copyfile(small[0], db)
        os.chown(db, db_owner, db_owner)
        os.chown(data, data_owner, data_owner)
        os.chown(pi, NOBODY, NOBODY)
        pi.chmod(0o700)
        yield db
    finally:
        shutil.rmtree(base, ignore_errors=True)


def prepare(small, tmp: Path) -> None:
    """What the commands read: a backup to restore, a file to import, a script to replay."""
    shutil.copyfile(small[0], tmp / "source.sqlite3")
    shutil.copyfile(small[1], tmp / "all.jsonl") if isinstance(small[1], (str, Path)) else \
        (tmp / "all.jsonl").write_text("".join(line + "\n" for line in small[1]))
    (tmp / "game.jsonl").write_text('{"game": "witchs_brew", "players": ["Ann", "Bo", "Cy"]}\n')


def commands(db: str, tmp: Path) -> dict[str, list[str]]:
    """Every command that takes the game database, with it spelled ``db``."""
    script = tmp / "game.jsonl"
    return {
        "check": ["check", "--db", db],
        "check --repair": ["check", "--repair", "--db", db],
        "history": ["history", "--db", db],
        "stats": ["stats", "--db", db],
        "export --all": ["export", "--all", "--db", db],
        "export --log": ["export", "--log", "1", "--db", db],
        "backup": ["backup", str(tmp / "b.sqlite3"), "--force", "--db", db],
        "restore": ["restore", str(tmp / "source.sqlite3"), "--db", db],
        "import": ["import", str(tmp / "all.jsonl"), "--db", db],
        "replay --db": ["replay", str(script), "--db", db],
    }


def spellings(db: Path) -> dict[str, tuple[Path, str]]:
    """(the current folder, the database as typed there)."""
    return {"absolute": (Path("/"), str(db)), "relative": (db.parent, db.name),
            "dot": (db.parent, f"./{db.name}"),
            "below": (db.parent.parent, f"{db.parent.name}/{db.name}"),
            "up and down": (db.parent, f"../{db.parent.name}/./{db.name}")}


WRITERS = ("check --repair", "restore", "import", "replay --db")


@pytest.mark.parametrize("command", list(commands("DB", Path("/nonexistent"))))
def test_every_command_judges_the_database_where_it_is_however_it_is_spelled(
        small, tmp_path, monkeypatch, command):
    """Root's own folder inside another user's home: a writer is refused in every spelling
    (the folder above the current one is judged too), naming the user and the command to run
    as them; a reader, which makes nothing there, answers the same in every spelling."""
    prepare(small, tmp_path)
    with home(small, data_owner=0, db_owner=0) as db:
        said = {}
        for spelling, (cwd, typed) in spellings(db).items():
            before = listing(db.parent)
            monkeypatch.chdir(cwd)
            code, out, err = cli(*commands(typed, tmp_path)[command])
            said[spelling] = (code, err.replace(typed, "DB"))
            assert "Traceback" not in err and len(err.strip().splitlines()) <= 1, err
            if command in WRITERS:
                assert code == 2, (spelling, out, err)
                assert "which belongs to nobody" in err and \
                    "run it as its owner: sudo -u nobody companion " in err, err
                assert err.rstrip().endswith(" ".join(commands(typed, tmp_path)[command])), err
                assert listing(db.parent) == before, spelling
        assert len(set(said.values())) == 1, said
    report(TOPIC, f"{command}: the same answer in {len(said)} spellings")


@pytest.mark.parametrize("command", WRITERS)
def test_a_folder_swapped_for_a_link_after_the_walk_never_sends_sqlite_there(
        small, tmp_path, monkeypatch, command):
    """The folder on the database's path is swapped for a link to another folder just after
    the companion walked it: SQLite writes only in the folder that was walked."""
    from companion.files import walk

    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    db = data / "c.sqlite3"
    shutil.copyfile(small[0], db)
    decoy = tmp_path / "decoy"
    decoy.mkdir(mode=0o700)
    prepare(small, tmp_path)
    argv = commands(str(db), tmp_path)[command]
    real_of = walk.Place.of.__func__
    swapped = []

    def of(cls, path, **kwargs):
        place = real_of(cls, path, **kwargs)
        if not swapped and os.fspath(path) == str(db):   # another process swaps it now
            data.rename(tmp_path / "data.real")
            data.symlink_to(decoy)
            swapped.append(path)
        return place

    monkeypatch.setattr(walk.Place, "of", classmethod(of))
    code, out, err = cli(*argv)
    assert swapped and listing(decoy) == {}, (out, err)
    assert "Traceback" not in err


@contextlib.contextmanager
def owned_by_nobody(small, *, wal: bool = False) -> Iterator[Path]:
    with home(small, data_owner=NOBODY, db_owner=NOBODY) as db:
        if wal:   # the owner's table is playing (or was stopped): its -wal holds steps
            conn = sqlite3.connect(db)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA wal_autocheckpoint = 0")
            conn.execute("UPDATE meta SET value = value WHERE key = 'device_id'")
            shutil.copyfile(db.parent / "c.sqlite3-wal", db.parent / "kept-wal")
            os.chown(db.parent / "kept-wal", NOBODY, NOBODY)
            conn.close()
            (db.parent / "kept-wal").rename(db.parent / "c.sqlite3-wal")
            for path in db.parent.iterdir():
                os.chown(path, NOBODY, NOBODY)
        yield db


READERS = ("check", "history", "stats", "export --all", "export --log", "backup")


@pytest.mark.parametrize("wal", [False, True], ids=["closed", "with its -wal"])
def test_root_refuses_another_users_database_in_one_line_and_leaves_nothing(
        small, tmp_path, wal):
    """Every command, read-only or not, run by root on nobody's database: one line saying
    whose it is and the command to run as them; no -wal, -shm or anything made beside it, and
    a -wal there is kept. The advice, run as it says, works."""
    prepare(small, tmp_path)
    with owned_by_nobody(small, wal=wal) as db:
        before = listing(db.parent)
        for command, argv in commands(str(db), tmp_path).items():
            code, out, err = cli(*argv)
            assert code == 2 and len(err.strip().splitlines()) == 1, (command, out, err)
            assert "belongs to nobody" in err and "remove" not in err, err
            assert err.rstrip().endswith("run it as its owner: sudo -u nobody companion "
                                         + " ".join(argv)), err
            assert listing(db.parent) == before, command
        for command in ("history", "check"):   # the advice, run as nobody
            code, out, err = as_nobody(run_main(*commands(str(db), tmp_path)[command]))
            assert code == 0 and err == "", (command, out, err)
    report(TOPIC, f"root on another user's database ({'with' if wal else 'without'} its "
                  f"-wal): {len(commands('x', tmp_path))} commands refused in one line, 0 files "
                  "made beside it; the advice run as the owner: history and check answer")


@pytest.mark.parametrize("side", ["-wal", "-journal", "-shm"])
@pytest.mark.parametrize("kind", ["another user's", "hard link", "symlink", "fifo"])
def test_a_refused_side_file_is_named_with_what_it_holds_and_never_advised_away(
        small, tmp_path, side, kind):
    db = tmp_path / "c.sqlite3"
    shutil.copyfile(small[0], db)
    path = tmp_path / f"c.sqlite3{side}"
    if kind == "another user's" or kind == "hard link":
        path.write_bytes(bytes(range(256)) * 40)
        if kind == "another user's":
            os.chown(path, NOBODY, NOBODY)
        else:
            os.link(path, tmp_path / "elsewhere")
    elif kind == "symlink":
        path.symlink_to(tmp_path / "elsewhere")
    else:
        os.mkfifo(path)
    before = listing(tmp_path)
    for argv in (["history", "--db", db], ["check", "--db", db], ["check", "--repair", "--db", db]):
        code, out, err = cli(*argv)
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert "remove" not in err and "it was kept" in err, err
        assert f"c.sqlite3{side}" in err, err
        if kind in ("another user's", "hard link") and side != "-shm":
            assert "holds" in err, err
    assert listing(tmp_path) == before
