"""Plays to a USB stick (companion/history/usb.py): the mount points found in /proc/mounts-like
text over a fake tree, the files an export writes (which ``companion import`` takes into an
empty database as the same plays, and a csv a sheet reads), a second export the same day under
its own name, and a stick that cannot be written: a clear reason, no file under a final name."""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
from pathlib import Path

import pytest

from companion.history.merge import merge, read_records
from companion.history.plays import read_plays
from companion.history.usb import (
    FOLDER, StickError, export, file_stem, free_stem, said, sticks,
)
from companion.store import Store
from tests.support.history import build_history

DAY = dt.date(2026, 11, 30)


def test_the_mount_points_below_the_roots_are_the_sticks(tmp_path):
    media, run_media = tmp_path / "media", tmp_path / "run" / "media"
    for folder in ("usb", "anna/KINGSTON", "anna/My Stick", "locked", "deep/a/b"):
        (media / folder).mkdir(parents=True)
    (run_media / "pi" / "SANDISK").mkdir(parents=True)
    mounts = "\n".join([
        "/dev/mmcblk0p2 / ext4 rw,noatime 0 0",
        f"/dev/sda1 {media}/usb vfat rw,relatime,uid=1001 0 0",
        f"/dev/sdb1 {media}/anna/KINGSTON exfat rw 0 0",
        f"/dev/sdc1 {media}/anna/My\\040Stick vfat rw 0 0",          # a space, as the kernel writes it
        f"/dev/sdd1 {media}/locked vfat ro,relatime 0 0",
        f"/dev/sde1 {media}/deep/a/b vfat rw 0 0",                    # three below: not a stick
        f"/dev/sdf1 {media}/pulled vfat rw 0 0",                      # its folder is gone
        f"systemd-1 {media}/auto autofs rw 0 0",                      # not opened yet
        f"/dev/sdg1 {run_media}/pi/SANDISK vfat rw 0 0",
        f"/dev/sda1 {media}/usb vfat rw,relatime,uid=1001 0 0",       # mounted twice: once
        f"tmpfs {tmp_path}/elsewhere tmpfs rw 0 0",
        "",
    ])
    found = sticks(mounts, [media, run_media])
    assert [s.path for s in found] == [media / "usb", media / "anna/KINGSTON",
                                       media / "anna/My Stick", media / "locked",
                                       run_media / "pi/SANDISK"]
    assert [s.writable for s in found] == [True, True, True, False, True]
    assert sticks("", [media]) == [] and sticks("garbage\n", [media]) == []


def test_names_carry_the_date_and_device_and_never_overwrite(tmp_path):
    assert file_stem(DAY, "ab12cd34-0000") == "plays-2026-11-30-ab12"
    assert file_stem(DAY, "") == "plays-2026-11-30-table"
    assert free_stem(tmp_path, "plays") == "plays"
    (tmp_path / "plays.csv").write_text("")
    assert free_stem(tmp_path, "plays") == "plays-2"
    (tmp_path / "plays-2.jsonl").write_text("")
    assert free_stem(tmp_path, "plays") == "plays-3"


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    path = tmp_path_factory.mktemp("usb") / "table.sqlite3"
    with Store(path) as store:
        store.conn.execute("PRAGMA synchronous = OFF")
        build_history(store, {"witchs_brew": 4, "cauldron": 2, "quest": 3}, unfinished=2,
                      seed=3)
    return path


def test_the_export_is_what_another_tables_import_takes(table, tmp_path):
    stick = tmp_path / "stick"
    stick.mkdir()
    with Store(table, readonly=True) as store:
        written = export(store.conn, stick, store.device_id, DAY)
        want = [{k: v for k, v in p.as_dict().items() if k != "id"}
                for p in read_plays(store.conn)]
        short = store.device_id.replace("-", "")[:4]
    assert written.games == 9 == len(want)
    assert written.jsonl == stick / FOLDER / f"plays-2026-11-30-{short}.jsonl"
    assert written.csv == written.jsonl.with_suffix(".csv")
    assert sorted(os.listdir(stick / FOLDER)) == sorted([written.jsonl.name, written.csv.name])
    assert said(written) == (f"9 games to {written.jsonl} (and {written.csv.name} for "
                             "spreadsheets)")
    rows = list(csv.DictReader(io.StringIO(written.csv.read_text(encoding="utf-8"))))
    assert {r["uuid"] for r in rows} == {p["uuid"] for p in want}
    assert len(rows) == sum(len(p["players"]) for p in want)

    with Store(tmp_path / "other.sqlite3") as other:
        lines = written.jsonl.read_text(encoding="utf-8").splitlines()
        merged = merge(other.conn, read_records(lines))
        assert (merged.added, merged.already, merged.conflicts) == (9, 0, ())
        got = [{k: v for k, v in p.as_dict().items() if k != "id"}
               for p in read_plays(other.conn)]
    assert sorted(got, key=lambda p: p["uuid"]) == sorted(want, key=lambda p: p["uuid"])

    with Store(table, readonly=True) as store:          # the same day again: its own name
        again = export(store.conn, stick, store.device_id, DAY)
    assert again.jsonl.name == f"plays-2026-11-30-{short}-2.jsonl"
    assert written.jsonl.read_bytes() == again.jsonl.read_bytes()


def test_a_stick_that_cannot_be_written_says_why_and_leaves_no_file(table, tmp_path,
                                                                    monkeypatch):
    with Store(table, readonly=True) as store:
        with pytest.raises(StickError, match="not there any more.*nothing was written"):
            export(store.conn, tmp_path / "pulled", store.device_id, DAY)
        locked = tmp_path / "locked"
        (locked / FOLDER).mkdir(parents=True)
        real = os.open

        def read_only(path, flags, *args, **kw):  # a stick mounted ro (root may write any folder)
            if flags & (os.O_WRONLY | os.O_RDWR):
                raise OSError(30, "Read-only file system")
            return real(path, flags, *args, **kw)

        monkeypatch.setattr(os, "open", read_only)
        with pytest.raises(StickError, match=r"locked/table-companion: the stick is read-only"):
            export(store.conn, locked, store.device_id, DAY)
    assert os.listdir(locked / FOLDER) == []


def test_a_stick_that_fails_mid_write_leaves_nothing_under_a_final_name(table, tmp_path,
                                                                        monkeypatch):
    stick = tmp_path / "stick"
    stick.mkdir()
    real = os.link   # a new file takes its free name by a hard link (companion/files/write.py)
    calls = []

    def full_on_the_second(src, dst, **kw):
        calls.append(Path(dst).name)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real(src, dst, **kw)

    monkeypatch.setattr(os, "link", full_on_the_second)
    with Store(table, readonly=True) as store:
        with pytest.raises(StickError, match="the stick is full; nothing was written"):
            export(store.conn, stick, store.device_id, DAY)
    assert len(calls) == 2 and os.listdir(stick / FOLDER) == []
