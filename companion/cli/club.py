"""``companion club``: the club's store on PostgreSQL (companion/club/). The admin's commands
(``init``, ``add-table``, ``add-wall``, ``add-rater``, ``name``, ``season add``) take the
admin's connection (URL, or $COMPANION_CLUB_URL); a table's (``join``, ``sync``, ``status``,
``standings``) use the settings ``add-table`` printed (the rater's ``rate``, those
``add-rater`` printed), kept by ``join`` in a file only the companion's user reads; ``board``
(the wall screen's server) plugs in from ui/web/board/ (``companion.club_commands``). Every
failure is one line naming what is wrong, with no password in it."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from companion.cli.files import database_name, open_database, print_json, say
from companion.cli.plugins import found, plug_in
from companion.cli.status import EXIT_DONE, Unusable
from companion.club import access
from companion.core.errors import CompanionError

HELP = "the club: many tables, one league, on PostgreSQL"


def add_arguments(p: argparse.ArgumentParser) -> dict[str, Callable[[argparse.Namespace], int]]:
    sub = p.add_subparsers(dest="club", metavar="CLUB_COMMAND", required=True)
    admin = "the admin's connection (libpq URL; default $COMPANION_CLUB_URL)"
    q = sub.add_parser("init", help="make or bring the club's database up to date")
    q.add_argument("url", metavar="URL", nargs="?", help=admin)
    q = sub.add_parser("certificate", help="make the club's CA and a certificate for its "
                                           "server (with openssl), and say where they go")
    q.add_argument("host", metavar="HOST", help="the server's name (or address) as the "
                                                "tables reach it")
    q.add_argument("--out", default="club-tls", help="the folder to make them in (mode 700; "
                                                     "default club-tls)")
    for name, what in (("add-table", "a table: its own role; prints its settings once"),
                       ("add-wall", "a wall screen: a read-only role; prints its settings"),
                       ("add-rater", "the league's rater: the one role that writes the "
                                     "ratings; prints its settings")):
        q = sub.add_parser(name, help=what)
        q.add_argument("name", metavar="NAME")
        q.add_argument("--url", help=admin)
        q.add_argument("-o", "--output", help="write the settings to this file (mode 600) "
                                              "instead of standard output")
    q = sub.add_parser("end-table", help="end a table's credentials (stolen, or the table "
                                         "gone): no login, its sessions ended")
    q.add_argument("name", metavar="NAME")
    q.add_argument("--url", help=admin)
    q = sub.add_parser("join", help="keep the settings add-table (add-wall, add-rater) printed "
                                    "for this machine")
    q.add_argument("file", metavar="FILE", help="the settings add-table (add-wall, add-rater) "
                                                "printed")
    q.add_argument("--settings", help="where to keep them (default: club.json in the "
                                      "companion's config folder, or $COMPANION_CLUB)")
    q.add_argument("--force", action="store_true", help="replace settings kept before")
    q = sub.add_parser("name", help="the club's own name, as its wall shows it")
    q.add_argument("name", metavar="NAME", help="1 to 60 characters, one line")
    q.add_argument("--url", help=admin)
    q = sub.add_parser("season", help="the club's seasons")
    seasons = q.add_subparsers(dest="season_command", metavar="SEASON_COMMAND", required=True)
    q = seasons.add_parser("add", help="a season from START to END (dates, both included)")
    q.add_argument("name", metavar="NAME")
    q.add_argument("start", metavar="START")
    q.add_argument("end", metavar="END")
    q.add_argument("--url", help=admin)
    q = sub.add_parser("rate", help="fold the games not yet rated into the league's ratings "
                                    "(the rater's settings, from add-rater)")
    q.add_argument("--settings", help="the rater's settings (default: as join keeps them)")
    q.add_argument("--season", metavar="NAME", help="only this season (default: every one)")
    for name, what in (("sync", "send this table's finished games to the club"),
                       ("status", "this table's outbox and the club's tables now "
                                  "(offline: not heard for three heartbeats)"),
                       ("standings", "games, wins, win rate and rating per title")):
        q = sub.add_parser(name, help=what)
        q.add_argument("--settings", help="the club settings (default: as join keeps them)")
        q.add_argument("--db", type=database_name, help="this table's database (default: the user data directory)"
                       + ("; read only to say which of its games the club has not yet"
                          if name == "standings" else ""))
        q.add_argument("--json", action="store_true", help="as JSON")
    q.add_argument("--season", metavar="NAME", help="this season (default: today's, else "
                                                    "the latest; every game without seasons)")
    q.add_argument("--game", metavar="TITLE", help="only this game (its title or name)")
    q.add_argument("--min-games", type=_at_least_one, default=None, metavar="N",
                   help="games to be ranked (default 3)")
    # the wall screen's server (ui/web/board/) and any other plugged in from outside
    p.set_defaults(club_plugins=plug_in(sub, found("companion.club_commands").values()))
    return {"club": run}


def _at_least_one(text: str) -> int:
    """--min-games: a whole number from 1 (a player with no games is never ranked)."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1 or number > 10_000:
        raise argparse.ArgumentTypeError(f"--min-games: a whole number from 1 to 10000, not "
                                         f"{text!r}")
    return number


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
    from companion.club import wire

    # the admin's password is no less a key than a table's: the same wire (wire.py)
    conninfo = wire.secured(conninfo, "--url")
    with psycopg.connect(conninfo, connect_timeout=10, autocommit=True) as conn:
        yield conn


def _settings_path(args: argparse.Namespace) -> Path:
    return Path(args.settings) if args.settings else access.default_path()


def init(args: argparse.Namespace) -> int:
    from companion.club.schema import init as make

    from companion.club.limits import left_undone

    with _connect(args.url) as conn:
        found, now = make(conn)
        encrypted = conn.execute("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()"
                                 ).fetchone()
        undone = left_undone(conn)
    say(f"The club's database is at version {now}" + (
        f" (it was at {found})." if found else " (made now).") if found != now else
        f"The club's database is at version {now}: nothing to do.")
    if not (encrypted and encrypted[0]):
        say("This connection is not encrypted (a test on one machine): before a table joins "
            "from another machine, give the server a certificate (companion club certificate "
            "HOST makes one and says where it goes; docs/club.md, TLS) and use "
            "sslmode=verify-full.")
    if undone:
        say("Left for a superuser to run in the club's database (this admin cannot):")
        for statement in undone:
            say(f"  {statement}")
    return EXIT_DONE


def certificate(args: argparse.Namespace) -> int:
    from companion.club.certificate import instructions, make

    folder = make(args.host, Path(args.out))
    say(instructions(args.host, folder))
    return EXIT_DONE


#: Where each kind of settings goes, once made.
_CARRY = {
    "table": "Give that file to the table (companion club join FILE), and sync it before its "
             "first game (companion club sync), so its players are the club's.",
    "wall": "Give that file to the wall screen's machine (companion club join FILE --settings "
            "wall.json, then companion club board --settings wall.json).",
    "rater": "Give that file to the machine that rates the league (companion club join FILE "
             "--settings rater.json, then companion club board --rater rater.json, or "
             "companion club rate --settings rater.json).",
}


def _handed(args: argparse.Namespace, make: Callable[[Any, str], access.Settings]) -> int:
    with _connect(args.url) as conn:
        settings = make(conn, args.name)
    if args.output:
        access.save(settings, Path(args.output))
        say(f"{settings.name}: role {settings.role}; its settings are in {args.output} "
            f"(mode 600). {_CARRY[access.kind_of(settings)]}")
    else:
        sys.stdout.write(settings.as_json())
    return EXIT_DONE


def end_table(args: argparse.Namespace) -> int:
    with _connect(args.url) as conn:
        role, ended = access.end_table(conn, args.name)
    say(f"Table {args.name!r} (role {role}) can no longer log in; {ended} session(s) ended. "
        "Its games stay the club's; add it again under another name for new settings.")
    return EXIT_DONE


def join(args: argparse.Namespace) -> int:
    from companion.files.read import Unreadable, read_regular

    try:
        access.private(args.file, os.stat(args.file).st_mode,
                       "then join again (its password may have been read: add the table "
                       "again under another name if so)")
        text = read_regular(args.file, "config").decode("utf-8", "replace")
    except FileNotFoundError:
        raise Unusable(f"{args.file}: no such file (the settings add-table printed)") from None
    except Unreadable as problem:
        raise Unusable(str(problem)) from None
    settings = access.parse(text, args.file)
    path = access.save(settings, _settings_path(args), force=args.force)
    kind = access.kind_of(settings)
    if kind == "table":
        say(f"This companion is table {settings.name!r} of the club {settings.club!r}; its "
            f"settings are in {path} (readable by this user only). Sync before the first "
            "game (companion club sync): the club's players then come to this table, and a "
            "player typed in before that stays apart from the club's of the same name.")
    else:
        what = "the wall screen" if kind == "wall" else "the rater"
        say(f"These are {what} {settings.name!r} of the club {settings.club!r}; kept in "
            f"{path} (readable by this user only).")
    return EXIT_DONE


def name(args: argparse.Namespace) -> int:
    from companion.club.reading import name_club

    with _connect(args.url) as conn:
        said = name_club(conn, args.name)
    say(f"The club is called {said!r} (its wall shows it).")
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
    for refused in report.refused:
        say(f"  refused by the club: {refused}")
    if report.refused:
        say(f"{len(report.refused)} game(s) refused by the club: they stay in this table's "
            "outbox (nothing is lost), and are refused again until what the club names is "
            "corrected.")
    if report.error and report.permanent:
        raise Unusable(f"the club refused this table ({report.error}); nothing more was sent, "
                       "and a sync will not change that: ask the club's admin")
    if report.error:
        raise Unusable(f"the club could not be reached ({report.error}); the games wait and "
                       "are sent at the next sync")
    if report.refused:
        raise Unusable(f"{len(report.refused)} game(s) refused by the club")
    return EXIT_DONE


def rate(args: argparse.Namespace) -> int:
    from companion.club.rater import rate_due

    settings = access.load(_settings_path(args))
    with _connect(settings.conninfo) as conn:
        folded = rate_due(conn, args.season)
    say(f"Folded {folded} game(s) into the league's ratings." if folded else
        "The league's ratings are up to date.")
    return EXIT_DONE


def status(args: argparse.Namespace) -> int:
    from companion.club.reading import tables
    from companion.club.status import in_words, read_tables
    from companion.club.sync import counts

    settings = access.load(_settings_path(args))
    with open_database(args.db, create=False) as store:
        store_found = store is not None
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
                                        ("status", "heard", "age", "online", "refused")})
                             for t in tables(conn)]
    except Exception as problem:   # noqa: BLE001 (the server away: said, not raised)
        out["tables"], out["unreachable"] = None, access.words(problem, settings.conninfo)
    if args.json:
        print_json(out)
        return EXIT_DONE
    say(f"Table {settings.name!r} of the club {settings.club!r}: " + (", ".join(
        f"{n} {state}" for state, n in outbox.items()) + " in the outbox." if store_found
        else "no games here yet (no database at this table)."))
    if out["last_error"]:
        say(f"Last error: {out['last_error']}")
    if out["tables"] is None:
        say(f"The club cannot be reached: {out['unreachable']}")
    for t in out["tables"] or []:
        state = "has synced" if t["device"] else "never synced"
        say(f"  {in_words(t)}; {t['games']} game(s), {state}")
    return EXIT_DONE


def _not_sent(db: str | None) -> int:
    """This table's finished games the club does not hold yet (waiting, or refused), from
    its outbox; 0 where the table has no database yet. Nothing is written."""
    from companion.club.sync import counts

    with open_database(db, create=False) as store:
        if store is None:
            return 0
        found = counts(store.conn)
    return found["waiting"] + found["conflict"]


def standings(args: argparse.Namespace) -> int:
    from companion.club.league import MIN_GAMES, standings as compute
    from companion.club.rater import due
    from companion.club.reading import finished, kept, names, season_of
    from companion.games import all_games
    from companion.history.stats import find_game

    titles = {name: rules.title for name, rules in all_games().items()}
    game = find_game(titles, args.game) if args.game else None
    minimum = MIN_GAMES if args.min_games is None else args.min_games
    settings = access.load(_settings_path(args))
    lagging: list[tuple[str, str]] = []
    unsent = _not_sent(args.db)
    with _connect(settings.conninfo) as conn:
        chosen = season_of(conn, args.season)
        if chosen is None:          # no season: every game, worked out here
            result = compute(finished(conn, chosen, game), names(conn), minimum)
        else:                       # the season's, as the club keeps them (and rates them)
            lagging = due(conn, chosen[0])
            result = kept(conn, chosen[0], game, minimum)
    season = None if chosen is None else {"name": chosen[0], "starts": chosen[1].isoformat(),
                                          "ends": chosen[2].isoformat()}
    if args.json:
        print_json({"season": season, "min_games": minimum, "not_sent": unsent,
                    "ratings_lag": [g for _, g in lagging],
                    "titles": [t.as_dict(minimum) for t in result]})
        return EXIT_DONE
    say(f"Season {season['name']} ({season['starts']} to {season['ends']})" if season
        else "Every game (the club has no season yet)")
    say(f"Ranked by rating from {minimum} games in a title; below that, by win rate.")
    if unsent:
        say(f"{unsent} finished game(s) of this table are not in these standings yet: "
            "companion club sync sends them (companion club status says why one was refused).")
    if lagging:
        say("The ratings of " + ", ".join(titles.get(g, g) for _, g in lagging) + " are not "
            "yet up to the latest games: the club's rater folds them in (companion club rate, "
            "or a board with --rater); games and wins are up to date.")
    for table in result:
        say(f"\n{titles.get(table.game, table.game)}: {table.games} game(s)"
            + (" (played together: no rating)" if table.team else ""))
        for p in table.players:
            rating = (f"rating {p.rating:.1f}" if p.ranked(minimum) else
                      "" if table.team else f"unranked ({p.games} of {minimum} games)"
                      if p.games < minimum else "not rated yet")
            say(f"  {p.name}: {p.games} game(s), {p.wins} win(s), "
                f"{p.win_rate:.0%} {rating}".rstrip())
    return EXIT_DONE


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "init": init, "certificate": certificate, "add-table": lambda a: _handed(a, access.add_table),
    "add-wall": lambda a: _handed(a, access.add_wall),
    "add-rater": lambda a: _handed(a, access.add_rater), "end-table": end_table, "join": join, "name": name,
    "season": season,
    "rate": rate, "sync": sync, "status": status, "standings": standings}
