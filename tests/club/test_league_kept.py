"""The league as the club keeps it (schema version 2) against the league worked out from the
games themselves: the counts kept by the triggers, the ratings folded by the rater in play order,
a late game that makes the rater work its season's title out again, a season added after its
games, a rater running while games arrive; the NOTIFY a wall screen listens for; and what a
table's role may not write there."""

from __future__ import annotations

import os
import random
import threading
from datetime import timedelta

import psycopg
import pytest

from companion.club import access
from companion.club.league import standings
from companion.club.rater import due, rate_due
from companion.club.reading import add_season, finished, kept, names, season_of
from tests.club import making
from tests.club.making import PATH
from tests.club.cluster import unique


def _figures(tables) -> dict:
    return {(t.game, p.profile): (p.games, p.wins, p.mu, p.sigma) for t in tables
            for p in t.players}


def same_as_worked_out(conn, season: str) -> None:
    """The kept standings equal the ones worked out from the games, rating for rating."""
    rate_due(conn, season)
    assert due(conn, season) == []
    chosen = season_of(conn, season)
    want = _figures(standings(finished(conn, chosen), names(conn)))
    have = _figures(kept(conn, season))
    assert set(have) == set(want)
    for key, (games, wins, mu, sigma) in want.items():
        assert have[key][:2] == (games, wins), key
        if mu is None:
            assert have[key][2:] == (None, None), key
        else:
            assert have[key][2] == pytest.approx(mu, abs=1e-9), key
            assert have[key][3] == pytest.approx(sigma, abs=1e-9), key


def _season(conn, name="Spring", starts="2026-03-01", ends="2026-05-31") -> str:
    add_season(conn, name, starts, ends)
    return name


def test_kept_standings_equal_the_worked_out_ones_with_late_games(club):
    rng = random.Random(3)
    with psycopg.connect(club, autocommit=True) as conn:
        season = _season(conn)
        device = making.device(conn)
        players = making.profiles(conn, 8, device)
        games = [making.game_rows(rng, players, device, making.START + timedelta(hours=i))
                 for i in range(60)]
        rng.shuffle(games)        # sent in no order: many end before games already rated
        for game in games[:40]:
            making.add(conn, *game)
        assert rate_due(conn) > 0
        same_as_worked_out(conn, season)
        late = games[40:]
        for game in late[:10]:
            making.add(conn, *game)
        marks = dict(conn.execute("SELECT game, late FROM league_titles WHERE game <> 'quest'"))
        assert any(marks.values())
        same_as_worked_out(conn, season)
        for game in late[10:]:
            making.add(conn, *game)
        same_as_worked_out(conn, season)
        # outside the season: counted in no standings
        making.add(conn, *making.game_rows(rng, players, device,
                                           making.START - timedelta(days=3)))
        assert sum(t.games for t in kept(conn, season)) == 60


def test_a_season_added_after_its_games_is_filled(club):
    rng = random.Random(4)
    with psycopg.connect(club, autocommit=True) as conn:
        device = making.device(conn)
        players = making.profiles(conn, 6, device, seed=2)
        for i in range(20):
            making.add(conn, *making.game_rows(rng, players, device,
                                               making.START + timedelta(days=i)))
        assert conn.execute("SELECT count(*) FROM league_titles").fetchone() == (0,)
        season = _season(conn, "March", "2026-03-01", "2026-03-10")    # 10 of the 20
        assert sum(t.games for t in kept(conn, season)) == 10
        same_as_worked_out(conn, season)


def test_a_rater_while_games_arrive_misses_none(club):
    rng = random.Random(5)
    with psycopg.connect(club, autocommit=True) as conn:
        season = _season(conn)
        device = making.device(conn)
        players = making.profiles(conn, 10, device, seed=3)
        games = [making.game_rows(rng, players, device, making.START + timedelta(minutes=i),
                                  "witchs_brew") for i in range(150)]
    rng.shuffle(games)
    stop = threading.Event()

    def rater() -> None:
        with psycopg.connect(club, autocommit=True) as mine:
            while not stop.is_set():
                rate_due(mine)

    thread = threading.Thread(target=rater, daemon=True)
    thread.start()
    try:
        with psycopg.connect(club, autocommit=True) as conn:
            for game in games:
                making.add(conn, *game)
    finally:
        stop.set()
        thread.join(60)
    with psycopg.connect(club, autocommit=True) as conn:
        same_as_worked_out(conn, season)
        assert conn.execute("SELECT sum(games), min(rated) FROM league_counts JOIN "
                            "league_titles USING (season, game)").fetchone() == (150, 150)


def test_games_and_status_are_notified_to_a_wall(club):
    with psycopg.connect(club, autocommit=True) as admin:
        wall = access.add_wall(admin, unique("wn"))
    with psycopg.connect(wall.conninfo + PATH, autocommit=True) as listener, \
            psycopg.connect(club, autocommit=True) as conn:
        for channel in ("club_games", "club_status", "club_league"):
            listener.execute(f"LISTEN {channel}")
        device = making.device(conn)
        players = making.profiles(conn, 4, device)
        game, seats = making.game_rows(random.Random(1), players, device, making.START)
        making.add(conn, game, seats)
        conn.execute("INSERT INTO status (device, game) VALUES (%s, 'quest')", (device,))
        conn.execute("UPDATE status SET data = '{\"round\": 2}' WHERE device = %s", (device,))
        heard = [(n.channel, n.payload) for n in listener.notifies(timeout=5, stop_after=3)]
    assert heard[0][0] == "club_games" and game[0] in heard[0][1]
    assert heard[1:] == [("club_status", device)] * 2


def test_a_table_role_writes_no_figures_and_no_other_tables_seats(club, tmp_path):
    from tests.club.test_club import joined, played
    from companion.club.sync import ClubSync
    from companion.store import Store

    with psycopg.connect(club, autocommit=True) as conn:
        _season(conn, "All", "2000-01-01", "2100-12-31")
    db = tmp_path / "a.sqlite3"
    played(db, {"witchs_brew": 1}, 11)
    sa, sb = (access.load(joined(club, unique(f"t{x}"), tmp_path)) for x in "kl")
    with Store(db) as store:
        assert ClubSync(store.conn, store.device_id, sa).send().sent == 1
    with psycopg.connect(club) as conn:
        (a_game,) = conn.execute("SELECT uuid FROM games").fetchone()
    with psycopg.connect(sb.conninfo + PATH, autocommit=True) as b:
        for sql in ("UPDATE seats SET score = 99, winner = true WHERE game = %s",
                    "INSERT INTO seats (game, seat, name, winner, place) "
                    "VALUES (%s, 9, 'Mallory', true, 1)",
                    "UPDATE standings SET wins = 99 WHERE season = 'All' AND %s IS NOT NULL",
                    "UPDATE league_counts SET games = 0 WHERE %s IS NOT NULL",
                    "DELETE FROM standings WHERE %s IS NOT NULL"):
            # refused by its privileges, or (a seat for another's game) by the club's check
            with pytest.raises((psycopg.errors.InsufficientPrivilege,
                                psycopg.errors.CheckViolation)):
                b.execute(sql, (a_game,))
    with psycopg.connect(club) as conn:
        assert conn.execute("SELECT count(*) FILTER (WHERE score = 99 OR name = 'Mallory') "
                            "FROM seats").fetchone() == (0,)
        assert conn.execute("SELECT sum(games) FROM league_counts").fetchone() == (1,)
