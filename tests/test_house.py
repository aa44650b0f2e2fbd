"""The house's own rules, over every file git tracks.

A reader of the repository has no tracker: a comment, a docstring, a doc or a test that names an
issue by its number points at nothing. Each says the reason in words instead, and this test
keeps it so (CI runs it with the suite). The pattern is built from pieces, so this file does not
match itself.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: "issue" or "issues", either case's first letter, a number after it (with or without "#")
TRACKER_NUMBER = re.compile(r"\b[Ii]" + r"ssues?" + r" #?" + r"[0-9]+\b")


def _tracked() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:   # not a checkout: nothing to walk
        pytest.skip(f"no git checkout here ({exc})")
    return [ROOT / name for name in out.decode().split("\0") if name]


def test_the_pattern_finds_what_it_is_for():
    said = ["see " + "issue" + " 33", "Issue" + "s 22 and", "(" + "issue" + " #7)"]
    assert all(TRACKER_NUMBER.search(s) for s in said)
    assert not TRACKER_NUMBER.search("a known issue, 3 times; tissues 4; pyserial/pyserial#401")


def test_no_tracked_file_names_an_issue_by_its_number():
    found = []
    for path in _tracked():
        if not path.is_file() or path.is_symlink():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:                                  # a picture, not words
            continue
        for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if TRACKER_NUMBER.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert found == [], "say the reason in words, not the tracker's number:\n" + "\n".join(found)
