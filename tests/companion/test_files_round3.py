"""The files' third round of probes, each as the class it is an example of (docs/security.md,
"Files and sticks"): a planted lock, clean mark or swapped folder never turns a write against another file;
a file that declares one schema and holds another, a uuid in another spelling or a number no
float holds is refused naming the line and field; the configs' one reader; a killed restore's
leftovers; a full card under ``replay --db``; ``-o /dev/stdout``. Each test fails on the code
before this round."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import tomllib
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.core.errors import StoreError
from companion.store import Store
from tests.companion.exported import cli
from tests.support.figures import report

TOPIC = "files, round 3"


@contextmanager
def deadline(seconds: int):
    """A hang guard (not a timing: what it guards would otherwise run for hours)."""
    def stop(*_):
        raise AssertionError(f"still running after {seconds} s: a hang")
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def one_line(err: str) -> None:
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 1, err


@pytest.fixture
def table(small, tmp_path):
    """A copy of the small history as the table's database, in a folder of its own."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    db = data / "c.sqlite3"
    shutil.copyfile(small[0], db)
    return db


# -- the lock, the clean mark, a swapped folder ------------------------------------------------
@pytest.mark.parametrize("plant", ["symlink", "hardlink"])
def test_a_lock_planted_on_a_stick_never_truncates_the_file_it_names(table, tmp_path, plant):
    stick = tmp_path / "stick"
    stick.mkdir()
    backup = stick / "backup.sqlite3"
    shutil.copyfile(table, backup)
    conn = sqlite3.connect(backup)
    conn.execute("CREATE TRIGGER planted AFTER UPDATE ON games BEGIN SELECT 1; END")
    conn.close()
    lock = stick / "backup.sqlite3.lock"
    (lock.symlink_to if plant == "symlink" else lock.hardlink_to)(table)
    before = table.read_bytes()
    code, out, err = cli("restore", backup, "--db", table)     # refused: it carries a trigger
    assert code == 2 and "check --repair" in err
    code, out, err = cli("check", "--repair", "--db", backup)   # the advice, run
    one_line(err)
    assert code == 2 and "lock" in err and "refused" in err
    assert table.read_bytes() == before


def test_a_clean_close_never_writes_through_a_planted_link(table, tmp_path, monkeypatch):
    from companion.files import names

    victim = tmp_path / "victim.txt"
    victim.write_text("another user's file\n")
    tokens = iter(["feedface", "0badf00d"])
    monkeypatch.setattr(names, "token", lambda: next(tokens, "c0ffee00"))
    store = Store(table)
    for planted in (f"{table}.clean.{os.getpid()}", f"{table}.clean.{os.getpid() + 1}",
                    str(table.parent / names.CLEAN_TEMP.of(table.name))):
        os.symlink(victim, planted)
    store.close()
    assert victim.read_text() == "another user's file\n"
    mark = table.parent / names.CLEAN.of(table.name)
    assert mark.is_file() and not mark.is_symlink()
    with Store(table) as again:           # the mark is trusted: the next start reads it
        assert again.notice is None and again.count() == 7


def test_a_folder_swapped_after_the_check_cannot_send_an_export_onto_the_database(
        table, tmp_path, monkeypatch):
    import companion.files.write as writer

    out = tmp_path / "out"
    out.mkdir()
    (out / table.name).write_text("an old export\n")
    checked = writer._refuse_protected

    def then_swapped(*args, **kwargs):   # another user swaps the folder for a link meanwhile
        checked(*args, **kwargs)
        out.rename(tmp_path / "out.real")
        out.symlink_to(table.parent)

    monkeypatch.setattr(writer, "_refuse_protected", then_swapped)
    before = table.read_bytes()
    code, _, err = cli("export", "--all", "--force", "-o", out / table.name, "--db", table)
    assert table.read_bytes() == before
    assert code == 0, err   # written where the check was made: the folder held open
    assert (tmp_path / "out.real" / table.name).read_text().startswith("{")


def test_the_database_family_is_known_by_its_folder_whatever_path_names_it(table, tmp_path):
    alias = tmp_path / "alias"
    alias.symlink_to(table.parent)
    code, _, err = cli("export", "--all", "-o", alias / f"{table.name}-wal", "--db", table)
    assert code == 2 and "link" in err
    view = tmp_path / "view"
    view.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "--bind", str(table.parent), str(view)],
                                           capture_output=True).returncode:
        pytest.skip("a bind mount needs root")
    try:
        for name in (f"{table.name}-wal", f"{table.name}-shm", f"{table.name}.clean"):
            code, _, err = cli("export", "--all", "-o", view / name, "--db", table)
            one_line(err)
            assert code == 2 and "game database" in err
            there = table.parent / name
            assert not there.exists() or b'"uuid"' not in there.read_bytes()
    finally:
        subprocess.run(["umount", "-l", str(view)], capture_output=True)


# -- what a file declares against what it holds ------------------------------------------------
def _lying(table: Path, tmp_path: Path, version: int) -> Path:
    liar = tmp_path / f"liar-{version}.sqlite3"
    shutil.copyfile(table, liar)
    conn = sqlite3.connect(liar)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.close()
    return liar


@pytest.mark.parametrize("version", [0, 2, 4])
def test_a_file_whose_schema_is_not_its_tables_is_refused_everywhere(table, tmp_path, version):
    liar = _lying(table, tmp_path, version)
    before = table.read_bytes()
    code, _, err = cli("restore", liar, "--db", table)
    one_line(err)
    assert code == 2 and f"declares schema {version}" in err and table.read_bytes() == before
    with pytest.raises(StoreError, match=f"declares schema {version}"):
        Store(liar)                         # the app's start: words, never a KeyError
    code, _, err = cli("check", "--db", liar)
    assert code == 1 and f"declares schema {version}" in err
    code, _, err = cli("history", "--db", liar)
    assert code == 2 and f"declares schema {version}" in err


# -- identities and numbers ---------------------------------------------------------------------
def _game_with_two_profiles(small) -> dict:
    for line in small[1]:
        record = json.loads(line)
        if sum(1 for s in record["stored"]["seats"] if s["profile"]) >= 2:
            return record
    raise AssertionError("no game with two profiles")


@pytest.mark.parametrize("spell", [str.upper, lambda u: "{" + u + "}", lambda u: "urn:uuid:" + u])
def test_one_profile_in_two_seats_is_refused_however_its_uuid_is_spelled(small, tmp_path, spell):
    record = _game_with_two_profiles(small)
    seats = record["stored"]["seats"]
    seats[1]["profile"] = {**seats[0]["profile"], "uuid": spell(seats[0]["profile"]["uuid"])}
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps(record) + "\n")
    code, _, err = cli("import", path, "--db", tmp_path / "new.sqlite3")
    one_line(err)
    assert code == 2 and "already sits in seat 0" in err and "line 1" in err


def test_a_uuid_in_another_spelling_is_kept_canonical(small, tmp_path):
    record = _game_with_two_profiles(small)
    for seat in record["stored"]["seats"]:
        if seat["profile"]:
            seat["profile"]["uuid"] = "{" + seat["profile"]["uuid"].upper() + "}"
    record["uuid"] = "urn:uuid:" + record["uuid"].upper()
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps(record) + "\n")
    db = tmp_path / "new.sqlite3"
    code, said, err = cli("import", path, "--db", db)
    assert code == 0 and "1 game(s) added" in said, err
    with Store(db, readonly=True) as store:
        kept = [u for (u,) in store.conn.execute("SELECT uuid FROM profiles")]
        kept += [u for (u,) in store.conn.execute("SELECT uuid FROM games")]
    assert kept and all(u == u.lower() and u.count("-") == 4 and len(u) == 36 for u in kept)


@pytest.mark.parametrize("number", ["1e400", "-1e400", "123456789012345678901234567890"])
def test_a_number_the_record_cannot_keep_is_refused_naming_line_and_field(small, tmp_path,
                                                                          number):
    record = json.loads(small[1][0])
    record["stored"]["clocks"] = {"spent": "NUMBER"}
    path = tmp_path / "inf.jsonl"
    path.write_text(small[1][1] + "\n" + json.dumps(record).replace('"NUMBER"', number) + "\n")
    db = tmp_path / "new.sqlite3"
    code, _, err = cli("import", path, "--db", db)
    one_line(err)
    assert code == 2 and "line 2: stored.clocks.spent:" in err
    assert not db.exists() or "Infinity" not in db.read_bytes().decode("latin-1")
    as_list = tmp_path / "inf.json"
    as_list.write_text("[" + json.dumps(record).replace('"NUMBER"', number) + "]")
    code, _, err = cli("import", as_list, "--db", db)
    assert code == 2 and "game 1 of the list: stored.clocks.spent:" in err


# -- the configs' one reader ----------------------------------------------------------------
def test_hardware_toml_is_read_by_the_one_reader_everywhere(tmp_path):
    from hardware.config import ConfigError, keep_unreadable, parse_toml, read_toml

    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        read_toml(deep)
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    with deadline(10), pytest.raises(ConfigError, match="pipe"):
        read_toml(fifo)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    broken = tmp_path / "hardware.toml"
    broken.write_text("[buttons\n")
    (tmp_path / "hardware.toml.bak").symlink_to(victim)
    with pytest.raises(OSError, match="link"):
        keep_unreadable(broken)
    assert victim.read_text() == "keep me\n"
    key = ".".join(["a"] * 300_000) + " = 1\n"
    started = time.perf_counter()
    with deadline(30), pytest.raises(tomllib.TOMLDecodeError, match="dots"):
        parse_toml(key)
    report(TOPIC, f"a TOML key 300,000 parts deep refused in "
                  f"{(time.perf_counter() - started) * 1000:.0f} ms")


def test_hardware_screen_reads_through_the_one_reader():
    source = Path("ui/screens/hardware_settings.py").read_text()
    assert "tomllib." not in source and "shutil." not in source and "open(path" not in source
    assert "read_toml(" in source and "keep_unreadable(" in source


def test_settings_json_follows_no_link_quotes_nothing_and_takes_a_bom(tmp_path):
    from ui.table.settings import load_settings

    secret = tmp_path / "secret.json"
    secret.write_text('{"password": "hunter2"}')
    link = tmp_path / "settings.json"
    link.symlink_to(secret)
    settings, notice = load_settings(link)
    assert "link" in notice and "hunter2" not in notice and "password" not in notice
    plain = tmp_path / "plain.json"
    plain.write_text('{"password": "hunter2", "volume": "loud"}')
    settings, notice = load_settings(plain)
    assert "hunter2" not in notice and "password" not in notice and "loud" not in notice
    assert "volume must be" in notice and "1 unknown setting" in notice
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + b'{"volume": 25}')
    settings, notice = load_settings(bom)
    assert settings.volume == 25 and notice == ""


# -- a killed restore, a full card, -o /dev/stdout -----------------------------------------
KILLED = """
import os, sys
import companion.history.backup as b
b._keep_aside = lambda *a, **k: os._exit(9)   # killed after the copy, before the swap
b.restore(sys.argv[1], sys.argv[2])
"""


def test_a_killed_restore_leaves_nothing_the_next_start_does_not_remove_and_say(table, tmp_path):
    source = tmp_path / "backup.sqlite3"
    code, _, err = cli("backup", source, "--db", table)
    assert code == 0, err
    before = sorted(p.name for p in table.parent.iterdir())
    done = subprocess.run([sys.executable, "-c", KILLED, str(table), str(source)],
                          capture_output=True, text=True)
    assert done.returncode == 9, done.stderr
    assert sorted(p.name for p in table.parent.iterdir()) != before   # something was left
    with Store(table) as store:
        assert store.notice and "Removed what a restore or backup" in store.notice
        assert store.count() == 7
    left = sorted(p.name for p in table.parent.iterdir())
    assert not [n for n in left if "restor" in n], left


def test_replay_db_on_a_full_card_ends_in_one_line(small, tmp_path):
    card = tmp_path / "card"
    card.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs",
                                            str(card)], capture_output=True).returncode:
        pytest.skip("a tmpfs card needs root")
    try:
        db = card / "c.sqlite3"
        with Store(db):
            pass
        fd = os.open(card / "filler", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        script = tmp_path / "game.jsonl"
        code, _, err = cli("export", "--log", "1", "--db", small[0], "-o", script)
        assert code == 0, err
        past_the_open = 0
        for room in range(0, 40):   # freed 4 KB at a time: the card fills at every moment
            code, _, err = cli("replay", script, "--db", db)
            one_line(err)
            assert code in (1, 2) and "full" in err, err
            past_the_open += "replay stopped there" in err
            os.truncate(card / "filler", max(0, os.path.getsize(card / "filler") - 4096))
        assert past_the_open, "the card never let the database open"
    finally:
        subprocess.run(["umount", "-l", str(card)], capture_output=True)


def test_o_dev_stdout_is_refused_as_a_link_and_dash_writes_standard_output(table):
    code, _, err = cli("export", "--all", "-o", "/dev/stdout", "--db", table)
    one_line(err)
    assert code == 2 and "link" in err and "leave out -o" in err and "--force" not in err
    assert os.path.islink("/dev/stdout")
    code, out, err = cli("export", "--all", "-o", "-", "--db", table)
    assert code == 0 and len(out.splitlines()) == 5, err   # the finished games


def test_a_killed_writers_temporary_is_removed_when_that_name_is_next_written(table, tmp_path):
    import fcntl

    out = tmp_path / "out"
    out.mkdir()
    left = out / ".plays.jsonl.deadbeef.part"      # a writer killed mid-write left it
    left.write_text("half an export")
    busy = out / ".plays.jsonl.0badf00d.part"      # another writer, writing it now
    busy.write_text("being written")
    held = os.open(busy, os.O_RDONLY)
    fcntl.flock(held, fcntl.LOCK_EX)
    try:
        code, _, err = cli("export", "--all", "-o", out / "plays.jsonl", "--db", table)
        assert code == 0, err
        assert not left.exists() and busy.read_text() == "being written"
    finally:
        os.close(held)
    assert sorted(p.name for p in out.iterdir()) == [busy.name, "plays.jsonl"]


def test_a_json_list_is_read_the_same_whatever_the_size_of_the_reads(small, monkeypatch):
    import io

    import companion.history.import_stream as streaming

    games = [json.loads(line) for line in small[1]]
    games[0]["stored"]["seats"][0]["name"] = 'A "quoted" ]}, \\ name [{'
    text = json.dumps(games, indent=1).encode("utf-8")
    for chunk in (1, 2, 3, 7, 64, 4096):
        monkeypatch.setattr(streaming, "CHUNK", chunk)
        read = [value for _, value in streaming.stream_records(io.BytesIO(text))]
        assert read == games, chunk


def test_a_number_too_large_before_a_break_is_refused_in_one_line(tmp_path):
    """Found by the import fuzz after the merge: a number past 64 bits with the line broken
    further on; the refusal names the number, not a traceback from looking for its field."""
    from companion.files.budget import field_of

    assert field_of('{"id": [9223372036854775808], "uuid": "x", "log": [') == "the game"
    assert field_of('{"id": 1, "n": [9223372036854775808]}') == "n[0]"
