"""Games made straight at the club, as the admin, for the league's tests, the wall screen's and
the benchmark: the rows a table's sync writes (games, seats, profiles), without a companion."""

from __future__ import annotations

import hashlib
import json
import random
import uuid as uuids
from datetime import datetime, timedelta, timezone
from typing import Any, Sequence

TITLES = ("witchs_brew", "cauldron", "quest")
START = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)


def profiles(conn: Any, n: int, device: str, seed: int = 1) -> list[tuple[str, str]]:
    """``n`` club profiles: (uuid, name)."""
    rng = random.Random(seed)
    made = [(str(uuids.UUID(int=rng.getrandbits(128), version=4)), f"Player {i + 1}")
            for i in range(n)]
    conn.cursor().executemany("INSERT INTO club.profiles (uuid, name, added_by) "
                              "VALUES (%s, %s, %s) "
                              "ON CONFLICT DO NOTHING", [(u, name, device) for u, name in made])
    return made


def game_rows(rng: random.Random, players: Sequence[tuple[str, str]], device: str,
              ended: datetime, title: str | None = None) -> tuple[tuple, list[tuple]]:
    """One finished game's row and its seats' rows (3 to 5 seats, one winner or, in Cauldron
    Quest, all or none)."""
    title = title or rng.choice(TITLES)
    uuid = str(uuids.UUID(int=rng.getrandbits(128), version=4))
    chosen = rng.sample(list(players), rng.randint(3, min(5, len(players))))
    record = {"uuid": uuid, "game": title, "status": "finished",
              "players": [{"seat": i, "name": n} for i, (_, n) in enumerate(chosen)]}
    game = (uuid, device, title, "finished", ended - timedelta(minutes=40), ended,
            hashlib.sha256(uuid.encode()).hexdigest(), json.dumps(record))
    if title == "quest":
        won = rng.random() < 0.5
        seats = [(uuid, i, n, p, None, won, 1) for i, (p, n) in enumerate(chosen)]
    else:
        scores = [rng.randint(0, 40) for _ in chosen]
        order = sorted(range(len(chosen)), key=lambda i: -scores[i])
        place = {seat: 1 + sum(scores[o] > scores[seat] for o in order) for seat in order}
        seats = [(uuid, i, n, p, scores[i], place[i] == 1, place[i])
                 for i, (p, n) in enumerate(chosen)]
    return game, seats


GAME_SQL = ("INSERT INTO club.games (uuid, device, game, status, started_at, finished_at, content, "
            "record) VALUES (%s, %s, %s, %s, %s, %s, %s, %s::jsonb)")
SEAT_SQL = ("INSERT INTO club.seats (game, seat, name, profile, score, winner, place) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s)")


def add(conn: Any, game: tuple, seats: list[tuple]) -> None:
    """One game in its own transaction, as a table's sync sends it."""
    with conn.transaction():
        conn.execute(GAME_SQL, game)
        conn.cursor().executemany(SEAT_SQL, seats)


def device(conn: Any, name: str = "Bench") -> str:
    """A table at the club with its device claimed: its device id."""
    made = str(uuids.uuid4())
    conn.execute("INSERT INTO club.tables (name, role, device) VALUES (%s, %s, %s)",
                 (name, f"club_table_{made[:8]}", made))
    return made


#: Appended to a role's connection string in a test whose own SQL names the club's relations
#: unqualified (a session's own path: the club's functions fix theirs).
PATH = " options=-csearch_path=club"
