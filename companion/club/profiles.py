"""The club's players at every table: each sync sends this table's profiles the club does not
hold yet, and brings the club's profiles this table does not hold into its store, so the setup's
"Who?" picker lists them and a game links a seat to them by uuid.

Matched by uuid, as ``companion import`` matches them (companion/history/merge.py): a profile is
never renamed or merged by either side; one from the club named like a profile here (another
uuid) is kept apart. A profile brought down is dated as the club knows it: made when the club
first heard of it, last played when its latest game at the club started, so the picker lists
the club's regulars before the ones who never played.

A profile brought down passes this table's own gate first (``admitted``: the name as a setup
takes one, the short name and colour as the profile editor does): the club checks the same since
schema version 3, but a table trusts no server more than it trusts a player's typing. One that
fails is left at the club, and the report says which and why.
"""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleViolation
from companion.core.gate import clean_text, shown
from companion.store.journal import Tx
from companion.store.profiles import NAME, SHORT_NAME, colour_name, key

_ISO = "to_char({} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"+00:00\"')"


def admitted(name: Any, short: Any, colour: Any) -> tuple[str, str | None, str | None]:
    """A profile from the club as this table would store it (name, short name, colour);
    RuleViolation naming the field when this table's gate refuses it."""
    clean = clean_text(name, "name", limit=NAME, blank=False, line=True)
    brief = clean_text(short, "short_name", limit=SHORT_NAME) if short is not None else ""
    found = colour_name(colour) if colour is not None else None
    if colour is not None and found is None:
        raise RuleViolation(f"colour: {shown(colour)} is not a palette colour")
    return clean, brief or None, found


def exchange(club: Any, conn: Any) -> tuple[int, int, list[str]]:
    """Profiles up and down between this table's store (``conn``, SQLite) and the club
    (``club``, a table's psycopg connection); returns (sent, brought, notes), the notes saying
    which profiles brought down share a name with one here, which sent up share one with the
    club's (two players of one name in the standings), and which this table refused."""
    at_club = dict(club.execute("SELECT uuid::text, name FROM club.profiles"))
    here = conn.execute("SELECT uuid, name, short_name, colour FROM profiles").fetchall()
    up = [row for row in here if row[0] not in at_club]
    named = {key(name): name for name in at_club.values()}
    notes = [f"{name} (profile {ident}, this table's) is a new player at the club, which has "
             f"another {shown(named[key(name)])}: the standings show two (sync a table before "
             "its first game)" for ident, name, _, _ in up if key(name) in named]
    if up:   # each on its own: a profile there already (sent by another table) is skipped
        club.cursor().executemany(
            "INSERT INTO club.profiles (uuid, name, short_name, colour, added_by) VALUES "
            "(%s, %s, %s, %s, club.club_device()) ON CONFLICT (uuid) DO NOTHING", up)
    mine = [row[0] for row in here]
    down = club.execute(
        f"SELECT p.uuid::text, p.name, p.short_name, p.colour, {_ISO.format('p.added_at')}, "
        f"{_ISO.format('max(g.started_at)')} FROM club.profiles p "
        "LEFT JOIN club.seats s ON s.profile = p.uuid LEFT JOIN club.games g ON g.uuid = s.game "
        "WHERE p.uuid <> ALL(%s::uuid[]) GROUP BY p.uuid ORDER BY p.added_at, p.uuid",
        (mine,)).fetchall()
    brought = 0
    if down:
        with Tx(conn):
            for ident, name, short, colour, added, played in down:
                try:
                    name, short, colour = admitted(name, short, colour)
                except RuleViolation as problem:
                    notes.append(f"profile {ident} from the club is not taken: {problem}")
                    continue
                same = conn.execute("SELECT name FROM profiles WHERE name_key = ? LIMIT 1",
                                    (key(name),)).fetchone()
                if same is not None:
                    notes.append(f"{name} (profile {ident}, from the club) is not the "
                                 f"{shown(same[0])} here: kept apart")
                conn.execute(
                    "INSERT INTO profiles (uuid, name, name_key, short_name, colour, "
                    "created_at, last_played_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (uuid) DO NOTHING",
                    (ident, name, key(name), short, colour, added, played))
                brought += 1
    return len(up), brought, notes
