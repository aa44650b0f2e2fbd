"""The league's ratings kept at the club (schema version 2): for each season and title with games
not yet folded in, the rater folds them into each player's (mu, sigma) in play order (their end,
then their uuid), from where it stopped, and writes the result in one short transaction.

openskill's ratings depend on the order of the games. A game that arrives after a later one was
already folded in (a table that was offline, a clock behind) is marked ``late`` by the trigger
that counts it; the rater then works the season's title out again from its first game. While it
does, the standings show the ratings as they were (the counts are already up to date).

Nothing here holds a lock while it computes: it reads, folds, then takes the title's lock
alone (``club_title_lock``: every sender of that season's title holds it shared until its
commit, so the rater waits for those in flight and new ones wait for it, then see how far it
got), checks that what it read is still all there is up to its last game (the same games
counted) and that no other rater moved on; otherwise it reads again. Only a role in
``club_rater`` may run it (``companion club add-rater``; since schema version 3 no table and no
wall is one): it alone writes these derived figures.
"""

from __future__ import annotations

from typing import Any

from companion.club.league import TEAM_GAMES, fold
from companion.club.limits import LOCK_WAIT, through_stalls

#: The season's days as UTC instants, as club.club_day() counts them.
_IN_SEASON = ("g.finished_at >= (s.starts::timestamp AT TIME ZONE 'UTC') AND "
              "g.finished_at < ((s.ends + 1)::timestamp AT TIME ZONE 'UTC')")
_AFTER = "(%(at)s::timestamptz IS NULL OR (g.finished_at, g.uuid) > (%(at)s, %(uuid)s::uuid))"
#: Rows fetched at a time from the server's cursor (a season of a million games fits no list).
_BATCH = 5000


def due(conn: Any, season: str | None = None) -> list[tuple[str, str]]:
    """The (season, title) pairs whose ratings lag their games."""
    return [(s, g) for s, g in conn.execute(
        "SELECT t.season, t.game FROM club.league_titles t JOIN (SELECT season, game, sum(games) "
        "AS games FROM club.league_counts GROUP BY season, game) c USING (season, game) "
        "WHERE (t.rated < c.games OR t.late) AND (%s::text IS NULL OR t.season = %s) "
        "AND t.game <> ALL(%s) ORDER BY t.season, t.game",
        (season, season, sorted(TEAM_GAMES)))]


def rate_due(conn: Any, season: str | None = None) -> int:
    """Fold every game due (of one season, or all); how many games were folded (each once,
    however many seasons it is in). ``conn``: autocommit."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    # a lock the rater cannot have within this is a table's open transaction: ended once
    # stalled (companion/club/limits.py), then tried again
    conn.execute(f"SET lock_timeout = '{LOCK_WAIT}'")
    folded: set[Any] = set()         # a game in two seasons is folded into each: one game
    for s, g in due(conn, season):
        rate_title(conn, model, s, g, folded)
    return len(folded)


def _mark(conn: Any, season: str, game: str, lock: bool = False) -> tuple:
    return conn.execute(
        "SELECT rated, through_at, through_uuid, late FROM club.league_titles WHERE season = %s "
        "AND game = %s" + (" FOR UPDATE" if lock else ""), (season, game)).fetchone()


def rate_title(conn: Any, model: Any, season: str, game: str,
               folded_games: set[Any] | None = None) -> int:
    """Fold the season's title's games due; how many (their uuids added to ``folded_games``)."""
    while True:
        these: set[Any] = set()
        mark = _mark(conn, season, game)
        fresh = mark[3] or mark[1] is None
        ratings: dict[str, tuple[float, float]] = {} if fresh else {
            str(p): (mu, sigma) for p, mu, sigma in conn.execute(
                "SELECT profile, mu, sigma FROM club.standings WHERE season = %s AND game = %s "
                "AND mu IS NOT NULL", (season, game))}
        where = {"season": season, "game": game, "at": None if fresh else mark[1],
                 "uuid": None if fresh else mark[2]}
        changed: set[str] = set()
        folded, last = 0, None
        with conn.transaction():
            cursor = conn.cursor(name="club_rater")
            cursor.itersize = _BATCH
            cursor.execute(
                "SELECT g.uuid, g.finished_at, x.profile::text, x.place FROM club.seasons s "
                "JOIN club.games g ON g.game = %(game)s AND g.status = 'finished' AND "
                f"{_IN_SEASON} AND {_AFTER} JOIN club.seats x ON x.game = g.uuid "
                "WHERE s.name = %(season)s ORDER BY g.finished_at, g.uuid, x.seat", where)
            seats: list[tuple[str, str, bool, int]] = []
            for uuid, ended, profile, place in cursor:
                if last is not None and uuid != last[1]:
                    changed.update(fold(model, ratings, seats))
                    folded, seats = folded + 1, []
                last = (ended, uuid)
                these.add(uuid)
                seats.append((profile, "", False, place))
            if last is not None:
                changed.update(fold(model, ratings, seats))
                folded += 1
            cursor.close()
        if last is None:
            return 0
        rows = [(ratings[p][0], ratings[p][1], season, game, p) for p in changed]
        if through_stalls(conn, lambda: _written(conn, season, game, mark, fresh, where, last,
                                                 folded, rows)):
            if folded_games is not None:
                folded_games.update(these)
            return folded


def _written(conn: Any, season: str, game: str, mark: tuple, fresh: bool,
             where: dict[str, Any], last: tuple, folded: int, rows: list[tuple]) -> bool:
    """Write the ratings if the games read are still all up to the last one; False: read
    again."""
    with conn.transaction():
        # alone: every sender of this title (each holds it shared to its commit) is done, and
        # any new one waits, then reads where this rater got to
        conn.execute("SELECT pg_advisory_xact_lock(club.club_title_lock(%s, %s))",
                     (season, game))
        if _mark(conn, season, game, lock=True) != mark:
            return False                          # another rater moved on, or a late game
        there = conn.execute(
            "SELECT count(*) FROM club.seasons s JOIN club.games g ON g.game = %(game)s AND "
            f"g.status = 'finished' AND {_IN_SEASON} AND {_AFTER} AND "
            "(g.finished_at, g.uuid) <= (%(last_at)s, %(last_uuid)s) WHERE s.name = %(season)s",
            {**where, "last_at": last[0], "last_uuid": last[1]}).fetchone()[0]
        if there != folded:
            return False                          # a game arrived among those read
        if fresh:
            conn.execute("UPDATE club.standings SET mu = NULL, sigma = NULL WHERE season = %s AND "
                         "game = %s", (season, game))
        conn.cursor().executemany("UPDATE club.standings SET mu = %s, sigma = %s WHERE season = %s "
                                  "AND game = %s AND profile = %s", rows)
        conn.execute("UPDATE club.league_titles SET rated = %s, through_at = %s, "
                     "through_uuid = %s, "
                     "late = false WHERE season = %s AND game = %s",
                     ((0 if fresh else mark[0]) + folded, last[0], last[1], season, game))
        conn.execute("SELECT pg_notify('club_league', %s)", (season,))
    return True
