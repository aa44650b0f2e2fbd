"""A child process for the crash tests: plays a script into a database, resuming the newest
game there if there is one, and prints ``ACK n`` after step n is durably stored.

``--undo`` then takes back the last step (``UNDONE``). ``--die-at SQL`` kills the process with
SIGKILL the moment the store sends a statement starting with SQL: a power cut at the worst
moment, inside a transaction, with nothing rolled back or closed by Python. ``--die-after N``
arms it only once N more steps were acknowledged in this run, so the kill lands mid-game.

``--race T`` waits until the clock reads T (so that several children start together), opens
the store (waiting its turn while another child holds the writer lock), starts one game and
prints ``GAME id``; with ``--raw`` it skips the lock and races on the schema itself.
``--hold`` opens the store, prints ``HOLDING`` and keeps it until its standard input closes.
``--autocheckpoint PAGES`` sets SQLite's ``wal_autocheckpoint`` (default 1000 pages), so the
power-loss test sees checkpoints and WAL restarts while the store is open.

``KILLS`` gathers, in the test process, what the kill tests did, for the test summary."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass
from typing import Any

from companion.core import Command
from companion.games import get_rules
from companion.core.errors import StoreError
from companion.store import Store
from companion.store.opening import connect_writer


@dataclass(frozen=True)
class Kills:
    """One game's kill test: child runs, how many were killed (how many of them inside a step's
    transaction), steps acknowledged, steps lost."""

    game: str
    tries: int
    kills: int
    inside: int
    acknowledged: int
    lost: int


KILLS: list[Kills] = []


class DyingConnection:
    """The store's connection, until the statement it must die at."""

    def __init__(self, conn: sqlite3.Connection, die_at: str) -> None:
        self.conn, self.die_at = conn, die_at

    def _maybe_die(self, sql: str) -> None:
        if sql.lstrip().startswith(self.die_at):
            os.kill(os.getpid(), signal.SIGKILL)

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        self._maybe_die(sql)
        return self.conn.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:
        self._maybe_die(sql)
        return self.conn.executemany(sql, *args)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("script")
    parser.add_argument("--die-at")
    parser.add_argument("--die-after", type=int, default=0)
    parser.add_argument("--undo", action="store_true")
    parser.add_argument("--race", type=float)
    parser.add_argument("--raw", action="store_true")
    parser.add_argument("--hold", action="store_true")
    parser.add_argument("--autocheckpoint", type=int)
    args = parser.parse_args(argv)
    if args.hold:
        with Store(args.db):
            print("HOLDING", flush=True)
            sys.stdin.read()
        return
    if args.race is not None:
        race(args.db, args.script, args.race, args.raw)
        return
    lines = open(args.script, encoding="utf-8").read().splitlines()
    setup, commands = json.loads(lines[0]), [json.loads(x) for x in lines[1:]]
    store = Store(args.db)
    if args.autocheckpoint is not None:
        store.conn.execute(f"PRAGMA wal_autocheckpoint = {args.autocheckpoint}")
    games = store.games()
    if games:
        session = store.open_session(games[0].id)
    else:
        session = store.new_game(get_rules(setup["game"]), setup)
    first = len(session.steps)
    for n in range(first, len(commands)):
        if args.die_at and n - first == args.die_after:
            store.conn = DyingConnection(store.conn, args.die_at)  # type: ignore[assignment]
        session.execute(Command.from_dict(commands[n]))
        print(f"ACK {n + 1}", flush=True)
    if args.die_at and not isinstance(store.conn, DyingConnection):
        store.conn = DyingConnection(store.conn, args.die_at)  # type: ignore[assignment]
    if args.undo:
        session.undo()
        print("UNDONE", flush=True)
    print("DONE", flush=True)


def race(db: str, script: str, start: float, raw: bool) -> None:
    setup = json.loads(open(script, encoding="utf-8").readline())
    time.sleep(max(0.0, start - time.time()))
    if raw:  # the schema race itself, without the one-writer lock
        conn = connect_writer(db)
        conn.execute("BEGIN IMMEDIATE")
        cur = conn.execute("INSERT INTO games (game, setup, created_at, updated_at) "
                           "VALUES (?, ?, 'now', 'now')", (setup["game"], json.dumps(setup)))
        conn.execute("COMMIT")
        print(f"GAME {cur.lastrowid}", flush=True)
        conn.close()
        return
    deadline = time.monotonic() + 60
    while True:
        try:
            store = Store(db)
            break
        except StoreError as problem:
            if "already running" not in str(problem) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)
    with store:
        session = store.new_game(get_rules(setup["game"]), setup)
        print(f"GAME {session.game_id}", flush=True)


if __name__ == "__main__":
    main()
