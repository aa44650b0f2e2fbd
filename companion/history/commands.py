"""The command line's history commands: ``stats``, ``backup``, ``restore`` and ``export
--all``, wired into ``companion`` by companion/cli.py and speaking as it does: exit status 2
and one line naming the file and what is wrong (``Unusable``) for anything a person can type
or a disk can hold, never a traceback. The work itself is in this package's pure modules."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from typing import Any

from companion.cli import (
    EXIT_DONE, Unusable, _database, _fits, _label, _one_line, _print_json, _say, _why, _write,
)
from companion.core.errors import CompanionError, StoreError
from companion.games import all_games
from companion.history.backup import backup as copy_out, restore as copy_in
from companion.history.export_all import render
from companion.history.plays import read_plays, since_bound
from companion.history.stats import (
    compute, find_game, find_player, gather, lines, players, profile_names,
)
from companion.store import default_path
from companion.store_open import SCHEMA_VERSION


def _plays(args: argparse.Namespace) -> list[Any]:
    """The stored plays for ``export --all`` and ``stats``: read only, never a fold."""
    try:
        since = since_bound(args.since) if getattr(args, "since", None) else None
    except CompanionError as problem:
        raise Unusable(_one_line(problem)) from None
    with _database(args.db, create=False) as store:
        if store is None:
            return []
        return read_plays(store.conn, since=since,
                          unfinished=getattr(args, "include_unfinished", False))


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
    _write_out(args.output, render(_plays(args), args.format or "jsonl"))
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
