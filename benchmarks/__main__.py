"""``python -m benchmarks [--quick] [--only NAME] [--json FILE]``: the table's figures, each
next to its bare Kivy baseline measured in the same run. See benchmarks/__init__.py."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from benchmarks import FIGURES
from benchmarks.common import REPO, Figure, Sandbox, print_figure
from benchmarks.context import Context


def machine() -> dict[str, str]:
    """What the figures ran on, for the table in docs/benchmarks.md."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "hardware")):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, text=True,
                                capture_output=True, check=False).stdout.strip()
    except OSError:
        commit = ""
    try:
        from importlib.metadata import version
        kivy = version("kivy")
    except Exception:
        kivy = "?"
    return {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpu": model,
            "cores": str(os.cpu_count()), "machine": platform.machine(),
            "python": platform.python_version(), "kivy": kivy, "commit": commit,
            "load": " ".join(f"{x:.1f}" for x in os.getloadavg())}


def main(argv: list[str] | None = None) -> int:
    names = [name for name, _ in FIGURES]
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="fewer runs and smaller sizes: about two minutes")
    parser.add_argument("--only", metavar="NAME", action="append", choices=names,
                        help="run this figure only (again for more): " + ", ".join(names))
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)  # smoke test
    args = parser.parse_args(argv)
    chosen = args.only or names
    info = machine()
    print(f"benchmarks ({'tiny' if args.tiny else 'quick' if args.quick else 'full'}) {info['date']} on {info['cpu']}, "
          f"{info['cores']} cores, {info['machine']}, Python {info['python']}, Kivy "
          f"{info['kivy']}, commit {info['commit']}, load {info['load']}", flush=True)
    sandbox = Sandbox()
    ctx = Context(quick=args.quick, sandbox=sandbox, tiny=args.tiny)
    figures: list[Figure] = []
    started = time.monotonic()
    try:
        for name, module in FIGURES:
            if name not in chosen:
                continue
            begun = time.monotonic()
            figure = importlib.import_module(f"benchmarks.{module}").measure(ctx)
            figure.seconds = time.monotonic() - begun
            print_figure(figure)
            figures.append(figure)
    finally:
        sandbox.close()
    print(f"\n{len(figures)} figures in {time.monotonic() - started:.0f} s", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": info, "quick": args.quick,
                                               "figures": [f.to_json() for f in figures]},
                                              indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
