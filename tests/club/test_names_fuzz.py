"""Names, fuzzed (Hypothesis) against the club's own rule (the domain ``club.name``, schema
version 3): whatever the club stores passes every table's gate (companion/club/profiles.py
``admitted``), so a profile brought down is never left behind by a table; and a name typed the
ordinary way (letters of any script, digits, spaces, punctuation) passes both."""

from __future__ import annotations

import psycopg
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.club.profiles import admitted
from companion.core.errors import RuleViolation

ORDINARY = st.text(st.characters(whitelist_categories=("L", "N", "Zs", "Pd", "Po", "Mn")),
                   min_size=1, max_size=40).filter(lambda t: t.strip())


def _table_takes(name: str) -> bool:
    try:
        admitted(name, None, None)
    except RuleViolation:
        return False
    return True


def test_what_the_club_stores_every_table_takes(club):
    with psycopg.connect(club, autocommit=True) as conn:
        def club_takes(name: str) -> bool:
            try:
                return conn.execute("SELECT %s::club.name IS NOT NULL", (name,)).fetchone()[0]
            except psycopg.errors.CheckViolation:
                return False

        @settings(max_examples=300, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture])
        @given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"),
                       max_size=60))
        def any_text(name: str) -> None:
            if club_takes(name):
                assert _table_takes(name), repr(name)

        @settings(max_examples=200, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture])
        @given(ORDINARY)
        def ordinary(name: str) -> None:
            assert club_takes(name) and _table_takes(name), repr(name)

        any_text()
        ordinary()
