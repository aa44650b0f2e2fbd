"""A certificate for the club's server, for an organiser who has none (``companion club
certificate HOST``): a CA of the club's own and a server certificate it signed for HOST, made
with the ``openssl`` command (P-256 keys). The CA's certificate is what ``add-table`` carries
to every table (the admin URL's ``sslrootcert``); the CA's key signs nothing else and stays
with the organiser; the server's certificate and key go to PostgreSQL (``ssl_cert_file``,
``ssl_key_file``). A table checks the server against that CA and HOST (``sslmode=verify-full``,
companion/club/wire.py), so a machine on the club's network cannot pass for the server.
"""

from __future__ import annotations

import ipaddress
import os
import re
import subprocess
from pathlib import Path

from companion.core.errors import CompanionError

#: The files made, in the folder given.
FILES = ("ca.crt", "ca.key", "server.crt", "server.key")
#: Days each certificate is valid (the CA's ten years, the server's two: renewed with the CA).
CA_DAYS, SERVER_DAYS = 3650, 730
_HOST = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,252}[A-Za-z0-9])?")


class CertificateRefused(CompanionError, ValueError):
    """A host, a folder or an ``openssl`` run the certificate cannot be made with."""


def _subject_name(host: str) -> str:
    try:
        return f"IP:{ipaddress.ip_address(host)}"
    except ValueError:
        if not _HOST.fullmatch(host):
            raise CertificateRefused(f"HOST: {host!r} is not a host name or an address") \
                from None
        return f"DNS:{host}"


def make(host: str, folder: Path, *, ca_days: int = CA_DAYS,
         server_days: int = SERVER_DAYS, also: tuple[str, ...] = ()) -> Path:
    """The CA and the server's certificate for ``host`` (and ``also``, more names of it) in
    ``folder`` (made with mode 700); CertificateRefused if any of FILES is there already (a CA
    key is never replaced) or openssl fails."""
    names = ",".join(_subject_name(h) for h in (host, *also))
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    there = [f for f in FILES if (folder / f).exists()]
    if there:
        raise CertificateRefused(f"{folder}: {', '.join(there)} already there (a club's CA is "
                                 "made once; choose another folder)")

    def run(*args: str) -> None:
        try:
            subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True,
                           timeout=60)
        except FileNotFoundError:
            raise CertificateRefused("openssl: not installed (apt-get install openssl)") \
                from None
        except subprocess.CalledProcessError as problem:
            said = " ".join(problem.stderr.decode("utf-8", "replace").split())[:300]
            raise CertificateRefused(f"openssl {args[0]}: {said}") from None

    old = os.umask(0o077)                                  # the keys readable by no one else
    try:
        key = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
        run("req", "-x509", *key, "-days", str(ca_days), "-subj", "/CN=the club's own CA",
            "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            "-keyout", "ca.key", "-out", "ca.crt")
        run("req", *key, "-subj", f"/CN={host}", "-keyout", "server.key", "-out",
            "server.csr")
        (folder / "server.ext").write_text(f"subjectAltName={names}\nbasicConstraints=CA:FALSE"
                                           "\nextendedKeyUsage=serverAuth\n")
        run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
            "-set_serial", str(int.from_bytes(os.urandom(8), "big")), "-days",
            str(server_days), "-extfile", "server.ext", "-out", "server.crt")
    finally:
        os.umask(old)
    for made in ("server.csr", "server.ext"):
        (folder / made).unlink()
    for public in ("ca.crt", "server.crt"):
        os.chmod(folder / public, 0o644)
    return folder


def instructions(host: str, folder: Path) -> str:
    """What the organiser does with the files, in words."""
    at = folder.resolve()
    return (f"The club's CA and the server's certificate for {host} are in {at}.\n"
            f"On the server: copy server.crt and server.key where PostgreSQL reads them (owned "
            f"by its user, the key mode 600), and in postgresql.conf set ssl = on, "
            f"ssl_cert_file and ssl_key_file to them; in pg_hba.conf accept the club's roles "
            f"over TLS only: hostssl club +club_table,+club_wall,+club_rater 0.0.0.0/0 "
            f"scram-sha-256 (no host line for them); then reload PostgreSQL.\n"
            f"The admin's URL then names the CA: host={host} sslmode=verify-full "
            f"sslrootcert={at / 'ca.crt'} (add-table carries that CA to every table). Keep "
            f"ca.key off the server: it could make a certificate any table would trust.")
