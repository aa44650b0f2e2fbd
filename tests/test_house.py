"""The house's own rules: words that need no tracker, and ui/ without arrows back up.

A reader of the repository has no tracker: a comment, a docstring, a doc or a test that names an
issue by its number points at nothing. Each says the reason in words instead, and this test
keeps it so over every file git tracks (CI runs it with the suite). The pattern is built from
pieces, so this file does not match itself.

ui/'s table parts (ui/table/) and shared widgets (ui/widgets/) sit under the app, its screens
and the games: what they need from those is handed to them (a callback, a property such as
``app.games``, an event), never imported, at a module's top, inside a function, by importlib's
name or by a kv file's ``#:import``. A widget that knows the app cannot be understood alone.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: "issue" or "issues", either case's first letter, a number after it (with or without "#")
TRACKER_NUMBER = re.compile(r"\b[Ii]" + r"ssues?" + r" #?" + r"[0-9]+\b")
#: the floors that may not reach up, and what lies above them
LOWER = ("ui/table", "ui/widgets")
ABOVE = ("ui.app", "ui.games", "ui.screens", "ui.kiosk.command")   # the last: `companion run`


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
    assert not TRACKER_NUMBER.search("a known issue, 3 times; tiss" + "ues 4; pyserial/pyserial#401")


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


def _above(name: str) -> bool:
    return any(name == a or name.startswith(a + ".") for a in ABOVE)


def _arrows_up(path: Path) -> list[str]:
    """Every name of a module above that ``path`` (a .py or .kv file) imports or names."""
    text = path.read_text()
    if path.suffix == ".kv":
        return [line.split()[-1] for line in text.splitlines()
                if line.startswith("#:import") and _above(line.split()[-1])]
    found = []
    for node in ast.walk(ast.parse(text, str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = ([f"ui.{a.name}" for a in node.names] if node.module == "ui"
                     else [node.module])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names = [node.value]                     # importlib.import_module("ui.games...")
        found += [n for n in names if _above(n)]
    return sorted(set(found))


def test_ui_s_table_parts_and_widgets_import_nothing_above_them():
    arrows = [f"{path.relative_to(ROOT)}: {name}"
              for floor in LOWER for path in sorted((ROOT / floor).rglob("*"))
              if path.suffix in (".py", ".kv") for name in _arrows_up(path)]
    assert arrows == [], "hand it to them instead (a callback, a property, an event):\n" + \
        "\n".join(arrows)


def test_the_arrow_finder_sees_each_way_of_reaching_up(tmp_path):
    module = tmp_path / "part.py"
    module.write_text("def f():\n    from ui.games import GAMES\n"
                      "import importlib\nimportlib.import_module('ui.screens.home')\n"
                      "from ui import theme\nfrom ui import app\n")
    kv = tmp_path / "part.kv"
    kv.write_text("#:import T ui.theme\n#:import G ui.games.GAMES\n")
    assert _arrows_up(module) == ["ui.app", "ui.games", "ui.screens.home"]
    assert _arrows_up(kv) == ["ui.games.GAMES"]
