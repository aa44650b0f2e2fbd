"""Idle CPU of the companion app against a bare Kivy app, measured in the same run.

The app must sleep when nothing happens (no per-frame polling). Both programs are started
headless (SDL_VIDEODRIVER=offscreen), left to settle, then their CPU time (user + system, from
/proc) is read over the same window. Prints figures and the ratio; asserts nothing, since these
machines are noisy. Run: .venv/bin/python benchmarks/idle_cpu.py [--seconds 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BARE = """
from kivy.app import App
from kivy.uix.label import Label
class Bare(App):
    def build(self):
        return Label(text="bare")
Bare().run()
"""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def measure(argv: list[str], settle: float, seconds: float, env: dict[str, str]) -> float:
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(settle)
        if proc.poll() is not None:
            raise SystemExit(f"{argv} exited early with status {proc.returncode}")
        start = cpu_seconds(proc.pid)
        time.sleep(seconds)
        return cpu_seconds(proc.pid) - start
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="measuring window per run")
    parser.add_argument("--settle", type=float, default=5.0, help="start-up time not measured")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each program")
    args = parser.parse_args()
    bare, app = [], []
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "SDL_VIDEODRIVER": os.environ.get("SDL_VIDEODRIVER", "offscreen"),
               "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "KIVY_HOME": tmp,
               "GPIOZERO_PIN_FACTORY": "mock"}
        bare_app = Path(tmp) / "bare_app.py"  # Kivy's App looks for its source file
        bare_app.write_text(BARE)
        for _ in range(args.rounds):  # alternate, so both see the same machine noise
            bare.append(measure([sys.executable, str(bare_app)], args.settle, args.seconds, env))
            app.append(measure([sys.executable, "-m", "companion", "run", "--demo", "--db",
                                str(Path(tmp) / "bench.sqlite3"), "--size", "800x480"],
                               args.settle, args.seconds, env))
    b, a = statistics.median(bare), statistics.median(app)
    window = args.seconds
    print(f"idle window {window:.1f} s, {args.rounds} alternating runs each, medians:")
    print(f"bare Kivy app        {b:.3f} s CPU  ({100 * b / window:.2f} % of one core)  runs {bare}")
    print(f"companion (demo)     {a:.3f} s CPU  ({100 * a / window:.2f} % of one core)  runs {app}")
    print(f"ratio companion/bare {a / b:.2f}" if b > 0 else "ratio: the bare app used no CPU")


if __name__ == "__main__":
    main()
