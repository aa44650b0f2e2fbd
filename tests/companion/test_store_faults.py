"""The store under real faults, with figures.

The opening logic is tested elsewhere with monkeypatched errors; an injected error only proves
that a code is classified, not that SQLite or the kernel ever raise it there. Here each fault is
provoked for real: a writer lock held by another process, two writers and three creators
started together, malformed rows, a game whose end was stored without its results (a full card:
test_store_full.py; a write-protected one: test_store_protected.py). Each case checks the
promise: the file is left exactly as it was, the error says what to do, no acknowledged step is
lost, and the game plays on once the fault is gone. The tally of each case is printed under
"figures: store faults".
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import time

import pytest

from companion.store.check import check
from companion.core import StoreError
from companion.store import Store
from tests.companion.store_faults import (
    ENV, ROOT, RULES, SETUP, TOPIC, assert_sound, companion_cli, copies_aside, done_commands,
    stored_game,
)
from tests.support.autoplay import next_command, play
from tests.support.figures import report


# -- 1. the writer lock held by another process ----------------------------------------------
def test_a_writer_held_by_another_process_is_refused_by_pid_while_readers_read(tmp_path):
    db = tmp_path / "c.sqlite3"
    game, acknowledged = stored_game(db, 10)
    holder = subprocess.Popen([sys.executable, "-m", "tests.support.store_child", str(db), "-",
                               "--hold"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, cwd=ROOT, env=ENV)
    tries = 3
    try:
        assert holder.stdout.readline().strip() == "HOLDING"
        before = db.read_bytes()
        for _ in range(tries):
            with pytest.raises(StoreError) as caught:
                Store(db)
            assert f"already running (pid {holder.pid})" in str(caught.value)
            assert "companion history and export can read the games" in str(caught.value)
        history = companion_cli("history", "--db", str(db))
        assert history.returncode == 0 and "(10 steps)" in history.stdout, history.stderr
        exported = companion_cli("export", "--log", str(game), "--db", str(db))
        assert exported.returncode == 0 and len(exported.stdout.splitlines()) == 11
        assert db.read_bytes() == before and not copies_aside(tmp_path)
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
        holder.stdout.close()
    assert holder.returncode == 0
    with Store(db) as store:  # the holder is gone: this writer opens and plays on
        session = store.open_session(game)
        session.execute(next_command(session, random.Random(4)))
    stored = done_commands(db, game)
    assert stored[:10] == acknowledged and len(stored) == 11
    assert_sound(db)
    report(TOPIC, f"lock held by another process: {tries} of {tries} writers refused naming "
                  "its pid, history and export read meanwhile, the writer opened after it "
                  f"ended; {len(acknowledged)} steps acknowledged, "
                  f"{len(acknowledged) - len(stored[:10])} lost")


# -- 2. two writers at once ------------------------------------------------------------------
#: A writer that tries once: refused, or plays N steps of the newest game and holds the store
#: until its standard input closes (so the two attempts overlap).
WRITER = """
import random, sys, time
from companion.core import StoreError
from companion.store import Store
from tests.support.autoplay import next_command
db, start, steps, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
time.sleep(max(0.0, start - time.time()))
try:
    store = Store(db)
except StoreError as problem:
    print("REFUSED", problem, flush=True)
    sys.exit(0)
session = store.open_session(store.games()[0].id)
rng = random.Random(seed)
for _ in range(steps):
    session.execute(next_command(session, rng))
    print("ACK", flush=True)
print("WON", flush=True)
sys.stdin.read()
store.close()
"""


def test_two_writers_started_together_one_wins_the_other_is_refused(tmp_path):
    db = tmp_path / "c.sqlite3"
    game = stored_game(db, 5)[0]
    rounds, steps, acknowledged = 5, 4, 5
    for round_ in range(rounds):
        start = time.time() + 0.6
        writers = [subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db), str(start), str(steps), str(round_ * 2 + i)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=ROOT, env=ENV) for i in range(2)]
        ends: dict[int, str] = {}
        try:
            for writer in writers:
                for line in writer.stdout:
                    if line.startswith("ACK"):
                        acknowledged += 1
                    if line.startswith(("WON", "REFUSED")):
                        ends[writer.pid] = line.strip()
                        break
        finally:
            for writer in writers:
                writer.stdin.close()
                writer.wait(timeout=60)
                writer.stdout.close()
                writer.stderr.close()
        assert sorted(end.split()[0] for end in ends.values()) == ["REFUSED", "WON"], ends
        [winner] = [pid for pid, end in ends.items() if end == "WON"]
        [refusal] = [end for end in ends.values() if end != "WON"]
        assert f"already running (pid {winner})" in refusal
        assert all(writer.returncode == 0 for writer in writers)
    stored = done_commands(db, game)
    assert len(stored) == acknowledged == 5 + rounds * steps
    assert not copies_aside(tmp_path)
    assert_sound(db)
    report(TOPIC, f"two writers started together: {rounds} rounds, {rounds} won and {rounds} "
                  f"refused naming the winner's pid, {acknowledged} steps acknowledged, "
                  f"{acknowledged - len(stored)} lost, the log folds")


# -- 3. three creators on a new path ---------------------------------------------------------
def test_three_creators_on_a_new_folder_share_one_database_and_every_game_plays(tmp_path):
    """Beyond test_store_open's race (which counts the games): the folder is new too, and
    every game the racers started opens and plays on."""
    script = tmp_path / "setup.jsonl"
    script.write_text(json.dumps(SETUP) + "\n")
    rounds = 3
    for round_ in range(rounds):
        db = tmp_path / f"r{round_}" / "new" / "c.sqlite3"
        start = time.time() + 0.8
        children = [subprocess.Popen(
            [sys.executable, "-m", "tests.support.store_child", str(db), str(script),
             "--race", str(start)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=ROOT, env=ENV) for _ in range(3)]
        outs = [child.communicate(timeout=120) for child in children]
        assert all(child.returncode == 0 for child in children), [err for _, err in outs]
        assert sorted(int(out.split()[1]) for out, _ in outs) == [1, 2, 3]
        assert not copies_aside(db.parent)
        with Store(db) as store:
            assert store.notice is None
            for game in (1, 2, 3):
                session = store.open_session(game)
                session.execute(next_command(session, random.Random(game)))
        assert_sound(db)
    report(TOPIC, f"three creators on a new path: {rounds} rounds, {rounds * 3} games started, "
                  f"all in one database each round, 0 lost, 0 files moved, every game played on")


# -- 4. a malformed row ----------------------------------------------------------------------
@pytest.mark.parametrize("damage, step", [
    ("UPDATE steps SET command = '{\"do\": ' WHERE game_id = ? AND n = 12", 12),
    ("UPDATE events SET data = '[1, 2]' WHERE game_id = ? AND step = 9", 9),
], ids=["command-not-json", "event-not-an-object"])
def test_a_malformed_row_is_named_and_repair_resumes_the_game(tmp_path, damage, step):
    db = tmp_path / "c.sqlite3"
    good, bad = stored_game(db, 20, seed=1)[0], stored_game(db, 20, seed=2)[0]
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(damage, (bad,))
    rows = conn.execute("SELECT count(*) FROM steps").fetchone()[0]
    conn.close()
    before = db.read_bytes()
    with Store(db) as store:
        assert store.notice is None
        with pytest.raises(StoreError) as caught:
            store.open_session(bad)
        assert f"Game #{bad} cannot be read from step {step} on" in str(caught.value)
        assert "companion check --repair" in str(caught.value)
        assert len(store.open_session(good).steps) == 20  # the other game opens
    assert db.read_bytes() == before and not copies_aside(tmp_path)
    repaired = companion_cli("check", "--db", str(db), "--repair")
    assert repaired.returncode == 0, repaired.stderr
    assert f"game #{bad}, step {step}" in repaired.stderr
    with Store(db) as store:
        session = store.open_session(bad)
        assert len(session.done_steps()) == step - 1  # its last good state
        session.execute(next_command(session, random.Random(6)))  # and it plays on
        kept = store.conn.execute("SELECT count(*) FROM steps").fetchone()[0]
    assert kept == rows + 1  # every row kept, and the new step
    assert_sound(db)
    report(TOPIC, f"malformed row ({'command' if 'steps' in damage else 'event data'}): the "
                  f"store opened, 1 game refused naming step {step} and check --repair, 1 game "
                  f"opened, repair resumed at step {step - 1} keeping all {rows} rows")


# -- 5. a game's end stored without its results ----------------------------------------------
def test_a_finished_game_without_its_results_is_set_right_on_opening(tmp_path):
    """An older companion wrote the results in a second transaction: a kill in between left
    the game running with its end in its log (test_store.py tests it at length)."""
    finished, commands = play(SETUP, seed=3)
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        session = store.new_game(RULES, SETUP)
        for command in commands:
            session.execute(command)
        store.conn.execute("DELETE FROM results")
        store.conn.execute("UPDATE games SET status = 'running', finished_at = NULL")
    with Store(db) as store:
        assert store.open_session(session.game_id).over
        [info] = store.games("finished")
        assert {r["name"]: r["score"] for r in info.results} == \
            {r["name"]: r["score"] for r in RULES.results(finished.state)}
    assert len(done_commands(db, session.game_id)) == len(commands)
    assert_sound(db)
    report(TOPIC, f"finish gap (results missing): 1 game set right on opening, "
                  f"{len(commands)} steps acknowledged, 0 lost")
