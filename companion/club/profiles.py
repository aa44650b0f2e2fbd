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
fails is left at the club, and the report says which and why. A flood is bounded and said in
one line (SAME_NAME, BROUGHT_MOST).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.core.errors import RuleViolation
from companion.core.values import clean_text, shown
from companion.store.journal import Tx
from companion.store.profiles import NAME, SHORT_NAME, colour_name, key

#: Profiles of one name a table holds from the club, and profiles it brings at one sync: a
#: table that adds 20,000 of one name fills no other table's "Who?" (the regulars come first:
#: the profiles that played most recently are read first, at most FETCHED_MOST a sync).
SAME_NAME, BROUGHT_MOST, FETCHED_MOST = 10, 500, 2000
#: Notes of one kind said at one sync; the rest counted in one line.
NOTES_MOST = 5

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
        "WHERE p.uuid <> ALL(%s::uuid[]) GROUP BY p.uuid "
        "ORDER BY max(g.started_at) IS NULL, max(g.started_at) DESC, p.added_at, p.uuid "
        "LIMIT %s", (mine, FETCHED_MOST)).fetchall()
    brought, apart, crowded, refused = 0, {}, Counter(), []
    if down:
        with Tx(conn):
            for ident, name, short, colour, added, played in down:
                try:
                    name, short, colour = admitted(name, short, colour)
                except RuleViolation as problem:
                    refused.append(f"profile {ident} from the club is not taken: {problem}")
                    continue
                same = conn.execute("SELECT count(*), min(name) FROM profiles WHERE "
                                    "name_key = ?", (key(name),)).fetchone()
                if same[0] >= SAME_NAME or brought >= BROUGHT_MOST:
                    crowded[name] += 1
                    continue
                if same[0]:
                    was = apart.get(key(name), (name, 0, same[1], ident))
                    apart[key(name)] = (name, was[1] + 1, was[2], was[3])
                conn.execute(
                    "INSERT INTO profiles (uuid, name, name_key, short_name, colour, "
                    "created_at, last_played_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (uuid) DO NOTHING",
                    (ident, name, key(name), short, colour, added, played))
                brought += 1
    notes += [f"{name} (profile {ident}, from the club) is not the {shown(here)} here: kept "
              "apart" if n == 1 else f"{n} players named {shown(name)} from the club are not "
              f"the {shown(here)} here: kept apart" for name, n, here, ident in apart.values()]
    notes += refused[:NOTES_MOST] + ([f"and {len(refused) - NOTES_MOST} more profiles from the "
                                      "club not taken"] if len(refused) > NOTES_MOST else [])
    if crowded or len(down) == FETCHED_MOST:
        left = club.execute("SELECT count(*) FROM club.profiles WHERE uuid <> ALL(%s::uuid[])",
                            (mine,)).fetchone()[0] - brought - len(refused)
        most = ", ".join(f"{shown(n)} ({c:,})" for n, c in crowded.most_common(3))
        notes.append(f"{left:,} profiles from the club were not brought: at most {SAME_NAME} "
                     f"players of one name and {BROUGHT_MOST} at one sync come to a table"
                     + (f" (of one name among those read: {most})" if most else ""))
    return len(up), brought, notes
