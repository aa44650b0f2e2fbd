"""The history screen's questions, asked of the rows each game keeps for the lists: how many
finished games a filter keeps, one page of them newest first, the players a filter can name,
and one game as a play. Never a log, never a fold: a page costs five statements whatever the
history holds.

A filter names a title (a game's name, "witchs_brew") and a player: a seat name as stored, or,
in a database whose seats link to player profiles (``players.profile_id``, schema version 4),
a profile's uuid, so two people who share a name stay apart and a renamed one stays together.
A file from before profiles is read as it is (``has_column``); its players are their names.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from companion.core.errors import CompanionError
from companion.history.plays import Play, plays_by_id, read_play
from companion.store.schema import has_column


@dataclass(frozen=True)
class Filter:
    """Which finished games: of one title (None: all), with one player (None: anyone), named
    by a stored seat name or by a profile's uuid (not both)."""

    game: str | None = None
    name: str | None = None
    profile: str | None = None


@dataclass(frozen=True)
class Player:
    """A player the filter can pick: what the picker shows, and what it filters by."""

    label: str
    name: str | None
    profile: str | None

    @property
    def filter_keys(self) -> dict[str, str | None]:
        return {"name": self.name, "profile": self.profile}


def has_profiles(conn: sqlite3.Connection) -> bool:
    return has_column(conn, "players", "profile_id") and has_column(conn, "profiles", "uuid")


def _where(conn: sqlite3.Connection, chosen: Filter) -> tuple[str, list[Any]]:
    """The condition on ``games`` (aliased g) and its arguments; CompanionError naming the
    field for a filter this file cannot answer."""
    parts, args = ["g.status = 'finished'"], []
    if chosen.game is not None:
        parts.append("g.game = ?")
        args.append(chosen.game)
    if chosen.name is not None and chosen.profile is not None:
        raise CompanionError("player: filter by a name or by a profile, not both")
    if chosen.name is not None:
        parts.append("g.id IN (SELECT game_id FROM players WHERE name = ?)")
        args.append(chosen.name)
    if chosen.profile is not None:
        if not has_profiles(conn):
            raise CompanionError("profile: this database keeps no player profiles (it is from "
                                 "before version 4); filter by a name")
        parts.append("g.id IN (SELECT pl.game_id FROM players pl JOIN profiles pr ON "
                     "pr.id = pl.profile_id WHERE pr.uuid = ?)")
        args.append(chosen.profile)
    return " AND ".join(parts), args


def count(conn: sqlite3.Connection, chosen: Filter = Filter()) -> int:
    """How many finished games the filter keeps."""
    where, args = _where(conn, chosen)
    return conn.execute(f"SELECT count(*) FROM games g WHERE {where}", args).fetchone()[0]


def page(conn: sqlite3.Connection, chosen: Filter = Filter(), limit: int = 20,
         offset: int = 0) -> list[Play]:
    """``limit`` finished games from ``offset``, newest first (by when they started, then by
    number): each as a play, read from the lists' rows."""
    if limit < 0 or offset < 0:
        raise CompanionError(f"page: limit and offset are counts, not {limit} and {offset}")
    where, args = _where(conn, chosen)
    ids = [row[0] for row in conn.execute(
        f"SELECT g.id FROM games g WHERE {where} ORDER BY g.created_at DESC, g.id DESC "
        "LIMIT ? OFFSET ?", (*args, limit, offset))]
    return plays_by_id(conn, ids)


def play(conn: sqlite3.Connection, game_id: int) -> Play | None:
    """One stored game as a play (any status), or None when there is no such game."""
    return read_play(conn, game_id)


def players(conn: sqlite3.Connection, game: str | None = None) -> list[Player]:
    """The players of the finished games (of ``game`` when given), who played last first:
    profiles where the file links seats to them (a shared name told apart by a number), the
    seat names otherwise."""
    scope = "g.status = 'finished'" + (" AND g.game = ?" if game else "")
    args = [game] if game else []
    if has_profiles(conn):
        rows = conn.execute(
            "SELECT pr.uuid, pr.name, max(g.created_at) AS last FROM players pl "
            "JOIN games g ON g.id = pl.game_id JOIN profiles pr ON pr.id = pl.profile_id "
            f"WHERE {scope} GROUP BY pr.id ORDER BY last DESC, pr.name", args).fetchall()
        seen: dict[str, int] = {}
        out = []
        for uuid, name, _ in rows:
            seen[name] = seen.get(name, 0) + 1
            label = name if seen[name] == 1 else f"{name} ({seen[name]})"
            out.append(Player(label, None, uuid))
        return out
    rows = conn.execute(
        "SELECT pl.name, max(g.created_at) AS last FROM players pl JOIN games g ON "
        f"g.id = pl.game_id WHERE {scope} GROUP BY pl.name ORDER BY last DESC, pl.name",
        args).fetchall()
    return [Player(name, name, None) for name, _ in rows]


