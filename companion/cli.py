"""The ``companion`` command. Pure subcommands live here; the app (``run``) and the hardware
tools plug in through the ``companion.commands`` entry point group, so this package never imports
Kivy, gpiozero or pyserial."""

from __future__ import annotations

import argparse
import json
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Callable, Sequence

from companion import __version__
from companion.core.errors import CompanionError
from companion.games import all_games


def _open_store(path: str | None):
    from companion.store import Store, default_path

    store = Store(path or default_path())
    if store.notice:
        print(store.notice, file=sys.stderr)
    return store


def cmd_replay(args: argparse.Namespace) -> int:
    from companion.script import replay

    text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    store = _open_store(args.db) if args.db else None
    try:
        result = replay(text.splitlines(), strict=args.strict, store=store)
    except CompanionError as refusal:
        print(f"companion replay: {refusal}", file=sys.stderr)
        return 1
    out = result.result()
    if store is not None:
        out["game_id"] = result.session.game_id
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from companion.script import export_lines

    store = _open_store(args.db)
    try:
        session = store.open_session(args.log)
    except CompanionError as problem:
        print(f"companion export: {problem}", file=sys.stderr)
        return 1
    text = "\n".join(export_lines(session)) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    store = _open_store(args.db)
    games = store.games()
    if args.json:
        print(json.dumps([g.__dict__ for g in games], indent=2, ensure_ascii=False))
        return 0
    if not games:
        print("No games yet.")
    titles = {name: rules.title for name, rules in all_games().items()}
    for g in games:
        line = f"#{g.id:<4} {g.created_at[:16]}  {titles.get(g.game, g.game):<14} {g.status:<9}"
        if g.results:
            line += "  " + ", ".join(f"{r['name']} {r['score']}{' *' if r['winner'] else ''}"
                                     for r in g.results)
        else:
            line += "  " + ", ".join(g.players) + f"  ({g.steps} steps)"
        print(line)
    return 0


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, Callable[[argparse.Namespace], int]]]:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="The table companion: keeps the books beside real cardboard board games "
                    f"({', '.join(r.title for r in all_games().values())}).")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {}

    p = sub.add_parser("replay", help="play a table script (JSON lines) and print the final state")
    p.add_argument("file", help="the script, or - for standard input")
    p.add_argument("--strict", action="store_true", help="stop at the first refused line (exit 1)")
    p.add_argument("--db", help="also store the game in this database")
    handlers["replay"] = cmd_replay

    p = sub.add_parser("export", help="write a stored game as a table script")
    p.add_argument("--log", type=int, required=True, metavar="GAME_ID", help="the game's number")
    p.add_argument("--db", help="the database (default: the user data directory)")
    p.add_argument("-o", "--output", help="write to this file instead of standard output")
    handlers["export"] = cmd_export

    p = sub.add_parser("history", help="list stored games with their results")
    p.add_argument("--db", help="the database (default: the user data directory)")
    p.add_argument("--json", action="store_true", help="as JSON")
    handlers["history"] = cmd_history

    for ep in entry_points(group="companion.commands"):
        plugin = ep.load()
        p = sub.add_parser(ep.name, help=plugin.HELP)
        plugin.add_arguments(p)
        handlers[ep.name] = plugin.run
    return parser, handlers


def main(argv: Sequence[str] | None = None) -> int:
    parser, handlers = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 0
    return handlers[args.command](args)
