"""A database is what the companion made, or it is refused.

SQLite runs what a file's own schema says: a trigger fires on the companion's next write (a
restored file carrying one abandoned every game, stored 999 for every seat and renamed
profiles), a view or a virtual table answers for a table. So the file's ``sqlite_schema`` is
compared, at every opening and before a restore, with what some companion version (1 to
SCHEMA_VERSION) makes: its tables (each column or constraint one any version wrote, in the
spelling of schema.py or of a migration's ``ADD COLUMN``; WITHOUT ROWID or not), its indexes
and SQLite's own automatic indexes of those tables. Anything else is a stranger, refused by
name with the file left as it is; ``companion check --repair`` removes strangers after keeping
a copy of the file. The shapes are built once, in an in-memory database, from schema.py's
statements and migrate.py's MIGRATIONS; each check is the one schema read the opening makes.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from dataclasses import dataclass

from companion.core.errors import StoreError
from companion.core.values import shown
from companion.store.schema import MIGRATIONS, SCHEMA

#: SQLite's own bookkeeping a companion file may hold: AUTOINCREMENT's counter (data only).
SQLITE_OWN = frozenset({"sqlite_sequence"})

_TOKEN = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|\w+|\S""")
_AUTOINDEX = re.compile(r"sqlite_autoindex_(.+)_\d+")
_ADD_COLUMN = re.compile(r"ALTER TABLE (\w+) ADD COLUMN (.+)", re.S)


def tokens(sql: str) -> list[str]:
    """SQL as SQLite reads it: whitespace gone, words in capitals, quoted text as written."""
    return [t if t[0] in "'\"`[" else t.upper() for t in _TOKEN.findall(sql)]


def _items(found: list[str]) -> tuple[list[str], str] | None:
    """A CREATE TABLE's body split at its top-level commas, each item normalised, and what
    follows the closing bracket; None if it is not ``CREATE TABLE name (...)``."""
    if found[:2] != ["CREATE", "TABLE"] or len(found) < 5 or found[3] != "(":
        return None
    items, depth, current = [], 0, []
    for i, token in enumerate(found[4:], start=4):
        if token == "(":
            depth += 1
        elif token == ")":
            if depth == 0:
                items.append(" ".join(current))
                return items, " ".join(found[i + 1:])
            depth -= 1
        if token == "," and depth == 0:
            items.append(" ".join(current))
            current = []
        else:
            current.append(token)
    return None


@dataclass(frozen=True)
class Shapes:
    """What companion files hold: per table its allowed items and endings, per index its
    normalised statements."""

    tables: dict[str, tuple[frozenset[str], frozenset[str]]]
    indexes: dict[str, frozenset[str]]
    #: each index as today's schema writes it (a repair makes a changed one again)
    made: dict[str, str]


@functools.lru_cache(maxsize=1)
def shapes() -> Shapes:
    """Built once per process: today's schema made in memory (as SQLite stores it), with every
    migration's statements (a file made by an older companion and brought up to date)."""
    memory = sqlite3.connect(":memory:")
    try:
        memory.executescript(SCHEMA)
        made = [sql for (sql,) in memory.execute("SELECT sql FROM sqlite_schema "
                                                 "WHERE sql IS NOT NULL")]
    finally:
        memory.close()
    tables: dict[str, tuple[set[str], set[str]]] = {}
    indexes: dict[str, set[str]] = {}
    made_as: dict[str, str] = {}
    statements = made + [s for version in sorted(MIGRATIONS) for s in MIGRATIONS[version]]
    for sql in statements:
        found = tokens(sql)
        added = _ADD_COLUMN.fullmatch(" ".join(found))
        if added:
            tables[added[1].lower()][0].add(added[2])
        elif found[:2] == ["CREATE", "TABLE"]:
            items, ending = _items(found) or ([], "")
            known = tables.setdefault(found[2].lower(), (set(), {""}))
            known[0].update(items)
            known[1].add(ending)
        elif found[:2] == ["CREATE", "INDEX"] or found[:3] == ["CREATE", "UNIQUE", "INDEX"]:
            name = found[3 if found[1] == "UNIQUE" else 2].lower()
            indexes.setdefault(name, set()).add(" ".join(found))
            made_as.setdefault(name, sql)
    return Shapes({name: (frozenset(i), frozenset(e)) for name, (i, e) in tables.items()},
                  {name: frozenset(sqls) for name, sqls in indexes.items()}, made_as)


@dataclass(frozen=True)
class Stranger:
    """An object in a file that no companion makes: what it is, and whether dropping it keeps
    every row a companion wrote (``removable``); an altered table of ours is not."""

    type: str
    name: str
    removable: bool = True
    #: how it differs, after its name
    why: str = "that a companion database never has"

    def __str__(self) -> str:
        article = "an" if self.type[0] in "aeiou" else "a"
        return f"{article} {self.type} `{self.name}` {self.why}"


def strangers(rows: list[tuple[str, str, str, str | None]]) -> list[Stranger]:
    """The objects of ``(type, name, tbl_name, sql)`` rows (``sqlite_schema``) that no
    companion version makes, in the file's order."""
    known = shapes()
    out: list[Stranger] = []
    for type_, name, table, sql in rows:
        lower = name.lower()
        if lower in SQLITE_OWN:
            continue
        if type_ == "index" and sql is None:   # SQLite's own index for a key or UNIQUE
            own = _AUTOINDEX.fullmatch(lower)
            if own and own[1] == table.lower() and own[1] in known.tables:
                continue
            out.append(Stranger("index", name))
            continue
        found = tokens(sql or "")
        virtual = type_ == "table" and found[:3] == ["CREATE", "VIRTUAL", "TABLE"]
        if (virtual or type_ == "view") and lower in known.tables:
            out.append(Stranger("virtual table" if virtual else type_, name, False,
                                "where a companion database has its own table of that name"))
        elif virtual:
            out.append(Stranger("virtual table", name))
        elif type_ == "table" and lower in known.tables:
            items, endings = known.tables[lower]
            parsed = _items(found)
            if parsed is None or not set(parsed[0]) <= items or parsed[1] not in endings:
                out.append(Stranger("table", name, False, "whose columns or constraints a "
                                                          "companion database never has"))
        elif type_ == "index" and lower in known.indexes:
            if " ".join(found) not in known.indexes[lower]:   # ours, made again by a repair
                out.append(Stranger("index", name, why="not as a companion database has it"))
        elif type_ in ("table", "index", "trigger", "view"):
            out.append(Stranger(type_, name))
        else:
            out.append(Stranger(shown(type_, 20)[1:-1] or "object", name))
    return out


def read_schema(conn: sqlite3.Connection) -> list[tuple[str, str, str, str | None]]:
    """The one read of a file's schema an opening makes."""
    return conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema").fetchall()


class Untrusted(StoreError):
    """A file carrying objects no companion makes: refused, left as it is (never moved aside
    as unreadable: its games are there, and ``companion check --repair`` removes them)."""

    def __init__(self, path: str, found: list[Stranger]) -> None:
        self.found = found
        super().__init__(f"The game database {path} is refused: this file carries "
                         f"{listed(found)}. Nothing was changed; {what_to_do(found, path)}")


def listed(found: list[Stranger]) -> str:
    return "; ".join(str(s) for s in found[:5]) + ("; ..." if len(found) > 5 else "")


def what_to_do(found: list[Stranger], path: str) -> str:
    if all(s.removable for s in found):
        return (f"run companion check --repair --db {path} (it keeps a copy of the file, then "
                "removes them)")
    return "restore a backup of it (companion restore FILE)"


def refuse_strangers(conn: sqlite3.Connection, path: str,
                     rows: list[tuple[str, str, str, str | None]] | None = None) -> None:
    """Untrusted naming every stranger in the file, or nothing."""
    found = strangers(read_schema(conn) if rows is None else rows)
    if found:
        raise Untrusted(path, found)


def trusting_nothing(conn: sqlite3.Connection) -> sqlite3.Connection:
    """Every connection: functions with side effects and virtual tables are never run from a
    file's own schema (a trigger, a view, an index's expression)."""
    conn.execute("PRAGMA trusted_schema = OFF")
    return conn


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def drop_strangers(conn: sqlite3.Connection, found: list[Stranger]) -> list[str]:
    """Inside a transaction: each removable stranger dropped (an index of ours that differs is
    made again as today's schema has it); what was done, in words. A virtual table whose module
    this SQLite lacks is taken out of the schema directly."""
    done: list[str] = []
    order = {"trigger": 0, "view": 1, "index": 2, "virtual table": 3, "table": 4}
    for stranger in sorted((s for s in found if s.removable), key=lambda s: order.get(s.type, 5)):
        kind = {"virtual table": "TABLE"}.get(stranger.type, stranger.type.upper())
        try:
            conn.execute(f"DROP {kind} IF EXISTS {_quoted(stranger.name)}")
        except sqlite3.OperationalError:  # no such module: the row itself goes
            conn.execute("PRAGMA writable_schema = ON")
            conn.execute("DELETE FROM sqlite_schema WHERE name = ?", (stranger.name,))
            conn.execute("PRAGMA writable_schema = OFF")
        done.append(f"removed the {stranger.type} `{stranger.name}`")
        ours = shapes().made.get(stranger.name.lower())
        if stranger.type == "index" and ours:
            conn.execute(ours)
            done[-1] += " and made it again as a companion database has it"
    return done


# -- what a file declares against what it holds ----------------------------------------------
_CREATE_TABLE = re.compile(r"CREATE TABLE (\w+)")


@functools.lru_cache(maxsize=None)
def tables_at(version: int) -> dict[str, frozenset[str]]:
    """The companion's tables and their columns in a file of schema ``version`` (1 to
    SCHEMA_VERSION): today's, less what each later version's migration adds."""
    memory = sqlite3.connect(":memory:")
    try:
        memory.executescript(SCHEMA)
        tables = {name: {row[1] for row in memory.execute(f"PRAGMA table_info({name})")}
                  for (name,) in memory.execute("SELECT name FROM sqlite_schema WHERE "
                                                "type = 'table'")}
    finally:
        memory.close()
    for later in range(version + 1, max(MIGRATIONS) + 1):
        for sql in MIGRATIONS[later]:
            added = _ADD_COLUMN.fullmatch(" ".join(sql.split()))
            created = _CREATE_TABLE.match(sql)
            if added:
                tables[added[1]].discard(added[2].split()[0])
            elif created:
                tables.pop(created[1], None)
    return {name: frozenset(columns) for name, columns in tables.items()}


def declared_problem(conn: sqlite3.Connection, version: int) -> str | None:
    """What is wrong between the schema a file of ours declares (``PRAGMA user_version``) and
    the tables it holds, in words, or None: a version no companion wrote (0, or newer is said
    elsewhere), or tables and columns not those of that version (every writer would then
    fail on them)."""
    from companion.store.schema import SCHEMA_VERSION

    if not 1 <= version <= SCHEMA_VERSION:
        return (f"it declares schema {version}, which no companion writes (schemas 1 to "
                f"{SCHEMA_VERSION})")
    wanted = tables_at(version)
    found: dict[str, set[str]] = {}
    for (name,) in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'"):
        if name.lower() in tables_at(max(MIGRATIONS)):
            found[name.lower()] = {row[1] for row in conn.execute(
                f"PRAGMA table_info({_quoted(name)})")}
    for name in sorted(set(wanted) | set(found)):
        if name not in found:
            return f"it declares schema {version} but has no table `{name}`"
        if name not in wanted:
            return (f"it declares schema {version} but holds the table `{name}` of a later "
                    "schema")
        if found[name] != wanted[name]:
            odd = sorted(found[name] ^ wanted[name])
            return (f"it declares schema {version} but its table `{name}` has other columns "
                    f"({', '.join(odd[:4])})")
    return None
