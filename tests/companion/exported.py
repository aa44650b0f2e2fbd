"""Exported histories for the import and file tests (test_history_import*.py, test_files_*.py,
test_hostile_files.py): the companion's commands in-process, an export of a database, and what
a database holds, read without writing: every play, every row."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from companion.cli.main import main
from companion.history.plays import read_plays
from companion.store import Store

TABLES = ("games", "players", "steps", "events", "results", "clocks", "profiles")


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def plays_of(db: Path) -> list[dict[str, Any]]:
    """Every play as JSON keeps it, without the row numbers a database gives."""
    with Store(db, readonly=True) as store:
        return [{k: v for k, v in p.as_dict().items() if k != "id"}
                for p in read_plays(store.conn, unfinished=True)]


def rows_of(db: Path) -> dict[str, list[tuple]]:
    with Store(db, readonly=True) as store:
        return {t: store.conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                for t in TABLES}


def export(db: Path, out: Path, fmt: str = "jsonl") -> list[str]:
    code, _, err = cli("export", "--all", "--include-unfinished", "--format", fmt, "--db", db,
                       "-o", out)
    assert code == 0, err
    return out.read_text(encoding="utf-8").splitlines()



def write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path
