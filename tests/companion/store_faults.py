"""What the store's fault tests share (test_store_full.py, test_store_protected.py,
test_store_faults.py): a database holding a game, what a fault may leave beside it, the
companion in its own process or in a child that dropped root, a tmpfs card. Each fault is provoked for real: see those modules."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from companion.store.check import check
from companion.cli.main import build_parser, main
from companion.games import get_rules
from companion.store import Store
from tests.support.autoplay import next_command

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


def stored_game(db: Path, steps: int, seed: int = 1) -> tuple[int, list[dict[str, Any]]]:
    """A database holding one more game of ``steps`` steps, closed: the game's id and the
    commands it acknowledged (taken from the session: reading the file back would leave a -wal
    and a -shm beside it, and a folder holding those lets SQLite write in it)."""
    with Store(db) as store:
        session = store.new_game(RULES, SETUP)
        rng = random.Random(seed)
        for _ in range(steps):
            session.execute(next_command(session, rng))
        return session.game_id, [s.command.to_dict() for s in session.steps]


def done_commands(db: Path, game_id: int) -> list[dict[str, Any]]:
    """The commands of a game's done steps, read without writing."""
    with Store(db, readonly=True) as store:
        return [s.command.to_dict() for s in store.open_session(game_id).done_steps()]


def assert_sound(db: Path) -> None:
    """SQLite's integrity check and every game's fold: nothing found."""
    with Store(db, readonly=True) as store:
        assert check(store.conn) == []


def copies_aside(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if ".unreadable" in p.name]


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def companion_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m companion ARGS`` in its own process."""
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, cwd=ROOT, env=ENV, timeout=60)


def mount_card(folder: Path, options: str) -> bool:
    """A tmpfs card at ``folder``; False where this run may not mount one (not root)."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                          capture_output=True)
    return done.returncode == 0


def unmount_card(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def as_nobody(work: Callable[[], Any]) -> Any:
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


def run_main(*args: str) -> Callable[[], Any]:
    def work() -> Any:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
        return [code, out.getvalue(), err.getvalue()]
    return work
