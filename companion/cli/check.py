"""``companion check``: can every stored game still be read and played (``--repair``: set aside
what cannot, nothing deleted)? The work is companion/store/check.py."""

from __future__ import annotations

import argparse
import sys

from companion.cli.files import open_database, say
from companion.cli.status import EXIT_DONE, EXIT_REFUSED


def cmd_check(args: argparse.Namespace) -> int:
    """SQLite's integrity check and every game folded from its raw rows; ``--repair`` sets
    aside what keeps a game from playing (nothing is deleted). Exit 1 if a problem remains."""
    from companion.store.check import check, repair

    with open_database(args.db, create=args.repair) as store:
        if store is None:
            say("No games yet: there is nothing to check.")
            return EXIT_DONE
        problems = check(store.conn)
        for problem in problems:
            say(f"companion check: {problem}", sys.stderr)
        if args.repair and problems:
            for line in repair(store.conn, problems):
                say(f"repaired {line}")
            for game_id in sorted({p.game_id for p in problems if p.step is not None}):
                store.open_session(game_id)  # its status and results follow the new fold
            problems = check(store.conn)
            for problem in problems:
                say(f"companion check: still {problem}", sys.stderr)
        count = store.conn.execute("SELECT count(*) FROM games").fetchone()[0]
    if problems:
        return EXIT_REFUSED
    say(f"The game database is sound: {count} game(s), every one plays from its log.")
    return EXIT_DONE
