"""scripts/install-pi and scripts/uninstall-pi in a throw-away root: the user, the code, the
config and the units land in the prefix (its etc/passwd, ``systemctl --root``), the host's /etc
and users are never changed, and an uninstall keeps the games.

The host's /etc/passwd and /etc/group are hashed before and after every run that writes."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALL = ROOT / "scripts" / "install-pi"
UNINSTALL = ROOT / "scripts" / "uninstall-pi"
HOST_FILES = [Path("/etc/passwd"), Path("/etc/group"), Path("/etc/shadow")]


def _host() -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in HOST_FILES if os.access(p, os.R_OK)}


def _run(script: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(script), *args], capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def prefix(tmp_path):
    """A root with the accounts of a fresh Raspberry Pi OS, but no gpio group."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n"
                                         "pi:x:1000:1000:,,,:/home/pi:/bin/bash\n")
    (root / "etc" / "group").write_text("root:x:0:\nsudo:x:27:pi\nvideo:x:44:pi\n"
                                        "render:x:105:pi\ninput:x:106:pi\ndialout:x:20:pi\n"
                                        "audio:x:29:pi\npi:x:1000:\n")
    for name in ("shadow", "gshadow"):
        (root / "etc" / name).write_text("")
        (root / "etc" / name).chmod(0o600)
    return root


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() if p.is_file() else b"dir"
            for p in root.rglob("*")}


def test_a_dry_run_prints_the_whole_plan_and_changes_nothing(prefix):
    before, host = _tree(prefix), _host()
    done = _run(INSTALL, "--prefix", str(prefix), "--dry-run", "--hardware",
                str(ROOT / "pyproject.toml"))
    assert done.returncode == 0, done.stderr
    plan = done.stdout
    assert f"groupadd --prefix {prefix} --system gpio" in plan       # the one missing group
    assert plan.count("groupadd") == 1                                # the others exist
    assert (f"useradd --prefix {prefix} --system --user-group --no-create-home "
            "--home-dir /var/lib/table-companion --shell /usr/sbin/nologin") in plan
    assert "sudo" not in plan and "usermod" not in plan  # no admin rights for the user
    assert f"python3 -m venv {prefix}/opt/table-companion/.venv" in plan
    assert ("-m pip install --quiet --no-cache-dir --require-hashes --only-binary=:all: "
            f"--requirement {prefix}/opt/table-companion/requirements-pi.lock") in plan
    assert "--no-deps --no-build-isolation --no-index" in plan   # the app: nothing fetched
    assert f"install -m 0600 -o companion -g companion {ROOT / 'pyproject.toml'}" in plan
    assert f"systemctl --root={prefix} enable table-companion.service" in plan
    assert f"write {prefix}/etc/udev/rules.d/60-table-companion-backlight.rules" in plan
    assert "udevadm" not in plan          # a prefix never triggers the host's devices
    assert "apt-get install" not in plan  # a prefix never installs packages on the host
    assert "nothing was changed" in plan
    assert _tree(prefix) == before and _host() == host


def test_the_real_plan_installs_packages_and_reloads_systemd_where_it_runs():
    """Without --prefix (dry run: it only reads the host's /etc). A host with systemd as PID 1
    reloads the units and triggers udev; a chroot or a container leaves both for the first boot."""
    done = _run(INSTALL, "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "apt-get install -y --no-install-recommends python3-venv" in done.stdout
    assert "libmtdev1" in done.stdout and " libgl1 " in done.stdout
    assert "systemctl enable table-companion.service" in done.stdout
    assert "--prefix" not in done.stdout and "--root" not in done.stdout
    booted = Path("/run/systemd/system").is_dir()
    assert ("systemctl daemon-reload" in done.stdout) == booted
    assert ("udevadm trigger --subsystem-match=backlight --action=add" in done.stdout) == (
        booted and shutil.which("udevadm") is not None)
    assert ("left for the first boot" in done.stdout) != (booted and shutil.which("udevadm"))


def test_a_root_without_systemctl_gets_the_link_enable_makes(prefix, tmp_path):
    """An image build's bare root: the wants link by hand, both reloads left for the first boot."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("bash", "dirname", "id", "awk", "grep", "sed", "printf"):
        if shutil.which(tool):
            (tools / tool).symlink_to(shutil.which(tool))
    done = subprocess.run([str(tools / "bash"), str(INSTALL), "--prefix", str(prefix),
                           "--dry-run"], capture_output=True, text=True, timeout=60,
                          env={"PATH": str(tools)})
    assert done.returncode == 0, done.stderr
    assert "systemctl --root" not in done.stdout and "daemon-reload" not in done.stdout
    assert (f"ln -sfn /etc/systemd/system/table-companion.service {prefix}/etc/systemd/system/"
            "multi-user.target.wants/table-companion.service") in done.stdout
    assert ("left for the first boot: udev applies the backlight rule, systemd reads the units"
            in done.stdout)


def test_the_uninstall_plan_removes_the_backlight_rule_and_reloads_udev_only_on_the_host(
        prefix):
    rule = "/etc/udev/rules.d/60-table-companion-backlight.rules"
    host = _run(UNINSTALL, "--dry-run")
    assert host.returncode == 0, host.stderr
    assert f"rm -f {rule}" in host.stdout
    assert "udevadm control --reload" in host.stdout
    assert host.stdout.index(f"rm -f {rule}") < host.stdout.index("udevadm control --reload")
    before = _tree(prefix)
    inside = _run(UNINSTALL, "--prefix", str(prefix), "--dry-run")
    assert inside.returncode == 0, inside.stderr
    assert f"rm -f {prefix}{rule}" in inside.stdout
    assert "udevadm" not in inside.stdout and "nothing was changed" in inside.stdout
    assert _tree(prefix) == before


@pytest.mark.parametrize("args, field", [
    (["--user", "root"], "--user root"), (["--user", "pi"], "--user pi"),
    (["--user", "Bad Name"], "--user Bad Name"), (["--prefix", "relative/dir"], "--prefix"),
    (["--hardware", "/nonexistent.toml"], "--hardware /nonexistent.toml"),
    (["--frobnicate"], "unknown option --frobnicate"),
])
def test_bad_options_are_refused_by_name_and_change_nothing(prefix, args, field):
    before = _tree(prefix)
    for script in (INSTALL, UNINSTALL):
        if script == UNINSTALL and args[0] == "--hardware":
            continue
        done = _run(script, "--prefix", str(prefix), "--dry-run", *args)
        assert done.returncode == 2
        assert field in done.stderr
    assert _tree(prefix) == before


needs_root = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("useradd") is None or shutil.which("systemctl") is None,
    reason="a real install in a prefix needs root (useradd --prefix, chown) and systemctl")


def _entry(root: Path, table: str, name: str) -> list[str] | None:
    for line in (root / "etc" / table).read_text().splitlines():
        if line.split(":")[0] == name:
            return line.split(":")
    return None


@needs_root
def test_install_in_a_prefix_then_uninstall_keeps_the_games(prefix, tmp_path):
    host = _host()
    hardware = tmp_path / "table.toml"
    hardware.write_text("[buttons]\nundo = 5\n")
    done = _run(INSTALL, "--prefix", str(prefix), "--no-packages", "--user", "tablekiosk",
                "--hardware", str(hardware))
    assert done.returncode == 0, done.stderr
    assert _host() == host

    user = _entry(prefix, "passwd", "tablekiosk")
    assert user is not None and user[6] == "/usr/sbin/nologin"
    assert "tablekiosk" not in _entry(prefix, "group", "sudo")[3]
    assert _entry(prefix, "group", "gpio") is not None
    uid = int(user[2])

    app = prefix / "opt" / "table-companion"
    assert (app / "ui" / "kiosk" / "service.py").is_file() and not (app / ".git").exists()
    for path in [app, *app.rglob("*")]:
        info = path.lstat()
        assert info.st_uid == 0 and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH), path

    config = prefix / "etc" / "table-companion"
    assert config.stat().st_uid == uid and stat.S_IMODE(config.stat().st_mode) == 0o700
    kept = config / "hardware.toml"
    assert kept.read_text() == hardware.read_text() and stat.S_IMODE(kept.stat().st_mode) == 0o600

    rule = (prefix / "etc" / "udev" / "rules.d" / "60-table-companion-backlight.rules")
    assert 'SUBSYSTEM=="backlight"' in rule.read_text()   # the app may dim and switch it off
    assert "chgrp video /sys%p/brightness /sys%p/bl_power" in rule.read_text()

    units = prefix / "etc" / "systemd" / "system"
    unit = (units / "table-companion.service").read_text()
    assert "\nUser=tablekiosk\n" in unit and "\nGroup=tablekiosk\n" in unit
    assert "sudo -u tablekiosk " in (units / "table-companion-failed.service").read_text()
    assert (units / "multi-user.target.wants" / "table-companion.service").is_symlink()

    # again: the user and the table's own config are kept, not made twice or replaced
    hardware.write_text("[buttons]\nundo = 6\n")
    done = _run(INSTALL, "--prefix", str(prefix), "--no-packages", "--user", "tablekiosk",
                "--hardware", str(hardware))
    assert done.returncode == 0, done.stderr
    assert (prefix / "etc" / "passwd").read_text().count("tablekiosk:") == 1
    assert kept.read_text() == "[buttons]\nundo = 5\n"

    games = prefix / "var" / "lib" / "table-companion" / "companion.sqlite3"
    games.write_bytes(b"the games")
    done = _run(UNINSTALL, "--prefix", str(prefix), "--user", "tablekiosk")
    assert done.returncode == 0, done.stderr
    assert not app.exists()
    assert not (units / "table-companion.service").exists()
    assert not (units / "multi-user.target.wants" / "table-companion.service").exists()
    assert _entry(prefix, "passwd", "tablekiosk") is None
    assert not rule.exists() and rule.parent.is_dir()     # the rule only, not udev's folder
    assert games.read_bytes() == b"the games" and kept.is_file()
    assert "kept the games" in done.stdout
    assert _host() == host


def _locked() -> dict[str, tuple[str, list[str]]]:
    """requirements-pi.lock: name -> (version, its sha256 hashes)."""
    found: dict[str, tuple[str, list[str]]] = {}
    name = ""
    for line in (ROOT / "requirements-pi.lock").read_text().splitlines():
        line = line.strip().rstrip("\\").strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("--hash=sha256:"):
            found[name][1].append(line.removeprefix("--hash=sha256:"))
        else:
            name, _, version = line.partition("==")
            assert version, f"requirements-pi.lock: {line!r} is not name==version"
            found[name] = (version, [])
    return found


def test_the_lock_pins_constraints_versions_with_a_hash_for_every_package():
    """scripts/lock-pi writes it from constraints.txt: run again after an upgrade."""
    from packaging.utils import canonicalize_name

    from tests.test_constraints import _pins

    pins, locked = _pins(), _locked()
    for name in ("kivy", "lgpio", "gpiozero", "pyserial", "platformdirs", "segno", "aiohttp",
                 "yarl", "multidict", "frozenlist", "aiosignal", "attrs", "propcache",
                 "aiohappyeyeballs", "idna", "colorzero"):
        assert name in locked, f"requirements-pi.lock lacks {name}"
    for name, (version, hashes) in locked.items():
        if canonicalize_name(name) in pins:
            assert version == pins[canonicalize_name(name)], (
                f"requirements-pi.lock has {name}=={version}, constraints.txt "
                f"{pins[canonicalize_name(name)]}: run scripts/lock-pi")
        assert hashes and all(len(h) == 64 and int(h, 16) >= 0 for h in hashes), name


@pytest.mark.parametrize("account", [
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin",
    "companion:x:999:999:Somebody else:/home/companion:/bin/bash",
])
def test_an_existing_account_that_is_not_its_own_is_refused_unless_told(prefix, account):
    name = account.split(":")[0]
    with open(prefix / "etc" / "passwd", "a") as passwd:
        passwd.write(account + "\n")
    before = _tree(prefix)
    done = _run(INSTALL, "--prefix", str(prefix), "--dry-run", "--user", name)
    assert done.returncode == 2 and done.stdout == ""
    assert f"user {name} exists and is not the companion's own account" in done.stderr
    assert "--existing-user" in done.stderr and "nothing was changed" in done.stderr
    told = _run(INSTALL, "--prefix", str(prefix), "--dry-run", "--user", name,
                "--existing-user")
    assert told.returncode == 0, told.stderr
    assert f"user {name} exists and was not made by this installer" in told.stdout
    assert "useradd" not in told.stdout
    assert _tree(prefix) == before


def test_its_own_account_from_an_earlier_install_is_used_as_it_is(prefix):
    with open(prefix / "etc" / "passwd", "a") as passwd:
        passwd.write("companion:x:998:998:Table companion kiosk:/var/lib/table-companion:"
                     "/usr/sbin/nologin\n")
    done = _run(INSTALL, "--prefix", str(prefix), "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "made by an earlier install" in done.stdout and "useradd" not in done.stdout
