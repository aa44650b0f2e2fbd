"""One run of a companion reader under an address-space limit (a Pi 3's 1 GB), in its own
process: ``python -m tests.support.bounded_child LIMIT_MB KIND ARGS...``. Prints one JSON line:
the exit status, what it said on standard error (its line count, whether a traceback), its peak
resident memory (MB) and its time. KIND: ``cli`` (ARGS are a ``companion`` command line),
``hardware`` (ARGS[0] a hardware.toml) or ``settings`` (ARGS[0] a settings.json)."""

from __future__ import annotations

import io
import json
import resource
import sys
import time
import traceback
from contextlib import redirect_stderr, redirect_stdout


def _peak_mb() -> float:
    """This process's own peak resident memory (VmHWM: ru_maxrss also counts the parent's
    pages at the fork before the exec)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    limit, kind, args = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    resource.setrlimit(resource.RLIMIT_AS, (limit << 20, limit << 20))
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    code = 0
    try:
        with redirect_stdout(out), redirect_stderr(err):
            if kind == "cli":
                from companion.cli.main import main as companion

                code = companion(args)
            elif kind == "hardware":
                from hardware.config import ConfigError, load_config

                try:
                    load_config(args[0])
                except ConfigError as problem:
                    print(str(problem), file=sys.stderr)
                    code = 2
            else:
                from ui.table.settings import load_settings

                _, notice = load_settings(args[0])
                if notice:
                    print(notice, file=sys.stderr)
    except BaseException:   # a MemoryError or any crash: the traceback a person would see
        err.write(traceback.format_exc())
        code = 99
    said = err.getvalue()
    print(json.dumps({"code": code, "lines": len(said.strip().splitlines()),
                      "traceback": "Traceback" in said, "said": said[:300],
                      "rss_mb": _peak_mb(),
                      "seconds": time.perf_counter() - started}))


if __name__ == "__main__":
    main()
