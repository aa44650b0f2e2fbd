"""A phones' server in a process of its own with a lowered file limit (as a Pi's 1024, lower):
it serves a table on 127.0.0.1 and counts every log record; the test drives it from outside.

    python -m tests.web.limits_child NOFILE [TOKENS_FILE [PORT [FREE]]]

FREE: the child then holds every file handle but FREE (a process at its limit), so accept()
itself fails with EMFILE while a crowd connects.

Prints one JSON line ({"port", "watch", "seats"}) once listening; then reads commands on
stdin: "log" prints {"records": N, "tracebacks": N, "lines": [...]}, "quit" stops it.
"""

from __future__ import annotations

import json
import logging
import os
import resource
import sys
from pathlib import Path


class Counting(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self.tracebacks = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname} {record.name}: {record.getMessage()}"[:300])
        if record.exc_info or "Traceback" in record.getMessage():
            self.tracebacks += 1


def main() -> None:
    nofile = int(sys.argv[1])
    tokens = Path(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] != "-" else None
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, hard))
    counting = Counting()
    logging.basicConfig(level=logging.INFO, handlers=[counting])

    from hardware.inbox import Inbox
    from tests.web import tables
    from ui.web.server import PhoneServer

    server = PhoneServer(Inbox(), tokens_file=tokens)
    server.start(port=int(sys.argv[3]) if len(sys.argv) > 3 else 0, addresses=["127.0.0.1"])
    server.publish(tables.snapshot(tables.brew_answering(), 7))
    held = []
    if len(sys.argv) > 4:
        try:
            while True:
                held.append(open(os.devnull, "rb"))
        except OSError:
            pass
        for _ in range(int(sys.argv[4])):
            held.pop().close()
    print(json.dumps({"port": server.port, "watch": server.watch_token,
                      "seats": server.seat_tokens}), flush=True)
    for line in sys.stdin:
        if line.strip() == "log":
            print(json.dumps({"records": len(counting.lines), "tracebacks": counting.tracebacks,
                              "lines": counting.lines[-60:]}), flush=True)
        elif line.strip() == "quit":
            break
    server.stop(keep_tokens=True)


if __name__ == "__main__":
    main()
