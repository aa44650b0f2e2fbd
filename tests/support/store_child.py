"""A child process for the crash tests: plays a script into a database, resuming the newest
game there if there is one, and prints ``ACK n`` after step n is durably stored.

``--undo`` then takes back the last step (``UNDONE``). ``--die-at SQL`` kills the process with
SIGKILL the moment the store sends a statement starting with SQL: a power cut at the worst
moment, inside a transaction, with nothing rolled back or closed by Python."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
from typing import Any

from companion.core import Command
from companion.games import get_rules
from companion.store import Store


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
    parser.add_argument("--undo", action="store_true")
    args = parser.parse_args(argv)
    lines = open(args.script, encoding="utf-8").read().splitlines()
    setup, commands = json.loads(lines[0]), [json.loads(x) for x in lines[1:]]
    store = Store(args.db)
    games = store.games()
    if games:
        session = store.open_session(games[0].id)
    else:
        session = store.new_game(get_rules(setup["game"]), setup)
    if args.die_at:
        store.conn = DyingConnection(store.conn, args.die_at)  # type: ignore[assignment]
    for n in range(len(session.steps), len(commands)):
        session.execute(Command.from_dict(commands[n]))
        print(f"ACK {n + 1}", flush=True)
    if args.undo:
        session.undo()
        print("UNDONE", flush=True)
    print("DONE", flush=True)


if __name__ == "__main__":
    main()
