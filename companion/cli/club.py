"""``companion club``: the club's store on PostgreSQL (companion/club/). The admin's commands
(``init``, ``add-table``, ``add-wall``, ``season add``) take the admin's connection (URL, or
$COMPANION_CLUB_URL); a table's (``join``, ``sync``, ``status``, ``standings``) use the settings
``add-table`` printed, kept by ``join`` in a file only the companion's user reads; ``board`` (the
wall screen's server) plugs in from ui/web/board/ (``companion.club_commands``). Every failure
is one line naming what is wrong, with no password in it."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from companion.cli.files import open_database, print_json, say
from companion.cli.plugins import found, plug_in
from companion.cli.status import EXIT_DONE, Unusable
from companion.club import access
from companion.core.errors import CompanionError

HELP = "the club: many tables, one league, on PostgreSQL"


def add_arguments(p: argparse.ArgumentParser) -> dict[str, Callable[[argparse.Namespace], int]]:
    sub = p.add_subparsers(dest="club", metavar="CLUB_COMMAND", required=True)
    admin = "the admin's connection (libpq URL; default $COMPANION_CLUB_URL)"
    q = sub.add_parser("init", help="make or bring the club's database up to date")
    q.add_argument("url", metavar="URL", help=admin)
    for name, what in (("add-table", "a table: its own role; prints its settings once"),
                       ("add-wall", "a wall screen: a read-only role; prints its settings")):
        q = sub.add_parser(name, help=what)
        q.add_argument("name", metavar="NAME")
        q.add_argument("--url", help=admin)
        q.add_argument("-o", "--output", help="write the settings to this file (mode 600) "
                                              "instead of standard output")
    q = sub.add_parser("join", help="keep the settings add-table printed for this companion")
    q.add_argument("file", metavar="FILE", help="the settings add-table printed")
    q.add_argument("--settings", help="where to keep them (default: club.json in the "
                                      "companion's config folder, or $COMPANION_CLUB)")
    q.add_argument("--force", action="store_true", help="replace settings kept before")
    q = sub.add_parser("season", help="the club's seasons")
    seasons = q.add_subparsers(dest="season_command", metavar="SEASON_COMMAND", required=True)
    q = seasons.add_parser("add", help="a season from START to END (dates, both included)")
    q.add_argument("name", metavar="NAME")
    q.add_argument("start", metavar="START")
    q.add_argument("end", metavar="END")
    q.add_argument("--url", help=admin)
    for name, what in (("sync", "send this table's finished games to the club"),
                       ("status", "this table's outbox and the club's tables now "
                                  "(offline: not heard for three heartbeats)"),
                       ("standings", "games, wins, win rate and rating per title")):
        q = sub.add_parser(name, help=what)
        q.add_argument("--settings", help="the club settings (default: as join keeps them)")
        if name != "standings":
            q.add_argument("--db", help="the database (default: the user data directory)")
        q.add_argument("--json", action="store_true", help="as JSON")
    q.add_argument("--season", metavar="NAME", help="this season (default: today's, else "
                                                    "the latest; every game without seasons)")
    q.add_argument("--game", metavar="TITLE", help="only this game (its title or name)")
    q.add_argument("--min-games", type=int, default=None, metavar="N",
                   help="games to be ranked (default 3)")
    # the wall screen's server (ui/web/board/) and any other plugged in from outside
    p.set_defaults(club_plugins=plug_in(sub, found("companion.club_commands").values()))
    return {"club": run}


def run(args: argparse.Namespace) -> int:
    try:
        return (COMMANDS.get(args.club) or args.club_plugins[args.club])(args)
    except CompanionError as problem:
        raise Unusable(access.words(problem)) from None
    except Exception as problem:
        if type(problem).__module__.startswith("psycopg"):
            raise Unusable(f"the club's database: {access.words(problem)}") from None
        raise


@contextmanager
def _connect(conninfo: str | None) -> Iterator[Any]:
    import psycopg

    conninfo = conninfo or os.environ.get("COMPANION_CLUB_URL")
    if not conninfo:
        raise Unusable("--url: the admin's connection is needed (or set COMPANION_CLUB_URL)")
    with psycopg.connect(conninfo, connect_timeout=10, autocommit=True) as conn:
        yield conn


def _settings_path(args: argparse.Namespace) -> Path:
    return Path(args.settings) if args.settings else access.default_path()


def init(args: argparse.Namespace) -> int:
    from companion.club.schema import init as make

    with _connect(args.url) as conn:
        found, now = make(conn)
    say(f"The club's database is at version {now}" + (
        f" (it was at {found})." if found else " (made now).") if found != now else
        f"The club's database is at version {now}: nothing to do.")
    return EXIT_DONE


def _handed(args: argparse.Namespace, make: Callable[[Any, str], access.Settings]) -> int:
    with _connect(args.url) as conn:
        settings = make(conn, args.name)
    if args.output:
        access.save(settings, Path(args.output))
        say(f"{settings.name}: role {settings.role}; its settings are in {args.output} "
            "(mode 600). Give that file to the table (companion club join FILE).")
    else:
        sys.stdout.write(settings.as_json())
    return EXIT_DONE


def join(args: argparse.Namespace) -> int:
    from companion.files.read import Unreadable, read_regular

    try:
        text = read_regular(args.file, "config").decode("utf-8", "replace")
    except Unreadable as problem:
        raise Unusable(str(problem)) from None
    settings = access.parse(text, args.file)
    path = access.save(settings, _settings_path(args), force=args.force)
    say(f"This companion is table {settings.name!r} of the club {settings.club!r}; its "
        f"settings are in {path} (readable by this user only).")
    return EXIT_DONE


def season(args: argparse.Namespace) -> int:
    from companion.club.reading import add_season

    with _connect(args.url) as conn:
        add_season(conn, args.name, args.start, args.end)
    say(f"Season {args.name!r}: {args.start} to {args.end}.")
    return EXIT_DONE


def sync(args: argparse.Namespace) -> int:
    from companion.club.sync import CLOCK_TOLERANCE, ClubSync, clock_words

    settings = access.load(_settings_path(args))
    with open_database(args.db) as store:
        report = ClubSync(store.conn, store.device_id, settings).send()
    if args.json:
        print_json(vars(report))
    else:
        say(f"Sent {report.sent} game(s); {report.already} already at the club; "
            f"{len(report.conflicts)} conflict(s).")
        for conflict in report.conflicts:
            say(f"  conflict: {conflict}")
        if report.profiles_sent or report.profiles_brought:
            say(f"Players: {report.profiles_sent} sent to the club, {report.profiles_brought} "
                "brought from it.")
        for note in report.notes:
            say(f"  {note}")
        if report.skew is not None and abs(report.skew) > CLOCK_TOLERANCE:
            say(f"This table's clock is {clock_words(report.skew)} the club's: the games "
                "were dated by the club's clock.")
    if report.error:
        raise Unusable(f"the club could not be reached or refused ({report.error}); the "
                       "games wait and are sent at the next sync")
    return EXIT_DONE


def status(args: argparse.Namespace) -> int:
    from companion.club.reading import tables
    from companion.club.status import in_words, read_tables
    from companion.club.sync import counts

    settings = access.load(_settings_path(args))
    with open_database(args.db, create=False) as store:
        outbox = counts(store.conn) if store is not None else {}
        errors = [e for (e,) in store.conn.execute(
            "SELECT error FROM outbox WHERE error IS NOT NULL ORDER BY tried_at DESC "
            "LIMIT 1")] if store is not None else []
    out: dict[str, Any] = {"club": settings.club, "table": settings.name, "outbox": outbox,
                           "last_error": errors[0] if errors else None}
    try:
        with _connect(settings.conninfo) as conn:
            now = {t["name"]: t for t in read_tables(conn)}
            out["tables"] = [dict(t, **{k: now[t["name"]][k] for k in
                                        ("status", "heard", "age", "online")})
                             for t in tables(conn)]
    except Exception as problem:   # noqa: BLE001 (the server away: said, not raised)
        out["tables"], out["unreachable"] = None, access.words(problem, settings.conninfo)
    if args.json:
        print_json(out)
        return EXIT_DONE
    say(f"Table {settings.name!r} of the club {settings.club!r}: " + ", ".join(
        f"{n} {state}" for state, n in outbox.items()) + " in the outbox.")
    if out["last_error"]:
        say(f"Last error: {out['last_error']}")
    if out["tables"] is None:
        say(f"The club cannot be reached: {out['unreachable']}")
    for t in out["tables"] or []:
        state = "has synced" if t["device"] else "never synced"
        say(f"  {in_words(t)}; {t['games']} game(s), {state}")
    return EXIT_DONE


def standings(args: argparse.Namespace) -> int:
    from companion.club.league import MIN_GAMES, standings as compute
    from companion.club.rater import rate_due
    from companion.club.reading import finished, kept, names, season_of
    from companion.games import all_games
    from companion.history.stats import find_game

    titles = {name: rules.title for name, rules in all_games().items()}
    game = find_game(titles, args.game) if args.game else None
    minimum = MIN_GAMES if args.min_games is None else args.min_games
    settings = access.load(_settings_path(args))
    with _connect(settings.conninfo) as conn:
        chosen = season_of(conn, args.season)
        if chosen is None:          # no season: every game, worked out here
            result = compute(finished(conn, chosen, game), names(conn), minimum)
        else:                       # the season's, as the club keeps them
            rate_due(conn, chosen[0])
            result = kept(conn, chosen[0], game, minimum)
    season = None if chosen is None else {"name": chosen[0], "starts": chosen[1].isoformat(),
                                          "ends": chosen[2].isoformat()}
    if args.json:
        print_json({"season": season, "min_games": minimum,
                    "titles": [t.as_dict(minimum) for t in result]})
        return EXIT_DONE
    say(f"Season {season['name']} ({season['starts']} to {season['ends']})" if season
        else "Every game (the club has no season yet)")
    for table in result:
        say(f"\n{titles.get(table.game, table.game)}: {table.games} game(s)"
            + (" (played together: no rating)" if table.team else ""))
        for p in table.players:
            rating = (f"rating {p.rating:.1f}" if p.ranked(minimum) else
                      "" if table.team else f"unranked ({p.games} of {minimum} games)")
            say(f"  {p.name}: {p.games} game(s), {p.wins} win(s), "
                f"{p.win_rate:.0%} {rating}".rstrip())
    return EXIT_DONE


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "init": init, "add-table": lambda a: _handed(a, access.add_table),
    "add-wall": lambda a: _handed(a, access.add_wall), "join": join, "season": season,
    "sync": sync, "status": status, "standings": standings}
