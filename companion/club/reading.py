"""What the club's commands read and the admin writes at the club: seasons, the games of a
season for the league (or its standings as the club keeps them), the tables and how many games
each has sent."""

from __future__ import annotations

from datetime import date
from typing import Any

from companion.club.access import ClubRefused, role_for
from companion.club.league import MIN_GAMES, TEAM_GAMES, Finished, Standing, Table, ordered
from companion.club.status import HEARTBEAT, MISSED, read_tables


def _day(text: str, field: str) -> date:
    try:
        return date.fromisoformat(text)
    except (TypeError, ValueError):
        raise ClubRefused(f"{field}: {text!r} is not a date (write it as 2026-01-01)") from None


def add_season(admin: Any, name: str, starts: str, ends: str) -> None:
    """A season from ``starts`` to ``ends`` (both days included); ClubRefused for a bad name,
    dates out of order or a name already used."""
    role_for(name, "season")   # the same rule as a table's name
    first, last = _day(starts, "START"), _day(ends, "END")
    if last < first:
        raise ClubRefused(f"END: {ends} is before START {starts}")
    with admin.transaction():
        if admin.execute("SELECT 1 FROM club.seasons WHERE name = %s", (name,)).fetchone():
            raise ClubRefused(f"NAME: the club already has a season named {name!r}")
        admin.execute("INSERT INTO club.seasons (name, starts, ends) VALUES (%s, %s, %s)",
                      (name, first, last))
        admin.execute("SELECT club.club_league_fill(%s)", (name,))   # the games already there


def club_name(conn: Any) -> str | None:
    """The club's own name (``companion club name``), None when it has none yet."""
    row = conn.execute("SELECT value FROM club.settings WHERE key = 'name'").fetchone()
    return row[0] if row else None


def name_club(admin: Any, name: str) -> str:
    """Give the club its name (as the wall shows it); ClubRefused naming the rule."""
    from companion.core.values import clean_text
    from companion.core.errors import RuleViolation

    try:
        clean = clean_text(name, "NAME", limit=60, blank=False)
    except RuleViolation as problem:
        raise ClubRefused(str(problem)) from None
    if any(ch in clean for ch in "\t\n"):
        raise ClubRefused("NAME: a club's name is one line")
    admin.execute("INSERT INTO club.settings (key, value) VALUES ('name', %s) ON CONFLICT (key) "
                  "DO UPDATE SET value = excluded.value", (clean,))
    return clean


def season_of(conn: Any, name: str | None) -> tuple[str, date, date] | None:
    """The season named ``name``, or (None) the one today is in, else the latest; None when
    the club has no season."""
    if name is not None:
        row = conn.execute("SELECT name, starts, ends FROM club.seasons WHERE name = %s",
                           (name,)).fetchone()
        if row is None:
            raise ClubRefused(f"--season: the club has no season named {name!r}")
        return row
    return conn.execute("SELECT name, starts, ends FROM club.seasons ORDER BY "
                        "(current_date BETWEEN starts AND ends) DESC, ends DESC LIMIT 1"
                        ).fetchone()


def finished(conn: Any, season: tuple[str, date, date] | None,
             game: str | None = None) -> list[Finished]:
    """The finished games of the season (every one without a season), of one title or all, in
    play order, with their seats."""
    where, args = ["g.status = 'finished'"], []
    if season is not None:
        where.append("club.club_day(g.finished_at) BETWEEN %s AND %s")
        args += [season[1], season[2]]
    if game is not None:
        where.append("g.game = %s")
        args.append(game)
    games: dict[str, Finished] = {}
    seats: dict[str, list[tuple[str, str, bool, int]]] = {}
    for uuid, title, ended, profile, name, winner, place in conn.execute(
            "SELECT g.uuid::text, g.game, g.finished_at, s.profile::text, s.name, s.winner, "
            "s.place FROM club.games g JOIN club.seats s ON s.game = g.uuid WHERE "
            + " AND ".join(where) + " ORDER BY g.finished_at, g.uuid, s.seat", args):
        games.setdefault(uuid, Finished(title, uuid, ended.isoformat(), ()))
        seats.setdefault(uuid, []).append((profile, name, winner, place))
    return [Finished(g.game, g.uuid, g.finished_at, tuple(seats[u])) for u, g in games.items()]


def names(conn: Any) -> dict[str, str]:
    return dict(conn.execute("SELECT uuid::text, name FROM club.profiles"))


def tables(conn: Any) -> list[dict[str, Any]]:
    """Each table: its name, whether its companion has synced (its device), its games."""
    return [{"name": name, "device": device, "games": n, "last_game": last}
            for name, device, n, last in conn.execute(
                "SELECT t.name, t.device::text, count(g.uuid), max(g.received_at)::text "
                "FROM club.tables t LEFT JOIN club.games g ON g.device = t.device "
                "GROUP BY t.name, t.device "
                "ORDER BY t.name")]


def kept(conn: Any, season: str, game: str | None = None,
         minimum: int = MIN_GAMES) -> list[Table]:
    """The season's standings as the club keeps them (schema version 2): read, never worked
    out, so as fast at a million games as at ten. The ratings are as far as the rater got."""
    titles = {title: Table(title, title in TEAM_GAMES, games) for title, games in conn.execute(
        "SELECT game, sum(games)::int FROM club.league_counts WHERE season = %s AND (%s::text IS "
        "NULL OR game = %s) GROUP BY game ORDER BY game", (season, game, game))}
    for title, profile, name, games, wins, mu, sigma in conn.execute(
            "SELECT s.game, s.profile::text, coalesce(p.name, s.name), s.games, s.wins, s.mu, "
            "s.sigma FROM club.standings s LEFT JOIN club.profiles p ON p.uuid = s.profile "
            "WHERE s.season = %s AND (%s::text IS NULL OR s.game = %s)", (season, game, game)):
        titles[title].players.append(Standing(profile, name, games, wins, *rating(mu, sigma)))
    return [ordered(t, minimum) for t in titles.values()]


def rating(mu: Any, sigma: Any) -> tuple[float | None, float | None]:
    """A standing's figures as the club gave them, or (None, None), not rated, when they are
    not finite numbers within their ranges (the club checks them since schema version 4; a
    reader trusts no row: NaN is not JSON, and a board or `standings --json` would print it)."""
    from math import isfinite

    from companion.club.facts import MU_MOST, SIGMA_MOST

    ok = all(isinstance(x, (int, float)) and not isinstance(x, bool) and isfinite(x)
             for x in (mu, sigma))
    return (float(mu), float(sigma)) if ok and abs(mu) <= MU_MOST and \
        0 < sigma <= SIGMA_MOST else (None, None)


#: The recent games a wall screen shows.
RECENT = 8


def live_tables(conn: Any) -> tuple[list[dict[str, Any]], float | None]:
    """Every table with its live status (``status.read_tables``: what the table wrote, and
    whether it is online by the server's clock); and the seconds until the next online one
    turns offline (None: none will), so a wall screen looks again then, not every few seconds."""
    tables = read_tables(conn)
    soonest = min((MISSED * HEARTBEAT - t["age"] + 0.5 for t in tables if t["online"]),
                  default=None)
    return tables, soonest


def recent(conn: Any, limit: int = RECENT) -> list[dict[str, Any]]:
    """The club's latest finished games: title, table, end, and each seat's name, score and
    whether it won."""
    rows = conn.execute(
        "SELECT g.uuid::text, g.game, coalesce(t.name, ''), "
        "to_char(g.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') "
        "FROM club.games g LEFT JOIN club.tables t ON t.device = g.device "
        "WHERE g.status = 'finished' "
        "ORDER BY g.finished_at DESC, g.uuid DESC LIMIT %s", (limit,)).fetchall()
    seats: dict[str, list[dict[str, Any]]] = {r[0]: [] for r in rows}
    for game, name, score, winner in conn.execute(
            "SELECT s.game::text, coalesce(p.name, s.name), s.score, s.winner FROM club.seats s "
            "LEFT JOIN club.profiles p ON p.uuid = s.profile WHERE s.game = ANY(%s::uuid[]) "
            "ORDER BY s.game, s.seat", (list(seats),)):
        seats[game].append({"name": name, "score": score, "winner": winner})
    return [{"uuid": u, "game": g, "table": t, "finished_at": at, "seats": seats[u]}
            for u, g, t, at in rows]
