"""``companion replay`` (a table script played, and stored with ``--db``) and ``companion export
--log`` (a stored game as a table script; ``--all`` is the history's export)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.cli.files import (
    at_line, file_label, fits, one_line, open_database, print_json, read_script, say, write_file,
)
from companion.cli.hands import holds_hands, raw_holds_hands, warn_hands
from companion.cli.status import EXIT_DONE, EXIT_REFUSED, Unusable
from companion.core.errors import CompanionError, ScriptError, SetupError, StoreError


def cmd_replay(args: argparse.Namespace) -> int:
    lines = read_script(args.file)  # before the database: a bad file creates nothing
    if not args.db:
        return _replay(args, lines, None)
    with open_database(args.db) as store:
        return _replay(args, lines, store)


def _replay(args: argparse.Namespace, lines: list[str], store: Any) -> int:
    from companion.script import NotStored, replay

    label = file_label(args.file)
    try:
        result = replay(lines, strict=args.strict, store=store)
    except SetupError as problem:
        raise Unusable(at_line(label, problem)) from None
    except NotStored as problem:  # --db: the first step the database did not take
        say(f"companion replay: {label}, {one_line(problem)}; the replay stopped there (the "
            "steps before it are stored)", sys.stderr)
        return EXIT_REFUSED
    except ScriptError as refusal:  # --strict: the first refused line
        say(f"companion replay: {at_line(label, refusal)}", sys.stderr)
        return EXIT_REFUSED
    out = result.result()
    if store is not None:
        out["game_id"] = result.session.game_id
    print_json(out)
    return EXIT_DONE


def cmd_export(args: argparse.Namespace) -> int:
    from companion.script import export_lines

    if args.all:
        from companion.cli.history import export_all  # the history's, imported when it runs

        return export_all(args)
    if args.format or args.since or args.include_unfinished:
        raise Unusable("--format, --since and --include-unfinished go with --all (every game); "
                       "--log exports one game as a table script")
    with open_database(args.db, create=False) as store:
        if store is None:
            raise Unusable(f"There is no game number {args.log}: no game was ever stored "
                           "(the game database does not exist yet)")
        try:
            if args.raw:  # the rows as stored: also for a game that no longer folds
                lines = store.raw_log(args.log)
                warn_hands([f"game {args.log} is"] if raw_holds_hands(lines) else [])
            else:
                session = store.open_session(args.log)
                lines = export_lines(session)
                warn_hands([f"game {args.log} is"] if not session.over
                           and holds_hands(session) else [])
        except StoreError as problem:
            raise Unusable(f"{one_line(problem)}; companion history lists the games") from None
        except CompanionError as problem:
            raise Unusable(f"{file_label(store.path)}: game {args.log} cannot be opened: "
                           f"{one_line(problem)}") from None
    text = "\n".join(lines) + "\n"
    if args.output:
        write_file(args.output, text, database=args.db, force=args.force)
    elif fits(text, sys.stdout):
        sys.stdout.write(text)
    else:  # a terminal that cannot show every name: the same JSON, with \\u escapes
        sys.stdout.write("\n".join(json.dumps(json.loads(line)) for line in lines) + "\n")
    return EXIT_DONE
