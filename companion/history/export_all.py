"""``companion export --all``: every finished game (and with ``unfinished`` the others) for
another program: a spreadsheet (csv, one row per seat of each game, so a sheet can sum and
filter by player), a JSON list, or JSON lines (one game a line, so a file can be appended to
and read a game at a time). Read from the rows kept for the lists (companion.history.plays),
never from a game's log; a game's log as a table script stays ``companion export --log``.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Sequence

from companion.history.plays import Play
from companion.store_schema import COMPACT

FORMATS = ("csv", "json", "jsonl")

#: The csv's columns, one row per seat.
CSV_COLUMNS = ("id", "game", "title", "status", "started", "finished", "length_minutes",
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
                p.id, p.game, p.title, p.status, p.started, p.finished or "",
                "" if p.minutes is None else p.minutes, s.seat, s.name,
                "" if s.score is None else s.score, int(s.winner), "; ".join(p.winners),
                "; ".join(p.variants), json.dumps(p.setup, separators=COMPACT,
                                                  ensure_ascii=False)])
    return out.getvalue()


def as_json(plays: Sequence[Play]) -> str:
    return json.dumps([p.as_dict() for p in plays], indent=2, ensure_ascii=False) + "\n"


def as_jsonl(plays: Sequence[Play]) -> str:
    return "".join(json.dumps(p.as_dict(), separators=COMPACT, ensure_ascii=False) + "\n"
                   for p in plays)


def render(plays: Sequence[Play], fmt: str) -> str:
    """The plays in ``fmt`` (one of FORMATS)."""
    return {"csv": as_csv, "json": as_json, "jsonl": as_jsonl}[fmt](plays)
