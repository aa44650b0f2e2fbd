"""The store when a process dies: killed at random points no acknowledged command is lost, killed
between a game's winning step and its results the game is consistent, and a game an older
companion left running is set right on opening."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from companion.core import Command, Session
from companion.games import get_rules
from companion.store import Store
from tests.support.autoplay import play

ROOT = Path(__file__).resolve().parents[2]
RULES = get_rules("witchs_brew")
FIVE = {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Daniel", "Emma"]}


def _replayed(commands: list[Command]) -> dict:
    session = Session(RULES, FIVE)
    for command in commands:
        session.execute(command)
    return session.state


def test_killed_at_random_points_no_acknowledged_command_is_lost(tmp_path):
    """SIGKILL a child that plays into the DB; after each restart every acknowledged step is
    there, nothing beyond the next one is, and the stored fold equals a replay of the commands."""
    _, commands = play(FIVE, seed=11)
    script = tmp_path / "game.jsonl"
    script.write_text("\n".join([json.dumps(FIVE)] + [json.dumps(c.to_dict()) for c in commands]))
    db = tmp_path / "c.sqlite3"
    rng = random.Random(2026)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    acked = 0
    for round_ in range(7):
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.support.store_child", str(db), str(script)],
            stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        kill_after = rng.randint(1, 40) if round_ < 6 else None
        seen = 0
        for line in child.stdout:
            if line.startswith("ACK"):
                acked = max(acked, int(line.split()[1]))
                seen += 1
                if kill_after is not None and seen >= kill_after:
                    child.send_signal(signal.SIGKILL)
                    break
        child.wait(timeout=60)
        for line in child.stdout.read().splitlines():  # ACKs printed before the kill landed
            if line.startswith("ACK"):
                acked = max(acked, int(line.split()[1]))
        child.stdout.close()
        assert_consistent(db)
        with Store(db) as store:
            assert store.notice is None
            game_id = store.games()[0].id
            stored = list(store.steps(game_id))
            assert acked <= len(stored) <= acked + 1
            assert [s.command for s in stored] == commands[: len(stored)]
            resumed = store.open_session(game_id)
            assert resumed.state == _replayed(commands[: len(stored)])
    assert acked == len(commands)
    with Store(db) as store:
        assert store.games("finished")[0].results


def _as_stored(db: Path) -> tuple[str, bool, bool]:
    """The newest game as the file holds it, read past the store's own repair on opening: its
    status, whether results are kept, and whether the fold of its stored steps is over."""
    with Store(db) as store:
        game_id = store.games()[0].id
        status = store.conn.execute("SELECT status FROM games WHERE id = ?",
                                    (game_id,)).fetchone()[0]
        kept = store.conn.execute("SELECT count(*) FROM results WHERE game_id = ?",
                                  (game_id,)).fetchone()[0] > 0
        setup = store.setup_of(game_id)
        folded = Session(get_rules(setup["game"]), setup, list(store.steps(game_id)))
    return status, kept, folded.over


def assert_consistent(db: Path) -> None:
    """'finished' if and only if results are kept if and only if the fold is over."""
    status, kept, over = _as_stored(db)
    assert (status == "finished") == kept == over, (status, kept, over)


def _child(db: Path, script: Path, *flags: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "tests.support.store_child", str(db), str(script),
                          *flags], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert "Traceback" not in run.stderr, run.stderr
    return run.stdout.split()


def test_killed_between_the_winning_step_and_its_results_the_game_is_consistent(tmp_path):
    """SIGKILL inside the winning step's transaction, right after the step was inserted and
    before its results: the step is not there either, so the game is still 'running' and its
    fold is not over. Killed inside the undo of that step, it is still finished."""
    _, commands = play(FIVE, seed=11)
    script = tmp_path / "game.jsonl"
    script.write_text("\n".join([json.dumps(FIVE)] + [json.dumps(c.to_dict()) for c in commands]))
    db = tmp_path / "c.sqlite3"
    out = _child(db, script, "--die-at", "INSERT INTO results")
    assert out[-2:] == ["ACK", str(len(commands) - 1)]
    assert _as_stored(db) == ("running", False, False)
    with Store(db) as store:
        assert len(list(store.steps(store.games()[0].id))) == len(commands) - 1
    assert _child(db, script)[-1] == "DONE"
    assert _as_stored(db) == ("finished", True, True)
    assert "UNDONE" not in _child(db, script, "--undo", "--die-at", "UPDATE games SET status")
    assert _as_stored(db) == ("finished", True, True)
    assert "UNDONE" in _child(db, script, "--undo")
    assert _as_stored(db) == ("running", False, False)


def test_a_game_left_running_by_an_older_companion_is_set_right_on_opening(tmp_path):
    """Before steps and results were one transaction, a kill between them left a game
    'running' with its end in its log; opening it finishes it, once."""
    finished, commands = play({"players": ["Ann", "Bo", "Cy"]}, seed=3)
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        session = store.new_game(RULES, {"players": ["Ann", "Bo", "Cy"]})
        for command in commands:
            session.execute(command)
        store.conn.execute("DELETE FROM results")
        store.conn.execute("UPDATE games SET status = 'running', finished_at = NULL")
    assert _as_stored(db) == ("running", False, True)
    with Store(db) as store:
        assert store.open_session(session.game_id).over
    assert _as_stored(db) == ("finished", True, True)
    with Store(db) as store:
        [info] = store.games("finished")
        assert {r["name"]: r["score"] for r in info.results} == \
            {r["name"]: r["score"] for r in RULES.results(finished.state)}
