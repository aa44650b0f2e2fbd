"""A child process for the crash test: plays a script into a database, resuming the running
game if there is one, and prints ``ACK n`` after step n is durably stored."""

from __future__ import annotations

import json
import sys

from companion.core import Command
from companion.games import get_rules
from companion.store import Store


def main(db: str, script: str) -> None:
    lines = open(script, encoding="utf-8").read().splitlines()
    setup, commands = json.loads(lines[0]), [json.loads(x) for x in lines[1:]]
    store = Store(db)
    running = store.unfinished()
    if running:
        session = store.open_session(running[0].id)
    else:
        session = store.new_game(get_rules(setup["game"]), setup)
    for n in range(len(session.steps), len(commands)):
        session.execute(Command.from_dict(commands[n]))
        print(f"ACK {n + 1}", flush=True)
    print("DONE", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
