"""Sending this table's finished games to the club: the outbox (the table's own SQLite,
schema version 5) holds each game this device finished; ``ClubSync.send`` sends the waiting
ones, each in its own PostgreSQL transaction, and marks each in the outbox after the club has
committed it. At least once and idempotent: a game the club already holds with the same content
is acknowledged (a send whose answer was lost is simply sent again); one with other content is a
conflict, recorded at the club (``conflicts``) and in the outbox, and never overwritten.

``ClubSync.run`` is the loop for a thread of the app's own, on one connection it keeps: it
sends the waiting games and exchanges the profiles (companion/club/profiles.py) when asked (a
game started or finished), writes the table's live status (companion/club/status.py) when it
changed, at most once every MIN_GAP seconds, and every HEARTBEAT seconds as a heartbeat; after a
failure it waits out its backoff. It sleeps between, and never polls.

The club's clock is the one that counts: each games round measures this table's clock against
the server's, and a table more than CLOCK_TOLERANCE off sends its games' start and end as the
server's time (the record keeps the table's own, so its content is unchanged).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Mapping

from companion.club import profiles, status as live
from companion.club.access import Settings, words
from companion.club.league import places
from companion.club.limits import through_stalls
from companion.history.export_all import STORED, stored_record
from companion.history.merge import differences, incoming
from companion.history.plays import plays_by_id
from companion.store.journal import Tx, utc_now
from companion.store.opening import BUSY_SECONDS
from companion.store.schema import COMPACT


@dataclass
class Report:
    """What one send did: games sent, already at the club, conflicts (in words), and the
    error that stopped it (None when every waiting game was handled)."""

    sent: int = 0
    already: int = 0
    conflicts: list[str] = field(default_factory=list)
    error: str | None = None
    #: games still waiting in the outbox after this send
    waiting: int = 0
    #: profiles sent up, brought down, and the notes on those kept apart
    profiles_sent: int = 0
    profiles_brought: int = 0
    notes: list[str] = field(default_factory=list)
    #: seconds the table's clock is behind the club's (negative: ahead); None: not measured
    skew: float | None = None
    #: games the club refused for good (its checks, its grants), in words: they stay in the
    #: outbox, and another sync will not change the answer
    refused: list[str] = field(default_factory=list)
    #: the error is the club's answer (a refusal), not the club away: a retry will not help
    permanent: bool = False


def permanent(problem: BaseException) -> bool:
    """Whether the club refused (a check, a constraint, a privilege, this table's claim) rather
    than could not be reached: PostgreSQL's classes 22 (data) and 23 (integrity), 42501
    (privilege)."""
    state = getattr(problem, "sqlstate", None) or ""
    return isinstance(problem, PermissionError) or state[:2] in ("22", "23") or \
        state == "42501"


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


#: Seconds a table's clock may be off the club's before its games' times are taken as the club's.
CLOCK_TOLERANCE = 120.0


def utc_clock() -> datetime:
    return datetime.now(timezone.utc)


def shifted(stamp: str | None, seconds: float) -> str | None:
    """An ISO time (as the store keeps it) moved by ``seconds``; None stays None."""
    if stamp is None or not seconds:
        return stamp
    return (datetime.fromisoformat(stamp) + timedelta(seconds=seconds)).isoformat()


def clock_words(skew: float) -> str:
    """How far the table's clock is off the club's, in words ("1 day behind")."""
    ahead, left = skew < 0, abs(skew)
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if left >= size:
            n = round(left / size)
            return f"{n} {unit}{'' if n == 1 else 's'} {'ahead of' if ahead else 'behind'}"
    return f"{round(left)} seconds {'ahead of' if ahead else 'behind'}"


def side_connection(path: str) -> sqlite3.Connection:
    """The sync thread's own connection to the table's store (opened, migrated and locked by
    the table's Store already): WAL lets it read while the table plays; it writes only an
    outbox mark or the profiles brought down, each a transaction of a few milliseconds (and
    never while it talks to the club)."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                           timeout=BUSY_SECONDS)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = FULL")
    return conn


def counts(conn: Any) -> dict[str, int]:
    """The outbox's games by state."""
    found = dict(conn.execute("SELECT state, count(*) FROM outbox GROUP BY state"))
    return {state: found.get(state, 0) for state in ("waiting", "sent", "conflict")}


class ClubSync:
    """One table's sending: its store (``conn``: a SQLite connection of the sync's own,
    ``device``: its device id) and its club ``settings``; ``connect`` opens a PostgreSQL
    connection from a connection string (psycopg.connect; a test may give another);
    ``clock``: the table's clock (UTC; a test may put it a day off)."""

    def __init__(self, conn: Any, device: str, settings: Settings,
                 connect: Callable[[str], Any] | None = None,
                 clock: Callable[[], datetime] = utc_clock) -> None:
        self.conn, self.device, self.settings = conn, device, settings
        self._connect = connect
        self.clock = clock
        self._lock = threading.Lock()
        self._asked = False                       # a games round asked for (ask_send)
        self._offered: dict[str, Any] | None = None   # the newest status not yet written
        self._wake: threading.Event | None = None

    # -- from the app's main thread ---------------------------------------------------------
    def ask_send(self) -> None:
        """A game started or finished: send and exchange profiles at the next chance."""
        with self._lock:
            self._asked = True
        self._poke()

    def offer(self, status: Mapping[str, Any]) -> None:
        """The table's status now (plain data, not touched again by the caller)."""
        with self._lock:
            self._offered = dict(status)
        self._poke()

    def _poke(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def _taken(self) -> tuple[bool, dict[str, Any] | None]:
        with self._lock:
            asked, offered = self._asked, self._offered
            self._asked, self._offered = False, None
        return asked, offered

    # -- the club's side ------------------------------------------------------------------
    def _open(self) -> Any:
        if self._connect is not None:
            return self._connect(self.settings.conninfo)
        import psycopg

        return psycopg.connect(self.settings.conninfo, connect_timeout=10, autocommit=True)

    def _claim(self, club: Any) -> None:
        """This table's device id at the club: claimed by its first sync, then checked."""
        with club.transaction():
            row = club.execute("SELECT name, device FROM club.tables WHERE role = current_user"
                               ).fetchone()
            if row is None:
                raise PermissionError(f"the club has no table for the role "
                                      f"{self.settings.role}")
            if row[1] is None:
                club.execute("UPDATE club.tables SET device = %s WHERE role = current_user",
                             (self.device,))
            elif str(row[1]) != self.device:
                raise PermissionError(f"the club's table {row[0]!r} belongs to another "
                                      f"companion (device {row[1]}), not this one "
                                      f"({self.device})")

    def _skew(self, club: Any) -> float:
        """Seconds the table's clock is behind the server's, from one round trip."""
        before = self.clock()
        (server,) = club.execute("SELECT now()").fetchone()
        after = self.clock()
        return (server - (before + (after - before) / 2)).total_seconds()

    def send(self) -> Report:
        """Send every waiting game and exchange the profiles on a connection of its own; on a
        failure (the server away, the network down) the game in hand keeps waiting with its
        error in words, and the report says it."""
        report = Report()
        try:
            with self._open() as club:
                self._claim(club)
                return self.round(club, report)
        except Exception as problem:  # noqa: BLE001 (psycopg's, the network's: in words)
            return self._failed(problem, report)

    def round(self, club: Any, report: Report | None = None) -> Report:
        """One games round on an open, claimed connection: the profiles up and down, then
        every waiting game; an error is raised with the game in hand marked (``report`` holds
        what was done before it)."""
        report = report if report is not None else Report()
        report.skew = self._skew(club)
        report.profiles_sent, report.profiles_brought, report.notes = \
            profiles.exchange(club, self.conn)
        shift = round(report.skew) if abs(report.skew) > CLOCK_TOLERANCE else 0   # the store's seconds
        for gid in waiting(self.conn):
            try:
                self._mark(gid, *through_stalls(   # another table's open transaction
                    club, lambda: self._send_one(club, gid, report, shift)))
            except Exception as problem:
                said = words(problem, self.settings.conninfo)
                self._mark(gid, "waiting", said)
                if not permanent(problem):
                    raise
                title = self.conn.execute("SELECT game FROM games WHERE id = ?",
                                          (gid,)).fetchone()
                report.refused.append(   # the next game is sent still
                    f"game {gid} ({title[0] if title else 'gone'}): {said}")
        report.waiting = counts(self.conn)["waiting"]
        return report

    def _failed(self, problem: BaseException, report: Report | None = None) -> Report:
        report = report if report is not None else Report()
        report.error = words(problem, self.settings.conninfo)
        report.permanent = permanent(problem)
        report.waiting = counts(self.conn)["waiting"]
        return report

    def _send_one(self, club: Any, gid: int, report: Report,
                  shift: float = 0.0) -> tuple[str, str | None]:
        record = record_of(self.conn, gid)
        mine, digest = content_of(record)
        stored = record[STORED]
        with club.transaction():
            for seat in stored["seats"]:
                profile = seat["profile"]
                if profile:
                    club.execute(
                        "INSERT INTO club.profiles (uuid, name, short_name, colour, added_by) "
                        "VALUES (%s, %s, %s, %s, club.club_device()) ON CONFLICT (uuid) DO NOTHING",
                        (profile["uuid"], profile["name"], profile["short_name"],
                         profile["colour"]))
            added = club.execute(
                "INSERT INTO club.games (uuid, device, game, status, started_at, finished_at, "
                "content, record) VALUES (%s, %s, %s, %s, %s, %s, %s, %s::jsonb) "
                "ON CONFLICT (uuid) DO NOTHING RETURNING uuid",
                (record["uuid"], self.device, record["game"], record["status"],
                 shifted(stored["created_at"], shift), shifted(stored["finished_at"], shift),
                 digest, json.dumps(record, ensure_ascii=False))).fetchone()
            if added:
                players = record["players"]
                club.cursor().executemany(
                    "INSERT INTO club.seats (game, seat, name, profile, score, winner, place) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    [(record["uuid"], p["seat"], p["name"], p["profile"], p["score"],
                      bool(p["winner"]), place) for p, place in zip(players, places(players))])
                report.sent += 1
                return "sent", None
            there, theirs = club.execute("SELECT content, record FROM club.games WHERE uuid = %s",
                                         (record["uuid"],)).fetchone()
            if there == digest:
                report.already += 1
                return "sent", None
            differs = differences(mine, content_of(theirs)[0], "at the club")
            club.execute("INSERT INTO club.conflicts (uuid, device, content, differs, record) "
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
            reported: Callable[[Report], None] = lambda report: None,
            heartbeat: float = live.HEARTBEAT, gap: float = live.MIN_GAP) -> None:
        """For a thread of the caller's, on one connection it keeps (opened again after a
        failure, once the backoff has passed): a games round first and whenever asked
        (``ask_send``), the status offered (``offer``) at most once
        every ``gap`` seconds, the last one again every ``heartbeat``. ``reported`` hears each
        games round and each failure (from this thread). Ends when ``stop`` is set (set
        ``wake`` too, so a waiting loop sees it at once)."""
        backoff = backoff or Backoff()
        self._wake = wake
        club, retry_at, due = None, 0.0, True
        pending = self._taken()[1]                # offered before the thread started
        shown: dict[str, Any] | None = None       # the status last written
        written = -float("inf")                   # when (monotonic)
        try:
            while not stop.is_set():
                now = time.monotonic()
                if now >= retry_at and (due or pending is not None and now - written >= gap
                                        or shown is not None and now - written >= heartbeat):
                    report = Report()
                    try:
                        if club is None:
                            club = self._open()
                            self._claim(club)
                        if due:
                            self.round(club, report)
                            due = False
                            reported(report)
                        if pending is not None and now - written >= gap or \
                                shown is not None and now - written >= heartbeat:
                            data = pending if pending is not None else shown
                            if self._status(club, data, report, reported):
                                shown = data
                            pending, written = None, time.monotonic()
                        backoff.reset()
                    except Exception as problem:  # noqa: BLE001 (said in words, retried)
                        club = _closed(club)
                        due, retry_at = True, time.monotonic() + backoff.next()
                        reported(self._failed(problem, report))
                wait = self._next_wait(time.monotonic(), retry_at, due, pending, shown,
                                       written, gap, heartbeat)
                wake.wait(wait)
                wake.clear()
                asked, offered = self._taken()
                due = due or asked
                pending = offered if offered is not None else pending
        finally:
            self._wake = None
            _closed(club)

    def _status(self, club: Any, data: dict[str, Any], report: Report,
                reported: Callable[[Report], None]) -> bool:
        """Write the status; a status the club refuses (its checks: a seat's name it does not
        take) is said and dropped, not retried: the connection and the games go on."""
        try:
            live.write(club, data)
        except Exception as problem:
            if not permanent(problem):
                raise
            report.refused.append(f"this table's status: {words(problem)}")
            reported(report)
            return False
        return True

    @staticmethod
    def _next_wait(now: float, retry_at: float, due: bool, pending: Any, shown: Any,
                   written: float, gap: float, heartbeat: float) -> float | None:
        """Seconds until something is due (None: until woken)."""
        if now < retry_at:
            return retry_at - now
        times = []
        if due:
            times.append(0.0)
        if pending is not None:
            times.append(written + gap - now)
        if shown is not None:
            times.append(written + heartbeat - now)
        return max(0.0, min(times)) if times else None


def _closed(club: Any) -> None:
    """Close a connection that may be broken already; None."""
    if club is not None:
        try:
            club.close()
        except Exception:  # noqa: BLE001 (a broken connection: nothing more to say)
            pass
    return None
