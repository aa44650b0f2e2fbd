"""A table's live status at the club: what the wall and ``companion club status`` show of each
table now (the title, where the game stands, the seats and their scores, since when).

``status_of`` is pure: it takes the phones' snapshot (companion/view/snapshot.py ``table_view``) and keeps
what a room needs to see. The sync thread (companion/club/sync.py) writes it with ``write`` on a
change, at most once every MIN_GAP seconds, and again every HEARTBEAT seconds while nothing
changes. Every time here is the server's (``now()``): a table whose clock is a day off still
shows the right "since" and is not taken for offline. ``read_tables`` says a table is offline
when the server last heard from it more than MISSED heartbeats ago, by the server's clock.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from companion.core.errors import RuleViolation
from companion.core.values import clean_text, shown

#: Seconds between two writes of an unchanged status (the table is alive).
HEARTBEAT = 30.0
#: The shortest time between two writes of a changing status.
MIN_GAP = 1.0
#: Heartbeats missed before a table shows as offline.
MISSED = 3
#: The figure each competitive title scores by, as its seat tiles name it.
SCORES = {"witchs_brew": "Points", "cauldron": "Magik"}
#: A table with no game in play.
IDLE: dict[str, Any] = {"state": "idle", "game": None, "title": None, "game_id": None,
                        "stands": [], "asks": "", "seats": []}


def status_of(view: Mapping[str, Any] | None, game_id: int | None = None) -> dict[str, Any]:
    """The status of a table from its snapshot (None: no game in play). ``game_id``: the game's
    id at this table, so a new game (or its end) starts a new "since"."""
    if view is None:
        return dict(IDLE)
    result = {s["seat"]: s for s in (view.get("result") or {}).get("seats", [])}
    score_by = SCORES.get(view["game"])
    seats = []
    for seat in view["seats"]:
        figures = {f[0]: f[1] for f in seat.get("figures", [])}
        ended = result.get(seat["seat"])
        score = ended["score"] if ended is not None else figures.get(score_by)
        seats.append({"name": seat["name"], "colour": seat["colour"],
                      "score": None if view.get("cooperative") else score,
                      "winner": bool(ended and ended["winner"]),
                      "awaited": bool(seat.get("awaited"))})
    return {"state": "over" if view["over"] else "playing", "game": view["game"],
            "title": view["title"], "game_id": game_id, "stands": list(view.get("stands", [])),
            "asks": (view.get("result") or {}).get("text") if view["over"] else view["asks"],
            "seats": seats}


#: A time as the status keeps it: ISO UTC to the second.
_ISO = "to_char({} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
#: The status as the table's own row. Its times are the server's, set by the club's trigger
#: (schema version 3, ``club_status_dated``): ``updated_at`` now, "since" now when the game or
#: its state changed, else kept; a table cannot choose either.
_WRITE = """
INSERT INTO club.status AS s (device, game, data)
VALUES (club.club_device(), %(game)s, %(data)s::jsonb)
ON CONFLICT (device) DO UPDATE SET game = excluded.game, data = excluded.data
RETURNING updated_at"""


def write(club: Any, status: Mapping[str, Any]) -> Any:
    """Write this table's status (``club``: its psycopg connection, autocommit); returns the
    server's time of the write."""
    return club.execute(_WRITE, {"game": status.get("game"),
                                 "data": json.dumps(dict(status), ensure_ascii=False)}
                        ).fetchone()[0]


def online(age: float | None, heartbeat: float = HEARTBEAT) -> bool:
    """Whether a table last heard ``age`` seconds ago (None: never) is online."""
    return age is not None and age <= MISSED * heartbeat


#: The widest score a status shows (the club's own bound, companion/club/boundary.py).
_SCORE = 1_000_000


def admitted(data: Any) -> dict[str, Any] | None:
    """A status read from the club as this table would show it, only the fields it shows;
    RuleViolation naming the field when it is not one (another table may write anything the
    club's checks let through, and a club before schema version 4 let a seat without a name
    through). None stays None (never heard from)."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise RuleViolation(f"status: an object, not {shown(data)}")
    state = data.get("state", "idle")
    if state not in ("idle", "playing", "over"):
        raise RuleViolation(f"state: idle, playing or over, not {shown(state)}")
    seats = data.get("seats") or []
    if not isinstance(seats, list) or len(seats) > 8:
        raise RuleViolation("seats: a list of at most 8")
    out_seats = []
    for n, seat in enumerate(seats, 1):
        if not isinstance(seat, dict):
            raise RuleViolation(f"seat {n}: an object, not {shown(seat)}")
        score = seat.get("score")
        if score is not None and (isinstance(score, bool) or not isinstance(score, int)
                                  or abs(score) > _SCORE):
            raise RuleViolation(f"seat {n}'s score: a whole number within {_SCORE:,}, not "
                                f"{shown(score)}")
        out_seats.append({"name": clean_text(seat.get("name"), f"seat {n}'s name", limit=40,
                                             blank=False, line=True),
                          "score": score, "winner": seat.get("winner") is True,
                          "colour": seat.get("colour") if isinstance(seat.get("colour"), str)
                          else None, "awaited": seat.get("awaited") is True})
    stands = data.get("stands") or []
    if not isinstance(stands, list) or len(stands) > 8:
        raise RuleViolation("stands: a list of at most 8 lines")
    texts = {k: (None if data.get(k) is None else clean_text(data.get(k), k, limit=limit))
             for k, limit in (("title", 60), ("game", 40), ("since", 40), ("asks", 500))}
    game_id = data.get("game_id")
    return {"state": state, **texts, "seats": out_seats,
            "game_id": game_id if isinstance(game_id, int) and not isinstance(game_id, bool)
            else None,
            "stands": [clean_text(line, f"stands line {i}", limit=200)
                       for i, line in enumerate(stands, 1)]}


def read_tables(conn: Any, heartbeat: float = HEARTBEAT) -> list[dict[str, Any]]:
    """Every table of the club with its live status: its name, ``status`` (what ``status_of``
    gave, with "since"), ``heard`` (the server's time of its last write, ISO), ``age`` (seconds
    since, by the server's clock) and ``online``. For the wall and ``companion club status``."""
    out = []
    for name, device, data, heard, age in conn.execute(
            f"SELECT t.name, t.device::text, s.data, "
            f"{_ISO.format('s.updated_at')}, "
            f"extract(epoch FROM now() - s.updated_at)::float8 "
            f"FROM club.tables t LEFT JOIN club.status s ON s.device = t.device ORDER BY t.name"):
        try:
            status, refused = admitted(data), None
        except RuleViolation as problem:   # one line naming the table it came from
            status, refused = None, f"{shown(name, 60)}: its status is not one this table " \
                                    f"shows ({' '.join(str(problem).split())})"
        out.append({"name": name, "device": device, "status": status, "heard": heard,
                    "age": None if age is None else round(age, 1),
                    "online": online(age, heartbeat) and refused is None,
                    "refused": refused})
    return out


def in_words(table: Mapping[str, Any]) -> str:
    """One line for a table: what it plays (or that it is idle) and whether it is online."""
    if table.get("refused"):
        return table["refused"]
    status = table.get("status") or {}
    if not table.get("online"):
        heard = table.get("heard")
        return f"{table['name']}: offline" + (f" (last heard {heard})" if heard else
                                              " (never heard from)")
    seats = ", ".join(s["name"] + ("" if s.get("score") is None else f" {s['score']}")
                      + (" (won)" if s.get("winner") else "") for s in status.get("seats", []))
    if status.get("state") == "playing":
        where = "; ".join(status.get("stands") or [])
        return (f"{table['name']}: playing {status['title']} since {status.get('since')}"
                + (f" ({where})" if where else "") + (f": {seats}" if seats else ""))
    if status.get("state") == "over":
        return f"{table['name']}: {status['title']} over since {status.get('since')}: {seats}"
    return f"{table['name']}: no game in play (since {status.get('since')})"
