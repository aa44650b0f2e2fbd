"""``python -m benchmarks.league [--quick]``: the club on a PostgreSQL of its own: how
fast many tables send at once, how long a season's standings take at 100,000 and 1,000,000
games, and how soon the wall screen shows a new game. Figures to read, never asserted on.

- **Sending**: 200 tables (each its own login role, as ``add-table`` makes them) on 200
  connections at once, 50 games each, each game in its own transaction with the statements of
  a table's sync (``INSERT ... ON CONFLICT (uuid) DO NOTHING``, then its seats); every tenth game
  is sent a second time, as after a lost answer; all in the current season, so the league's
  counts are kept in the same transactions. Then: games/s, lost (sent but not at the club),
  doubled (rows beyond one a uuid), and the season's counts against the games.
- **Standings**: two past seasons of 100,000 and 1,000,000 games (four seats each, 2,000
  players, the three titles), written in bulk (the triggers off, then the season added, which
  counts them: ``club_league_fill``), read as ``companion club standings`` reads them
  (``reading.kept``), next to the full scan the kept table saves (the same counts by a
  ``GROUP BY`` over the season's games and seats), and the rater folding a season from its
  first game (games/s).
- **The board**: ``companion club board``'s server in-process on loopback, one page's event
  stream open, the seasons above in the database; a game committed -> the stream carries it
  (ms).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
import urllib.request
import uuid as uuids
from datetime import datetime, timedelta, timezone
from typing import Any, Callable

SEND_SQL = ("INSERT INTO club.games (uuid, device, game, status, started_at, finished_at, content, "
            "record) VALUES (%s, %s, %s, %s, %s, %s, %s, %s::jsonb) "
            "ON CONFLICT (uuid) DO NOTHING RETURNING uuid")
#: (tables, games each, games of the small season, of the large one, board samples, rounds)
SIZES = {"full": (200, 50, 100_000, 1_000_000, 20, 5),
         "quick": (200, 50, 100_000, 300_000, 10, 3),
         "tiny": (4, 5, 1_000, 2_000, 2, 1)}


def median_ms(call: Callable[[], Any], rounds: int) -> tuple[float, list[float]]:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), times


def sending(admin_url: str, tables: int, each: int) -> dict[str, Any]:
    """Every table sends its games at once, on its own connection and role."""
    import psycopg

    from companion.club.access import add_table
    from tests.club import making

    from companion.club.reading import add_season

    with psycopg.connect(admin_url, autocommit=True) as admin:
        today = datetime.now(timezone.utc).date()     # the season the games count in
        add_season(admin, "Now", str(today - timedelta(days=30)), str(today + timedelta(days=30)))
        roles = []
        for i in range(tables):
            settings = add_table(admin, f"Bench {i + 1}")
            device = str(uuids.uuid4())
            admin.execute("UPDATE club.tables SET device = %s WHERE role = %s",
                          (device, settings.role))
            roles.append((settings, device))
        players = making.profiles(admin, 400, roles[0][1], seed=11)
    import random

    rng = random.Random(5)
    now = datetime.now(timezone.utc)
    planned = [[making.game_rows(rng, players, device, now - timedelta(seconds=t * each + g))
                for g in range(each)] for t, (_, device) in enumerate(roles)]
    ready, errors = threading.Barrier(tables + 1), []
    added = [0] * tables

    def table(i: int) -> None:
        settings, _ = roles[i]
        try:
            with psycopg.connect(settings.conninfo, autocommit=True) as conn:
                ready.wait()
                for n, (game, seats) in enumerate(planned[i]):
                    for _ in range(2 if n % 10 == 9 else 1):
                        with conn.transaction():
                            if conn.execute(SEND_SQL, game).fetchone():
                                conn.cursor().executemany(making.SEAT_SQL, seats)
                                added[i] += 1
        except Exception as problem:   # noqa: BLE001 (counted and shown)
            errors.append(repr(problem))
            if not ready.broken:
                ready.abort()

    threads = [threading.Thread(target=table, args=(i,)) for i in range(tables)]
    for thread in threads:
        thread.start()
    ready.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    took = time.perf_counter() - started
    sent = {game[0] for games in planned for game, _ in games}
    with psycopg.connect(admin_url) as admin:
        there = {str(u) for (u,) in admin.execute("SELECT uuid FROM club.games")}
        rows = admin.execute("SELECT count(*) FROM club.games").fetchone()[0]
        seats = admin.execute("SELECT count(*) FROM club.seats").fetchone()[0]
        counted = admin.execute("SELECT sum(games) FROM club.league_counts WHERE season = 'Now'"
                                ).fetchone()[0]
    want_seats = sum(len(s) for games in planned for _, s in games)
    return {"tables": tables, "games": len(sent), "sends": len(sent) + len(sent) // 10,
            "seconds": took, "games_per_s": len(sent) / took, "lost": len(sent - there),
            "doubled": rows - len(there), "seats_missing": want_seats - seats,
            "miscounted": len(sent) - (counted or 0),
            "added": sum(added), "errors": errors[:3]}


def bulk_season(admin: Any, name: str, year: int, games: int, device: str) -> float:
    """``games`` finished games spread over ``year`` (triggers off), then the season added:
    the seconds its counting took."""
    from companion.club.reading import add_season

    admin.execute("SET session_replication_role = replica")   # the bulk rows: no triggers
    start = datetime(year, 1, 1, tzinfo=timezone.utc)
    step = timedelta(days=364) / games
    batch = 100_000
    for first in range(0, games, batch):
        n = min(batch, games - first)
        with admin.transaction():
            admin.execute("CREATE TEMP TABLE bulk ON COMMIT DROP AS SELECT i, "
                          "gen_random_uuid() AS uuid, %s::timestamptz + i * %s::interval AS at, "
                          "(ARRAY['witchs_brew', 'cauldron', 'quest'])[1 + i %% 3] AS title "
                          "FROM generate_series(%s::int, %s::int) i",
                          (start, step, first, first + n - 1))
            admin.execute(   # rows the club's checks take (schema version 4): a digest, a record
                "INSERT INTO club.games (uuid, device, game, status, started_at, finished_at, "
                "content, record) SELECT uuid, %s, title, 'finished', at - interval '40 "
                "minutes', at, encode(sha256(uuid::text::bytea), 'hex'), jsonb_build_object("
                "'uuid', uuid, 'game', title, 'status', 'finished', 'players', "
                "'[{\"seat\": 0, \"name\": \"A\"}, {\"seat\": 1, \"name\": \"B\"}, "
                "{\"seat\": 2, \"name\": \"C\"}, {\"seat\": 3, \"name\": \"D\"}]'::jsonb) "
                "FROM bulk", (device,))
            admin.execute(
                "INSERT INTO club.seats (game, seat, name, profile, score, winner, place) "
                "SELECT b.uuid, s, p.name, p.uuid, 10 + (b.i * 7 + s * 3) % 30, s = b.i % 4, "
                "CASE WHEN s = b.i % 4 THEN 1 ELSE 2 + (s + 4 - b.i % 4) % 4 - 1 END "
                "FROM bulk b CROSS JOIN generate_series(0, 3) s "
                "JOIN bench_pool p ON p.i = (b.i * 13 + s * 500) % 2000")
    admin.execute("SET session_replication_role = origin")
    admin.execute("ANALYZE club.games")
    admin.execute("ANALYZE club.seats")
    started = time.perf_counter()
    add_season(admin, name, f"{year}-01-01", f"{year}-12-31")
    return time.perf_counter() - started


FULL_SCAN = ("SELECT g.game, x.profile, count(*), count(*) FILTER (WHERE x.winner) "
             "FROM club.seasons s JOIN club.games g ON g.status = 'finished' AND "
             "club.club_day(g.finished_at) BETWEEN s.starts AND s.ends JOIN club.seats x "
             "ON x.game = g.uuid AND x.profile IS NOT NULL WHERE s.name = %s "
             "GROUP BY g.game, x.profile")


def standings(admin_url: str, small: int, large: int, rounds: int) -> list[str]:
    import psycopg

    from companion.club.rater import rate_due
    from companion.club.reading import kept
    from tests.club import making

    out = []
    with psycopg.connect(admin_url, autocommit=True) as admin:
        device = making.device(admin, "Bulk")
        pool = making.profiles(admin, 2000, device, seed=21)
        admin.execute("CREATE TABLE bench_pool (i int PRIMARY KEY, uuid uuid, name text)")
        admin.cursor().executemany("INSERT INTO bench_pool VALUES (%s, %s, %s)",
                                   [(i, u, n) for i, (u, n) in enumerate(pool)])
        for name, year, games in (("Small", 2024, small), ("Large", 2025, large)):
            started = time.perf_counter()
            counting = bulk_season(admin, name, year, games, device)
            out.append(f"season {name}, {games:,} games: written in "
                       f"{time.perf_counter() - started - counting:.0f} s, counted by "
                       f"club_league_fill in {counting:.1f} s")
        admin.execute("ANALYZE")
        for name, games in (("Small", small), ("Large", large)):
            ms, times = median_ms(lambda: kept(admin, name), rounds)
            players = sum(len(t.players) for t in kept(admin, name))
            scan, _ = median_ms(lambda: admin.execute(FULL_SCAN, (name,)).fetchall(),
                                max(1, rounds // 2))
            out.append(f"standings of {games:,} games ({players} player rows): {ms:.1f} ms "
                       f"(min {min(times):.1f}, max {max(times):.1f}); the full scan it saves "
                       f"{scan:.0f} ms; ratio {scan / ms:.0f}x")
        started = time.perf_counter()
        folded = rate_due(admin, "Small")
        took = time.perf_counter() - started
        out.append(f"the rater, season Small from its first game: {folded:,} games in "
                   f"{took:.1f} s ({folded / took:,.0f} games/s; quest is not rated)")
        ms, _ = median_ms(lambda: kept(admin, "Small"), rounds)
        out.append(f"standings of {small:,} games once rated: {ms:.1f} ms")
    return out


def board(admin_url: str, samples: int) -> list[str]:
    """A game committed -> the board's event stream carries it."""
    import json
    import random

    import psycopg

    from companion.club.access import add_wall
    from tests.club import making
    from tests.club.board_serving import served

    with psycopg.connect(admin_url, autocommit=True) as admin:
        wall = add_wall(admin, "Bench wall")
        device = making.device(admin, "Board bench")
        players = making.profiles(admin, 12, device, seed=31)
    rng = random.Random(7)
    times = []
    with served(wall.conninfo, "Now") as (_server, url), \
            psycopg.connect(admin_url, autocommit=True) as admin:
        stream = urllib.request.urlopen(url + "/events", timeout=30)
        latest: dict[str, Any] = {}
        arrived = threading.Condition()

        def read() -> None:
            try:
                for line in stream:
                    if line.startswith(b"data: "):
                        with arrived:
                            latest.update(json.loads(line[6:]))
                            arrived.notify_all()
            except (OSError, ValueError, AttributeError):   # closed at the end
                pass

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        for _ in range(samples):
            game, seats = making.game_rows(rng, players, device, datetime.now(timezone.utc))
            started = time.perf_counter()
            making.add(admin, game, seats)
            with arrived:
                arrived.wait_for(lambda: (latest.get("recent") or [{}])[0].get("uuid")
                                 == game[0], timeout=30)
            times.append((time.perf_counter() - started) * 1000)
            time.sleep(0.2)    # the rater's own notice settles between samples
    # The server stops first and ends the stream, so the reader's line returns: closing the
    # response while the reader waits for a line blocks until the next beat, 20 s.
    reader.join(10)
    stream.close()
    s = sorted(times)
    return [f"a game committed -> on the board's event stream: {statistics.median(s):.0f} ms "
            f"(min {s[0]:.0f}, max {s[-1]:.0f}, {len(s)} games)"]


def checks_cost(cluster: Any, games: int, rounds: int) -> str:
    """What the server's checks (schema version 3: domains, CHECKs, the seat and record
    triggers) cost a table's send: the same games sent one transaction each to a club at
    version 2 and to one at version 3, the batches alternating; the ratio of the medians."""
    import random

    import psycopg

    from companion.club.schema import init
    from tests.club import making

    clubs = []
    for upto, path in ((2, "public"), (3, "club")):
        url = cluster.url(cluster.new_database()) + f" options=-csearch_path={path}"
        conn = psycopg.connect(url, autocommit=True)
        init(conn, upto)
        conn.execute("SET search_path = " + path)
        device = str(uuids.uuid4())
        conn.execute("INSERT INTO tables (name, role, device) VALUES ('T', %s, %s)",
                     (f"club_table_{device[:8]}", device))
        players = making.profiles(conn, 12, device) if upto == 3 else [
            (str(uuids.uuid4()), f"Player {i}") for i in range(12)]
        if upto == 2:
            conn.cursor().executemany("INSERT INTO profiles (uuid, name, added_by) VALUES "
                                      "(%s, %s, %s)", [(u, n, device) for u, n in players])
        clubs.append((conn, device, players))
    rng = random.Random(9)
    now = datetime.now(timezone.utc)
    times: dict[int, list[float]] = {2: [], 3: []}
    for r in range(rounds):
        for version, (conn, device, players) in zip((2, 3), clubs):
            batch = [making.game_rows(rng, players, device, now - timedelta(minutes=g + r * games))
                     for g in range(games)]
            started = time.perf_counter()
            for game, seats in batch:
                with conn.transaction():
                    conn.execute(making.GAME_SQL.replace("club.", ""), game)
                    conn.cursor().executemany(making.SEAT_SQL.replace("club.", ""), seats)
            times[version].append((time.perf_counter() - started) * 1000 / games)
    for conn, _, _ in clubs:
        conn.close()
    v2, v3 = statistics.median(times[2]), statistics.median(times[3])
    return (f"one table sending {games} games x {rounds} rounds: {v2:.2f} ms a game at version "
            f"2, {v3:.2f} ms at version 3 (the server's checks); ratio of medians {v3 / v2:.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.league",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="a large season of 300,000 games instead of 1,000,000")
    parser.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)  # smoke test
    args = parser.parse_args(argv)
    kind = "tiny" if args.tiny else "quick" if args.quick else "full"
    tables, each, small, large, samples, rounds = SIZES[kind]
    import psycopg

    from companion.club.schema import init
    from tests.club.cluster import installed, running

    if not installed():
        print("club: PostgreSQL (initdb, pg_ctl) is not installed: no figures")
        return 1
    with running(f"-c max_connections={tables + 50} -c shared_buffers=256MB") as cluster:
        url = cluster.url(cluster.new_database())
        with psycopg.connect(url, autocommit=True) as conn:
            init(conn)
        print(f"club ({kind}): PostgreSQL {psycopg.connect(url).info.server_version}", flush=True)
        sent = sending(url, tables, each)
        print(f"  sending: {sent['tables']} tables x {each} games at once: {sent['games']:,} "
              f"games ({sent['sends']:,} sends, every tenth twice) in {sent['seconds']:.1f} s:"
              f" {sent['games_per_s']:,.0f} games/s; {sent['lost']} lost, {sent['doubled']} "
              f"doubled, {sent['seats_missing']} seats missing, {sent['miscounted']} miscounted "
              "in the season's standings"
              + (f"; errors: {sent['errors']}" if sent["errors"] else ""), flush=True)
        for line in standings(url, small, large, rounds):
            print(f"  standings: {line}", flush=True)
        for line in board(url, samples):     # with the seasons' games there
            print(f"  board: {line}", flush=True)
        print(f"  checks: {checks_cost(cluster, 50 if kind == 'tiny' else 500, rounds + 2)}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
