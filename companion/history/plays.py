"""Every stored game as one record (a *play*): title, when, how long, who sat where with what
score, who won, and how it was set up, with the game's uuid and each seat's profile, read in
five statements from the rows each game keeps for the lists, never from its log.

A game's length is its table clock's game time (paused time and time the app was closed do not
count) when the app kept one, else the time from its start to its end as stored. Times are
stored in UTC; a play gives them in local time, as the table lived them.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import date, datetime, time, timezone
from typing import Any, Sequence

from companion.core.errors import CompanionError
from companion.store.schema import has_column
from companion.store.steps import loads_all

#: Setup keys that are the seats themselves (or the game's name), not how the game was set up.
NOT_SETUP = frozenset({"game", "players", "colours", "characters"})


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    #: None while a game has no results (running or abandoned).
    score: int | None
    winner: bool
    #: What the game's own ``results`` keep beside the score (Cauldron: place, character,
    #: brews; Witch's Brew: tiebreak), as stored.
    detail: dict[str, Any]
    #: The uuid of the player profile the seat is linked to (companion/store/profiles.py); None in
    #: a file from before profiles.
    profile: str | None = None


@dataclass(frozen=True)
class Play:
    id: int
    game: str
    title: str
    status: str
    #: Local time, ISO 8601 with the offset.
    started: str
    finished: str | None
    #: Minutes, one decimal; None for a game that has neither a clock nor an end.
    minutes: float | None
    seats: tuple[Seat, ...]
    variants: tuple[str, ...]
    #: The rest of the setup as stored (settings, milestones, starter...), without the seats.
    setup: dict[str, Any]
    #: The game's uuid, the same on every table it is imported into, and the device id of
    #: the database that played it (None in a file from before version 4).
    uuid: str | None = None
    device: str | None = None

    @property
    def winners(self) -> list[str]:
        return [s.name for s in self.seats if s.winner]

    def as_dict(self) -> dict[str, Any]:
        """The play as JSON keeps it (the json and jsonl exports, ``stats --json``'s input)."""
        return {"id": self.id, "uuid": self.uuid, "device": self.device, "game": self.game,
                "title": self.title, "status": self.status,
                "started": self.started, "finished": self.finished,
                "length_minutes": self.minutes,
                "players": [{"seat": s.seat, "name": s.name, "profile": s.profile,
                             "score": s.score, "winner": s.winner, **_extra(s.detail)}
                            for s in self.seats],
                "winners": self.winners, "variants": list(self.variants), "setup": self.setup}


def _extra(detail: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in detail.items()
            if k not in ("seat", "name", "profile", "score", "winner")}


def local_iso(stored: str | None) -> str | None:
    """A stored UTC time as local ISO 8601 with its offset."""
    if stored is None:
        return None
    moment = datetime.fromisoformat(stored)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone().isoformat(timespec="seconds")


def since_bound(text: str) -> str:
    """``--since``: a local date (2026-11-01: from its midnight) or a local date and time, as
    the stored UTC text to compare with; CompanionError naming the field for anything else."""
    try:
        if len(text.strip()) == 10:
            moment = datetime.combine(date.fromisoformat(text.strip()), time())
        else:
            moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise CompanionError(f"--since: {text!r} is not a date (write it as 2026-11-01, or "
                             "2026-11-01T18:30 for a time too)") from None
    if moment.tzinfo is None:
        moment = moment.astimezone()  # a local time, as the table lives it
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def _minutes(created: str, finished: str | None, clock: float | None) -> float | None:
    if clock is not None:
        return round(clock / 60, 1)
    if finished is None:
        return None
    spent = datetime.fromisoformat(finished) - datetime.fromisoformat(created)
    return round(max(0.0, spent.total_seconds()) / 60, 1)


#: A game's row as the plays read it: with its uuid and device where the file keeps them.
_GAME_ROW = "SELECT id, game, status, setup, created_at, finished_at, {ident} FROM games"


def _game_row(conn: sqlite3.Connection) -> str:
    known = has_column(conn, "games", "uuid")  # a reader's file from before version 4: none
    return _GAME_ROW.format(ident="uuid, device" if known else "NULL, NULL")


def _assemble(conn: sqlite3.Connection, rows: list[tuple[Any, ...]], scope: str,
              args: Sequence[Any]) -> list[Play]:
    """The plays of these game rows, in their order: their seats (with results for a finished
    game, with the profiles they link to where the file keeps them) and table clocks read in
    four statements over ``scope``, an SQL condition on ``game_id`` with its ``args``."""
    from companion.games import all_games

    if not rows:
        return []
    titles = {name: rules.title for name, rules in all_games().items()}
    linked: dict[tuple[int, int], str] = {}  # (game, seat) -> profile uuid
    if has_column(conn, "players", "profile_id") and has_column(conn, "profiles", "uuid"):
        linked = {(gid, seat): ident for gid, seat, ident in conn.execute(
            f"SELECT p.game_id, p.seat, pr.uuid FROM players p JOIN profiles pr ON pr.id = "
            f"p.profile_id WHERE p.{scope}", args)}
    found = conn.execute(f"SELECT game_id, seat, name, score, winner, detail, "
                         f"json_valid(detail) FROM results WHERE {scope} "
                         "ORDER BY game_id, seat", args).fetchall()
    seats: dict[int, list[Seat]] = {}
    for (gid, seat, name, score, winner, _, _), detail in zip(found, loads_all(found, 5)):
        seats.setdefault(gid, []).append(Seat(seat, name, score, bool(winner), detail,
                                              linked.get((gid, seat))))
    scored = set(seats)   # the others have no results (running or abandoned): their seats
    for gid, seat, name in conn.execute(
            f"SELECT game_id, seat, name FROM players WHERE {scope} ORDER BY game_id, seat",
            args):
        if gid not in scored:
            seats.setdefault(gid, []).append(Seat(seat, name, None, False, {},
                                                  linked.get((gid, seat))))
    clocks: dict[int, float] = {}
    if has_column(conn, "clocks", "data"):  # a file from before clocks has none
        for gid, seconds in conn.execute(
                f"SELECT game_id, json_extract(data, '$.game') FROM clocks WHERE {scope} "
                "AND json_valid(data)", args):
            if isinstance(seconds, (int, float)) and seconds > 0:
                clocks[gid] = float(seconds)
    plays = []
    for gid, game, status, setup_text, created, finished, game_uuid, device in rows:
        setup = json.loads(setup_text)
        plays.append(Play(
            gid, game, titles.get(game, game), status, local_iso(created) or created,
            local_iso(finished), _minutes(created, finished, clocks.get(gid)),
            tuple(seats.get(gid, ())), tuple(str(v) for v in setup.get("variants") or ()),
            {k: v for k, v in setup.items() if k not in NOT_SETUP and k != "variants"},
            game_uuid, device))
    return plays


def read_plays(conn: sqlite3.Connection, *, since: str | None = None,
               unfinished: bool = False) -> list[Play]:
    """The finished games (with ``unfinished`` the running and abandoned ones too), oldest
    first; ``since``: only games started at or after this stored (UTC) time (since_bound)."""
    where = ["1 = 1" if unfinished else "status = 'finished'"]
    args: list[Any] = []
    if since is not None:
        where.append("created_at >= ?")
        args.append(since)
    condition = " AND ".join(where)
    rows = conn.execute(f"{_game_row(conn)} WHERE {condition} ORDER BY id", args).fetchall()
    return _assemble(conn, rows, f"game_id IN (SELECT id FROM games WHERE {condition})", args)


def plays_by_id(conn: sqlite3.Connection, ids: Sequence[int]) -> list[Play]:
    """The stored games ``ids`` as plays (any status), in that order; an id with no game is
    left out. A page of the history, or one game: its own rows only."""
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = {row[0]: row for row in conn.execute(f"{_game_row(conn)} WHERE id IN ({marks})",
                                                 list(ids))}
    return _assemble(conn, [rows[gid] for gid in ids if gid in rows],
                     f"game_id IN ({marks})", list(ids))


def read_play(conn: sqlite3.Connection, game_id: int) -> Play | None:
    """One stored game as a play (running and abandoned ones too), None when there is no such
    game: that game's rows only, however long the history."""
    found = plays_by_id(conn, [game_id])
    return found[0] if found else None
