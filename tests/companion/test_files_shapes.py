"""Memory and time at the limits (docs/files.md): every shape a file may take within its size
limit costs what the companion keeps, not what the file dresses it in. Each run is a child
process under a 1 GB address-space limit (a Raspberry Pi 3's memory, tests/support/
bounded_child.py): refused or accepted, in one line, never a traceback, never a MemoryError.
The peak memory and time of each shape at the limits are figures in the summary (the
bound: under 300 MB and 60 s); generated shapes (Hypothesis) add nesting, counts and sizes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from companion.files.budget import SCRIPT_STEPS
from companion.files.read import MB, limit
from tests.support.figures import report

TOPIC = "files, round 3"
LIMIT_MB = 1024
SETUP = '{"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}'
FIX = ('{"do": "adjust", "player": "Anna", "changes": {"gold": 1}}',
       '{"do": "adjust", "player": "Anna", "changes": {"gold": -1}}')


def bounded(kind: str, *args: object) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.support.bounded_child", str(LIMIT_MB),
                           kind, *map(str, args)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert not found["traceback"] and found["lines"] <= 1 and found["code"] != 99, found
    return found


def figure(what: str, found: dict) -> None:
    report(TOPIC, f"{what}: exit {found['code']}, peak {found['rss_mb']:.0f} MB, "
                  f"{found['seconds']:.1f} s")


def _filled(unit: str, size: int, head: str = "", tail: str = "") -> str:
    return head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail


@pytest.fixture(scope="module")
def game_record(small) -> str:
    return small[1][0]


def test_a_game_of_empty_lists_at_the_game_limit_is_refused_before_it_is_built(tmp_path,
                                                                            game_record):
    size = limit("game") - 1024
    record = json.loads(game_record)
    record["stored"]["clocks"] = {"x": "HERE"}
    head, tail = json.dumps(record).split('"HERE"')
    body = _filled("[],", size, head + "[", "[]]" + tail)
    path = tmp_path / "lists.jsonl"
    path.write_text(body + "\n")
    found = bounded("cli", "import", path, "--db", tmp_path / "c.sqlite3")
    assert found["code"] == 2 and "values" in found["said"]
    figure(f"a {size / MB:.0f} MB game of empty lists (import)", found)
    as_list = tmp_path / "lists.json"
    as_list.write_text("[" + body + "]")
    found = bounded("cli", "import", as_list, "--db", tmp_path / "c.sqlite3")
    assert found["code"] == 2 and "values" in found["said"]
    figure(f"a {size / MB:.0f} MB game of empty lists in a JSON list (import)", found)
    crowded = tmp_path / "crowded.jsonl"   # just under the values a game may hold: taken
    crowded.write_text(head + "[" + ",".join(["[]"] * 240_000) + "]" + tail + "\n")
    found = bounded("cli", "import", crowded, "--db", tmp_path / "c.sqlite3")
    assert found["code"] == 0, found
    figure("a game of 240,000 empty lists, just under the limit (imported)", found)


def test_a_30_mb_list_of_empty_lists_is_refused_at_its_first(tmp_path):
    path = tmp_path / "many.json"
    path.write_text(_filled("[],", 30 * MB, "[", "[]]"))
    found = bounded("cli", "import", path, "--db", tmp_path / "c.sqlite3")
    assert found["code"] == 2 and "game 1 of the list" in found["said"]
    figure("a 30 MB JSON list of empty lists (import)", found)


def test_a_script_of_corrections_at_its_limits_replays_within_the_bound(tmp_path):
    steps = SCRIPT_STEPS
    path = tmp_path / "fixes.jsonl"
    path.write_text("\n".join([SETUP] + [FIX[i % 2] for i in range(steps)]) + "\n")
    found = bounded("cli", "replay", path)
    assert found["code"] == 0
    figure(f"a script of {steps:,} corrections ({path.stat().st_size / MB:.1f} MB, replay)",
           found)
    over = tmp_path / "more.jsonl"
    over.write_text("\n".join([SETUP] + [FIX[i % 2] for i in range(steps + 2000)]) + "\n")
    found = bounded("cli", "replay", over)
    assert found["code"] == 2 and "lines" in found["said"]
    figure(f"a script of {steps + 2000:,} corrections (refused before replaying)", found)
    big = tmp_path / "big.jsonl"   # the size limit in one line of empty lists
    big.write_text(SETUP + "\n" + _filled("[],", limit("script") - 1024, "[", "[]]") + "\n")
    found = bounded("cli", "replay", "--strict", big)
    assert found["code"] == 1 and "values" in found["said"]
    figure(f"a {limit('script') / MB:.0f} MB script line of empty lists (replay)", found)


def test_configs_at_their_limit_are_refused_in_one_line(tmp_path):
    size = limit("config") - 64
    cases = {"deep tables": "a = " + "[" * (size // 2 - 4) + "]" * (size // 2 - 4),
             "a dotted key": ".".join(["k"] * (size // 2 - 4)) + " = 1",
             "many tables": _filled("[t]\n", size).replace("[t]", "[t]", 1)}
    for what, text in cases.items():
        path = tmp_path / "hardware.toml"
        path.write_text(text)
        found = bounded("hardware", path)
        assert found["code"] == 2
        figure(f"hardware.toml of {size / MB:.0f} MB, {what}", found)
    path = tmp_path / "settings.json"
    path.write_text(_filled("[", size))
    found = bounded("settings", path)
    figure(f"settings.json of {size / MB:.0f} MB of brackets", found)


#: a shape: nesting depth, elements per level, and a string's length at the leaves
SHAPES = st.tuples(st.integers(1, 2000), st.integers(0, 200_000), st.integers(0, 200_000))


def _shape(depth: int, count: int, text: int) -> str:
    """Up to 16 MB: ``count`` strings of ``text`` letters, ``depth`` lists deep."""
    leaf = json.dumps("x" * text)
    count = min(count, (16 * MB) // (len(leaf) + 1))
    inner = "[" + ",".join([leaf] * count) + "]"
    return "[" * (depth - 1) + inner + "]" * (depth - 1)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(shape=SHAPES, where=st.sampled_from(["import line", "import list", "script", "toml",
                                           "settings"]))
def test_generated_shapes_are_refused_or_taken_within_the_bound(tmp_path_factory, shape, where):
    folder = tmp_path_factory.mktemp("shape")
    text = _shape(*shape)
    if where == "import line":
        path = folder / "in.jsonl"
        path.write_text('{"uuid": "x", "stored": ' + text + "}\n")
        found = bounded("cli", "import", path, "--db", folder / "c.sqlite3")
    elif where == "import list":
        path = folder / "in.json"
        path.write_text("[" + text + "]")
        found = bounded("cli", "import", path, "--db", folder / "c.sqlite3")
    elif where == "script":
        path = folder / "s.jsonl"
        path.write_text(SETUP + "\n" + '{"do": "adjust", "player": "Anna", "x": ' + text + "}\n")
        found = bounded("cli", "replay", path)
    elif where == "toml":
        path = folder / "hardware.toml"
        path.write_text("a = " + text.replace('"', "'") + "\n")
        found = bounded("hardware", path)
    else:
        path = folder / "settings.json"
        path.write_text('{"volume": ' + text + "}")
        found = bounded("settings", path)
    assert found["rss_mb"] < 300, found
    assert found["seconds"] < 60 or found["code"] in (1, 2), found


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@example(version=4, drop="outbox")
@example(version=5, drop=None)
@example(version=4, drop=None)
@given(version=st.integers(-1, 7), drop=st.sampled_from([None, "clocks", "outbox", "profiles",
                                                          "checkpoints", "meta"]))
def test_generated_backups_are_restored_only_when_they_are_what_they_declare(
        tmp_path_factory, small, version, drop):
    import shutil
    import sqlite3

    folder = tmp_path_factory.mktemp("restore")
    backup = folder / "b.sqlite3"
    shutil.copyfile(small[0], backup)
    conn = sqlite3.connect(backup)
    conn.execute(f"PRAGMA user_version = {version}")
    if drop:
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute(f"DROP TABLE {drop}")
    conn.commit()
    conn.close()
    found = bounded("cli", "restore", backup, "--db", folder / "c.sqlite3")
    # sound: its tables are those of the version it declares (today's less the one dropped:
    # schema 4 is schema 5 without the club's outbox, so a 4 without it is a true 4)
    from companion.store.schema import SCHEMA_VERSION
    from companion.store.shape import tables_at

    held = {name: columns for name, columns in tables_at(SCHEMA_VERSION).items() if name != drop}
    sound = 1 <= version <= SCHEMA_VERSION and tables_at(version) == held
    assert found["code"] == (0 if sound else 2), found
