"""The History screen's "To USB stick" over a fake tree of mount points: without a
stick a tap says so; with one the export runs on a thread with the button disabled, then says
what it wrote, and the file is one another table's import takes; a read-only stick is named.
Shot at 800x480 and 1280x720 (and portrait) with zero layout findings."""

from __future__ import annotations

import shutil

import pytest
from kivy.app import App
from ui_helpers import both_sizes, button, frames, resize, tall_shot, tap, wait_for

from companion.history.merge import merge, read_records
from companion.history.plays import read_plays
from companion.history.usb import FOLDER
from companion.store import Store

COUNTS = {"witchs_brew": 5, "cauldron": 3, "quest": 4}


@pytest.fixture(scope="module")
def built(histories):
    return histories.get(COUNTS, unfinished=1, seed=11)[0]


@pytest.fixture
def tree(app, built, tmp_path):
    """The app on a copy of the history; sticks are looked for under tmp_path/media, in a
    mount table the test writes."""
    copy = tmp_path / "history.sqlite3"
    shutil.copyfile(built, copy)
    app.open_store(copy)
    screen = app.screens.get_screen("history")
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/mmcblk0p2 / ext4 rw 0 0\n")
    screen.stick_roots, screen.mounts_file = [tmp_path / "media"], str(mounts)
    yield screen, tmp_path, mounts
    del screen.stick_roots, screen.mounts_file
    resize(800, 480)


def open_history(app) -> None:
    app.go_home()
    frames()
    tap(button("History"))
    assert app.screens.current == "history"


def test_no_stick_says_so_and_a_tap_looks_again(tree):
    screen, tmp_path, mounts = tree
    app = App.get_running_app()
    open_history(app)
    assert screen.stick == "" and screen.usb_said.startswith("No USB stick mounted")
    tap(button("Look for a stick"))                         # it says what it does
    assert screen.usb_said.startswith("Not exported: no USB stick is mounted")
    assert "docs/" not in screen.usb_said                   # no developer's file to a player
    (tmp_path / "media" / "usb").mkdir(parents=True)      # plugged in while on the screen
    mounts.write_text(f"/dev/sda1 {tmp_path}/media/usb vfat rw 0 0\n")
    tap(button("Look for a stick"))
    assert wait_for(lambda: not screen.exporting, timeout=30)
    assert screen.usb_ok and screen.usb_said.startswith("12 games to ")


def test_the_export_writes_what_another_table_imports(tree):
    screen, tmp_path, mounts = tree
    stick = tmp_path / "media" / "usb"
    stick.mkdir(parents=True)
    mounts.write_text(f"/dev/sda1 {stick} vfat rw,relatime 0 0\n")
    app = App.get_running_app()
    open_history(app)
    assert screen.stick == str(stick) and button("To USB stick").disabled is False
    both_sizes("history_usb_ready")
    screen.to_usb()
    assert screen.exporting and screen.ids.usb.disabled          # until the thread reports
    assert screen.ids.usb.title == "Writing..."
    assert wait_for(lambda: not screen.exporting, timeout=30)
    written = sorted((stick / FOLDER).iterdir())
    assert [p.suffix for p in written] == [".csv", ".jsonl"]
    jsonl = written[1]
    assert screen.usb_ok
    assert screen.usb_said == (f"12 games to {jsonl} (and {written[0].name} for "
                               "spreadsheets)")
    assert jsonl.name.startswith("plays-") and app.store.device_id.replace("-", "")[:4] in \
        jsonl.name
    both_sizes("history_usb_written")
    resize(720, 1280)
    tall_shot("history_usb_written_portrait")
    resize(800, 480)

    with Store(tmp_path / "other.sqlite3") as other:
        merged = merge(other.conn, read_records(jsonl.read_text(encoding="utf-8").splitlines()))
        assert merged.added == 12 and not merged.conflicts
        got = sorted(p.uuid for p in read_plays(other.conn))
    assert got == sorted(p.uuid for p in read_plays(app.store.conn))

    screen.to_usb()                                               # again: its own name
    assert wait_for(lambda: not screen.exporting, timeout=30)
    assert len(list((stick / FOLDER).iterdir())) == 4


def test_a_read_only_stick_is_named_and_nothing_is_written(tree):
    screen, tmp_path, mounts = tree
    stick = tmp_path / "media" / "locked"
    stick.mkdir(parents=True)
    mounts.write_text(f"/dev/sda1 {stick} vfat ro,relatime 0 0\n")
    open_history(App.get_running_app())
    tap(button("To USB stick"))
    assert not screen.exporting and not screen.usb_ok
    assert screen.usb_said == (f"Not exported: the stick at {stick} is read-only (is its lock "
                               "switch on?).")
    assert list(stick.iterdir()) == []
    both_sizes("history_usb_read_only")
