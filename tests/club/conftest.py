"""A real PostgreSQL for the club's tests: one cluster per test worker (tests/club/cluster.py:
initdb in a temporary folder as a user that is not root, pg_ctl on a free 127.0.0.1 port with
password (SCRAM) logins over TLS only, stopped by its pid at the end). Without PostgreSQL the tests are
skipped with the reason, except in CI (CI=true), where they fail."""

from __future__ import annotations

import os

import pytest

from tests.club.cluster import installed, running


#: The tests' cluster does not flush to disk (no fsync): what they try is the club's rules and a
#: server killed as a process (``-m immediate``), which loses nothing it handed the kernel;
#: each commit is still written before it is acknowledged (synchronous_commit stays on: off,
#: the server killed mid-sync lost an acknowledged game).
FAST = "-c fsync=off"


@pytest.fixture(scope="session")
def cluster():
    if not installed():
        if os.environ.get("CI") == "true":
            pytest.fail("PostgreSQL (initdb, pg_ctl) is missing: .ci/run installs it")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    with running(FAST, in_memory=True) as found:
        yield found


@pytest.fixture
def club(cluster):
    """A new database in the cluster, made the club's (``companion club init``): its admin
    connection string (its sessions find the club's relations unqualified: the tests' own SQL
    is not the boundary, the club's functions are)."""
    from companion.club.schema import init
    import psycopg

    url = cluster.url(cluster.new_database())
    with psycopg.connect(url, autocommit=True) as conn:
        init(conn)
    return url + " options=-csearch_path=club,public"


@pytest.fixture
def roles(club):
    """A table (A) and another (B), both with their devices claimed, a wall and a rater
    (tests/club/hostile.py)."""
    from tests.club.hostile import made_roles

    return made_roles(club)
