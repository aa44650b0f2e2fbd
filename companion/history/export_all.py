"""``companion export --all``: every finished game (and with ``unfinished`` the others) for
another program: a spreadsheet (csv, one row per seat of each game, so a sheet can sum and
filter by player), a JSON list, or JSON lines (one game a line, so a file can be appended to
and read a game at a time). The csv is read from the rows kept for the lists
(companion.history.plays), never from a game's log. Each json and jsonl game also carries, under
``stored``, what another table needs to rebuild it (``companion import``, companion/history/
merge.py): its setup, times and clocks as stored, each seat's player profile (uuid, name, short
name, colour), its log (every step with its events, as stored) and its results.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from typing import Any, Mapping, Sequence

from companion.history.plays import Play
from companion.store.schema import COMPACT, has_column

FORMATS = ("csv", "json", "jsonl")

#: The csv's columns, one row per seat.
CSV_COLUMNS = ("id", "uuid", "game", "title", "status", "started", "finished", "length_minutes",
               "seat", "player", "score", "winner", "winners", "variants", "setup")


def as_csv(plays: Sequence[Play]) -> str:
    """One row per seat; ``winner`` 1 or 0, ``winners`` and ``variants`` joined with "; ",
    ``setup`` as compact JSON; an empty cell where there is nothing (no score yet, no end)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for p in plays:
        for s in p.seats:
            writer.writerow([
                p.id, p.uuid or "", p.game, p.title, p.status, p.started, p.finished or "",
                "" if p.minutes is None else p.minutes, s.seat, s.name,
                "" if s.score is None else s.score, int(s.winner), "; ".join(p.winners),
                "; ".join(p.variants), json.dumps(p.setup, separators=COMPACT,
                                                  ensure_ascii=False)])
    return out.getvalue()


#: A stored game's record keeps these under ``stored``.
STORED = "stored"
Stored = Mapping[int, dict[str, Any]]


def _record(play: Play, stored: Stored | None) -> dict[str, Any]:
    record = play.as_dict()
    if stored is not None and play.id in stored:
        record[STORED] = stored[play.id]
    return record


def as_json(plays: Sequence[Play], stored: Stored | None = None) -> str:
    return json.dumps([_record(p, stored) for p in plays], indent=2, ensure_ascii=False) + "\n"


def as_jsonl(plays: Sequence[Play], stored: Stored | None = None) -> str:
    return "".join(json.dumps(_record(p, stored), separators=COMPACT, ensure_ascii=False) + "\n"
                   for p in plays)


def render(plays: Sequence[Play], fmt: str, stored: Stored | None = None) -> str:
    """The plays in ``fmt`` (one of FORMATS); json and jsonl with each game's ``stored``
    record when given (stored_records)."""
    if fmt == "csv":
        return as_csv(plays)
    return {"json": as_json, "jsonl": as_jsonl}[fmt](plays, stored)


def _parsed(text: Any) -> Any:
    """A stored JSON text as its value; a row that is not JSON (a step set aside by a repair)
    as the text itself, so the record still carries it as stored."""
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text


def stored_records(conn: sqlite3.Connection, plays: Sequence[Play]) -> dict[int, dict[str, Any]]:
    """What another table needs to rebuild each play, by game id: the setup and times as
    stored (UTC), the clocks, each seat's profile, the log and the results. Reads each game's
    log (four statements a game). A reader's file from before version 4 has no uuids and no
    profiles: no records (its games cannot be imported until the companion has opened it)."""
    if not has_column(conn, "games", "uuid"):
        return {}
    return {play.id: stored_record(conn, play.id) for play in plays}


def stored_record(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """One game's ``stored`` record (stored_records), from a file of version 4 or later."""
    setup, created, updated, finished = conn.execute(
        "SELECT setup, created_at, updated_at, finished_at FROM games WHERE id = ?",
        (game_id,)).fetchone()
    seats = [{"seat": seat, "name": name,
              "profile": None if ident is None else {
                  "uuid": ident, "name": pname, "short_name": short, "colour": colour}}
             for seat, name, ident, pname, short, colour in conn.execute(
                 "SELECT p.seat, p.name, pr.uuid, pr.name, pr.short_name, pr.colour FROM "
                 "players p LEFT JOIN profiles pr ON pr.id = p.profile_id WHERE "
                 "p.game_id = ? ORDER BY p.seat", (game_id,))]
    events: dict[int, list[dict[str, Any]]] = {}
    for step, type_, data, automatic, undoable in conn.execute(
            "SELECT step, type, data, automatic, undoable FROM events WHERE game_id = ? "
            "ORDER BY step, seq", (game_id,)):
        events.setdefault(step, []).append({"type": type_, "data": _parsed(data),
                                            "automatic": bool(automatic),
                                            "undoable": bool(undoable)})
    log = [{"n": n, "command": _parsed(command), "status": status, "source": source,
            "created_at": at, "events": events.get(n, [])}
           for n, command, status, source, at in conn.execute(
               "SELECT n, command, status, source, created_at FROM steps WHERE game_id = ? "
               "ORDER BY n", (game_id,))]
    results = [_parsed(detail) for (detail,) in conn.execute(
        "SELECT detail FROM results WHERE game_id = ? ORDER BY seat", (game_id,))]
    clocks = conn.execute("SELECT data, updated_at FROM clocks WHERE game_id = ?",
                          (game_id,)).fetchone()
    return {"setup": _parsed(setup), "created_at": created, "updated_at": updated,
            "finished_at": finished, "clocks": _parsed(clocks[0]) if clocks else None,
            "clocks_at": clocks[1] if clocks else None,
            "seats": seats, "log": log, "results": results}

