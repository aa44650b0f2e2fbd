"""``companion check``: can every stored game still be read and played?

A fault run found logs that no longer fold: two processes writing one game, a malformed row, a
step whose events today's rules reject. Opening such a game raises, and before this check the
only sign was an app that failed at start. Here SQLite's own ``integrity_check`` runs, then every
game is folded step by step from its raw rows, so each problem is named with its game and step.

``--repair`` never deletes anything a player entered: the steps from the first bad one on are
marked "dropped" (kept in the file, out of the fold), so the game resumes at its last good
state; a game whose setup this companion cannot play is marked "abandoned" (kept in history, no
longer offered for resume). A repair also drops the game's checkpoints from the first bad step
on and sets its line for the lists from the fold of what is left, in the same transaction. A
damaged file is only reported: copying it aside is the store's job.

Every finished game's results rows are compared with what the fold of its log gives, and each
difference is named (game, seat, stored value, folded value); a repair writes the log's results
again (trust.py). A file carrying objects no companion makes (shape.py) is named by object; a
repair keeps a copy of the file first, then removes them (trust.py).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from companion.core.engine import DONE, DROPPED, UNDONE
from companion.core.values import shown
from companion.core.model import Command, Event
from companion.games import get_rules
from companion.store.schema import dumps

STATUSES = (DONE, UNDONE, DROPPED)


@dataclass(frozen=True)
class Problem:
    """One thing that keeps a game (or the file) from being read: where, and what."""

    game_id: int | None  # None: the file itself
    step: int | None  # None: the game's setup, or the file
    what: str
    #: "log": the game does not fold; "results": its results rows are not its log's
    kind: str = "log"

    def __str__(self) -> str:
        if self.game_id is None:
            return f"the file: {self.what}"
        where = f"game #{self.game_id}" + (f", step {self.step}" if self.step is not None else "")
        return f"{where}: {self.what}"


def _why(problem: BaseException) -> str:
    """A failure in a bad row, in a line: what kind, and the message (quoted safely)."""
    text = str(problem) or type(problem).__name__
    return f"{type(problem).__name__}: {shown(text, 120)[1:-1]}"


def integrity(conn: sqlite3.Connection) -> list[Problem]:
    rows = [r[0] for r in conn.execute("PRAGMA integrity_check")]
    return [] if rows == ["ok"] else [Problem(None, None, f"SQLite integrity check: {r}")
                                      for r in rows[:20]]


def _events(conn: sqlite3.Connection, game_id: int) -> dict[int, list[tuple[Any, ...]]]:
    out: dict[int, list[tuple[Any, ...]]] = {}
    for row in conn.execute("SELECT step, type, data, automatic, undoable FROM events "
                            "WHERE game_id = ? ORDER BY step, seq", (game_id,)):
        out.setdefault(row[0], []).append(row[1:])
    return out


def _event(type_: Any, data: Any, automatic: Any, undoable: Any, *, folded: bool) -> Event:
    """An event row as the store reads it; one that is folded must also be an event."""
    loaded = json.loads(data)
    if folded and (not isinstance(type_, str) or not isinstance(loaded, dict)):
        raise ValueError("an event row is not an event (its type or data is malformed)")
    return Event(type_, loaded, bool(automatic), bool(undoable))


@dataclass(frozen=True)
class Folded:
    """A game folded from its raw rows: its first problem (None if it plays), and the state
    after its done steps before that problem (None when its setup cannot be played)."""

    problem: Problem | None
    rules: Any = None
    state: Any = None
    done: int = 0


def check_game(conn: sqlite3.Connection, game_id: int) -> Problem | None:
    """The first problem of one game, folding it from its raw rows, or None if it plays."""
    return fold_rows(conn, game_id).problem


def fold_rows(conn: sqlite3.Connection, game_id: int) -> Folded:
    """One game folded step by step from its raw rows, up to its first problem. Rows the file
    cannot give back (a damaged page: the whole file is not checked at every start, see
    opening.py) are the game's problem too, named, never an exception."""
    try:
        return _fold_rows(conn, game_id)
    except sqlite3.DatabaseError as problem:
        return Folded(Problem(game_id, None, "its log cannot be read back from the file, which "
                                             f"is damaged there ({problem})"))


def _fold_rows(conn: sqlite3.Connection, game_id: int) -> Folded:
    game, raw_setup = conn.execute("SELECT game, setup FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
    try:
        rules = get_rules(game)
        _, state = rules.start(json.loads(raw_setup))
    except Exception as problem:  # whatever a bad row holds: this check must name it, not die
        return Folded(Problem(game_id, None, f"its setup cannot be played ({_why(problem)})"))
    events = _events(conn, game_id)
    expected, done = 1, 0
    for n, command, status in conn.execute(
            "SELECT n, command, status FROM steps WHERE game_id = ? ORDER BY n", (game_id,)):
        try:
            if n != expected:
                raise ValueError(f"step {expected} is missing")
            expected += 1
            if status not in STATUSES:
                raise ValueError(f"its status {shown(status)} is not one of {', '.join(STATUSES)}")
            if status == DROPPED:  # kept as stored, never read again (see steps.SET_ASIDE)
                continue
            loaded = json.loads(command)
            if not isinstance(loaded, dict) or not isinstance(loaded.get("do"), str):
                raise ValueError("its command is not a command")
            Command.from_dict(loaded)
            folded = [_event(*row, folded=status == DONE) for row in events.get(n, [])]
            if status == DONE:  # undone and dropped steps are read, never folded
                state, done = rules.fold(state, folded), done + 1
        except Exception as problem:  # a malformed row or events today's rules reject
            return Folded(Problem(game_id, n, f"it cannot be read ({_why(problem)})"), rules,
                          state, done)
    return Folded(None, rules, state, done)


def summarize(conn: sqlite3.Connection, game_id: int) -> Folded:
    """Inside a transaction: a game's line for the lists (summary, done steps, damage) set from
    a fold of its rows; for a file from before summaries, and after a repair. A damaged game's
    summary is where it stood before its first bad step."""
    folded = fold_rows(conn, game_id)
    summary = None
    if folded.rules is not None:
        try:
            summary = dumps(folded.rules.summary(folded.state))
        except Exception:  # noqa: BLE001 - a state the rules cannot sum up: no line, not a crash
            summary = None
    conn.execute("UPDATE games SET summary = ?, done_steps = ?, damaged = ? WHERE id = ?",
                 (summary, folded.done, str(folded.problem) if folded.problem else None,
                  game_id))
    return folded


def check(conn: sqlite3.Connection) -> list[Problem]:
    """Every problem in the file: SQLite's integrity check, then every game's fold and its
    results rows against that fold."""
    problems = integrity(conn)
    for (game_id,) in conn.execute("SELECT id FROM games ORDER BY id").fetchall():
        folded = fold_rows(conn, game_id)
        if folded.problem:
            problems.append(folded.problem)
        else:
            problems.extend(results_differ(conn, game_id, folded))
    return problems


def log_results(folded: Folded) -> list[dict[str, Any]] | None:
    """The results the fold gives (as the file keeps them), or None while the game is on."""
    if not folded.rules.is_over(folded.state):
        return None
    return json.loads(dumps(folded.rules.results(folded.state)))


def results_differ(conn: sqlite3.Connection, game_id: int, folded: Folded) -> list[Problem]:
    """Each way a game's status and results rows differ from the fold of its log, named by
    seat: a row edited by hand, or written by something that is not the companion."""
    def differs(what: str) -> Problem:
        return Problem(game_id, None, what, kind="results")

    status = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    try:
        expected = log_results(folded)
    except Exception as problem:  # noqa: BLE001 - a state the rules cannot read: named
        return [Problem(game_id, None, "its log folds to a game the rules cannot read "
                                       f"({_why(problem)})")]
    if expected is None:
        if status == "finished":
            return [differs("it is stored as finished, but its log does not end the game")]
        return []
    out = [] if status == "finished" else [
        differs(f"it is stored as {shown(status)}, but its log ends the game")]
    stored = {row[0]: row for row in conn.execute(
        "SELECT seat, name, score, winner, detail FROM results WHERE game_id = ?", (game_id,))}
    folded_seats = {r["seat"]: r for r in expected}
    for seat in sorted(set(stored) | set(folded_seats), key=str):
        row, result = stored.get(seat), folded_seats.get(seat)
        if row is None:
            out.append(differs(f"seat {seat}: no results row; its log gives score "
                               f"{shown(result['score'])}"))
            continue
        if result is None:
            out.append(differs(f"seat {seat}: a results row (score {shown(row[2])}) its log "
                               "does not give"))
            continue
        for field, kept, given in (("name", row[1], result["name"]),
                                   ("score", row[2], result["score"]),
                                   ("winner", row[3], int(bool(result["winner"])))):
            if kept != given:
                out.append(differs(f"seat {seat}: {field} stored {shown(kept)}, its log "
                                   f"gives {shown(given)}"))
        try:
            detail = json.loads(row[4])
        except (TypeError, ValueError):
            detail = row[4]
        if detail != result and all(row[i] == v for i, v in (
                (1, result["name"]), (2, result["score"]), (3, int(bool(result["winner"]))))):
            out.append(differs(f"seat {seat}: its stored detail is not what its log gives"))
    return out


def _verbatim(value: Any) -> Any:
    """A stored value as JSON can carry it unchanged: text and numbers as they are, bytes (a
    row no companion wrote) as hex."""
    return {"hex": value.hex()} if isinstance(value, bytes) else value


def raw_log(conn: sqlite3.Connection, game_id: int) -> list[str]:
    """A game's rows exactly as stored, one JSON line each (the game, then each step with its
    events): for a game that does not fold, what a person or a later companion can still read.
    Nothing is parsed, so a malformed row comes out as it went in."""
    game, setup, status, created = conn.execute(
        "SELECT game, setup, status, created_at FROM games WHERE id = ?", (game_id,)).fetchone()
    lines = [json.dumps({"raw_log": game_id, "game": _verbatim(game), "setup": _verbatim(setup),
                         "status": _verbatim(status), "created_at": _verbatim(created)})]
    events: dict[Any, list[dict[str, Any]]] = {}
    for step, seq, type_, data, automatic, undoable in conn.execute(
            "SELECT step, seq, type, data, automatic, undoable FROM events WHERE game_id = ? "
            "ORDER BY step, seq", (game_id,)):
        events.setdefault(step, []).append(
            {"seq": seq, "type": _verbatim(type_), "data": _verbatim(data),
             "automatic": _verbatim(automatic), "undoable": _verbatim(undoable)})
    for n, command, status, created in conn.execute(
            "SELECT n, command, status, created_at FROM steps WHERE game_id = ? ORDER BY n",
            (game_id,)):
        lines.append(json.dumps({"n": n, "status": _verbatim(status),
                                 "command": _verbatim(command), "at": _verbatim(created),
                                 "events": events.get(n, [])}))
    return lines


def repair(conn: sqlite3.Connection, problems: list[Problem]) -> list[str]:
    """Set aside what keeps each game from playing (nothing is deleted); what was done. Results
    that differ from a log are written again by trust.write_log_results."""
    done: list[str] = []
    for problem in problems:
        if problem.game_id is None or problem.kind == "results":
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            if problem.step is None:
                conn.execute("UPDATE games SET status = 'abandoned' WHERE id = ?",
                             (problem.game_id,))
                done.append(f"game #{problem.game_id}: set aside as abandoned (kept in history; "
                            "this companion cannot play its setup)")
            else:
                count = conn.execute(
                    "UPDATE steps SET status = 'dropped' WHERE game_id = ? AND n >= ? "
                    "AND status != 'dropped'", (problem.game_id, problem.step)).rowcount
                # a state after a set-aside step must never be resumed from
                conn.execute("DELETE FROM checkpoints WHERE game_id = ? AND n >= ?",
                             (problem.game_id, problem.step))
                summarize(conn, problem.game_id)
                done.append(f"game #{problem.game_id}: {count} step(s) from step {problem.step} "
                            "on kept but left out; it resumes at its last good state")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return done
