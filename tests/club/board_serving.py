"""The wall screen's server on 127.0.0.1 (a free port), on a thread and loop of its own, for the
tests and the benchmark; and a club filled for it (tables, live status, a season, games)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from contextlib import contextmanager
from datetime import timedelta
from typing import Any, Iterator

from tests.club import making


@contextmanager
def served(conninfo: str, season: str | None = None, club: str = "",
           rater: str | None = None) -> Iterator[tuple[Any, str]]:
    """(the BoardServer, its address) while the block runs."""
    from aiohttp import web

    from ui.web.board.server import BoardServer

    server = BoardServer(conninfo, season, club, rater)
    loop = asyncio.new_event_loop()
    server.loop = loop                # a test's way in: loop.call_soon_threadsafe(...)
    runner = web.AppRunner(server.make_app(), handle_signals=False, access_log=None,
                           shutdown_timeout=1.0)

    async def start() -> int:
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        return runner.addresses[0][1]

    port = loop.run_until_complete(start())
    thread = threading.Thread(target=loop.run_forever, name="board", daemon=True)
    thread.start()
    try:
        yield server, f"http://127.0.0.1:{port}"
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=15)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def playing(title: str, names: list[str], scores: list[int | None], stands: list[str],
            asks: str = "") -> dict[str, Any]:
    """A status as a table writes it (companion/club/status.py's shape)."""
    game = {"Witch's Brew": "witchs_brew", "Cauldron Quest": "quest"}.get(title, title.lower())
    return {"state": "playing", "game": game, "title": title, "game_id": 1,
            "stands": stands, "asks": asks, "since": None,
            "seats": [{"name": n, "colour": "#ffd166", "score": s, "winner": False,
                       "awaited": False} for n, s in zip(names, scores)]}


def set_status(conn: Any, device: str, data: dict[str, Any], ago_s: float = 0.0) -> None:
    """A table's status, written ``ago_s`` seconds ago by the server's clock."""
    conn.execute(
        "INSERT INTO status (device, game, data, updated_at) VALUES (%s, %s, "
        "jsonb_set(%s::jsonb, '{since}', to_jsonb(to_char((now() - make_interval(secs => %s) "
        "- interval '25 minutes') AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))), "
        "now() - make_interval(secs => %s)) ON CONFLICT (device) DO UPDATE SET "
        "game = excluded.game, data = excluded.data, updated_at = excluded.updated_at",
        (device, data.get("game"), json.dumps(data), ago_s, ago_s))


def filled(conn: Any, games: int = 120, seed: int = 7) -> dict[str, Any]:
    """A club of five tables (one offline, one never joined), a season, 16 players and
    ``games`` finished games ending before now; the names the page should show."""
    from companion.club.reading import add_season

    add_season(conn, "Winter 2026", "2026-01-01", "2026-12-31")
    devices = [making.device(conn, f"Table {i}") for i in range(1, 5)]
    conn.execute("INSERT INTO tables (name, role) VALUES ('Table 5', 'club_table_unjoined')")
    names = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Farah", "Gus", "Hana", "Ivo", "Jun",
             "Kai", "Lena", "Milo", "Nora", "Oskar", "Pia"]
    players = list(zip([p for p, _ in making.profiles(conn, len(names), devices[0], seed)],
                       names))
    conn.execute("UPDATE profiles SET name = v.name FROM (SELECT unnest(%s::uuid[]) AS uuid, "
                 "unnest(%s::text[]) AS name) v WHERE profiles.uuid = v.uuid",
                 ([p for p, _ in players], names))
    rng = random.Random(seed)
    end = making.START.replace(month=11)
    for i in range(games):
        making.add(conn, *making.game_rows(rng, players, devices[i % 4],
                                           end + timedelta(minutes=37 * i)))
    set_status(conn, devices[0], playing("Witch's Brew", ["Anna", "Ben", "Cleo", "Dora"],
                                         [12, 9, 15, 7], ["Set 2 of 3", "Round 4"]))
    set_status(conn, devices[1], playing("Cauldron", ["Emil", "Farah", "Gus"], [21, 18, 30],
                                         ["Market season"]))
    set_status(conn, devices[2], playing("Cauldron Quest", ["Hana", "Ivo"], [None, None],
                                         ["Wizard at 5"]))
    set_status(conn, devices[3], playing("Cauldron", ["Jun", "Kai"], [3, 4], []), ago_s=300)
    return {"devices": devices, "players": players, "offline": "Table 4"}
