"""Player profiles: the people a table has seen, so a setup picks them instead of typing names,
and every stored game knows who sat in it even when two people share a name or one changes the
spelling.

A profile has a uuid (made here, or the one it came with from another table by ``companion
import``), a name, an optional short name (up to SHORT_NAME letters, for small seat labels), a
palette colour (companion/core/palette.py) and when it last played. Each seat of a stored game
links to one (``players.profile_id``). A new game links each seat name to the profile with that
name (compared as :func:`companion.core.values.name_key` compares names; of two such, the one that
played last), made on the spot when there is none; the game's seat colour becomes the profile's.
Names are never merged silently beyond that: a profile imported with another uuid stays apart.

Plain SQL on the store's connection, inside the caller's transaction (the Store, and the
version 4 migration: migrate.py); no Kivy.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from dataclasses import dataclass
from typing import Any, Sequence

from companion.core import palette
from companion.core.errors import SetupError, StoreError
from companion.core.values import name_key, shown
from companion.store.schema import has_column, new_device, unstorable

#: The longest short name (letters), and the longest name (as a setup allows, core/gate.py).
SHORT_NAME = 6
NAME = 40


@dataclass(frozen=True)
class Profile:
    uuid: str
    name: str
    short_name: str | None
    #: A palette colour's name, or None when none was ever chosen.
    colour: str | None
    #: Stored games this profile sat in (any status).
    games: int
    #: When its latest game started, ISO UTC as stored; None for one that never played.
    last_played: str | None


def key(name: str) -> str:
    """How a profile's name is matched: trimmed, then as seat names are (NFC, case aside)."""
    return name_key(name.strip())


def colour_name(value: Any) -> str | None:
    """The palette name a stored seat colour means (a name, alias or hex), or None."""
    found = palette.find(value)
    return found.name if found is not None else None


def seat_colour(setup: Any, seat: int) -> str | None:
    """The colour a setup chose for a seat (``colours``, in seat order), as a palette name."""
    colours = setup.get("colours") if isinstance(setup, dict) else None
    if isinstance(colours, (list, tuple)) and seat < len(colours):
        return colour_name(colours[seat])
    return None


_COLUMNS = ("p.uuid, p.name, p.short_name, p.colour, (SELECT count(*) FROM players pl WHERE "
            "pl.profile_id = p.id), p.last_played_at")
_ORDER = "ORDER BY p.last_played_at IS NULL, p.last_played_at DESC, p.name_key, p.id"


def read_profiles(conn: sqlite3.Connection, limit: int = 50) -> list[Profile]:
    """Most recently played first, then by name: one query."""
    return [Profile(*row) for row in conn.execute(
        f"SELECT {_COLUMNS} FROM profiles p {_ORDER} LIMIT ?", (limit,))]


def read_profile(conn: sqlite3.Connection, profile_uuid: str) -> Profile | None:
    row = conn.execute(f"SELECT {_COLUMNS} FROM profiles p WHERE p.uuid = ?",
                       (profile_uuid,)).fetchone()
    return Profile(*row) if row else None


def device_id(conn: sqlite3.Connection) -> str:
    """This database's device id ("" only for a reader's file from before version 4)."""
    if not has_column(conn, "meta", "value"):
        return ""
    row = conn.execute("SELECT value FROM meta WHERE key = 'device_id'").fetchone()
    return row[0] if row else ""


def link_seats(conn: sqlite3.Connection, names: Sequence[str], setup: dict[str, Any],
               now: str, picked: Sequence[str | None] | None = None) -> list[int]:
    """Inside a new game's transaction: the profile id of each seat, in order. ``picked``: the
    profile uuid a seat was picked as (None: by its name), which must be a profile of that
    name (SetupError naming ``profiles[i]`` otherwise). A name no profile has gets a new
    profile; a known one is marked played at ``now`` (never earlier than it last played: an
    imported game may be older) and takes the seat's colour when the setup chose one."""
    linked = []
    for seat, name in enumerate(names):
        colour = seat_colour(setup, seat)
        chosen = picked[seat] if picked is not None and seat < len(picked) else None
        if chosen is not None:
            row = _picked(conn, chosen, seat, name)
        else:
            row = conn.execute("SELECT id FROM profiles WHERE name_key = ? ORDER BY "
                               "last_played_at IS NULL, last_played_at DESC, id DESC LIMIT 1",
                               (key(name),)).fetchone()
        if row is None:
            linked.append(int(conn.execute(
                "INSERT INTO profiles (uuid, name, name_key, colour, created_at, "
                "last_played_at) VALUES (?, ?, ?, ?, ?, ?)",
                (str(uuid.uuid4()), name.strip(), key(name), colour, now, now)).lastrowid))
            continue
        conn.execute("UPDATE profiles SET last_played_at = max(coalesce(last_played_at, ?), "
                     "?), colour = COALESCE(?, colour) WHERE id = ?", (now, now, colour, row[0]))
        linked.append(row[0])
    return linked


def _picked(conn: sqlite3.Connection, chosen: Any, seat: int, name: str) -> tuple[int]:
    row = None
    if isinstance(chosen, str) and not unstorable(chosen, "uuid"):
        row = conn.execute("SELECT id, name, name_key FROM profiles WHERE uuid = ?",
                           (chosen,)).fetchone()
    if row is None:
        raise SetupError(f"profiles[{seat}]: there is no player profile {shown(chosen)}")
    if row[2] != key(name):
        raise SetupError(f"profiles[{seat}]: the profile picked is {shown(row[1])}, not the "
                         f"seat's player {shown(name)}")
    return (row[0],)


def checked_changes(conn: sqlite3.Connection, profile_uuid: str, *, name: str | None,
                    short_name: str | None, colour: str | None) -> dict[str, Any]:
    """What :meth:`Store.update_profile` would change, as columns and values, after every
    check (nothing is written here): SetupError naming the field for a blank or taken name,
    a short name over SHORT_NAME letters or a colour not in the palette; StoreError for a
    profile that is not here. ``""`` clears a short name or colour; None leaves a field."""
    given = {"name": name, "short_name": short_name, "colour": colour}
    for field_name, value in given.items():
        problem = unstorable(value, field_name) if isinstance(value, str) else None
        if problem:
            raise SetupError(problem.replace("; nothing was recorded", "; nothing was changed"))
    row = None
    if isinstance(profile_uuid, str) and not unstorable(profile_uuid, "uuid"):
        row = conn.execute("SELECT id FROM profiles WHERE uuid = ?", (profile_uuid,)).fetchone()
    if row is None:
        raise StoreError(f"There is no player profile {shown(profile_uuid)}")
    changes: dict[str, Any] = {}
    if name is not None:
        if not isinstance(name, str) or not name.strip():
            raise SetupError("name: a profile needs a name (it is blank)")
        if len(name.strip()) > NAME:
            raise SetupError(f"name: {shown(name)} is longer than {NAME} letters")
        if any(ch in name for ch in "\t\n"):
            raise SetupError("name: a name is one line, without a tab or a line break")
        other = conn.execute("SELECT name FROM profiles WHERE name_key = ? AND id != ?",
                             (key(name), row[0])).fetchone()
        if other is not None:
            raise SetupError(f"name: another player profile is already called {shown(other[0])}"
                             "; choose another name")
        changes.update(name=name.strip(), name_key=key(name))
    if short_name is not None:
        if not isinstance(short_name, str):
            raise SetupError(f"short_name: {shown(short_name)} is not text")
        short = short_name.strip()
        if len(short) > SHORT_NAME:
            raise SetupError(f"short_name: {shown(short)} has {len(short)} letters; a short "
                             f"name has at most {SHORT_NAME}")
        changes["short_name"] = short or None
    if colour is not None:
        found = colour_name(colour)
        if found is None and colour != "":
            raise SetupError(f"colour: {shown(colour)} is not a palette colour; choose one of "
                             f"{', '.join(palette.NAMES)}")
        changes["colour"] = found
    return changes


def apply_changes(conn: sqlite3.Connection, profile_uuid: str, changes: dict[str, Any]) -> None:
    if changes:
        sets = ", ".join(f"{column} = ?" for column in changes)
        conn.execute(f"UPDATE profiles SET {sets} WHERE uuid = ?",
                     (*changes.values(), profile_uuid))


def fill_profiles(conn: sqlite3.Connection) -> None:
    """The version 4 migration's rows, inside the opening transaction: the device id; a uuid
    for every game (played on this device); one profile per distinct seat name (trimmed,
    compared by :func:`key`), named as its latest game spelled it, coloured as its latest game
    with a colour chose, last played when its latest game started; every seat linked."""
    device = new_device(conn)
    games = conn.execute("SELECT id, setup FROM games ORDER BY created_at, id").fetchall()
    conn.executemany("UPDATE games SET uuid = ?, device = ? WHERE id = ?",
                     [(str(uuid.uuid4()), device, gid) for gid, _ in games])
    setups: dict[int, Any] = {}
    for gid, text in games:
        try:
            setups[gid] = json.loads(text)
        except ValueError:  # a damaged setup keeps its seats; it has no colours to give
            setups[gid] = None
    found: dict[str, dict[str, Any]] = {}
    links: list[tuple[str, int, int]] = []
    for gid, seat, name, created in conn.execute(
            "SELECT p.game_id, p.seat, p.name, g.created_at FROM players p JOIN games g ON "
            "g.id = p.game_id ORDER BY g.created_at, g.id, p.seat"):
        k = key(name)
        entry = found.setdefault(k, {"uuid": str(uuid.uuid4()), "colour": None,
                                     "created": created})
        entry.update(name=name.strip(), last=created)
        entry["colour"] = seat_colour(setups.get(gid), seat) or entry["colour"]
        links.append((k, gid, seat))
    ids = {}
    for k, entry in found.items():
        ids[k] = conn.execute(
            "INSERT INTO profiles (uuid, name, name_key, colour, created_at, last_played_at) "
            "VALUES (?, ?, ?, ?, ?, ?)", (entry["uuid"], entry["name"], k, entry["colour"],
                                          entry["created"], entry["last"])).lastrowid
    conn.executemany("UPDATE players SET profile_id = ? WHERE game_id = ? AND seat = ?",
                     [(ids[k], gid, seat) for k, gid, seat in links])
