"""The error SQLite raises when the card is full, as a connection raises it (SQLITE_FULL on
the error): for the tests whose fake connection fills the card on one statement."""

from __future__ import annotations

import sqlite3


def disk_full() -> sqlite3.OperationalError:
    problem = sqlite3.OperationalError("database or disk is full")
    problem.sqlite_errorcode = sqlite3.SQLITE_FULL
    return problem
