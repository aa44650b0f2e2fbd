"""The command line's history commands: ``stats``, ``backup``, ``restore``, ``export --all``
and ``import``, wired into ``companion`` by companion/cli.py and speaking as it does: exit status 2
and one line naming the file and what is wrong (``Unusable``) for anything a person can type
or a disk can hold, never a traceback. The work itself is in this package's pure modules."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from typing import Any

from companion.cli import (
    EXIT_DONE, EXIT_UNUSABLE, Unusable, _at, _database, _fits, _label, _one_line, _print_json,
    _read_script, _say, _why, _write,
)
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
        raise Unusable(_one_line(problem)) from None
    with _database(args.db, create=False) as store:
        if store is None:
            return []
        plays = read_plays(store.conn, since=since, unfinished=args.include_unfinished)
        if stored is not None:
            stored.update(stored_records(store.conn, plays))
        return plays


def _write_out(name: str | None, text: str) -> None:
    if name:
        _write(name, text)
    elif _fits(text, sys.stdout):
        sys.stdout.write(text)
    else:  # a terminal that cannot show every name: the bytes as UTF-8
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
        sys.stdout.buffer.flush()


def export_all(args: argparse.Namespace) -> int:
    """``export --all``: every finished game (or all) as csv, json or jsonl."""
    if args.raw:
        raise Unusable("--raw goes with --log (one game's rows as stored), not with --all")
    fmt = args.format or "jsonl"
    stored: dict[int, Any] = {}
    plays = _plays(args, stored if fmt != "csv" else None)
    _write_out(args.output, render(plays, fmt, stored))
    return EXIT_DONE


def stats(args: argparse.Namespace) -> int:
    """Figures per player and per title over the finished games, from their results and (for
    what only a game's log tells) their events, read while the database is open once."""
    titles = {name: rules.title for name, rules in all_games().items()}
    with _database(args.db, create=False) as store:
        plays = read_plays(store.conn) if store is not None else []
        names = profile_names(store.conn) if store is not None else {}
        try:
            game = find_game(titles, args.game) if args.game else None
            player = find_player(plays, args.player, names) if args.player else None
        except CompanionError as problem:
            raise Unusable(_one_line(problem)) from None
        figures = (gather(store.conn, player=player, game=game, plays=plays)
                   if store is not None else compute([]))
    if args.json:
        _print_json(figures.as_dict())
    else:
        chosen = " ".join(([f"of {titles[game]}"] if game else [])
                          + ([f"with {players(plays, names)[player]}"] if player else []))
        for line in lines(figures, titles, chosen):
            _say(line)
    return EXIT_DONE


def _database_path(args: argparse.Namespace) -> str:
    return args.db or str(default_path())


def backup(args: argparse.Namespace) -> int:
    """The database copied with SQLite's online backup API, while the app may be playing."""
    database = _database_path(args)
    if args.db is None and not os.path.lexists(database):
        raise Unusable(f"{_label(database)}: no such file (no game was ever stored there); "
                       "nothing to back up")
    try:
        copied = copy_out(database, args.file, force=args.force)
    except StoreError as problem:
        raise Unusable(_one_line(problem)) from None
    except (OSError, ValueError, sqlite3.Error) as problem:
        raise Unusable(f"{_label(args.file)}: cannot be written ({_why(problem)}); nothing "
                       "was kept") from None
    _say(f"Backed up {copied.games} game(s) to {_label(copied.path)} (schema "
         f"{copied.schema}, checked: quick_check ok, a companion database).")
    return EXIT_DONE


def restore(args: argparse.Namespace) -> int:
    """A backup becomes the game database; the one in place is kept aside, dated."""
    database = _database_path(args)
    try:
        copied = copy_in(database, args.file)
    except StoreError as problem:
        raise Unusable(_one_line(problem)) from None
    except (OSError, ValueError, sqlite3.Error) as problem:
        raise Unusable(f"{_label(database)}: the restore could not be finished "
                       f"({_why(problem)})") from None
    _say(f"Restored {copied.games} game(s) from {_label(args.file)} into {_label(database)}.")
    if copied.aside:
        _say(f"The database that was there is kept as {_label(copied.aside)}.")
    if copied.schema < SCHEMA_VERSION:
        _say(f"The backup has schema {copied.schema}: the companion brings it up to schema "
             f"{SCHEMA_VERSION} when it next opens it.")
    return EXIT_DONE


def import_games(args: argparse.Namespace) -> int:
    """Games exported by another table merged in by uuid, one transaction per file; each file
    says what it added, what was already here and its conflicts. Exit 2 if a file could not
    be used (named, with its line), after the others were merged."""
    from companion.history.merge import ImportRefused, merge, read_records

    files = [(name, _read_script(name)) for name in args.files]  # unreadable: nothing done
    refused = False
    with _database(args.db) as store:
        for name, read in files:
            label = _label(name)
            try:
                merged = merge(store.conn, read_records(read))
            except ImportRefused as problem:
                _say(f"companion import: {_at(label, problem)}", sys.stderr)
                refused = True
                continue
            except StoreError as problem:
                raise Unusable(_one_line(problem)) from None
            _say(f"{label}: {merged.added} game(s) added, {merged.already} already here, "
                 f"{len(merged.conflicts)} conflict(s).")
            for line in merged.conflicts:
                _say(f"  conflict: {line}")
            for line in merged.apart:
                _say(f"  {line}")
    return EXIT_UNUSABLE if refused else EXIT_DONE
