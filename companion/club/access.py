"""Who reaches the club's store, and how: each table's own login role (``add_table``) or a wall
screen's read-only one (``add_wall``), their connection settings, and the file a companion keeps
them in (readable by its own user only: companion/files/write.py sets the mode on the
descriptor).

A password is made here and handed out once in the settings. ``CREATE ROLE`` is given its
SCRAM-SHA-256 verifier, never the password, so a server logging statements logs no password.
That is not what keeps it off the wire: each login sends the password's proof, and the settings
let libpq do so only over TLS to the club's verified server, by SCRAM alone
(companion/club/wire.py; the settings carry the club's CA). ``words`` takes any password out of
a message before it is shown or logged.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core.errors import CompanionError
from companion.files.read import Unreadable, read_regular
from companion.files.write import write_whole
from companion.club import wire

#: The settings file's fields (and ``ca``, the club's CA, when it has its own).
FIELDS = ("club", "name", "role", "conninfo")
_SCRAM_ROUNDS = 4096
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.-]{0,59}")


class ClubRefused(CompanionError, ValueError):
    """A name, a file or settings the club cannot use: the message names the field or file."""


@dataclass(frozen=True)
class Settings:
    """How one companion reaches its club: the club's name, this table's name and role, and the
    libpq connection string (with the password)."""

    club: str
    name: str
    role: str
    conninfo: str
    ca: str = ""

    def as_json(self) -> str:
        out = {f: getattr(self, f) for f in FIELDS}
        if self.ca:
            out["ca"] = self.ca
        return json.dumps(out, indent=2) + "\n"

    def __repr__(self) -> str:   # a traceback or a log line shows no password
        return f"Settings(club={self.club!r}, name={self.name!r}, role={self.role!r})"


def scram_verifier(password: str, salt: bytes | None = None) -> str:
    """The SCRAM-SHA-256 verifier PostgreSQL keeps for ``password`` (RFC 5802, 7677)."""
    salt = salt if salt is not None else os.urandom(16)
    salted = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, _SCRAM_ROUNDS)
    client = hmac.new(salted, b"Client Key", "sha256").digest()
    stored = hashlib.sha256(client).digest()
    server = hmac.new(salted, b"Server Key", "sha256").digest()
    b64 = lambda raw: base64.b64encode(raw).decode("ascii")  # noqa: E731
    return f"SCRAM-SHA-256${_SCRAM_ROUNDS}:{b64(salt)}${b64(stored)}:{b64(server)}"


def role_for(name: str, kind: str = "table") -> str:
    """The PostgreSQL role of a table (or wall screen, or rater) named ``name``; ClubRefused for
    a name that is not 1 to 60 letters, digits, spaces, dots, dashes or underscores."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        what = {"table": "a table's", "wall": "a wall screen's", "rater": "a rater's",
                "season": "a season's"}.get(kind, "a")
        raise ClubRefused(f"NAME: {name!r} is not {what} name (1 to 60 letters, digits, "
                          "spaces, dots, dashes or underscores, starting with a letter or digit)")
    slug = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    return f"club_{kind}_{slug}"[:63]


def _login(conn: Any, role: str, group: str) -> str:
    """A new login role in ``group`` with a fresh password, sent as its verifier only, with its
    kind's connection limit and the club's timeouts (companion/club/limits.py)."""
    from companion.club.limits import CONNECTIONS, login_made
    from psycopg import sql

    password = secrets.token_urlsafe(24)
    found = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    if found:
        raise ClubRefused(f"NAME: the role {role} already exists (a table of that name was "
                          "added before); choose another name")
    kind = group.removeprefix("club_")
    conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {} CONNECTION LIMIT {} IN ROLE {}").format(
        sql.Identifier(role), sql.Literal(scram_verifier(password)),
        sql.Literal(CONNECTIONS[kind]), sql.Identifier(group)))
    login_made(conn, role, kind)
    return password


def _admin(admin: Any) -> dict[str, str]:
    """The admin connection's parameters; ClubRefused (before any role is made) when they
    would let a table's password go in clear (companion/club/wire.py)."""
    from psycopg.conninfo import conninfo_to_dict

    given = conninfo_to_dict(admin.info.dsn)
    why = wire.plain_text(given)
    if why is not None:
        raise ClubRefused(f"--url: {why}, and the settings made from it would too; give "
                          f"sslmode=verify-full sslrootcert=CA-FILE (docs/club.md, TLS), or "
                          f"{wire.ONE_MACHINE}")
    return given


def _conninfo(given: dict[str, str], dbname: str, role: str, password: str) -> str:
    """The role's connection string: the admin connection's server, port, database and TLS
    settings, with the role's own user and password, secured (wire.py). The server by its name
    (``host``), never the address psycopg resolved it to (``hostaddr``, in the connection's
    dsn): a club that moves its DNS name to a standby (docs/club.md) reaches every table."""
    from psycopg.conninfo import make_conninfo

    keep = {k: v for k, v in given.items()
            if k in ("host", "hostaddr", "port", "dbname", "sslmode", "sslrootcert")}
    if keep.get("host"):
        keep.pop("hostaddr", None)
    keep.setdefault("dbname", dbname)
    return wire.secured(make_conninfo(**keep, user=role, password=password))


def add_table(admin: Any, name: str) -> Settings:
    """A table's login role and its row (``tables``), in one transaction as the club's admin;
    the settings returned are the only place its password is ever shown."""
    role = role_for(name)
    given = _admin(admin)
    ca = wire.ca_text(given)
    with admin.transaction():
        if admin.execute("SELECT 1 FROM club.tables WHERE name = %s", (name,)).fetchone():
            raise ClubRefused(f"NAME: the club already has a table named {name!r}")
        password = _login(admin, role, "club_table")
        admin.execute("INSERT INTO club.tables (name, role) VALUES (%s, %s)", (name, role))
    return Settings(club=admin.info.dbname, name=name, role=role, ca=ca,
                    conninfo=_conninfo(given, admin.info.dbname, role, password))


def add_wall(admin: Any, name: str, kind: str = "wall") -> Settings:
    """A wall screen's read-only login role (group ``club_wall``), or (``kind`` "rater") the
    rater's (group ``club_rater``: it writes the league's ratings, and nothing else)."""
    role = role_for(name, kind)
    given = _admin(admin)
    ca = wire.ca_text(given)
    with admin.transaction():
        password = _login(admin, role, f"club_{kind}")
    return Settings(club=admin.info.dbname, name=name, role=role, ca=ca,
                    conninfo=_conninfo(given, admin.info.dbname, role, password))


def add_rater(admin: Any, name: str) -> Settings:
    return add_wall(admin, name, "rater")


def end_table(admin: Any, name: str) -> tuple[str, int]:
    """A table's credentials ended (stolen, or the table gone): its login made ``NOLOGIN``
    (a role may change its own password, never its LOGIN) and every session of it ended;
    returns (its role, the sessions ended). Its games and players stay the club's; ``add-table``
    under another name gives the table new settings."""
    from psycopg import sql

    row = admin.execute("SELECT role FROM club.tables WHERE name = %s", (name,)).fetchone()
    if row is None:
        raise ClubRefused(f"NAME: the club has no table named {name!r}")
    admin.execute(sql.SQL("ALTER ROLE {} NOLOGIN PASSWORD NULL").format(sql.Identifier(row[0])))
    ended = admin.execute("SELECT club.club_end_sessions(%s)", (row[0],)).fetchone()[0]
    return row[0], ended


def kind_of(settings: Settings) -> str:
    """What the settings are for: "table", "wall" or "rater" (from the role's name)."""
    for kind in ("wall", "rater"):
        if settings.role.startswith(f"club_{kind}_"):
            return kind
    return "table"


def default_path() -> Path:
    """The companion's club settings: $COMPANION_CLUB, else club.json in its config folder."""
    if os.environ.get("COMPANION_CLUB"):
        return Path(os.environ["COMPANION_CLUB"])
    from platformdirs import user_config_dir

    return Path(user_config_dir("table-companion", appauthor=False)) / "club.json"


def parse(text: str, shown: str) -> Settings:
    """Settings from the text ``add-table`` printed; ClubRefused naming the file and field."""
    try:
        value = json.loads(text)
    except ValueError:
        raise ClubRefused(f"{shown}: not the settings `companion club add-table` prints "
                          "(not JSON)") from None
    if not isinstance(value, dict):
        raise ClubRefused(f"{shown}: not the settings `companion club add-table` prints")
    for field in FIELDS:
        if not isinstance(value.get(field), str) or not value[field]:
            raise ClubRefused(f"{shown}: the field {field!r} is missing or not text")
    ca = value.get("ca", "")
    if not isinstance(ca, str) or len(ca) > wire.CA_MOST or \
            (ca and "-----BEGIN CERTIFICATE-----" not in ca):
        raise ClubRefused(f"{shown}: the field 'ca' is not the club's CA certificate (PEM)")
    try:
        conninfo = wire.secured(value["conninfo"], f"{shown}: conninfo")
    except wire.PlainText as problem:
        raise ClubRefused(words(problem) + " (or ask the club's admin to add this table again)"
                          ) from None
    return Settings(**{f: value[f] for f in FIELDS if f != "conninfo"}, conninfo=conninfo,
                    ca=ca)


def ca_path(path: Path) -> Path:
    """Where the club's CA is kept beside the settings file ``path``."""
    return path.with_name(path.name + ".ca.pem")


def save(settings: Settings, path: Path, *, force: bool = False) -> Path:
    """The settings as the companion's file, mode 0600 (its folder 0700 when made); the club's
    CA, when the settings carry one, beside it (``ca_path``), and the connection's
    ``sslrootcert`` naming that file."""
    if not settings.ca:
        return write_whole(path, settings.as_json(), mode=0o600, force=force,
                           folder_mode=0o700)
    from dataclasses import replace
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    given = conninfo_to_dict(settings.conninfo)
    given["sslrootcert"] = os.path.abspath(ca_path(path))
    kept = write_whole(path, replace(settings, conninfo=make_conninfo(**given)).as_json(),
                       mode=0o600, force=force, folder_mode=0o700)
    write_whole(ca_path(path), settings.ca, mode=0o644, force=True)
    return kept


def load(path: Path) -> Settings:
    """The companion's settings; ClubRefused naming the file when it is missing or unusable,
    or readable by others (a password there is the table's key to the club)."""
    shown = os.fspath(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise ClubRefused(f"{shown}: no club settings (join a club first: companion club "
                          "join FILE, with the settings `companion club add-table` printed)") \
            from None
    private(shown, mode, "or join again")
    try:
        data = read_regular(shown, "config")
    except Unreadable as problem:
        raise ClubRefused(str(problem)) from None
    return parse(data.decode("utf-8", "replace"), shown)


def private(shown: str, mode: int, then: str) -> None:
    """ClubRefused when a settings file (its ``mode``) is readable by other users: its password
    is a table's key to the club."""
    if mode & 0o077:
        raise ClubRefused(f"{shown}: readable by other users (mode {mode & 0o777:o}); "
                          f"chmod 600 {shown}, {then}")


def words(problem: BaseException | str, *secrets_: str) -> str:
    """A message in one line with every password (``password=...`` and the given ones) taken
    out."""
    text = " ".join(str(problem).split())
    text = re.sub(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", r"\1***", text, flags=re.I)
    text = re.sub(r"(postgres(?:ql)?://[^:/@\s]*:)[^@\s]*@", r"\1***@", text)
    for secret in secrets_:
        if secret:
            text = text.replace(secret, "***")
    return text
