"""The wire between a companion and the club's server: every connection a club role's settings
make (a table's, a wall's, the rater's) is encrypted to a server whose certificate and name are
checked, and authenticates by SCRAM only, so no password ever crosses the network in clear.

libpq's defaults do not give that: without ``sslmode`` it *prefers* TLS, so a machine that
answers in the server's place, refuses TLS and asks for the password in clear (PostgreSQL's
``password`` method) is sent it. ``secured`` writes into a connection string what libpq needs
to refuse such a server before any credential leaves:

- ``sslmode=verify-full``: TLS, the certificate signed by the club's CA (``sslrootcert``) and
  made out to the server's name;
- ``require_auth=scram-sha-256`` (libpq 16 and later): only a SCRAM exchange, which proves the
  password without sending it (a server asking for it in clear, or as MD5, is refused);
- ``channel_binding=require`` (libpq 13 and later): the SCRAM exchange is bound to this TLS
  connection, so a machine in the middle holding another certificate cannot relay it.

The one exception is a test on one machine: ``sslmode=disable`` to a loopback address or a
Unix socket, said explicitly (the password then never leaves the machine; SCRAM is still
required). Anything else that would allow plain text is refused in one line saying how to
mend it.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from companion.core.errors import CompanionError

#: The modes libpq accepts that allow no plain text and check the server's name.
SAFE = "verify-full"
#: libpq's versions (PQlibVersion) from which it has each setting.
REQUIRE_AUTH_FROM, CHANNEL_BINDING_FROM = 160000, 130000
#: The largest CA file a settings file carries (a chain of a few certificates).
CA_MOST = 64_000
#: How to allow plain text, for a test on one machine.
ONE_MACHINE = ("for a test on one machine only, give host=127.0.0.1 (or a socket folder) "
               "with sslmode=disable")


class PlainText(CompanionError, ValueError):
    """A connection string that would let a password go in clear: the message says how to mend
    it."""


def libpq_version() -> int:
    """The libpq psycopg uses (e.g. 180006 for 18.6; 0 when it cannot say)."""
    try:
        from psycopg import pq

        return int(pq.version())
    except Exception:  # noqa: BLE001 (no psycopg, or a build that cannot say)
        return 0


def local(host: str | None) -> bool:
    """Whether ``host`` (libpq's: a name, an address or a socket folder; empty for the default
    socket) is this machine itself."""
    if not host or host.startswith("/") or host.startswith("@") or host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def plain_text(given: dict[str, Any]) -> str | None:
    """Why a connection's parameters (conninfo_to_dict's) would let the password go in clear,
    None when they do not. A loopback or socket host with ``sslmode=disable`` is the one-machine
    test, allowed."""
    mode = given.get("sslmode") or "prefer (libpq's default)"
    hosts = str(given.get("host") or "").split(",")
    if mode == SAFE:
        return None
    if mode == "disable" and all(local(h) for h in hosts):
        return None
    if mode in ("verify-ca",):
        return (f"sslmode={mode} checks the CA but not the server's name: any certificate the "
                "CA signed passes as the club's server")
    return (f"sslmode={mode} lets a machine in the server's place refuse TLS and be sent the "
            "password in clear")


def secured(conninfo: str, what: str = "the club's connection") -> str:
    """``conninfo`` with what no credential leaves without (see the module's docstring);
    PlainText naming ``what`` when it would allow plain text to another machine."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    try:
        given = conninfo_to_dict(conninfo)
    except Exception as problem:  # noqa: BLE001 (psycopg's ProgrammingError, in words)
        raise PlainText(f"{what}: not a libpq connection string ({_words(problem)})") from None
    why = plain_text(given)
    if why is not None:
        raise PlainText(f"{what}: {why}; give sslmode=verify-full sslrootcert=CA-FILE "
                        f"(docs/club.md, TLS), or {ONE_MACHINE}")
    version = libpq_version()
    if version >= REQUIRE_AUTH_FROM:
        given["require_auth"] = "scram-sha-256"
    if given.get("sslmode") == SAFE and version >= CHANNEL_BINDING_FROM:
        given["channel_binding"] = "require"
    return make_conninfo(**given)


def ca_text(given: dict[str, Any]) -> str:
    """The club's CA as PEM text, from the connection's ``sslrootcert`` file ("" when it has
    none, or names libpq's ``system`` store): carried in the settings so a table checks the
    server against the CA the organiser gave, on a machine without that file."""
    from pathlib import Path

    path = given.get("sslrootcert")
    if not path or path == "system":
        return ""
    try:
        text = Path(path).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as problem:
        raise PlainText(f"sslrootcert: {path} cannot be read as a CA file ({_words(problem)})"
                        ) from None
    if "-----BEGIN CERTIFICATE-----" not in text or len(text) > CA_MOST:
        raise PlainText(f"sslrootcert: {path} is not a CA certificate in PEM (at most "
                        f"{CA_MOST:,} characters)")
    return text


def _words(problem: BaseException) -> str:
    return " ".join(str(problem).split())
