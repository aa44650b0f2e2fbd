"""Hostile and careless files: each probe is a file, a link, a pipe
or a stick a person could leave; each must be refused in one line or survived, with the game
database and every bystander file unchanged, no traceback and no hang. The run's figures
(probes, files changed outside their target, tracebacks, hangs, the largest import's peak
memory) are printed in the test summary (tests/support/figures.py)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.history import backup as backups
from companion.history.usb import FOLDER, StickError, export as to_stick
from companion.store import Store
from tests.support.figures import report

TALLY = {"probes": 0, "changed": 0, "tracebacks": 0, "hangs": 0}


def _state(paths) -> dict[str, tuple]:
    out = {}
    for p in paths:
        try:
            st = os.stat(p, follow_symlinks=False)
            body = Path(p).read_bytes() if Path(p).is_file() and not Path(p).is_symlink() else b""
            out[str(p)] = (st.st_mode, st.st_ino, hashlib.sha256(body).hexdigest())
        except FileNotFoundError:
            out[str(p)] = None
    return out


def run(*args: str, timeout: float = 20) -> subprocess.CompletedProcess:
    """``companion ARGS`` in a child: a hang is counted and fails the probe."""
    TALLY["probes"] += 1
    try:
        done = subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        TALLY["hangs"] += 1
        raise AssertionError(f"companion {' '.join(args)} hung") from None
    if "Traceback" in done.stderr:
        TALLY["tracebacks"] += 1
    return done


@pytest.fixture(scope="module")
def table(small):
    """The import tests' small history (seven games of all three titles), beside a bystander."""
    path = small[0]
    victim = path.parent / "victim.txt"
    victim.write_text("another file\n")
    victim.chmod(0o644)
    return path


def bystanders(table: Path) -> list[Path]:
    """What no probe may change (a reader may leave an empty -wal and a -shm: not counted)."""
    return [table, table.parent / "victim.txt"]


@pytest.fixture
def unchanged(table):
    before = _state(bystanders(table))
    yield
    after = _state(bystanders(table))
    if after != before:
        TALLY["changed"] += 1
    assert after == before


@pytest.mark.parametrize("onto", ["{db}", "{link}", "{db}-wal", "{db}.lock", "{db}.clean"])
@pytest.mark.parametrize("how", [["export", "--all"], ["export", "--log", "1"]])
def test_an_export_never_goes_onto_the_database(table, tmp_path, unchanged, onto, how):
    (tmp_path / "link").symlink_to(table)
    target = onto.format(db=table, link=tmp_path / "link")
    done = run(*how, "--db", str(table), "-o", target, "--force")
    assert done.returncode == 2 and "game database" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_an_existing_file_is_replaced_only_with_force_and_as_a_new_file(table, tmp_path,
                                                                        unchanged):
    out = tmp_path / "out.jsonl"
    out.write_text("mine\n")
    done = run("export", "--all", "--db", str(table), "-o", str(out))
    assert done.returncode == 2 and "--force" in done.stderr and out.read_text() == "mine\n"
    inode = out.stat().st_ino
    assert run("export", "--all", "--db", str(table), "-o", str(out), "--force").returncode == 0
    assert out.stat().st_ino != inode and out.read_text().startswith("{")


@pytest.mark.parametrize("command", ["replay", "import", "restore"])
@pytest.mark.parametrize("what", ["fifo", "/dev/zero"])
def test_a_pipe_or_a_device_is_refused_in_one_line_never_waited_on(table, tmp_path, unchanged,
                                                                   command, what):
    name = str(tmp_path / "pipe")
    if what == "fifo":
        os.mkfifo(name)
    else:
        name = what
    args = [command, name] + (["--db", str(tmp_path / "other.sqlite3")])
    done = run(*args)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert ("pipe" if what == "fifo" else "device") in done.stderr


def test_a_stick_with_planted_links_and_a_pipe_writes_nothing_elsewhere(table, tmp_path,
                                                                        unchanged):
    with Store(table, readonly=True) as store:
        device, conn = store.device_id, store.conn
        stick = tmp_path / "stick"
        (stick / FOLDER).mkdir(parents=True)
        short = device.replace("-", "")[:4]
        day = __import__("datetime").date(2026, 11, 30)
        stem = f"plays-{day.isoformat()}-{short}"
        (stick / FOLDER / f".{stem}.jsonl.part").symlink_to(table)   # the probe as found
        (stick / FOLDER / f"{stem}.csv").symlink_to(tmp_path / "nowhere" / "made.csv")
        os.mkfifo(stick / FOLDER / f"{stem}-2.jsonl")
        TALLY["probes"] += 1
        written = to_stick(conn, stick, device, day)   # free names: -3
        assert written.jsonl.name == f"{stem}-3.jsonl" and not (tmp_path / "nowhere").exists()
        other = tmp_path / "stick2"
        other.mkdir()
        (other / FOLDER).symlink_to(tmp_path / "elsewhere", target_is_directory=True)
        (tmp_path / "elsewhere").mkdir()
        TALLY["probes"] += 1
        with pytest.raises(StickError, match="is a link on the stick"):
            to_stick(conn, other, device, day)
        assert os.listdir(tmp_path / "elsewhere") == []
        piped = tmp_path / "stick3"
        piped.mkdir()
        os.mkfifo(piped / FOLDER)
        TALLY["probes"] += 1
        with pytest.raises(StickError, match="not a folder"):
            to_stick(conn, piped, device, day)


def test_backup_sets_its_mode_on_the_open_file_and_follows_no_swapped_link(table, tmp_path,
                                                                           unchanged,
                                                                           monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)   # world-writable, not sticky
    victim = table.parent / "victim.txt"
    target = shared / "games.backup"
    chmods = []
    monkeypatch.setattr(os, "chmod", lambda *a, **k: chmods.append(a))
    real_copy = backups._copy

    def swapped(*args):   # another user plants a link at the name while SQLite copies
        found = real_copy(*args)
        target.symlink_to(victim)
        return found

    monkeypatch.setattr(backups, "_copy", swapped)
    TALLY["probes"] += 1
    with pytest.raises(Exception, match="already exists|is a link"):
        backups.backup(str(table), str(target))
    assert target.is_symlink() and chmods == []
    target.unlink()
    monkeypatch.setattr(backups, "_copy", real_copy)
    TALLY["probes"] += 1
    copied = backups.backup(str(table), str(target))
    assert copied.games > 0 and (target.stat().st_mode & 0o777) == 0o600 and chmods == []


def test_an_import_with_one_profile_in_two_seats_is_refused_naming_the_line(table, tmp_path,
                                                                            unchanged):
    out = tmp_path / "all.jsonl"
    assert run("export", "--all", "--db", str(table), "-o", str(out)).returncode == 0
    games = [json.loads(line) for line in out.read_text().splitlines()]
    game = next(g for g in games if len(g["stored"]["seats"]) >= 2)
    seats = game["stored"]["seats"]
    seats[1]["profile"] = seats[0]["profile"]
    others = [g for g in games if g is not game][:1]
    out.write_text("".join(json.dumps(g) + "\n" for g in others + [game]))
    line = len(others) + 1
    done = run("import", str(out), "--db", str(tmp_path / "other.sqlite3"))
    assert done.returncode == 2 and f"line {line}" in done.stderr
    assert "two seats" in done.stderr


def test_replay_db_stops_at_the_first_step_it_cannot_save(tmp_path, monkeypatch, capsys):
    from companion.cli.main import main
    from companion.core.errors import NotSaved
    from companion.store import journal

    script = tmp_path / "game.jsonl"
    script.write_text(textwrap.dedent("""\
        {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Daniel", "Emma"]}
        {"do": "play_role", "player": "Anna", "role": "warlock"}
        {"do": "so_be_it", "player": "Barb"}
        {"do": "claim", "player": "Carl"}
        {"input": "button", "id": "seat4.claim"}
        {"do": "pass", "player": "Emma"}
        {"do": "resolve", "player": "Daniel", "changes": {"gold": 1}}
        """))
    calls = []
    real = journal.Tx.__enter__

    def full(self):
        calls.append(1)
        if len(calls) > 3:
            raise NotSaved("The step was not saved: the disk is full")
        return real(self)

    monkeypatch.setattr(journal.Tx, "__enter__", full)
    TALLY["probes"] += 1
    code = main(["replay", str(script), "--db", str(tmp_path / "g.sqlite3")])
    err = capsys.readouterr().err
    assert code == 1 and len(err.strip().splitlines()) == 1 and "not saved" in err
    assert "stopped there" in err


def test_doctor_hardware_on_hostile_toml_says_one_short_line(tmp_path):
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    wide = tmp_path / "wide.toml"
    with wide.open("w") as f:
        f.write("[buttons]\nundo = [")
        f.write("1," * 30_000_000)
        f.write("]\n")
    for config in (deep, wide):
        done = run("doctor", "--hardware", str(config), timeout=60)
        assert done.returncode != 0 and "Traceback" not in done.stderr
        assert len(done.stdout) + len(done.stderr) < 5000


#: the child's own peak (VmHWM: getrusage's ru_maxrss keeps the forking parent's across exec)
PEAK = textwrap.dedent("""
    import re, sys
    from companion.history.import_stream import stream_records
    with open(sys.argv[1], "rb") as f:
        games = sum(1 for _ in stream_records(f))
    status = open("/proc/self/status").read()
    print(games, re.search(r"VmHWM:\\s+(\\d+)", status)[1])
""")


def test_a_200_mb_import_is_read_in_memory_bounded_by_one_game(table, tmp_path):
    out = tmp_path / "all.jsonl"
    assert run("export", "--all", "--db", str(table), "-o", str(out)).returncode == 0
    lines = out.read_bytes()
    big = tmp_path / "big.jsonl"
    with big.open("wb") as f:
        while f.tell() < 200 << 20:
            f.write(lines)
    size = big.stat().st_size
    done = subprocess.run([sys.executable, "-c", PEAK, str(big)], capture_output=True, text=True,
                          timeout=300)
    games, peak_kb = map(int, done.stdout.split())
    report("hostile files", f"largest import read: {size / (1 << 20):.0f} MB, {games} games, "
                            f"peak memory {peak_kb / 1024:.0f} MB")
    assert peak_kb < 150 * 1024


def test_zz_summary():
    """Last in the module: the figures of the probes above."""
    report("hostile files", f"probes tried {TALLY['probes']}, files changed outside their "
                            f"target {TALLY['changed']}, tracebacks {TALLY['tracebacks']}, "
                            f"hangs {TALLY['hangs']}")
    assert TALLY["changed"] == TALLY["tracebacks"] == TALLY["hangs"] == 0


@pytest.mark.parametrize("value", ["inf", "nan", "-inf", "lots", "1e400"])
def test_a_limit_set_to_no_number_keeps_the_default(monkeypatch, value):
    """An environment variable that is no number of megabytes leaves the kind's default (it
    raised OverflowError for "inf")."""
    from companion.files.read import LIMITS, MB, limit

    monkeypatch.setenv(LIMITS["script"][1], value)
    assert limit("script") == LIMITS["script"][0] * MB
