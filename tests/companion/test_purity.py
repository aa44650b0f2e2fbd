"""companion/ is pure: it never imports Kivy, gpiozero, pyserial, aiohttp, ui or hardware."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"kivy", "gpiozero", "serial", "aiohttp", "ui", "hardware"}


def test_no_module_under_companion_imports_ui_or_hardware_libraries():
    offenders = []
    for path in (ROOT / "companion").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names
                          if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_importing_every_companion_module_loads_no_ui_library():
    code = ("import sys, pkgutil, importlib, companion\n"
            "for m in pkgutil.walk_packages(companion.__path__, 'companion.'):\n"
            "    if m.name != 'companion.__main__': importlib.import_module(m.name)\n"
            f"print(sorted(n for n in sys.modules if n.split('.')[0] in {sorted(FORBIDDEN)!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout.strip()
    assert out == "[]"
