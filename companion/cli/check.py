"""``companion check``: can every stored game still be read and played, is every finished game's
result what its log gives, and is the file what a companion made (``--repair``: set aside what
cannot play, write results again from the log, remove objects no companion makes after keeping
a copy of the file; nothing a player entered is deleted)? The work is companion/store/check.py."""

from __future__ import annotations

import argparse
import os
import sys

from companion.cli.files import file_label, one_line, open_database, say
from companion.cli.status import EXIT_DONE, EXIT_REFUSED, Unusable
from companion.core.errors import StoreError


def _strangers(path: str, repair: bool) -> bool:
    """Objects no companion makes, named; with ``repair`` removed after a copy of the file is
    kept. True when some remain (the file is not sound and is not read further)."""
    from companion.store.trust import remove_strangers, stranger_problems

    if not os.path.lexists(path):
        return False
    if repair:
        try:
            kept, done = remove_strangers(path)
        except StoreError as problem:
            raise Unusable(one_line(problem)) from None
        if kept:
            say(f"kept a copy of the file as {file_label(kept)}")
        for line in done:
            say(f"repaired the file: {line}")
        return False
    found = stranger_problems(path)
    for problem in found:
        say(f"companion check: {problem}", sys.stderr)
    if found and all(p.what.startswith("it carries") for p in found):
        say("The game database is not sound: it holds what a companion database never has, "
            "and is not read further. companion check --repair keeps a copy of the file, then "
            "removes them.", sys.stderr)
    elif found:   # it declares a schema its tables are not: no writer could use it
        say("The game database is not sound: what it declares is not what it holds, and it is "
            "not read further. Restore a backup of it (companion restore FILE).", sys.stderr)
    return bool(found)


def cmd_check(args: argparse.Namespace) -> int:
    """SQLite's integrity check, the file's schema, every game folded from its raw rows and its
    results against that fold; ``--repair`` sets right what it can (nothing a player entered is
    deleted). Exit 1 if a problem remains."""
    from companion.store import default_path
    from companion.store.check import check, repair
    from companion.store.trust import write_log_results

    if _strangers(args.db or str(default_path()), args.repair):
        return EXIT_REFUSED
    with open_database(args.db, create=args.repair) as store:
        if store is None:
            say("No games yet: there is nothing to check.")
            return EXIT_DONE
        problems = check(store.conn)
        for problem in problems:
            say(f"companion check: {problem}", sys.stderr)
        if args.repair and problems:
            for line in repair(store.conn, problems) + write_log_results(store.conn, problems):
                say(f"repaired {line}")
            for game_id in sorted({p.game_id for p in problems if p.step is not None}):
                store.open_session(game_id)  # its status and results follow the new fold
            problems = check(store.conn)
            for problem in problems:
                say(f"companion check: still {problem}", sys.stderr)
        count = store.conn.execute("SELECT count(*) FROM games").fetchone()[0]
    if problems:
        return EXIT_REFUSED
    say(f"The game database is sound: {count} game(s), every one plays from its log and its "
        "results are what its log gives.")
    return EXIT_DONE
