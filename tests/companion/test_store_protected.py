"""The store on a write-protected file, folder and card, for real (opened by an unprivileged
child, since root ignores permission bits): the writer is refused in words before anything is
written, history and export still read, and the game plays on once writable again. The tally
is printed under "figures: store faults"."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.core import StoreError
from companion.store import Store
from tests.companion.store_faults import (
    NOBODY, READ_ONLY, TOPIC, as_nobody, assert_sound, copies_aside, done_commands, files_in,
    mount_card, run_main, stored_game, unmount_card,
)
from tests.support.autoplay import next_command
from tests.support.figures import report


def _open_writer(db: Path) -> Callable[[], Any]:
    def work() -> Any:
        try:
            with Store(db) as store:
                return {"opened": len(store.games())}
        except StoreError as problem:
            return {"refused": str(problem)}
    return work


@pytest.mark.parametrize("what", ["file", "folder", "card"])
def test_a_write_protected_database_is_refused_in_words_and_still_read(what):
    """The writer is refused before anything is written; history and export still work for
    the same user; once writable again, the game plays on."""
    folder = Path(tempfile.mkdtemp(prefix="companion-faults-"))
    folder.chmod(0o755)  # the unprivileged user must reach it; tmp_path's parents are 0700
    mounted = what == "card" and mount_card(folder, "size=4m,mode=0755")
    if what == "card" and not mounted:
        shutil.rmtree(folder)
        pytest.skip("remounting a card read-only needs root")
    db = folder / "c.sqlite3"
    try:
        game, acknowledged = stored_game(db, 15)
        for path in [folder, *folder.iterdir()]:
            if os.geteuid() == 0 and what != "card":   # root runs the card's own steps
                os.chown(path, NOBODY, NOBODY)
        run = as_nobody
        if what == "file":
            db.chmod(0o444)
        elif what == "folder":
            folder.chmod(0o555)
        else:  # the whole card write-protected: root is refused too
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
            run = lambda work: work()  # noqa: E731
        before, listing = db.read_bytes(), files_in(folder)
        result = run(_open_writer(db))
        assert "refused" in result, result
        assert READ_ONLY in result["refused"] and "left as it was" in result["refused"]
        assert db.read_bytes() == before and files_in(folder) == listing
        code, out, err = run(run_main("history", "--db", str(db)))
        assert (code, err) == (0, "") and "Witch's Brew" in out and "15 steps" in out
        code, out, err = run(run_main("export", "--log", str(game), "--db", str(db)))
        assert (code, err) == (0, "") and len(out.splitlines()) == 16
        assert db.read_bytes() == before and not copies_aside(folder)
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
        stored = done_commands(db, game)
        lost = len(acknowledged) - len(stored[:15])
        assert stored[:15] == acknowledged and len(stored) == 16
        assert_sound(db)
    finally:
        if mounted:
            unmount_card(folder)
        shutil.rmtree(folder, ignore_errors=True)
    report(TOPIC, f"write-protected {what} ({'as root' if what == 'card' else 'as nobody'}): "
                  "1 writer refused in the read-only words before writing, history and export "
                  f"read all 15 steps, 0 files moved; {len(acknowledged)} steps acknowledged, "
                  f"{lost} lost, the game played on once writable")
