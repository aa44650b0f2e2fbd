"""Sending this table's finished games to the club: the outbox (the table's own SQLite,
schema version 5) holds each game this device finished; ``ClubSync.send`` sends the waiting
ones, each in its own PostgreSQL transaction, and marks each in the outbox after the club has
committed it. At least once and idempotent: a game the club already holds with the same content
is acknowledged (a send whose answer was lost is simply sent again); one with other content is a
conflict, recorded at the club (``conflicts``) and in the outbox, and never overwritten.

``ClubSync.run`` is the loop for a thread of the app's own: it sends, then sleeps until woken
(a game finished) or, after a failure, until its backoff has passed; it never polls.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

from companion.club.access import Settings, words
from companion.club.league import places
from companion.history.export_all import STORED, stored_record
from companion.history.merge import differences, incoming
from companion.history.plays import plays_by_id
from companion.store.journal import Tx, utc_now
from companion.store.schema import COMPACT


@dataclass
class Report:
    """What one send did: games sent, already at the club, conflicts (in words), and the
    error that stopped it (None when every waiting game was handled)."""

    sent: int = 0
    already: int = 0
    conflicts: list[str] = field(default_factory=list)
    error: str | None = None


class Backoff:
    """Seconds to wait after each failure in a row: doubling from ``first`` up to ``most``."""

    def __init__(self, first: float = 2.0, most: float = 300.0) -> None:
        self.first, self.most, self.failures = first, most, 0

    def next(self) -> float:
        self.failures += 1
        return min(self.most, self.first * 2 ** (self.failures - 1))

    def reset(self) -> None:
        self.failures = 0


def content_of(record: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A game's content (what makes two records the same game, as import compares them) and
    its digest."""
    content = incoming("the game", record).content
    text = json.dumps(content, sort_keys=True, separators=COMPACT, ensure_ascii=False)
    return content, hashlib.sha256(text.encode("utf-8")).hexdigest()


def record_of(conn: Any, game_id: int) -> dict[str, Any]:
    """The game's record as ``export --all`` writes it, with its ``stored`` part."""
    record = plays_by_id(conn, [game_id])[0].as_dict()
    record[STORED] = stored_record(conn, game_id)
    return record


def waiting(conn: Any) -> list[int]:
    return [gid for (gid,) in conn.execute(
        "SELECT game_id FROM outbox WHERE state = 'waiting' ORDER BY game_id")]


def counts(conn: Any) -> dict[str, int]:
    """The outbox's games by state."""
    found = dict(conn.execute("SELECT state, count(*) FROM outbox GROUP BY state"))
    return {state: found.get(state, 0) for state in ("waiting", "sent", "conflict")}


class ClubSync:
    """One table's sending: its store (``conn``: the table's SQLite connection, ``device``: its
    device id) and its club ``settings``; ``connect`` opens a PostgreSQL connection from a
    connection string (psycopg.connect; a test may give another)."""

    def __init__(self, conn: Any, device: str, settings: Settings,
                 connect: Callable[[str], Any] | None = None) -> None:
        self.conn, self.device, self.settings = conn, device, settings
        self._connect = connect

    def _open(self) -> Any:
        if self._connect is not None:
            return self._connect(self.settings.conninfo)
        import psycopg

        return psycopg.connect(self.settings.conninfo, connect_timeout=10, autocommit=True)

    def _claim(self, club: Any) -> None:
        """This table's device id at the club: claimed by its first sync, then checked."""
        with club.transaction():
            row = club.execute("SELECT name, device FROM tables WHERE role = current_user"
                               ).fetchone()
            if row is None:
                raise PermissionError(f"the club has no table for the role "
                                      f"{self.settings.role}")
            if row[1] is None:
                club.execute("UPDATE tables SET device = %s WHERE role = current_user",
                             (self.device,))
            elif str(row[1]) != self.device:
                raise PermissionError(f"the club's table {row[0]!r} belongs to another "
                                      f"companion (device {row[1]}), not this one "
                                      f"({self.device})")

    def send(self) -> Report:
        """Send every waiting game; on a failure (the server away, the network down) the
        game in hand keeps waiting with its error in words, and the report says it."""
        report = Report()
        gid = None
        try:
            with self._open() as club:
                self._claim(club)
                for gid in waiting(self.conn):
                    self._mark(gid, *self._send_one(club, gid, report))
                gid = None
        except Exception as problem:  # noqa: BLE001 (psycopg's, the network's: in words)
            report.error = words(problem, self.settings.conninfo)
            if gid is not None:
                self._mark(gid, "waiting", report.error)
        return report

    def _send_one(self, club: Any, gid: int, report: Report) -> tuple[str, str | None]:
        record = record_of(self.conn, gid)
        mine, digest = content_of(record)
        stored = record[STORED]
        with club.transaction():
            for seat in stored["seats"]:
                profile = seat["profile"]
                if profile:
                    club.execute(
                        "INSERT INTO profiles (uuid, name, short_name, colour, added_by) "
                        "VALUES (%s, %s, %s, %s, club_device()) ON CONFLICT (uuid) DO NOTHING",
                        (profile["uuid"], profile["name"], profile["short_name"],
                         profile["colour"]))
            added = club.execute(
                "INSERT INTO games (uuid, device, game, status, started_at, finished_at, "
                "content, record) VALUES (%s, %s, %s, %s, %s, %s, %s, %s::jsonb) "
                "ON CONFLICT (uuid) DO NOTHING RETURNING uuid",
                (record["uuid"], self.device, record["game"], record["status"],
                 stored["created_at"], stored["finished_at"], digest,
                 json.dumps(record, ensure_ascii=False))).fetchone()
            if added:
                players = record["players"]
                club.cursor().executemany(
                    "INSERT INTO seats (game, seat, name, profile, score, winner, place) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    [(record["uuid"], p["seat"], p["name"], p["profile"], p["score"],
                      bool(p["winner"]), place) for p, place in zip(players, places(players))])
                report.sent += 1
                return "sent", None
            there, theirs = club.execute("SELECT content, record FROM games WHERE uuid = %s",
                                         (record["uuid"],)).fetchone()
            if there == digest:
                report.already += 1
                return "sent", None
            differs = differences(mine, content_of(theirs)[0], "at the club")
            club.execute("INSERT INTO conflicts (uuid, device, content, differs, record) "
                         "VALUES (%s, %s, %s, %s, %s::jsonb) ON CONFLICT DO NOTHING",
                         (record["uuid"], self.device, digest, differs,
                          json.dumps(record, ensure_ascii=False)))
        said = f"game {gid} ({record['uuid']}): the club holds it with other content ({differs})"
        report.conflicts.append(said)
        return "conflict", said

    def _mark(self, gid: int, state: str, error: str | None) -> None:
        with Tx(self.conn):
            self.conn.execute("UPDATE outbox SET state = ?, tries = tries + 1, tried_at = ?, "
                              "error = ? WHERE game_id = ?", (state, utc_now(), error, gid))

    def run(self, stop: threading.Event, wake: threading.Event,
            backoff: Backoff | None = None,
            reported: Callable[[Report], None] = lambda report: None) -> None:
        """For a thread of the caller's: send, then wait for ``wake`` (set when a game
        finishes) or, after a failure, the backoff; ends when ``stop`` is set (set ``wake``
        too, so a waiting loop sees it at once)."""
        backoff = backoff or Backoff()
        while not stop.is_set():
            report = self.send()
            reported(report)
            if report.error:
                delay: float | None = backoff.next()
            else:
                backoff.reset()
                delay = None
            wake.wait(delay)
            wake.clear()
