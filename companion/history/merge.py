"""``companion import``: games exported by another table (``companion export --all``, jsonl or
json) merged into this database by their uuids, so two tables' histories become one without a
game counted twice or a local game overwritten.

- A game whose uuid is new here is added with its seats, steps, events, clocks and results,
  after its log has been folded by today's rules (companion/store/check.py) inside the file's
  transaction: a game that does not fold, or whose status or results are not what its log
  gives, is refused by name and the file changes nothing.
- A game already here with the same content (game, status, setup, times, seats, log, results)
  is counted and skipped; one with the same uuid and other content is a conflict: reported with
  what differs and left as it is. Nothing here is ever overwritten, a running game least of all.
- A seat's player profile is matched by uuid, else made with the file's uuid. Profiles are never
  merged by name: one named like a profile here but with another uuid is kept apart, and the
  import says so (the setup's picker then shows both; a rename tells them apart).

One transaction per file, read a game at a time; a line that is not a game names its line and
field, the transaction is rolled back, and the file changes nothing.
"""

from __future__ import annotations

import json
import sqlite3
import uuid as uuids
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable

from companion.store.check import STATUSES, summarize
from companion.core.engine import DROPPED
from companion.core.values import shown
from companion.games import all_games
from companion.history.export_all import STORED, stored_record
from companion.history.reading import ImportRefused, read_records  # noqa: F401 (the API)
from companion.store.profiles import NAME, SHORT_NAME, colour_name, key, link_seats
from companion.store.journal import Tx
from companion.store.schema import dumps, write_clocks

GAME_STATUSES = ("finished", "running", "abandoned")
#: What makes two records the same game (not when it was last touched, nor its clocks).
CONTENT = ("game", "status", "setup", "created_at", "finished_at", "seats", "log", "results")


@dataclass(frozen=True)
class Merged:
    """What one file did: games added, games already here, conflicts and profiles kept apart
    (each in words)."""

    added: int
    already: int
    conflicts: tuple[str, ...]
    apart: tuple[str, ...]


@dataclass(frozen=True)
class Incoming:
    where: str
    uuid: str
    device: str | None
    game: str
    status: str
    stored: dict[str, Any]

    @property
    def content(self) -> dict[str, Any]:
        return _content({"game": self.game, "status": self.status, **self.stored})


def _content(record: dict[str, Any]) -> dict[str, Any]:
    out = {k: record.get(k) for k in CONTENT}
    out["seats"] = [(s["seat"], s["name"], (s["profile"] or {}).get("uuid"))
                    for s in record["seats"]]
    return out


def _fail(where: str, at: str, what: str) -> ImportRefused:
    return ImportRefused(f"{where}: {at}: {what}")


def _text(where: str, at: str, value: Any, *, blank: bool = False, limit: int = 0) -> str:
    if not isinstance(value, str) or (not blank and not value.strip()):
        raise _fail(where, at, f"{shown(value)} is not {'text' if blank else 'a name'}")
    if limit and len(value.strip()) > limit:
        raise _fail(where, at, f"{shown(value)} is longer than {limit} letters")
    return value


def _uuid(where: str, at: str, value: Any) -> str:
    if isinstance(value, str) and len(value) <= 45:
        try:
            return str(uuids.UUID(value))
        except ValueError:
            pass
    raise _fail(where, at, f"{shown(value)} is not a uuid")


def _time(where: str, at: str, value: Any, *, empty: bool = False) -> str | None:
    if value is None and empty:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        moment = None
    if moment is None or moment.tzinfo is None:  # stored times are UTC, with their offset
        raise _fail(where, at, f"{shown(value)} is not a time with its offset (ISO 8601, "
                    "as 2026-11-01T18:30:00+00:00)")
    return value


def _list(where: str, at: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, at, f"{shown(value)} is not a list")
    return value


def _dict(where: str, at: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where, at, f"{shown(value)} is not an object")
    return value


def incoming(where: str, value: Any) -> Incoming:
    """One exported game, checked field by field before anything is written."""
    record = _dict(where, "the game", value)
    if record.get("uuid") is None or STORED not in record:
        raise _fail(where, "uuid", "the game has no uuid or no stored log: it was exported by "
                    "an older companion (or from a database no companion has opened since "
                    "profiles came); open that database with this companion and export again")
    game = record.get("game")
    if game not in all_games():
        raise _fail(where, "game", f"{shown(game)} is not a game this companion knows")
    status = record.get("status")
    if status not in GAME_STATUSES:
        raise _fail(where, "status", f"{shown(status)} is not one of {', '.join(GAME_STATUSES)}")
    device = record.get("device")
    stored = _dict(where, STORED, record[STORED])
    _dict(where, f"{STORED}.setup", stored.get("setup"))
    _time(where, f"{STORED}.created_at", stored.get("created_at"))
    _time(where, f"{STORED}.updated_at", stored.get("updated_at"))
    _time(where, f"{STORED}.finished_at", stored.get("finished_at"), empty=True)
    if stored.get("clocks") is not None:
        _dict(where, f"{STORED}.clocks", stored["clocks"])
        _time(where, f"{STORED}.clocks_at", stored.get("clocks_at"), empty=True)
    seats = _list(where, f"{STORED}.seats", stored.get("seats"))
    if not seats:
        raise _fail(where, f"{STORED}.seats", "a game needs at least one seat")
    sitting: dict[str, int] = {}
    for i, seat in enumerate(seats):
        _seat(where, f"{STORED}.seats[{i}]", i, seat)
        ident = (seat["profile"] or {}).get("uuid")
        if ident in sitting:   # a player's statistics would count the game twice
            raise _fail(where, f"{STORED}.seats[{i}].profile",
                        f"profile {ident} already sits in seat {sitting[ident]}: one player "
                        "cannot hold two seats of one game")
        if ident is not None:
            sitting[ident] = i
    for i, step in enumerate(_list(where, f"{STORED}.log", stored.get("log"))):
        _step(where, f"{STORED}.log[{i}]", i + 1, step)
    for i, result in enumerate(_list(where, f"{STORED}.results", stored.get("results"))):
        _dict(where, f"{STORED}.results[{i}]", result)
    return Incoming(where, _uuid(where, "uuid", record["uuid"]),
                    None if device is None else _uuid(where, "device", device),
                    game, status, stored)


def _seat(where: str, at: str, i: int, value: Any) -> None:
    seat = _dict(where, at, value)
    if seat.get("seat") != i:
        raise _fail(where, f"{at}.seat", f"{shown(seat.get('seat'))} is not seat {i}")
    _text(where, f"{at}.name", seat.get("name"), limit=NAME)
    if seat.get("profile") is None:
        seat["profile"] = None
        return
    profile = _dict(where, f"{at}.profile", seat["profile"])
    # one identity, one spelling: capitals, braces or urn:uuid: are the same profile
    profile["uuid"] = _uuid(where, f"{at}.profile.uuid", profile.get("uuid"))
    _text(where, f"{at}.profile.name", profile.get("name"), limit=NAME)
    if profile.get("short_name") is not None:
        _text(where, f"{at}.profile.short_name", profile["short_name"], blank=True,
              limit=SHORT_NAME)
    if profile.get("colour") is not None and colour_name(profile["colour"]) is None:
        raise _fail(where, f"{at}.profile.colour",
                    f"{shown(profile['colour'])} is not a palette colour")


def _step(where: str, at: str, n: int, value: Any) -> None:
    step = _dict(where, at, value)
    if step.get("n") != n:
        raise _fail(where, f"{at}.n", f"{shown(step.get('n'))} is not step {n}")
    if step.get("status") not in STATUSES:
        raise _fail(where, f"{at}.status",
                    f"{shown(step.get('status'))} is not one of {', '.join(STATUSES)}")
    if step["status"] != DROPPED:
        _dict(where, f"{at}.command", step.get("command"))
    elif "command" not in step:   # set aside: kept as stored, whatever it holds, but kept
        raise _fail(where, f"{at}.command", "is missing (a dropped step keeps its command)")
    if step.setdefault("source", None) is not None:
        _text(where, f"{at}.source", step["source"])
    _time(where, f"{at}.created_at", step.get("created_at"))
    for i, event in enumerate(_list(where, f"{at}.events", step.get("events"))):
        event = _dict(where, f"{at}.events[{i}]", event)
        _text(where, f"{at}.events[{i}].type", event.get("type"))
        for flag in ("automatic", "undoable"):
            if not isinstance(event.get(flag), bool):
                raise _fail(where, f"{at}.events[{i}].{flag}",
                            f"{shown(event.get(flag))} is not true or false")


# -- merging ---------------------------------------------------------------------------------
def merge(conn: sqlite3.Connection, records: Iterable[tuple[str, Any]]) -> Merged:
    """The file's games into the database, in ONE transaction (see the module's docstring),
    taken one at a time (``records`` may be a stream: companion/history/import_stream.py);
    ImportRefused, and nothing changed, for a game that is not one or does not fold."""
    added = already = 0
    conflicts: list[str] = []
    apart: list[str] = []
    with Tx(conn):
        for where, value in records:
            game = incoming(where, value)
            here = conn.execute("SELECT id, game, status FROM games WHERE uuid = ?",
                                (game.uuid,)).fetchone()
            if here is None:
                _add(conn, game, apart)
                added += 1
                continue
            local = _content({"game": here[1], "status": here[2],
                              **stored_record(conn, here[0])})
            differs = differences(local, game.content)
            if differs:
                conflicts.append(f"game {game.uuid} ({game.where}): {differs}; the game "
                                 f"here (#{here[0]}) was left as it is")
            else:
                already += 1
    return Merged(added, already, tuple(conflicts), tuple(apart))


def differences(here: dict[str, Any], there: dict[str, Any], where: str = "in the file") -> str:
    """What differs between two records of one game (their content), in words ("" for
    nothing); ``where``: the other record's place (the imported file, the club)."""
    words = []
    for name in CONTENT:
        if here[name] == there[name]:
            continue
        if name == "log":
            mine, theirs = here["log"], there["log"]
            first = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b),
                         min(len(mine), len(theirs)))
            words.append(f"its log from step {first + 1} ({len(mine)} steps here, "
                         f"{len(theirs)} {where})")
        else:
            words.append(f"its {name.replace('_', ' ')}")
    return ", ".join(words)


def _add(conn: sqlite3.Connection, game: Incoming, apart: list[str]) -> None:
    stored = game.stored
    created = stored["created_at"]
    gid = conn.execute(
        "INSERT INTO games (game, setup, status, created_at, updated_at, finished_at, uuid, "
        "device) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (game.game, dumps(stored["setup"]), game.status, created, stored["updated_at"],
         stored.get("finished_at"), game.uuid, game.device)).lastrowid
    conn.executemany("INSERT INTO players (game_id, seat, name, profile_id) VALUES (?, ?, ?, ?)",
                     [(gid, s["seat"], s["name"], _profile(conn, game, s, apart))
                      for s in stored["seats"]])
    conn.executemany(
        "INSERT INTO steps (game_id, n, command, status, created_at, source) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [(gid, s["n"], s["command"] if isinstance(s["command"], str) else dumps(s["command"]),
          s["status"], s["created_at"], s.get("source")) for s in stored["log"]])
    conn.executemany(
        "INSERT INTO events (game_id, step, seq, type, data, automatic, undoable) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(gid, s["n"], i, e["type"], dumps(e.get("data")), int(e["automatic"]),
          int(e["undoable"])) for s in stored["log"] for i, e in enumerate(s["events"])])
    if stored.get("clocks") is not None:
        write_clocks(conn, gid, stored["clocks"],
                     stored.get("clocks_at") or stored["updated_at"])
    folded = summarize(conn, gid)  # the line for the lists, from today's rules' fold
    title = all_games()[game.game].title
    name = f"{game.where}: game {game.uuid} ({title})"
    if folded.problem is not None:
        where = "its setup" if folded.problem.step is None else f"step {folded.problem.step}"
        raise ImportRefused(f"{name} does not fold: {where}: {folded.problem.what}; nothing "
                            "from this file was imported")
    try:  # events are folded as stored: damaged ones can leave a state the rules cannot read
        seats = [p["name"] for p in folded.rules.summary(folded.state)["players"]]
        over = folded.rules.is_over(folded.state)
        results = json.loads(dumps(folded.rules.results(folded.state))) if over else []
    except Exception as problem:  # noqa: BLE001 - whatever a damaged log leaves: named, refused
        raise ImportRefused(f"{name}: its log folds to a game the rules cannot read "
                            f"({type(problem).__name__}: {problem}); nothing from this file was "
                            "imported") from None
    if seats != [s["name"] for s in stored["seats"]]:
        raise ImportRefused(f"{name}: its seats are not the players of its setup; nothing from "
                            "this file was imported")
    if (game.status == "finished") != over:
        raise ImportRefused(f"{name} is {game.status} but its log "
                            f"{'ends' if over else 'does not end'} the game; nothing from this "
                            "file was imported")
    if results != stored["results"]:
        raise ImportRefused(f"{name}: its results are not what its log gives; nothing from "
                            "this file was imported")
    conn.executemany(
        "INSERT INTO results (game_id, seat, name, score, winner, detail) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [(gid, r["seat"], r["name"], r["score"], int(r["winner"]), dumps(r)) for r in results])


def _profile(conn: sqlite3.Connection, game: Incoming, seat: dict[str, Any],
             apart: list[str]) -> int:
    """The profile a seat links to: the one with its uuid, else a new one with the file's
    uuid (named like one here: kept apart, and said so); a seat without a profile (a game
    whose seat no profile held) links as a new game's seat does, by name."""
    played = game.stored["created_at"]
    profile = seat["profile"]
    if profile is None:
        return link_seats(conn, [seat["name"]], {}, played)[0]
    ident = str(uuids.UUID(profile["uuid"]))
    row = conn.execute("SELECT id FROM profiles WHERE uuid = ?", (ident,)).fetchone()
    if row is not None:
        conn.execute("UPDATE profiles SET last_played_at = max(coalesce(last_played_at, ?), ?) "
                     "WHERE id = ?", (played, played, row[0]))
        return int(row[0])
    name = profile["name"].strip()
    same = conn.execute("SELECT name FROM profiles WHERE name_key = ? LIMIT 1",
                        (key(name),)).fetchone()
    if same is not None:
        apart.append(f"{name} ({game.where}, profile {ident}) is not the {same[0]} "
                     "here (another profile): kept apart; rename one to tell them apart")
    return int(conn.execute(
        "INSERT INTO profiles (uuid, name, name_key, short_name, colour, created_at, "
        "last_played_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (ident, name, key(name), (profile.get("short_name") or "").strip() or None,
         colour_name(profile.get("colour")), played, played)).lastrowid)
