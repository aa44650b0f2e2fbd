"""The store's one transaction for a step and the results it finishes (a failure writes neither,
undo and redo change both), and values the file cannot keep refused before anything is
written: over Tally, a tiny game whose numbers can outgrow the file."""

from __future__ import annotations

import sqlite3

import pytest

from companion.core import (Command, Event, GameRules, RuleViolation, Session, SetupError, Step,
                            StoreError)
from companion.core.gate import PLAYER_REQUIRED, Arg, Declared, Spec, Whole, player_names
from companion.store import GameJournal, Store, unstorable
from companion.core.engine import Standing
from tests.support.full_card import disk_full


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
            raise disk_full()
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
