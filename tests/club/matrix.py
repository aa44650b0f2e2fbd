"""The club's privilege matrix, two ways: as PostgreSQL grants it (``granted``: every relation,
sequence and function of the schema ``club``, the schemas, the club's database and the two
every cluster has, large objects, the role's connection limit and its timeouts, read with
has_*_privilege for one login role) and as docs/club.md documents it (``documented``: the table
between the matrix's markers). tests/club/test_boundary.py compares them, so neither can change
without the other."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

DOC = Path(__file__).resolve().parents[2] / "docs" / "club.md"
BEGIN, END = "<!-- privilege matrix -->", "<!-- end of the privilege matrix -->"
#: The login kinds, the matrix's columns.
KINDS = ("table", "wall", "rater")
_TABLE_PRIVILEGES = ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES",
                     "TRIGGER")
_COLUMN_PRIVILEGES = ("SELECT", "INSERT", "UPDATE", "REFERENCES")


def _cell(tokens: list[str]) -> str:
    return ", ".join(tokens) if tokens else "-"


def granted(conn: Any, role: str) -> dict[str, str]:
    """What ``role`` may do to each object of the club's database, one cell per object."""
    out: dict[str, str] = {}
    out["database"] = _cell([p for p in ("CONNECT", "CREATE", "TEMPORARY") if conn.execute(
        "SELECT has_database_privilege(%s, current_database(), %s)", (role, p)).fetchone()[0]])
    for schema in ("club", "public"):
        out[f"schema {schema}"] = _cell([p for p in ("USAGE", "CREATE") if conn.execute(
            "SELECT has_schema_privilege(%s, %s, %s)", (role, schema, p)).fetchone()[0]])
    for other in ("postgres", "template1"):
        out[f"database {other}"] = "CONNECT" if conn.execute(
            "SELECT has_database_privilege(%s, %s, 'CONNECT')", (role, other)).fetchone()[0] \
            else "-"
    out["large objects"] = "CREATE" if conn.execute(
        "SELECT has_function_privilege(%s, 'pg_catalog.lo_create(oid)', 'EXECUTE') OR "
        "has_function_privilege(%s, 'pg_catalog.lo_creat(integer)', 'EXECUTE') OR "
        "has_function_privilege(%s, 'pg_catalog.lo_from_bytea(oid, bytea)', 'EXECUTE')",
        (role, role, role)).fetchone()[0] else "-"
    limit, config = conn.execute("SELECT rolconnlimit, rolconfig FROM pg_roles WHERE rolname = %s",
                                 (role,)).fetchone()
    out["connection limit"] = "none" if limit < 0 else str(limit)
    out["timeouts"] = _cell(sorted(config or []))
    out["advisory locks"] = "EXECUTE" if conn.execute(
        "SELECT has_function_privilege(%s, 'pg_catalog.pg_advisory_lock(bigint)', 'EXECUTE')",
        (role,)).fetchone()[0] else "-"
    out["member of"] = _cell([r for (r,) in conn.execute(
        "SELECT g.rolname FROM pg_roles g, pg_roles me WHERE me.rolname = %s AND g.oid <> me.oid "
        "AND g.rolname LIKE 'club\\_%%' AND pg_has_role(me.oid, g.oid, 'MEMBER') "
        "ORDER BY g.rolname", (role,))])
    for oid, name, kind in conn.execute(
            "SELECT c.oid, c.relname, c.relkind FROM pg_class c WHERE c.relnamespace = "
            "'club'::regnamespace AND c.relkind IN ('r', 'S', 'v', 'm', 'p', 'f') "
            "ORDER BY c.relname").fetchall():
        tokens = []
        if kind == "S":
            tokens = [p for p in ("USAGE", "SELECT", "UPDATE") if conn.execute(
                "SELECT has_sequence_privilege(%s, %s, %s)", (role, oid, p)).fetchone()[0]]
        else:
            for p in _TABLE_PRIVILEGES:
                if conn.execute("SELECT has_table_privilege(%s, %s, %s)",
                                (role, oid, p)).fetchone()[0]:
                    tokens.append(p)
                elif p in _COLUMN_PRIVILEGES:
                    columns = [c for (c,) in conn.execute(
                        "SELECT attname FROM pg_attribute WHERE attrelid = %s AND attnum > 0 "
                        "AND NOT attisdropped AND has_column_privilege(%s, %s, attnum, %s) "
                        "ORDER BY attnum", (oid, role, oid, p))]
                    if columns:
                        tokens.append(f"{p} ({', '.join(columns)})")
        out[f"club.{name}"] = _cell(tokens)
    for oid, name in conn.execute(
            "SELECT p.oid, p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' "
            "FROM pg_proc p WHERE p.pronamespace = 'club'::regnamespace ORDER BY 2").fetchall():
        ok = conn.execute("SELECT has_function_privilege(%s, %s, 'EXECUTE')",
                          (role, oid)).fetchone()[0]
        out[f"club.{name}"] = "EXECUTE" if ok else "-"
    return out


def documented(text: str | None = None) -> dict[str, dict[str, str]]:
    """The matrix as docs/club.md writes it: {kind: {object: cell}}."""
    text = text if text is not None else DOC.read_text(encoding="utf-8")
    body = text[text.index(BEGIN) + len(BEGIN):text.index(END)]
    rows = [line for line in body.splitlines() if line.startswith("|")]
    head = [c.strip().strip("`") for c in rows[0].strip("|").split("|")]
    assert head == ["object", *KINDS], head
    out: dict[str, dict[str, str]] = {kind: {} for kind in KINDS}
    for line in rows[2:]:
        cells = [re.sub(r"\s+", " ", c.strip().replace("`", "")) for c in
                 line.strip().strip("|").split("|")]
        for kind, cell in zip(KINDS, cells[1:]):
            out[kind][cells[0]] = cell
    return out


def as_markdown(matrix: dict[str, dict[str, str]]) -> str:
    """The matrix as docs/club.md's table (to write it when the grants change on purpose)."""
    objects = list(next(iter(matrix.values())))
    lines = ["| object | " + " | ".join(KINDS) + " |", "|---" * (len(KINDS) + 1) + "|"]
    for name in objects:
        lines.append(f"| `{name}` | " + " | ".join(matrix[k][name] for k in KINDS) + " |")
    return "\n".join(lines)
