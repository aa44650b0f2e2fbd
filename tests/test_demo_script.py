"""scripts/demo starts offline once installed: pip runs only when pyproject.toml changed."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tree(tmp_path: Path) -> Path:
    """A copy of the script beside a pyproject.toml, a fake installed app, and a python3 on the
    PATH that records that it was run (and does what ``venv`` and pip would, minimally)."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "demo", tmp_path / "scripts" / "demo")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "constraints.txt").write_text("kivy==2.3.1\n")
    bin_ = tmp_path / ".venv" / "bin"
    bin_.mkdir(parents=True)
    (bin_ / "companion").write_text("#!/bin/sh\necho started \"$@\"\n")
    (bin_ / "python").write_text(f"#!/bin/sh\necho pip >> {tmp_path}/ran\n")
    fake = tmp_path / "fakebin"
    fake.mkdir()
    (fake / "python3").write_text(f"#!/bin/sh\necho venv >> {tmp_path}/ran\n")
    for f in (bin_ / "companion", bin_ / "python", fake / "python3"):
        f.chmod(0o755)
    return tmp_path


def _run(tree: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{tree / 'fakebin'}:{os.environ['PATH']}"}
    return subprocess.run(["bash", str(tree / "scripts" / "demo"), "--size", "800x480"],
                          env=env, capture_output=True, text=True, timeout=60)


def test_an_installed_environment_starts_without_pip(tmp_path):
    tree = _tree(tmp_path)
    digest = hashlib.sha256((tree / "pyproject.toml").read_bytes()
                            + (tree / "constraints.txt").read_bytes()).hexdigest()
    (tree / ".venv" / ".companion-installed").write_text(digest + "\n")
    done = _run(tree)
    assert done.returncode == 0 and done.stdout.strip() == "started run --demo --size 800x480"
    assert not (tree / "ran").exists()


def test_a_changed_pyproject_or_constraints_installs_again_then_starts(tmp_path):
    tree = _tree(tmp_path)
    (tree / ".venv" / ".companion-installed").write_text("an older digest\n")
    done = _run(tree)
    assert done.returncode == 0 and "started run --demo" in done.stdout
    assert (tree / "ran").read_text().split() == ["venv", "pip", "pip"]
    again = _run(tree)           # now up to date: no pip
    assert (tree / "ran").read_text().split() == ["venv", "pip", "pip"]
    assert "started run --demo" in again.stdout
