"""What every figure shares: the headless environment, starting and reaping child processes,
reading /proc, and printing samples as medians with their spread.

A figure is a list of :class:`Row`: a label, a unit and the samples of every run, so the
printout and the JSON carry the same numbers. Ratios against a bare Kivy baseline are taken
pair by pair (run A next to run B), so drift of the machine's speed during the run cancels.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

REPO = Path(__file__).resolve().parents[1]
BARE = REPO / "benchmarks" / "bare"
CLK_TCK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Row:
    """One measured line of a figure: every sample, the unit, and how to read it."""

    label: str
    samples: tuple[float, ...]
    unit: str = "s"
    note: str = ""
    p99: bool = False          # latency rows also print the 99th percentile

    def summary(self) -> dict[str, Any]:
        s = sorted(self.samples)
        out: dict[str, Any] = {"label": self.label, "unit": self.unit, "n": len(s),
                               "samples": list(self.samples)}
        if s:
            out.update(median=statistics.median(s), min=s[0], max=s[-1])
            if self.p99:
                out["p99"] = percentile(s, 99)
        if self.note:
            out["note"] = self.note
        return out


@dataclass
class Figure:
    """One figure of the benchmarks' table, as measured in this run."""

    name: str
    title: str
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, label: str, samples: Iterable[float], unit: str = "s", note: str = "",
            p99: bool = False) -> Row:
        row = Row(label, tuple(samples), unit, note, p99)
        self.rows.append(row)
        return row

    def ratio(self, label: str, a: Sequence[float], b: Sequence[float], note: str = "") -> Row:
        """A/B pair by pair (runs made next to each other); pairs with B at 0 are left out."""
        return self.add(label, [x / y for x, y in zip(a, b) if y], "x", note)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "seconds": round(self.seconds, 1),
                "rows": [r.summary() for r in self.rows], "notes": self.notes}


def percentile(sorted_samples: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of already sorted samples."""
    if not sorted_samples:
        return float("nan")
    rank = max(1, min(len(sorted_samples), round(q / 100 * len(sorted_samples) + 0.5)))
    return sorted_samples[rank - 1]


def shown(value: float, unit: str) -> str:
    """A value in the unit a reader expects: ms for short times, MiB for memory."""
    if unit == "s":
        return f"{value * 1000:.1f} ms" if abs(value) < 1 else f"{value:.2f} s"
    if unit == "x":
        return f"{value:.2f}x"
    if unit == "MiB":
        return f"{value:.0f} MiB"
    if unit == "bytes":
        return f"{value:,.0f} bytes"
    if unit == "%":
        return f"{value:.2f} %"
    if unit == "frames":
        return f"{value:+.2f} frames"
    if unit in ("/s", "cmd/s"):
        return f"{value:,.0f} {unit}" if abs(value) >= 100 else f"{value:.1f} {unit}"
    return f"{value:,.1f} {unit}"


def print_figure(figure: Figure, out=None) -> None:
    out = out or sys.stdout
    out.write(f"\n== {figure.name}: {figure.title}  ({figure.seconds:.0f} s)\n")
    width = max([len(r.label) for r in figure.rows] + [20])
    for row in figure.rows:
        s = row.summary()
        if not row.samples:
            out.write(f"  {row.label:<{width}}  no samples  {row.note}\n")
            continue
        text = f"median {shown(s['median'], row.unit):>11}"
        if len(row.samples) > 1:
            text += f"  [{shown(s['min'], row.unit)} - {shown(s['max'], row.unit)}]"
        if row.p99:
            text += f"  p99 {shown(s['p99'], row.unit)}"
        text += f"  n={s['n']}"
        out.write(f"  {row.label:<{width}}  {text}{'  (' + row.note + ')' if row.note else ''}\n")
    for note in figure.notes:
        out.write(f"  - {note}\n")
    out.flush()


# -- the headless environment ----------------------------------------------------------------
class Sandbox:
    """A temp folder holding everything a run writes: Kivy's home, the settings, the databases.
    Children get a headless environment pointing there, never at the user's own files."""

    def __init__(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="companion-bench-")
        self.root = Path(self._tmp.name)
        (self.root / "kivy").mkdir()
        shm = Path("/dev/shm")
        # Building big logs with synchronous=FULL on a real disk takes minutes; they are built
        # on tmpfs where there is one and copied to the disk folder before anything is timed.
        self._fast = tempfile.TemporaryDirectory(prefix="companion-bench-",
                                                 dir=shm if shm.is_dir() else None)
        self.fast = Path(self._fast.name)

    def env(self, **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        # An installed app and Kivy itself run from compiled bytecode; a machine that sets
        # PYTHONDONTWRITEBYTECODE would time the app's own sources compiled on every start.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update({
            "SDL_VIDEODRIVER": os.environ.get("SDL_VIDEODRIVER", "offscreen"),
            "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "KIVY_HOME": str(self.root / "kivy"),
            "GPIOZERO_PIN_FACTORY": "mock", "COMPANION_SOUND": "0",
            "COMPANION_SETTINGS": str(self.root / "settings.json"),
            "COMPANION_DB": str(self.root / "companion.sqlite3"),
            "XDG_CONFIG_HOME": str(self.root / "config"), "XDG_DATA_HOME": str(self.root / "data"),
            "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH"))
                                          if p),
        })
        env.update(extra)
        return env

    def path(self, name: str) -> Path:
        return self.root / name

    def close(self) -> None:
        self._tmp.cleanup()
        self._fast.cleanup()


# -- child processes -------------------------------------------------------------------------
@dataclass(frozen=True)
class Finished:
    """A child that ran to its end: wall seconds from spawn to reaped, its CPU seconds and peak
    RSS (the kernel's accounting, the same high-water mark /proc/<pid>/status calls VmHWM),
    and what it reported on ``BENCH {json}`` lines."""

    wall: float
    cpu: float
    peak_mib: float
    status: int
    report: dict[str, Any]
    stderr: str


def app_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "benchmarks.probe", "app", *args]


def bare_argv(script: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "benchmarks.probe", "bare", str(BARE / script), *args]


def spawn(argv: list[str], env: dict[str, str]) -> subprocess.Popen:
    """Start a child; BENCH_T0 is this moment on the system-wide monotonic clock, so the child
    can say how long after its spawn its first frame was drawn."""
    env = {**env, "BENCH_T0": repr(time.monotonic())}
    return subprocess.Popen(argv, env=env, cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def reap(proc: subprocess.Popen, started: float, timeout: float = 120.0) -> Finished:
    """Wait for the child (killing it after ``timeout``) and read the kernel's accounting."""
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
        time.sleep(0.002)
    wall = time.monotonic() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdout.close()
    proc.stderr.close()
    report = {**getattr(proc, "bench", {}), **parse_report(out)}
    return Finished(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                    proc.returncode, report, err)


def read_until(proc: subprocess.Popen, key: str) -> dict[str, Any]:
    """Read the child's BENCH lines until one holds ``key`` (kept for ``reap``); a child that
    ends first is an error naming what it said."""
    bench = proc.__dict__.setdefault("bench", {})
    while key not in bench:
        line = proc.stdout.readline()
        if not line:
            proc.wait()
            raise RuntimeError(f"{proc.args[2:]} ended (status {proc.returncode}) before "
                               f"reporting {key}: {proc.stderr.read().strip()[-600:]}")
        bench.update(parse_report(line))
    return bench


def run(argv: list[str], env: dict[str, str], timeout: float = 120.0) -> Finished:
    """Run a child to its end; one that fails is run once more (said on stderr), then raises."""
    for attempt in (1, 2):
        started = time.monotonic()
        proc = spawn(argv, env)
        done = reap(proc, started, timeout)
        if done.status == 0 or attempt == 2:
            break
        sys.stderr.write(f"benchmarks: {' '.join(argv[2:])} exited with {done.status} "
                         f"{done.stderr.strip()[-300:]!r}; running it again\n")
    if done.status != 0:
        raise RuntimeError(f"{' '.join(argv[2:])} exited with {done.status}: "
                           f"{done.stderr.strip()[-600:]} {done.report}")
    return done


def parse_report(text: str) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for line in text.splitlines():
        if line.startswith("BENCH "):
            report.update(json.loads(line[6:]))
    return report


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a running process, all its threads: the scheduler's own sum
    (``se.sum_exec_runtime`` in /proc/<pid>/task/*/sched, milliseconds) where the kernel
    shows it, else /proc/<pid>/stat's utime + stime (10 ms ticks, coarse for short windows)."""
    total, found = 0.0, False
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            text = (task / "sched").read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("se.sum_exec_runtime"):
                total += float(line.split(":")[1]) / 1000
                found = True
    if found:
        return total
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def wakeups(pid: int) -> tuple[int, int]:
    """(threads, context switches summed over them): how often the process's threads woke."""
    switches, threads = 0, 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            text = (task / "status").read_text()
        except OSError:
            continue
        threads += 1
        for line in text.splitlines():
            if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                switches += int(line.split()[1])
    return threads, switches


def alternate(rounds: int, a, b) -> tuple[list, list]:
    """Run ``a()`` and ``b()`` in turn, ``rounds`` times each, starting with B every other
    round, so both see the same drift of the machine."""
    got_a, got_b = [], []
    for i in range(rounds):
        if i % 2:
            got_b.append(b())
            got_a.append(a())
        else:
            got_a.append(a())
            got_b.append(b())
    return got_a, got_b
