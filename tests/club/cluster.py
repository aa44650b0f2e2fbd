"""A PostgreSQL cluster of the tests' own (tests/club/conftest.py) and the club benchmark's
(benchmarks/league.py): initdb in a temporary folder as a user that is not root (initdb refuses
root: as root it makes and uses the system user ``companion-test``), pg_ctl on a free 127.0.0.1
port with password (SCRAM) logins over TLS only, stopped by its pid at the end.

The cluster runs with TLS on, as docs/club.md asks of a club's server: ``certificates`` makes a
throwaway CA and a server certificate for 127.0.0.1 with the ``openssl`` command, and
``pg_hba.conf`` takes ``hostssl`` connections only (a connection without TLS is rejected), so
every test's connection is one a table's settings make (``sslmode=verify-full`` against that
CA)."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

USER = "companion-test"
ADMIN = "club_admin"
_databases = itertools.count(1)
_names = itertools.count(1)


def unique(prefix: str) -> str:
    """A name for a table or a wall no other test of any worker has used on the cluster: roles
    are the cluster's, not one database's."""
    return f"{prefix}{os.getpid()}x{next(_names)}"


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Cluster:
    folder: Path
    port: int
    password: str
    runas: list[str]

    def url(self, dbname: str = "postgres", user: str = ADMIN) -> str:
        return (f"host=127.0.0.1 port={self.port} dbname={dbname} user={user} "
                f"password={self.password} connect_timeout=5 sslmode=verify-full "
                f"sslrootcert={self.ca}")

    @property
    def ca(self) -> Path:
        """The throwaway CA that signed the server's certificate (what a club hands out)."""
        return self.folder / "tls" / "ca.crt"

    def pg_ctl(self, *args: str) -> None:
        subprocess.run([*self.runas, _bin("pg_ctl"), "-D", str(self.folder / "data"), "-w",
                        "-l", str(self.folder / "log"), *args], check=True,
                       capture_output=True)

    options: str = ""

    def start(self) -> None:
        tls = self.folder / "tls"
        self.pg_ctl("-o", f"-p {self.port} -k '' -h 127.0.0.1 -c ssl=on "
                    f"-c ssl_cert_file={tls / 'server.crt'} -c ssl_key_file={tls / 'server.key'} "
                    f"{self.options}", "start")

    def stop_immediately(self) -> None:
        self.pg_ctl("stop", "-m", "immediate")

    def pid(self) -> int | None:
        try:
            return int((self.folder / "data" / "postmaster.pid").read_text().split()[0])
        except (FileNotFoundError, ValueError, IndexError):
            return None

    def new_database(self) -> str:
        import psycopg

        name = f"club_{os.getpid()}_{next(_databases)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            # a copy of the template's files, not written again into the WAL (WAL_LOG, the
            # default since PostgreSQL 15, logs every page of it)
            conn.execute(f"CREATE DATABASE {name} STRATEGY FILE_COPY")
        return name


def _runas() -> list[str]:
    """The command prefix that runs initdb and pg_ctl as a user other than root."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/bin/sh", USER],
                       check=True, capture_output=True)
    return ["runuser", "-u", USER, "--"]


def certificates(folder: Path, host: str = "127.0.0.1") -> Path:
    """A throwaway CA (``ca.crt``) and a certificate it signed for ``host`` and localhost
    (``server.crt``, its key ``server.key``) in ``folder``, two days: made by the same code as
    ``companion club certificate`` (companion/club/certificate.py), the organiser's."""
    from companion.club.certificate import make

    return make(host, folder, ca_days=2, server_days=2, also=("localhost",))


#: Only TLS connections, with SCRAM; anything else is rejected (PostgreSQL reads the first
#: line that matches, and no line matches a connection over a Unix socket: none is opened).
HBA = ("hostssl all all 127.0.0.1/32 scram-sha-256\n"
       "hostnossl all all 0.0.0.0/0 reject\n")


def installed() -> bool:
    return _bin("initdb") is not None and _bin("pg_ctl") is not None


@contextmanager
def running(options: str = "", *, in_memory: bool = False) -> Iterator[Cluster]:
    """A new cluster, started (``options``: the server's, such as ``-c max_connections=300``),
    stopped by its pid and removed after the block. ``in_memory``: its folder in /dev/shm where
    there is one (on a disk mounted with ``discard``, removing a few hundred test databases took
    a minute)."""
    runas = _runas()
    shm = "/dev/shm" if in_memory and os.access("/dev/shm", os.W_OK | os.X_OK) else None
    folder = Path(tempfile.mkdtemp(prefix="companion-club-", dir=shm))
    password = os.urandom(12).hex()
    (folder / "pw").write_text(password)
    if runas:
        user = pwd.getpwnam(USER)
        os.chown(folder, user.pw_uid, user.pw_gid)
        os.chown(folder / "pw", user.pw_uid, user.pw_gid)
    subprocess.run([*runas, _bin("initdb"), "-D", str(folder / "data"), "-U", ADMIN,
                    "--pwfile", str(folder / "pw"), "-A", "scram-sha-256", "-E", "UTF8",
                    "--no-instructions"], check=True, capture_output=True)
    (folder / "data" / "pg_hba.conf").write_text(HBA)
    tls = certificates(folder / "tls")
    if runas:
        for made in (tls, *tls.iterdir()):
            os.chown(made, user.pw_uid, user.pw_gid)
        os.chown(folder / "data" / "pg_hba.conf", user.pw_uid, user.pw_gid)
    found = Cluster(folder, free_port(), password, runas, options)
    found.start()
    try:
        yield found
    finally:
        pid = found.pid()
        if pid:
            os.kill(pid, signal.SIGINT)    # PostgreSQL's fast shutdown
            for _ in range(200):
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.05)
        shutil.rmtree(folder, ignore_errors=True)
