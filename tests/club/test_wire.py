"""The wire between a companion and the club's server (companion/club/wire.py): no credential
leaves a table for a server that refuses TLS and asks for the password in clear
(tests/club/fake_server.py); a URL that would allow plain text is refused in one line that
says how to allow it for a test on one machine; the settings carry the club's CA, and every
club login's connection is TLS with channel binding, by SCRAM alone."""

from __future__ import annotations

import json
from types import SimpleNamespace

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from companion.club import access, wire
from companion.club.sync import ClubSync
from companion.store import Store
from tests.club.cluster import unique
from tests.club.fake_server import ClearTextServer
from tests.club.test_club import cli


@pytest.fixture
def fake():
    server = ClearTextServer()
    yield server
    server.close()


def _to(settings: access.Settings, port: int, **change: str) -> access.Settings:
    from dataclasses import replace

    given = conninfo_to_dict(settings.conninfo)
    given.update(port=str(port), **change)
    return replace(settings, conninfo=make_conninfo(**given))


def _password(settings: access.Settings) -> str:
    return conninfo_to_dict(settings.conninfo)["password"]


def test_a_server_refusing_tls_is_sent_no_credential(club, fake, tmp_path):
    with psycopg.connect(club, autocommit=True) as admin:
        settings = access.add_table(admin, unique("wf"))
    secret = _password(settings).encode()
    with Store(tmp_path / "t.sqlite3") as store:
        report = ClubSync(store.conn, store.device_id, _to(settings, fake.port)).send()
    assert report.error and "\n" not in report.error
    assert secret not in bytes(fake.received) and fake.passwords == [] and fake.asked == 0


def test_the_one_machine_test_without_tls_still_sends_no_password_in_clear(club, fake):
    """sslmode=disable to loopback is allowed (a test on one machine), but SCRAM is still the
    only way in: asked for the password in clear, libpq refuses before sending it."""
    if wire.libpq_version() < wire.REQUIRE_AUTH_FROM:
        pytest.skip("this libpq has no require_auth (16 and later)")
    with psycopg.connect(club, autocommit=True) as admin:
        settings = access.add_table(admin, unique("wl"))
    plain = wire.secured(_to(settings, fake.port, sslmode="disable").conninfo)
    assert conninfo_to_dict(plain)["require_auth"] == "scram-sha-256"
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(plain, connect_timeout=5).close()
    assert fake.asked == 1 and fake.passwords == []
    assert _password(settings).encode() not in bytes(fake.received)


@pytest.mark.parametrize("url", [
    "host=db.club.example dbname=club user=admin",
    "host=db.club.example dbname=club user=admin sslmode=prefer",
    "host=db.club.example dbname=club user=admin sslmode=require",
    "host=db.club.example dbname=club user=admin sslmode=verify-ca",
    "host=db.club.example dbname=club user=admin sslmode=disable",
    "host=10.0.0.5,127.0.0.1 dbname=club user=admin sslmode=disable",
])
def test_add_table_refuses_a_url_allowing_plain_text_in_one_line(url):
    """Refused before a role is made: the admin connection is never asked anything."""
    admin = SimpleNamespace(info=SimpleNamespace(dsn=url, dbname="club"))
    with pytest.raises(access.ClubRefused) as refused:
        access.add_table(admin, "Table 1")
    said = str(refused.value)
    assert "\n" not in said and "sslmode=verify-full" in said
    assert "for a test on one machine only" in said and "sslmode=disable" in said


def test_the_admins_commands_refuse_a_url_allowing_plain_text(club):
    plain = club.replace("sslmode=verify-full", "sslmode=prefer").replace(
        "host=127.0.0.1", "host=db.club.example")
    code, _, err = cli("club", "add-table", unique("wu"), "--url", plain)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "sslmode=prefer lets a machine in the server's place refuse TLS" in err
    assert "password=" not in err.replace("password in clear", "")


def test_settings_allowing_plain_text_are_refused_when_loaded(club, tmp_path):
    with psycopg.connect(club, autocommit=True) as admin:
        settings = access.add_table(admin, unique("wp"))
    given = conninfo_to_dict(settings.conninfo)
    given.update(host="db.club.example", sslmode="prefer")
    text = json.loads(settings.as_json())
    text["conninfo"] = make_conninfo(**given)
    with pytest.raises(access.ClubRefused) as refused:
        access.parse(json.dumps(text), "club.json")
    assert "club.json: conninfo: sslmode=prefer" in str(refused.value)
    assert given["password"] not in str(refused.value)


def test_the_settings_carry_the_clubs_ca_and_every_login_is_tls_scram_bound(club, tmp_path):
    code, printed, err = cli("club", "add-table", unique("wc"), "--url", club)
    assert code == 0, err
    handed = json.loads(printed)
    assert handed["ca"].startswith("-----BEGIN CERTIFICATE-----")
    given = conninfo_to_dict(handed["conninfo"])
    assert given["sslmode"] == "verify-full" and given["channel_binding"] == "require"
    if wire.libpq_version() >= wire.REQUIRE_AUTH_FROM:
        assert given["require_auth"] == "scram-sha-256"
    # the table's machine has no CA file at the organiser's path: join keeps the one handed
    given["sslrootcert"] = str(tmp_path / "not-here.crt")
    handed["conninfo"] = make_conninfo(**given)
    (tmp_path / "handed.json").write_text(json.dumps(handed))
    (tmp_path / "handed.json").chmod(0o600)
    kept = tmp_path / "kept" / "club.json"
    code, _, err = cli("club", "join", tmp_path / "handed.json", "--settings", kept)
    assert code == 0, err
    settings = access.load(kept)
    assert conninfo_to_dict(settings.conninfo)["sslrootcert"] == str(access.ca_path(kept))
    assert access.ca_path(kept).read_text() == handed["ca"]
    with psycopg.connect(settings.conninfo, autocommit=True) as conn:
        assert conn.execute("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()"
                            ).fetchone() == (True,)
        assert conn.pgconn.used_password


def test_the_certificate_command_makes_a_ca_and_the_servers_and_never_replaces_them(tmp_path):
    import os
    import stat
    import subprocess

    out = tmp_path / "tls"
    code, said, err = cli("club", "certificate", "db.club.example", "--out", out)
    assert code == 0, err
    assert "ssl = on" in said and "hostssl club" in said and "sslmode=verify-full" in said
    modes = {f: stat.S_IMODE(os.stat(out / f).st_mode) for f in os.listdir(out)}
    assert modes == {"ca.crt": 0o644, "server.crt": 0o644, "ca.key": 0o600,
                     "server.key": 0o600}
    checked = subprocess.run(["openssl", "verify", "-CAfile", out / "ca.crt",
                              "-verify_hostname", "db.club.example", out / "server.crt"],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    code, _, err = cli("club", "certificate", "db.club.example", "--out", out)
    assert code == 2 and "already there" in err and len(err.strip().splitlines()) == 1
    code, _, err = cli("club", "certificate", "bad host;", "--out", tmp_path / "x")
    assert code == 2 and "HOST:" in err
