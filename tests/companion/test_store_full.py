"""The store on a full card, for real: a tmpfs card that fills up (and SQLite's own page limit,
a genuine SQLITE_FULL where no mount is possible). Opening is refused in words and moves
nothing, a game played until the card is full loses no acknowledged step and plays on once
there is space, a new game is refused in words. The tally is printed under "figures: store
faults"."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.store.check import check
from companion.core import StoreError
from companion.store import Store
from tests.companion.store_faults import (
    FULL, RULES, SETUP, TOPIC, assert_sound, companion_cli, copies_aside, done_commands,
    files_in, mount_card, stored_game, unmount_card,
)
from tests.support.autoplay import next_command
from tests.support.figures import report


@pytest.fixture
def card(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs card, unmounted after the test; skipped where none can be mounted."""
    folder = tmp_path / "card"
    if not mount_card(folder, "size=2m,mode=0755"):
        pytest.skip("mounting a tmpfs needs root (CI and the dev box run the tests as root)")
    try:
        yield folder
    finally:
        unmount_card(folder)


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


@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing"])
def test_opening_on_a_full_card_is_refused_in_words_and_moves_nothing(card, existing):
    """Three tries with 0, 4 and 16 KiB free each: every one refused with the full-card
    words, the file's bytes kept, no copy made, and no file added by a retry."""
    db = card / "c.sqlite3"
    game = stored_game(db, 12)[0] if existing else None
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
            listings.append(files_in(card))
            assert not copies_aside(card)
            if existing:
                assert db.read_bytes() == before
        assert listings[0] == listings[1] == listings[2], "a retry left a file behind"
        filler.unlink()
    with Store(db) as store:  # space again: the companion opens and plays on
        assert store.notice is None
        session = store.open_session(game) if existing else store.new_game(RULES, SETUP)
        session.execute(next_command(session, random.Random(5)))
    assert_sound(db)
    report(TOPIC, f"full card, {'existing' if existing else 'new'} database (tmpfs 2 MiB, "
                  f"0/4/16 KiB free): {refused} of {tries} opens refused in the full-card "
                  "words, 0 files moved or copied, 0 left behind by retries")


@pytest.mark.parametrize("how", ["card", "page-limit"])
def test_playing_until_the_card_is_full(tmp_path, how):
    """Every press on the full card is refused in words and not applied; once space is freed
    the very same press works, and every acknowledged step is in the file."""
    if how == "card":
        folder = tmp_path / "card"
        if not mount_card(folder, "size=2m,mode=0755"):
            pytest.skip("mounting a tmpfs needs root; the page-limit case still runs")
    else:
        folder = tmp_path
    try:
        _play_until_full(folder / "c.sqlite3", how)
    finally:
        if how == "card":
            unmount_card(folder)


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
    stored = done_commands(db, session.game_id)
    lost = sum(1 for c in acknowledged if c not in stored)
    assert stored == acknowledged and not copies_aside(db.parent)
    assert_sound(db)
    assert companion_cli("check", "--db", str(db)).returncode == 0
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
