"""The game database's tables, and the steps that bring a file written by an older companion
up to date (``PRAGMA user_version``), so an old card keeps every game it holds.

Version 1: games, players, steps, events, results. Version 2: each step says where its command
came from (``steps.source``: "gpio" button, "serial" tray, "keyboard", "touch"; NULL for the
rows written before, whose source nobody knows), and ``clocks`` keeps a game's chess clock (time
per seat, the game's length, paused or not) so a resumed game's clocks go on where they stood.
Version 3: each game row keeps its line for the lists (``summary``: the rules' summary after its
latest change, ``done_steps``, and ``damaged``: what keeps it from folding, once a fold found
it), written in the same transaction as every step, undo and redo, so the home screen and the
history read one row per game and never a log; ``checkpoints`` keeps the state after every 32nd
done step, with the companion (and rules) version that made it, so a resume folds only the steps
after it. Version 4: player profiles (``profiles``: a uuid, the name, an optional short name and
palette colour, when last played) with every seat linked to one (``players.profile_id``), each
game a uuid and the device that played it (``games.uuid``, ``games.device``), and the database
its own ``device_id`` (``meta``), made once: so games from two tables merge (``companion
import``) without colliding. A file from before keeps every row: one profile per seat name
(trimmed, compared as values.name_key does; the latest spelling wins), every game a new uuid
(profiles.py). Version 5: the club's outbox (``outbox``: each game this table finished, waiting
to be sent to the club's PostgreSQL store, sent, or in conflict there, with its tries and last
error in words; companion/club/sync.py), filled in the transaction that finishes a game
(journal.settle) and, for a file from before, with every finished game this device played.
A new file keeps its steps and events WITHOUT ROWID (the table is its primary
key: no second copy of the key in an index, about a tenth of the file); an older file keeps its
tables as they are. A migration (migrate.py) runs inside the writer's opening transaction: all
of it or nothing.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from typing import Any

from companion.core.values import INT64_MAX, INT64_MIN, shown

#: PRAGMA application_id marks the file as ours ("TCMP").
APPLICATION_ID = 0x54434D50
SCHEMA_VERSION = 5

SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'abandoned')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT,
    summary TEXT,
    done_steps INTEGER NOT NULL DEFAULT 0,
    damaged TEXT
);
CREATE INDEX games_by_status ON games (status, id);
CREATE TABLE players (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE steps (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    command TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('done', 'undone', 'dropped')),
    created_at TEXT NOT NULL,
    source TEXT,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
CREATE TABLE events (
    game_id INTEGER NOT NULL,
    step INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    automatic INTEGER NOT NULL,
    undoable INTEGER NOT NULL,
    PRIMARY KEY (game_id, step, seq),
    FOREIGN KEY (game_id, step) REFERENCES steps(game_id, n)
) WITHOUT ROWID;
CREATE TABLE results (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    score INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    detail TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE clocks (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    data TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
"""

CHECKPOINTS = """CREATE TABLE checkpoints (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    state TEXT NOT NULL,
    version TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID"""

SCHEMA += CHECKPOINTS + ";\n"

#: Version 4: profiles, each game's uuid and device, the database's device id.
PROFILES = (
    "CREATE TABLE profiles (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, "
    "name TEXT NOT NULL, name_key TEXT NOT NULL, short_name TEXT, colour TEXT, "
    "created_at TEXT NOT NULL, last_played_at TEXT)",
    "CREATE INDEX profiles_by_name ON profiles (name_key)",
    "ALTER TABLE players ADD COLUMN profile_id INTEGER REFERENCES profiles(id)",
    "CREATE INDEX players_by_profile ON players (profile_id)",
    "ALTER TABLE games ADD COLUMN uuid TEXT",
    "ALTER TABLE games ADD COLUMN device TEXT",
    "CREATE UNIQUE INDEX games_by_uuid ON games (uuid)",
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
)
SCHEMA += "".join(statement + ";\n" for statement in PROFILES)

#: Version 5: the club's outbox, one row per game this device finished.
OUTBOX = ("CREATE TABLE outbox (game_id INTEGER PRIMARY KEY REFERENCES games(id), "
          "state TEXT NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'sent', "
          "'conflict')), queued_at TEXT NOT NULL, tries INTEGER NOT NULL DEFAULT 0, "
          "tried_at TEXT, error TEXT)",
          "CREATE INDEX outbox_by_state ON outbox (state, game_id)")
SCHEMA += "".join(statement + ";\n" for statement in OUTBOX)

#: What each version adds to the one before it.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    2: ("ALTER TABLE steps ADD COLUMN source TEXT",
        "CREATE TABLE clocks (game_id INTEGER PRIMARY KEY REFERENCES games(id), "
        "data TEXT NOT NULL, updated_at TEXT NOT NULL)"),
    3: ("ALTER TABLE games ADD COLUMN summary TEXT",
        "ALTER TABLE games ADD COLUMN done_steps INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN damaged TEXT",
        "CREATE INDEX games_by_status ON games (status, id)",
        CHECKPOINTS,
        "UPDATE games SET done_steps = (SELECT count(*) FROM steps WHERE steps.game_id = "
        "games.id AND steps.status = 'done')"),
    4: PROFILES,
    5: OUTBOX,
}

#: The finished game ``?`` (with the time ``?`` first) queued for the club, when this device
#: played it; a game queued before (an undo past the end, then the end again) waits again.
QUEUE = ("INSERT INTO outbox (game_id, queued_at) SELECT id, ? FROM games WHERE id = ? "
         "AND status = 'finished' AND device = (SELECT value FROM meta WHERE key = 'device_id') "
         "ON CONFLICT (game_id) DO UPDATE SET state = 'waiting', error = NULL "
         "WHERE outbox.state != 'waiting'")

#: JSON as the file keeps it: no spaces after separators (json.loads reads both ways).
COMPACT = (",", ":")


def dumps(value: Any) -> str:
    return json.dumps(value, separators=COMPACT)


def unstorable(value: Any, at: str) -> str | None:
    """What in ``value`` the file cannot keep, in words, or None: a whole number beyond
    SQLite's 64 bits (the results table holds scores as INTEGER, and a number must read back
    as it was written everywhere), or text with a lone surrogate (not UTF-8)."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return None
    if isinstance(value, int):
        if INT64_MIN <= value <= INT64_MAX:
            return None
        return (f"{at} is {shown(value)}, more than the game record can keep (whole numbers "
                f"up to {INT64_MAX:,} either way); nothing was recorded")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return (f"{at} holds a broken character (a lone surrogate) the game record "
                    f"cannot keep; nothing was recorded")
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            label = key if isinstance(key, str) else shown(key)
            problem = unstorable(key, at) or unstorable(item, f"{at}.{label}")
            if problem:
                return problem
        return None
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            problem = unstorable(item, f"{at}[{i}]")
            if problem:
                return problem
    return None


def new_device(conn: sqlite3.Connection) -> str:
    """Inside the transaction that creates the tables (or brings them to version 4): this
    database's device id, made once and never changed."""
    device = str(uuid.uuid4())
    conn.execute("INSERT INTO meta (key, value) VALUES ('device_id', ?)", (device,))
    return device


def has_column(conn: sqlite3.Connection, table: str, column: str) -> bool:
    """A reader opens older files as they are (it changes nothing): does this one have it?"""
    return any(row[1] == column for row in conn.execute(f"PRAGMA table_info({table})"))


def read_clocks(conn: sqlite3.Connection, game_id: int) -> dict[str, Any] | None:
    """A game's clocks as last kept, or None (never kept, or a file from before clocks)."""
    if not has_column(conn, "clocks", "data"):
        return None
    row = conn.execute("SELECT data FROM clocks WHERE game_id = ?", (game_id,)).fetchone()
    return json.loads(row[0]) if row else None


def write_clocks(conn: sqlite3.Connection, game_id: int, data: dict[str, Any], now: str) -> None:
    """Keep a game's clocks: one small row per game, replaced (a turn change, a pause, leaving
    the game), never a write per tick."""
    conn.execute("INSERT INTO clocks (game_id, data, updated_at) VALUES (?, ?, ?) "
                 "ON CONFLICT (game_id) DO UPDATE SET data = excluded.data, "
                 "updated_at = excluded.updated_at", (game_id, dumps(data), now))
