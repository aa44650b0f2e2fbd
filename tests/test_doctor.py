"""``companion doctor``'s lines about the machine (companion/cli/doctor.py): each line's ok, WARN
and FAIL, the database only read, and the command as a whole: the machine's lines, then the
hardware plugin's sections, the GL renderer probed only with ``--display``, and exit status 1
when anything FAILed."""

from __future__ import annotations

import os
import re
import sqlite3
import tomllib
from pathlib import Path

import pytest

from companion.cli import doctor
from companion.cli import main as cli
from companion.cli.doctor import FAIL, OK, WARN
from companion.games import get_rules
from companion.store import Store
from companion.store.schema import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[1]


# -- Python ----------------------------------------------------------------------------------
def test_the_python_range_is_pyprojects():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    low, high = doctor.PYTHONS
    assert declared == f">={low[0]}.{low[1]},<{high[0]}.{high[1]}"


@pytest.mark.parametrize("version, status", [
    ((3, 11, 2), OK), ((3, 13, 9), OK), ((3, 10, 12), FAIL), ((3, 14, 0), FAIL), ((2, 7, 18), FAIL),
])
def test_python_line(version, status):
    line = doctor.check_python(version)
    assert line.status == status
    assert ".".join(map(str, version)) in line.text and "3.11 to 3.13" in line.text


# -- the game database -----------------------------------------------------------------------
def _files(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file but SQLite's own -wal and -shm, which a reader of a WAL database may leave
    (empty of changes) as ``companion history`` does."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()
            if not p.name.endswith(("-wal", "-shm"))}


def test_a_database_with_games_is_read_only_and_counted(tmp_path):
    path = tmp_path / "companion.sqlite3"
    store = Store(path)
    store.new_game(get_rules("witchs_brew"), {"game": "witchs_brew",
                                              "players": ["Anna", "Barb", "Carl"]})
    store.close()
    before = _files(tmp_path)
    line = doctor.check_database(path)
    assert line == doctor.Line(OK, f"{path}: schema {SCHEMA_VERSION}, 1 game")
    assert _files(tmp_path) == before               # nothing moved or changed


def test_no_database_yet_is_a_warning_and_makes_none(tmp_path):
    path = tmp_path / "nowhere" / "companion.sqlite3"
    line = doctor.check_database(path)
    assert line.status == WARN and "no game database" in line.text and str(path) in line.text
    assert not path.parent.exists()


def test_an_older_schema_is_fine_and_said(tmp_path):
    path = tmp_path / "companion.sqlite3"
    Store(path).close()
    with sqlite3.connect(path) as conn:   # a real file of the schema before: no club outbox
        conn.execute("DROP TABLE outbox")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.close()
    line = doctor.check_database(path)
    assert line.status == OK
    assert f"schema {SCHEMA_VERSION - 1}, 0 games (brought up to schema {SCHEMA_VERSION}" \
        in line.text


@pytest.mark.parametrize("make, words", [
    (lambda p: p.write_text("not a database, a shopping list\n"), "cannot be read"),
    (lambda p: _newer(p), "newer companion"),
    (lambda p: _foreign(p), "not a table-companion database"),
])
def test_a_database_that_cannot_be_used_fails_naming_it(tmp_path, make, words):
    path = tmp_path / "companion.sqlite3"
    make(path)
    before = _files(tmp_path)
    line = doctor.check_database(path)
    assert line.status == FAIL and words in line.text and str(path) in line.text
    assert _files(tmp_path) == before


def _newer(path: Path) -> None:
    Store(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()


def _foreign(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.close()


def test_a_database_this_user_cannot_read_fails(tmp_path, monkeypatch):
    """Mode 0 and, since CI runs as root (which reads every file), the kernel's answer for this
    user given as it would be for the app's user."""
    path = tmp_path / "companion.sqlite3"
    Store(path).close()
    path.chmod(0)
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, *a, **k:
                        False if str(p) == str(path) else real(p, mode, *a, **k))
    line = doctor.check_database(path)
    assert line.status == FAIL and "cannot be read by this user" in line.text


# -- the display driver ----------------------------------------------------------------------
@pytest.mark.parametrize("environ, on_pi, status", [
    ({"SDL_VIDEODRIVER": "kmsdrm"}, True, OK),
    ({"SDL_VIDEODRIVER": "kmsdrm"}, False, OK),
    ({}, True, WARN),                       # on the Pi: not as the kiosk runs
    ({"SDL_VIDEODRIVER": "x11"}, True, WARN),
    ({}, False, OK),                        # a desktop: SDL finds the window system
    ({"SDL_VIDEODRIVER": "wayland"}, False, OK),
    ({"SDL_VIDEODRIVER": "offscreen"}, False, WARN),
    ({"SDL_VIDEODRIVER": "dummy"}, True, WARN),
])
def test_video_driver_line(environ, on_pi, status):
    line = doctor.check_video_driver(environ, on_pi)
    assert line.status == status and "SDL_VIDEODRIVER" in line.text
    if status == WARN and on_pi and environ.get("SDL_VIDEODRIVER") not in ("dummy",):
        assert "kmsdrm" in line.text                  # what to do about it


def test_a_raspberry_pi_is_known_by_its_device_tree_model(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert doctor.on_raspberry_pi(model) is True
    model.write_text("Generic x86 PC")
    assert doctor.on_raspberry_pi(model) is False
    assert doctor.on_raspberry_pi(tmp_path / "none") is False


# -- the command -----------------------------------------------------------------------------
@pytest.fixture
def good_db(tmp_path):
    path = tmp_path / "companion.sqlite3"
    Store(path).close()
    return path


def _statuses(out: str) -> list[str]:
    return re.findall(r"^  (ok|WARN|FAIL|info)\s", out, re.M)


def test_the_command_says_the_machine_then_the_hardware_without_a_window(good_db, capsys,
                                                                          monkeypatch):
    from hardware import doctor as hardware_doctor

    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    monkeypatch.setattr(hardware_doctor, "probe_gl",
                        lambda *a, **k: pytest.fail("a window was opened without --display"))
    assert cli.main(["doctor", "--db", str(good_db), "--demo"]) == 0
    out = capsys.readouterr().out
    machine, _, hardware = out.partition("companion doctor: the table's hardware")
    assert machine.startswith("companion doctor: this machine\n")
    assert _statuses(machine) == [OK, OK, OK] and "this machine: 0 failed, 0 warnings" in machine
    assert "Pin factory" in hardware and "GL renderer" not in hardware


def test_display_probes_the_renderer_in_a_child_process(good_db, capsys, monkeypatch):
    from hardware import doctor as hardware_doctor

    asked = []
    monkeypatch.setattr(hardware_doctor, "probe_gl", lambda *a, **k: asked.append(1) or {
        "RENDERER": "llvmpipe (LLVM 15.0.6, 128 bits)", "VERSION": "4.5"})
    assert cli.main(["doctor", "--db", str(good_db), "--demo", "--display"]) == 0
    out = capsys.readouterr().out
    assert asked == [1] and "GL renderer" in out and "llvmpipe" in out
    assert cli.main(["doctor", "--db", str(good_db), "--demo", "--display", "--no-gl"]) == 0
    assert asked == [1]                                 # --no-gl still wins


def test_a_failing_line_makes_the_exit_status_1(tmp_path, capsys):
    bad = tmp_path / "companion.sqlite3"
    bad.write_text("not a database")
    assert cli.main(["doctor", "--db", str(bad), "--demo"]) == 1
    out = capsys.readouterr().out
    assert FAIL in _statuses(out) and "this machine: 1 failed" in out


def test_without_the_hardware_plugin_the_machine_is_still_checked(good_db, capsys, monkeypatch):
    import argparse

    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    parser = argparse.ArgumentParser(prog="companion doctor")
    doctor.add_arguments(parser)
    assert doctor.runner(None)(parser.parse_args(["--db", str(good_db)])) == 0
    out = capsys.readouterr().out
    assert "the hardware checks are not installed" in out and "Pin factory" not in out
