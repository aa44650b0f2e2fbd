"""What the store's opening tests share (test_store_open.py, test_store_readers.py,
test_store_clean_close.py): a database holding one game, a folder's files as an opening leaves
them, and the environment a child process runs the companion in."""

from __future__ import annotations

import os
from pathlib import Path

from companion.games import get_rules
from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]
RULES = get_rules("witchs_brew")
FIVE = {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Daniel", "Emma"]}
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def stored(db: Path) -> bytes:
    """A database holding one game, closed; its bytes."""
    with Store(db) as store:
        store.new_game(RULES, FIVE)
    return db.read_bytes()


def files_in(folder: Path) -> list[str]:
    """The folder's files, but the clean-close mark: any opening takes it away (a start that
    fails only checks the whole file next time)."""
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(".clean"))

