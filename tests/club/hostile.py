"""What the club's hostile-role tests share (tests/club/test_boundary.py, test_bounds.py): a
login as one of the roles, everything a write could change, a game sent as a table's sync
sends it, and a write tried as table A: accepted, or refused with nothing changed."""

from __future__ import annotations

import hashlib
import json
import uuid as uuids
from contextlib import contextmanager
from typing import Any, Iterator

import psycopg
import pytest

from companion.club import access
from tests.club.cluster import unique

#: How the server refuses: a privilege, a constraint or check, a value that is no value.
REFUSED = (psycopg.errors.InsufficientPrivilege, psycopg.IntegrityError, psycopg.DataError)


def made_roles(club: str) -> dict[str, Any]:
    """A table (A) and another (B), both with their devices claimed, a wall and a rater."""
    with psycopg.connect(club, autocommit=True) as admin:
        made = {"table": access.add_table(admin, unique("ba")),
                "other": access.add_table(admin, unique("bb")),
                "wall": access.add_wall(admin, unique("bw")),
                "rater": access.add_rater(admin, unique("br"))}
        devices = {}
        for kind in ("table", "other"):
            devices[kind] = str(uuids.uuid4())
            admin.execute("UPDATE club.tables SET device = %s WHERE role = %s",
                          (devices[kind], made[kind].role))
    made["devices"], made["admin"] = devices, club
    return made


@contextmanager
def login(settings: access.Settings) -> Iterator[Any]:
    with psycopg.connect(settings.conninfo, autocommit=True) as conn:
        yield conn


def counts(club: str) -> dict[str, Any]:
    """Everything a hostile write could change: each relation's rows, as text."""
    with psycopg.connect(club) as conn:
        return {name: conn.execute(f"SELECT coalesce(string_agg(t::text, '|' ORDER BY t::text),"
                                   f" '') FROM club.{name} t").fetchone()[0]
                for (name,) in conn.execute("SELECT relname FROM pg_class WHERE relnamespace = "
                                            "'club'::regnamespace AND relkind = 'r'")}


def _record(game_uuid: str, title: str, names: list[str]) -> str:
    return json.dumps({"uuid": game_uuid, "game": title, "status": "finished",
                       "players": [{"seat": i, "name": n} for i, n in enumerate(names)]})


def send(conn: Any, device: str, *, title: str = "cauldron", names: list[str] | None = None,
         places: list[int] | None = None, scores: list[int | None] | None = None,
         started: str = "now() - interval '40 minutes'", finished: str = "now()",
         record: str | None = None, content: str | None = None, game_uuid: str | None = None,
         also: tuple[str, str] | None = None, profiles: list[str] | None = None,
         winners: list[bool] | None = None) -> str:
    """One game and its seats in one transaction, as a table's sync sends it (the times as SQL
    expressions); its uuid."""
    names = names if names is not None else ["Anna", "Ben", "Cleo"]
    places = places if places is not None else list(range(1, len(names) + 1))
    scores = scores if scores is not None else [10] * len(names)
    game_uuid = game_uuid or str(uuids.uuid4())
    profiles = profiles or [None] * len(names)
    winners = winners if winners is not None else [p == 1 for p in places]
    column, value = (", " + also[0], ", " + also[1]) if also else ("", "")
    with conn.transaction():
        conn.execute(
            f"INSERT INTO club.games (uuid, device, game, status, started_at, finished_at, "
            f"content, record{column}) VALUES (%s, %s, %s, 'finished', {started}, {finished}, "
            f"%s, %s::jsonb{value})",
            (game_uuid, device, title, content or hashlib.sha256(game_uuid.encode()).hexdigest(),
             record or _record(game_uuid, title, names)))
        conn.cursor().executemany(
            "INSERT INTO club.seats (game, seat, name, profile, score, winner, place) VALUES "
            "(%s, %s, %s, %s, %s, %s, %s)",
            [(game_uuid, i, n, who, s, w, p) for i, (n, who, s, p, w) in
             enumerate(zip(names, profiles, scores, places, winners))])
    return game_uuid


def tried(roles: dict, sql: str, args: tuple, accepted: bool) -> None:
    """``sql`` as table A: accepted (a row more), or refused with nothing changed."""
    before = counts(roles["admin"])
    with login(roles["table"]) as conn:
        if accepted:
            conn.execute(sql, args)
        else:
            with pytest.raises(REFUSED):
                conn.execute(sql, args)
    assert (counts(roles["admin"]) == before) is not accepted
