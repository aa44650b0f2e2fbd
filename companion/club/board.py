"""What the club's wall screen shows, as data (the page draws it: ui/web/board/): the tables now
(online or not, by the server's clock), the season's standings as the club keeps them, and the
latest games. Read in a few indexed queries, whatever the number of games."""

from __future__ import annotations

from typing import Any

from companion.club.league import MIN_GAMES
from companion.club.reading import club_name, kept, live_tables, recent, season_of

#: Players shown per title (a room reads the top of the table, not all of it).
SHOWN = 5
#: The latest games it shows.
LATEST = 6


def titles() -> dict[str, str]:
    from companion.games import all_games

    return {name: rules.title for name, rules in all_games().items()}


def board(conn: Any, season: str | None = None, club: str = "",
          shown: int = SHOWN) -> tuple[dict[str, Any], float | None]:
    """The wall's snapshot, and the seconds until a table online now would turn offline (the
    board looks again then; None: no table online). ``club``: the name shown when the club has
    none of its own (``companion club name``)."""
    names = titles()
    chosen = season_of(conn, season)
    tables, soonest = live_tables(conn)
    standings = [] if chosen is None else [
        {"game": t.game, "title": names.get(t.game, t.game), "team": t.team, "games": t.games,
         "players": [p.as_dict(MIN_GAMES) for p in t.players[:shown]],
         "more": max(0, len(t.players) - shown)}
        for t in kept(conn, chosen[0])]
    games = recent(conn, LATEST)
    for game in games:
        game["title"] = names.get(game["game"], game["game"])
    return {
        "club": club_name(conn) or club,
        "season": None if chosen is None else {"name": chosen[0],
                                               "starts": chosen[1].isoformat(),
                                               "ends": chosen[2].isoformat()},
        "min_games": MIN_GAMES,
        "tables": [{k: v for k, v in t.items() if k != "age"} for t in tables],
        "standings": standings,
        "recent": games,
        "unreachable": None,
    }, soonest
