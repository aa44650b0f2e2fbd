"""The store: durable steps, exact resume, history, bad files moved aside, a step and the
results it finishes in one transaction, and values the file cannot keep refused."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from datetime import datetime

import pytest

from companion.core import (Command, Event, GameRules, RuleViolation, Session, SetupError, Step,
                            StoreError)
from companion.core.gate import PLAYER_REQUIRED, Arg, Declared, Spec, Whole, player_names
from companion.games import get_rules
from companion.store import GameJournal, Store, unstorable
from companion.core.engine import Standing
from tests.support.autoplay import play

ROOT = Path(__file__).resolve().parents[2]
RULES = get_rules("witchs_brew")
FIVE = {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Daniel", "Emma"]}


def test_new_game_is_offered_for_resume_with_the_same_state_and_undo_history(tmp_path):
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        session = store.new_game(RULES, FIVE)
        session.execute(Command("play_role", "Anna", {"role": "warlock"}))
        session.execute(Command("so_be_it", "Barb"))
        session.execute(Command("claim", "Carl"))
        session.undo()
        live_state, live_steps = session.state, session.steps
    with Store(db) as store:
        [info] = store.unfinished()
        assert info.players == FIVE["players"] and info.steps == 2
        resumed = store.open_session(info.id)
        assert resumed.state == live_state
        assert [(s.n, s.status, s.command) for s in resumed.steps] == \
            [(s.n, s.status, s.command) for s in live_steps]
        assert resumed.can_redo
        resumed.redo()
        assert resumed.state["holder"] == 2


def test_a_new_command_after_undo_keeps_the_redo_branch_marked_dropped(tmp_path):
    with Store(tmp_path / "c.sqlite3") as store:
        session = store.new_game(RULES, FIVE)
        session.execute(Command("play_role", "Anna", {"role": "witch"}))
        session.execute(Command("pass", "Barb"))
        session.undo()
        session.execute(Command("claim", "Barb"))
        rows = store.conn.execute("SELECT n, status, command FROM steps ORDER BY n").fetchall()
    assert [(n, s) for n, s, _ in rows] == [(1, "done"), (2, "dropped"), (3, "done")]
    assert json.loads(rows[1][2]) == {"do": "pass", "player": "Barb"}


def test_a_refused_command_writes_nothing(tmp_path):
    with Store(tmp_path / "c.sqlite3") as store:
        session = store.new_game(RULES, FIVE)
        with pytest.raises(RuleViolation):
            session.execute(Command("claim", "Carl"))
        assert store.conn.execute("SELECT count(*) FROM steps").fetchone()[0] == 0


def test_a_finished_game_keeps_players_scores_and_winner(tmp_path):
    finished, commands = play({"players": ["Ann", "Bo", "Cy"]}, seed=3)
    with Store(tmp_path / "c.sqlite3") as store:
        session = store.new_game(RULES, {"players": ["Ann", "Bo", "Cy"]})
        for command in commands:
            session.execute(command)
        [info] = store.games("finished")
        assert store.unfinished() == []
        expected = {r["name"]: r["score"] for r in RULES.results(finished.state)}
        assert {r["name"]: r["score"] for r in info.results} == expected
        assert [r["name"] for r in info.results if r["winner"]] == finished.summary()["winners"]
        session.undo()  # undo past the end reopens the game
        assert store.games("finished") == [] and len(store.unfinished()) == 1


def test_wal_and_full_sync_are_on(tmp_path):
    with Store(tmp_path / "c.sqlite3") as store:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


@pytest.mark.parametrize("content", [b"this is not a database" * 50, b""])
def test_a_corrupt_file_is_reported_with_its_path_and_moved_aside(tmp_path, content):
    db = tmp_path / "c.sqlite3"
    db.write_bytes(content)
    with Store(db) as store:
        if not content:  # an empty file is a valid empty database: used as is
            assert store.notice is None
            return
        assert str(db) in store.notice and "moved to" in store.notice
        moved = [p for p in tmp_path.iterdir() if ".unreadable-" in p.name]
        assert len(moved) == 1 and moved[0].read_bytes() == content
        store.new_game(RULES, FIVE)  # the new file works


def test_a_foreign_database_is_moved_aside_never_overwritten(tmp_path):
    db = tmp_path / "notes.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE notes (text)")
    conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.commit()
    conn.close()
    with Store(db) as store:
        assert "not a table-companion database" in store.notice
    [moved] = [p for p in tmp_path.iterdir() if ".unreadable-" in p.name and p.suffix != ""]
    assert sqlite3.connect(moved).execute("SELECT text FROM notes").fetchone() == ("keep me",)


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


# --------------------------------------------------------------------------------------------
# Tally: a tiny game whose numbers can outgrow the file, and whose end is one step away
# --------------------------------------------------------------------------------------------
def _tally_setup(config: dict) -> dict:
    return {"players": list(config["players"]), "scores": [0] * len(config["players"]),
            "goal": config.get("goal", 10), "worth": config.get("worth", 1), "over": False}


def _tally_decide(state: dict, command: Command) -> list[Event]:
    if state["over"]:
        raise RuleViolation("The tally is over")
    seat = state["players"].index(command.player)
    return [Event("added", {"seat": seat, "score": state["scores"][seat] + command.args["n"]})]


def _tally_evolve(state: dict, event: Event) -> dict:
    if event.type == "added":
        scores = list(state["scores"])
        scores[event.data["seat"]] = event.data["score"]
        return {**state, "scores": scores}
    return {**state, "over": True}


def _tally_results(state: dict) -> list[dict]:
    best = max(state["scores"])
    return [{"seat": i, "name": name, "score": score * state["worth"], "winner": score == best}
            for i, (name, score) in enumerate(zip(state["players"], state["scores"]))]


TALLY = GameRules(
    name="tally", title="Tally", setup=_tally_setup, decide=_tally_decide, evolve=_tally_evolve,
    flow=lambda s: [] if s["over"] or max(s["scores"]) < s["goal"] else [Event("ended")],
    prompt=lambda s: {"text": "add"},
    summary=lambda s: {"players": [{"name": n} for n in s["players"]], "over": s["over"]},
    map_input=lambda s, e: None, results=_tally_results,
    commands={"add": Declared({"n": Arg(Whole(0), required=True)}, player=PLAYER_REQUIRED)},
    setup_keys={"players": Arg(player_names(1, 4), required=True), "goal": Arg(Whole(1)),
                "worth": Arg(Whole(1))},
    seat_names=lambda s: s["players"] if "scores" in s else s.get("players", []),
)


def _rows(store: Store, game_id: int) -> tuple:
    """Everything the file holds about one game."""
    q = store.conn.execute
    return (q("SELECT status, finished_at, updated_at FROM games WHERE id = ?", (game_id,)).fetchall(),
            q("SELECT n, command, status FROM steps WHERE game_id = ?", (game_id,)).fetchall(),
            q("SELECT * FROM events WHERE game_id = ?", (game_id,)).fetchall(),
            q("SELECT * FROM results WHERE game_id = ?", (game_id,)).fetchall())


class FailingConnection:
    """The store's connection, failing on one statement: a disk error in mid-transaction."""

    def __init__(self, conn: sqlite3.Connection, fail_at: str) -> None:
        self.conn, self.fail_at = conn, fail_at

    def execute(self, sql, *args):
        if sql.startswith(self.fail_at):
            raise sqlite3.OperationalError("disk I/O error (injected)")
        return self.conn.execute(sql, *args)

    def executemany(self, sql, *args):
        if sql.startswith(self.fail_at):
            raise sqlite3.OperationalError("disk I/O error (injected)")
        return self.conn.executemany(sql, *args)


@pytest.fixture
def tally(tmp_path):
    with Store(tmp_path / "c.sqlite3") as store:
        yield store, store.new_game(TALLY, {"players": ["Ann", "Bo"], "goal": 10})


def _unchanged(store: Store, session: Session, act, match: str, exc=RuleViolation) -> None:
    before = (_rows(store, session.game_id), list(session.steps), session.state)
    with pytest.raises(exc, match=match):
        act()
    assert (_rows(store, session.game_id), list(session.steps), session.state) == before


def test_a_failure_after_the_winning_step_is_written_writes_neither(tally):
    store, session = tally
    session.execute(Command("add", "Ann", {"n": 6}))
    real = store.conn
    store.conn = FailingConnection(real, "INSERT INTO results")
    _unchanged(store, session, lambda: session.execute(Command("add", "Ann", {"n": 4})),
               "Not saved, so not applied", StoreError)
    assert not session.over and store.games()[0].status == "running"
    store.conn = real
    session.execute(Command("add", "Ann", {"n": 4}))
    [info] = store.games("finished")
    assert [(r["name"], r["score"], r["winner"]) for r in info.results] == \
        [("Ann", 10, True), ("Bo", 0, False)]


class FullCard(FailingConnection):
    """The card fills up (SQLITE_FULL) on one statement."""

    def execute(self, sql, *args):
        if sql.startswith(self.fail_at):
            problem = sqlite3.OperationalError("database or disk is full")
            problem.sqlite_errorcode = sqlite3.SQLITE_FULL
            raise problem
        return self.conn.execute(sql, *args)


def test_a_full_card_while_playing_is_said_in_players_words_and_the_press_works_later(tally):
    store, session = tally
    real = store.conn
    store.conn = FullCard(real, "INSERT INTO steps")
    _unchanged(store, session, lambda: session.execute(Command("add", "Ann", {"n": 3})),
               r"^Not saved, so not applied: the SD card \(disk\) is full: free some space",
               StoreError)
    store.conn = real
    session.execute(Command("add", "Ann", {"n": 3}))
    assert session.state["scores"][0] == 3 and len(list(store.steps(session.game_id))) == 1


def test_undo_and_redo_of_the_winning_step_change_status_and_results_together(tally):
    store, session = tally
    session.execute(Command("add", "Bo", {"n": 12}))
    assert store.games()[0].status == "finished"
    real = store.conn
    store.conn = FailingConnection(real, "UPDATE games SET status = 'running'")
    _unchanged(store, session, session.undo, "Not saved, so not applied", StoreError)
    assert session.over and store.games()[0].results
    store.conn = real
    session.undo()
    assert (store.games()[0].status, store.games()[0].results) == ("running", [])
    store.conn = FailingConnection(real, "INSERT INTO results")
    _unchanged(store, session, session.redo, "Not saved, so not applied", StoreError)
    assert store.games()[0].status == "running" and not session.over
    store.conn = real
    session.redo()
    assert store.games()[0].status == "finished" and store.games()[0].results[1]["score"] == 12


@pytest.mark.parametrize("n, goal, worth, where", [
    (2**63 - 1, 2**62, 1, r"^added\.score is a 64-bit number, more than the game record can keep"),
    (2**33, 2**33, 2**31, r"^results\[0\]\.score is a 65-bit number"),
])
def test_a_number_the_file_cannot_keep_is_refused_before_anything_is_written(tmp_path, n, goal,
                                                                             worth, where):
    setup = {"players": ["Ann", "Bo"], "goal": goal, "worth": worth}
    with Store(tmp_path / "c.sqlite3") as store:
        session = store.new_game(TALLY, setup)
        session.execute(Command("add", "Ann", {"n": 1}))
        _unchanged(store, session, lambda: session.execute(Command("add", "Ann", {"n": n})), where)
        assert store.games()[0].status == "running" and session.can_undo


def test_the_journal_refuses_a_command_or_event_it_cannot_keep(tally):
    store, session = tally
    journal = GameJournal(store, session.game_id)
    big = Step(1, Command("add", "Ann", {"n": 2**64}), ())
    _unchanged(store, session, lambda: journal.append(big, [], Standing(None, {})),
               r"^add\.n is a 65-bit number.*nothing was recorded$")
    odd = Step(1, Command("add", "Ann", {"n": 1}), (Event("added", {"note": "\ud800"}),))
    _unchanged(store, session, lambda: journal.append(odd, [], Standing(None, {})),
               r"^added\.note holds a broken character")
    _unchanged(store, session, lambda: journal.set_status(1, "undone", Standing([{"score": -2**63 - 1}], {})),
               r"^results\[0\]\.score is a 64-bit number")


@pytest.mark.parametrize("value, problem", [
    ({"a": [1, {"b": 2**63}]}, "x.a[1].b is a 64-bit number"),
    ([True, 2.5e300, None, -2**63, 2**63 - 1], None),
    ({"\udcff": 1}, "x holds a broken character"),
    ({5: 2**70}, "x.5 is a 71-bit number"),
])
def test_unstorable_names_where_the_value_is(value, problem):
    found = unstorable(value, "x")
    assert found is None if problem is None else found.startswith(problem)


class Anything(Spec):
    """Lets any value through the gate: the store's own check must catch what it cannot keep."""

    def wants(self, state):
        return "anything"

    def check(self, value, at, state):
        return value


def test_a_setup_the_file_cannot_keep_is_refused_and_nothing_stored(tmp_path):
    loose = GameRules(**{**TALLY.__dict__, "setup_keys": {
        "players": Arg(Anything(), required=True), "goal": Arg(Anything())}})
    with Store(tmp_path / "c.sqlite3") as store:
        with pytest.raises(SetupError, match=r"^setup\.goal is a 64-bit number"):
            store.new_game(loose, {"players": ["Ann", "Bo"], "goal": 2**63})
        with pytest.raises(SetupError, match=r"^setup\.players\[1\] holds a broken character"):
            store.new_game(loose, {"players": ["Ann", "B\ud800"]})
        assert store.games() == []


def test_a_folder_is_never_taken_for_a_database(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "keep.txt").write_text("mine")
    with pytest.raises(StoreError, match="is a folder, not a game database"):
        Store(tmp_path / "games")
    assert (tmp_path / "games" / "keep.txt").read_text() == "mine"
    assert [p.name for p in tmp_path.iterdir()] == ["games"]


@pytest.mark.parametrize("setup", [
    {"game": "witchs_brew", "players": ["Ann", "Bo", "Cy"]},
    {"game": "quest", "players": ["Ann", "Bo", "Cy"],
     "needed": ["rotten_egg", "newt_eye", "bat_wing"]},
    {"game": "cauldron", "players": ["Ann", "Bo", "Cy"]},
])
def test_every_game_is_stored_with_its_players_and_resumes(tmp_path, setup):
    with Store(tmp_path / "c.sqlite3") as store:
        session = store.new_game(get_rules(setup["game"]), setup)
        [info] = store.unfinished()
        assert info.game == setup["game"] and info.players == ["Ann", "Bo", "Cy"]
        assert store.open_session(session.game_id).state == session.state


def test_played_says_when_a_game_started_and_finished(tmp_path):
    with Store(tmp_path / "c.sqlite3") as store:
        session = store.new_game(RULES, FIVE)
        started, finished = store.played(session.game_id)
        assert finished is None and datetime.fromisoformat(started).tzinfo is not None
        with pytest.raises(StoreError, match="no game number 99"):
            store.played(99)
