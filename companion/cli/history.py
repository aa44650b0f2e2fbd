"""The command line's history commands: ``history``, ``stats``, ``backup``, ``restore``,
``export --all`` and ``import``, wired into ``companion`` by main.py and speaking as it does:
exit status 2 and one line naming the file and what is wrong (``Unusable``) for anything a person
can type or a disk can hold, never a traceback. The work itself is in companion/history/."""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
from typing import Any

from companion.cli.files import (
    at_line, file_label, fits, one_line, open_database, open_import, print_json, say, why,
    write_file,
)
from companion.cli.hands import names_cards, warn_hands
from companion.cli.status import EXIT_DONE, EXIT_UNUSABLE, Unusable
from companion.core.errors import CompanionError, StoreError
from companion.games import all_games
from companion.history.backup import backup as copy_out, restore as copy_in
from companion.history.export_all import render, stored_records
from companion.history.plays import read_plays, since_bound
from companion.history.stats import (
    compute, find_game, find_player, gather, lines, players, profile_names,
)
from companion.store import default_path
from companion.store.schema import SCHEMA_VERSION


def _plays(args: argparse.Namespace, stored: dict[int, Any] | None = None) -> list[Any]:
    """The stored plays for ``export --all``: read only, never a fold; with
    ``stored``, each play's stored record is put there too (its log: export_all.py)."""
    try:
        since = since_bound(args.since) if args.since else None
    except CompanionError as problem:
        raise Unusable(one_line(problem)) from None
    with open_database(args.db, create=False) as store:
        if store is None:
            return []
        plays = read_plays(store.conn, since=since, unfinished=args.include_unfinished)
        if stored is not None:
            stored.update(stored_records(store.conn, plays))
        return plays


def _write_out(args: argparse.Namespace, text: str) -> None:
    name = args.output
    if name:
        write_file(name, text, database=args.db, force=args.force)
    elif fits(text, sys.stdout):
        sys.stdout.write(text)
    else:  # a terminal that cannot show every name: the bytes as UTF-8
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
        sys.stdout.buffer.flush()


def _in_play_with_hands(plays: list, stored: dict[int, Any]) -> list[str]:
    """The running games whose stored log (``--include-unfinished``, json or jsonl) names a
    seat's cards in hand (kept, since ``companion import`` rebuilds the game)."""
    found = [play.id for play in plays if play.status == "running" and any(
        isinstance(row.get("command"), dict) and names_cards(
            str(row["command"].get("do", "")), row["command"])
        for row in (stored.get(play.id) or {}).get("log", []))]
    return [f"game{'s' if len(found) > 1 else ''} {', '.join(map(str, found))} "
            f"{'are' if len(found) > 1 else 'is'}"] if found else []


def export_all(args: argparse.Namespace) -> int:
    """``export --all``: every finished game (or all) as csv, json or jsonl."""
    if args.raw:
        raise Unusable("--raw goes with --log (one game's rows as stored), not with --all")
    fmt = args.format or "jsonl"
    stored: dict[int, Any] = {}
    plays = _plays(args, stored if fmt != "csv" else None)
    _write_out(args, render(plays, fmt, stored))
    warn_hands(_in_play_with_hands(plays, stored))
    return EXIT_DONE


def stats(args: argparse.Namespace) -> int:
    """Figures per player and per title over the finished games, from their results and (for
    what only a game's log tells) their events, read while the database is open once."""
    titles = {name: rules.title for name, rules in all_games().items()}
    with open_database(args.db, create=False) as store:
        plays = read_plays(store.conn) if store is not None else []
        names = profile_names(store.conn) if store is not None else {}
        try:
            game = find_game(titles, args.game) if args.game else None
            player = find_player(plays, args.player, names) if args.player else None
        except CompanionError as problem:
            raise Unusable(one_line(problem)) from None
        figures = (gather(store.conn, player=player, game=game, plays=plays)
                   if store is not None else compute([]))
    if args.json:
        print_json(figures.as_dict())
    else:
        chosen = " ".join(([f"of {titles[game]}"] if game else [])
                          + ([f"with {players(plays, names)[player]}"] if player else []))
        for line in lines(figures, titles, chosen):
            say(line)
    return EXIT_DONE


def _database_path(args: argparse.Namespace) -> str:
    return args.db or str(default_path())


def backup(args: argparse.Namespace) -> int:
    """The database copied with SQLite's online backup API, while the app may be playing."""
    database = _database_path(args)
    if args.db is None and not os.path.lexists(database):
        raise Unusable(f"{file_label(database)}: no such file (no game was ever stored there); "
                       "nothing to back up")
    try:
        copied = copy_out(database, args.file, force=args.force)
    except StoreError as problem:
        raise Unusable(one_line(problem)) from None
    except (OSError, ValueError, sqlite3.Error) as problem:
        raise Unusable(f"{file_label(args.file)}: cannot be written ({why(problem)}); nothing "
                       "was kept") from None
    say(f"Backed up {copied.games} game(s) to {file_label(copied.path)} (schema "
         f"{copied.schema}, checked: quick_check ok, a companion database).")
    return EXIT_DONE


def restore(args: argparse.Namespace) -> int:
    """A backup becomes the game database; the one in place is kept aside, dated."""
    database = _database_path(args)
    try:
        copied = copy_in(database, args.file)
    except StoreError as problem:
        raise Unusable(one_line(problem)) from None
    except (OSError, ValueError, sqlite3.Error) as problem:
        raise Unusable(f"{file_label(database)}: the restore could not be finished "
                       f"({why(problem)})") from None
    say(f"Restored {copied.games} game(s) from {file_label(args.file)} into "
        f"{file_label(database)}.")
    if copied.aside:
        say(f"The database that was there is kept as {file_label(copied.aside)}.")
    if copied.schema < SCHEMA_VERSION:
        say(f"The backup has schema {copied.schema}: the companion brings it up to schema "
            f"{SCHEMA_VERSION} when it next opens it.")
    return EXIT_DONE


def import_games(args: argparse.Namespace) -> int:
    """Games exported by another table merged in by uuid, one transaction per file; each file
    says what it added, what was already here and its conflicts. Exit 2 if a file could not
    be used (named, with its line), after the others were merged."""
    from companion.history.import_stream import stream_records
    from companion.history.merge import ImportRefused, incoming, merge

    files = [(name, open_import(name)) for name in args.files]  # unreadable: nothing done
    refused = False
    with open_database(args.db) as store, contextlib.ExitStack() as closing:
        for _name, stream in files:
            if stream is not getattr(sys.stdin, "buffer", None):
                closing.callback(stream.close)
        for name, stream in files:
            label = file_label(name)
            try:
                if stream.seekable():   # every game read and checked once before any is merged:
                    for where, game in stream_records(stream):   # a list of [] stops at its first
                        incoming(where, game)
                    stream.seek(0)
                merged = merge(store.conn, stream_records(stream))
            except ImportRefused as problem:
                say(f"companion import: {at_line(label, problem)}", sys.stderr)
                refused = True
                continue
            except StoreError as problem:
                raise Unusable(one_line(problem)) from None
            say(f"{label}: {merged.added} game(s) added, {merged.already} already here, "
                f"{len(merged.conflicts)} conflict(s).")
            for line in merged.conflicts:
                say(f"  conflict: {line}")
            for line in merged.apart:
                say(f"  {line}")
    return EXIT_UNUSABLE if refused else EXIT_DONE


def cmd_history(args: argparse.Namespace) -> int:
    with open_database(args.db, create=False) as store:
        games = store.games() if store is not None else []
    if args.json:
        print_json([g.__dict__ for g in games])
        return EXIT_DONE
    if not games:
        say("No games yet.")
    titles = {name: rules.title for name, rules in all_games().items()}
    together = {name for name, rules in all_games().items() if rules.cooperative}
    for g in games:
        line = f"#{g.id:<4} {g.created_at[:16]}  {titles.get(g.game, g.game):<14} {g.status:<9}"
        if g.results and g.game in together:   # one result for the team, no points
            won = any(r["winner"] for r in g.results)
            line += "  " + ", ".join(r["name"] for r in g.results) + \
                (": won together" if won else ": lost together")
        elif g.results:
            line += "  " + ", ".join(f"{r['name']} {r['score']}{' *' if r['winner'] else ''}"
                                     for r in g.results)
        else:
            line += "  " + ", ".join(g.players) + f"  ({g.steps} steps)"
        say(line)
    return EXIT_DONE
