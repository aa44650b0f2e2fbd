"""The ``companion`` command. Pure subcommands live here; the app (``run``) and the hardware
tools plug in through the ``companion.commands`` entry point group, so this package never imports
Kivy, gpiozero or pyserial.

Exit status 0 when the command did its work, 1 when ``replay --strict`` stops at a refused
line or ``check`` finds a problem it did not repair, 2 when a file, the database or a game number cannot be used: then one line on standard
error names the file, the line where there is one, and what is wrong. Whatever a person can
type or a disk can hold ends in such a line, never in a traceback."""

from __future__ import annotations

import argparse
import errno
import json
import os
import sqlite3
import sys
from contextlib import contextmanager
from importlib.metadata import entry_points
from typing import Any, Callable, Iterator, Sequence, TextIO

from companion import __version__, doctor
from companion.core.errors import CompanionError, ScriptError, SetupError, StoreError
from companion.games import all_games

#: Exit statuses: done; a line refused under --strict; nothing done, the input, the output or
#: the database could not be used (argparse's own status for a wrong command line).
EXIT_DONE, EXIT_REFUSED, EXIT_UNUSABLE = 0, 1, 2


class Unusable(Exception):
    """A file, the database or a game number that cannot be used: exit status 2 and one line
    on standard error naming the file, the line where there is one, and what is wrong."""


# -- saying things ---------------------------------------------------------------------------
def _say(text: str, stream: TextIO | None = None) -> None:
    """Print one message that never fails on a character the stream cannot show (a lone
    surrogate, a name in another alphabet on a plain terminal): it is written as an escape."""
    stream = stream or sys.stdout
    encoding = getattr(stream, "encoding", None) or "utf-8"
    stream.write(text.encode(encoding, "backslashreplace").decode(encoding) + "\n")


def _fits(text: str, stream: TextIO) -> bool:
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _print_json(value: Any) -> None:
    """JSON as typed where the terminal can show it, else with exact ``\\u`` escapes."""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    sys.stdout.write((text if _fits(text, sys.stdout) else json.dumps(value, indent=2)) + "\n")


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


def _label(name: str) -> str:
    """A file name as a message may show it: bytes the file system holds that are not UTF-8
    as ``\\xff``, a lone surrogate as ``\\ud800``, control characters escaped."""
    if name == "-":
        return "standard input"
    try:
        text = os.fsencode(name).decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        text = name.encode("utf-8", "backslashreplace").decode("utf-8")
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)


def _at(label: str, problem: object) -> str:
    """``game.jsonl, line 3: ...`` where the problem names a line, else ``game.jsonl: ...``."""
    text = _one_line(problem)
    return f"{label}, {text}" if text.startswith("line ") else f"{label}: {text}"


_REASONS = {
    errno.ENOENT: "no such file", errno.EISDIR: "it is a folder, not a file",
    errno.EACCES: "permission denied", errno.EPERM: "permission denied",
    errno.ENOTDIR: "a part of the path is not a folder", errno.ENOSPC: "the disk is full",
    errno.EEXIST: "a part of the path is a file, not a folder",
    errno.EROFS: "the disk is read-only", errno.ENAMETOOLONG: "the name is too long",
}


def _why(problem: BaseException) -> str:
    if isinstance(problem, ValueError):  # a NUL byte or a lone surrogate in the name
        return "not a name a file can have"
    reason = _REASONS.get(getattr(problem, "errno", None) or 0)
    return reason or getattr(problem, "strerror", None) or _one_line(problem)


# -- files -----------------------------------------------------------------------------------
def _read_script(name: str) -> list[str]:
    """The script's lines: from a file or standard input (``-``), UTF-8 (a leading byte order
    mark is allowed), split at newlines only, as editors count lines."""
    label = _label(name)
    try:
        if name == "-":
            stdin = sys.stdin
            if stdin is None:
                raise OSError(errno.EBADF, "standard input is closed")
            data = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode(
                "utf-8", "surrogateescape")
        else:
            with open(name, "rb") as file:
                data = file.read()
    except (OSError, ValueError) as problem:
        raise Unusable(f"{label}: cannot be read ({_why(problem)})") from None
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as bad:
        line = data.count(b"\n", 0, bad.start) + 1
        raise Unusable(f"{label}, line {line}: not UTF-8 text (byte 0x{data[bad.start]:02x}); "
                       "save the script as UTF-8") from None
    return text.split("\n")


def _write(name: str, text: str) -> None:
    try:
        with open(name, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
    except (OSError, ValueError) as problem:
        reason = ("its folder does not exist" if getattr(problem, "errno", None) == errno.ENOENT
                  else _why(problem))
        raise Unusable(f"{_label(name)}: cannot be written ({reason})") from None


@contextmanager
def _database(path: str | None, *, create: bool = True) -> Iterator[Any]:
    """The store for one command, closed after it; any way it cannot be used is Unusable.
    Without ``create`` (history, export) the database is only read: nothing is created, moved
    or changed, and the companion may be running meanwhile. A ``--db`` that does not exist is
    named, not made (a typo would otherwise leave an empty database behind and report that the
    game is not in it); a default database that does not exist yet yields None: no games."""
    from companion.store import Store, default_path

    if path and not create and not os.path.lexists(path):
        raise Unusable(f"{_label(path)}: no such file (no game was ever stored there)")
    path = path or str(default_path())
    label = _label(path)
    if not create and not os.path.lexists(path):
        yield None
        return
    try:
        store = Store(path, readonly=not create)
    except StoreError as problem:
        raise Unusable(_one_line(problem)) from None
    except (OSError, ValueError, sqlite3.Error) as problem:
        reason = ("its folder does not exist and cannot be made"
                  if getattr(problem, "errno", None) == errno.ENOENT else _why(problem))
        raise Unusable(f"{label}: cannot be opened as the game database ({reason})") from None
    if store.notice:
        _say(store.notice, sys.stderr)
    try:
        yield store
    except sqlite3.Error as problem:
        raise Unusable(f"{label}: the game database failed ({_one_line(problem)})") from None
    finally:
        store.close()


# -- commands --------------------------------------------------------------------------------
def cmd_replay(args: argparse.Namespace) -> int:
    lines = _read_script(args.file)  # before the database: a bad file creates nothing
    if not args.db:
        return _replay(args, lines, None)
    with _database(args.db) as store:
        return _replay(args, lines, store)


def _replay(args: argparse.Namespace, lines: list[str], store: Any) -> int:
    from companion.script import replay

    label = _label(args.file)
    try:
        result = replay(lines, strict=args.strict, store=store)
    except SetupError as problem:
        raise Unusable(_at(label, problem)) from None
    except ScriptError as refusal:  # --strict: the first refused line
        _say(f"companion replay: {_at(label, refusal)}", sys.stderr)
        return EXIT_REFUSED
    out = result.result()
    if store is not None:
        out["game_id"] = result.session.game_id
    _print_json(out)
    return EXIT_DONE


def cmd_export(args: argparse.Namespace) -> int:
    from companion.script import export_lines

    if args.all:
        return _history("export_all")(args)
    if args.format or args.since or args.include_unfinished:
        raise Unusable("--format, --since and --include-unfinished go with --all (every game); "
                       "--log exports one game as a table script")
    with _database(args.db, create=False) as store:
        if store is None:
            raise Unusable(f"There is no game number {args.log}: no game was ever stored "
                           "(the game database does not exist yet)")
        try:
            if args.raw:  # the rows as stored: also for a game that no longer folds
                lines = store.raw_log(args.log)
            else:
                lines = export_lines(store.open_session(args.log))
        except StoreError as problem:
            raise Unusable(f"{_one_line(problem)}; companion history lists the games") from None
        except CompanionError as problem:
            raise Unusable(f"{_label(store.path)}: game {args.log} cannot be opened: "
                           f"{_one_line(problem)}") from None
    text = "\n".join(lines) + "\n"
    if args.output:
        _write(args.output, text)
    elif _fits(text, sys.stdout):
        sys.stdout.write(text)
    else:  # a terminal that cannot show every name: the same JSON, with \\u escapes
        sys.stdout.write("\n".join(json.dumps(json.loads(line)) for line in lines) + "\n")
    return EXIT_DONE


def _history(name: str) -> Callable[[argparse.Namespace], int]:
    """A command of companion/history/commands.py (stats, backup, restore, export --all),
    imported when it runs."""
    def run(args: argparse.Namespace) -> int:
        from companion.history import commands

        return getattr(commands, name)(args)
    return run


def cmd_history(args: argparse.Namespace) -> int:
    with _database(args.db, create=False) as store:
        games = store.games() if store is not None else []
    if args.json:
        _print_json([g.__dict__ for g in games])
        return EXIT_DONE
    if not games:
        _say("No games yet.")
    titles = {name: rules.title for name, rules in all_games().items()}
    together = {name for name, rules in all_games().items() if rules.cooperative}
    for g in games:
        line = f"#{g.id:<4} {g.created_at[:16]}  {titles.get(g.game, g.game):<14} {g.status:<9}"
        if g.results and g.game in together:   # one result for the team, no points
            won = any(r["winner"] for r in g.results)
            line += "  " + ", ".join(r["name"] for r in g.results) + \
                (": won together" if won else ": lost together")
        elif g.results:
            line += "  " + ", ".join(f"{r['name']} {r['score']}{' *' if r['winner'] else ''}"
                                     for r in g.results)
        else:
            line += "  " + ", ".join(g.players) + f"  ({g.steps} steps)"
        _say(line)
    return EXIT_DONE


def cmd_check(args: argparse.Namespace) -> int:
    """SQLite's integrity check and every game folded from its raw rows; ``--repair`` sets
    aside what keeps a game from playing (nothing is deleted). Exit 1 if a problem remains."""
    from companion.store.check import check, repair

    with _database(args.db, create=args.repair) as store:
        if store is None:
            _say("No games yet: there is nothing to check.")
            return EXIT_DONE
        problems = check(store.conn)
        for problem in problems:
            _say(f"companion check: {problem}", sys.stderr)
        if args.repair and problems:
            for line in repair(store.conn, problems):
                _say(f"repaired {line}")
            for game_id in sorted({p.game_id for p in problems if p.step is not None}):
                store.open_session(game_id)  # its status and results follow the new fold
            problems = check(store.conn)
            for problem in problems:
                _say(f"companion check: still {problem}", sys.stderr)
        count = store.conn.execute("SELECT count(*) FROM games").fetchone()[0]
    if problems:
        return EXIT_REFUSED
    _say(f"The game database is sound: {count} game(s), every one plays from its log.")
    return EXIT_DONE


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

    p = sub.add_parser("export", help="write a stored game as a table script, or every game "
                                      "(--all) as csv, json or jsonl")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--log", type=int, metavar="GAME_ID", help="the game's number")
    which.add_argument("--all", action="store_true",
                       help="every finished game: players, scores, winners, length, setup")
    p.add_argument("--db", help="the database (default: the user data directory)")
    p.add_argument("-o", "--output", "--out", help="write to this file instead of standard output")
    p.add_argument("--raw", action="store_true",
                   help="the game's rows exactly as stored (also for a game that does not fold)")
    p.add_argument("--format", choices=("csv", "json", "jsonl"),
                   help="with --all: csv (a row per seat), json (a list) or jsonl (one game "
                        "a line, the default)")
    p.add_argument("--since", metavar="DATE",
                   help="with --all: games started on or after this local date (2026-11-01)")
    p.add_argument("--include-unfinished", action="store_true",
                   help="with --all: running and abandoned games too")
    handlers["export"] = cmd_export

    p = sub.add_parser("history", help="list stored games with their results")
    p.add_argument("--db", help="the database (default: the user data directory)")
    p.add_argument("--json", action="store_true", help="as JSON")
    handlers["history"] = cmd_history

    p = sub.add_parser("stats", help="wins, win rate, scores, length and streaks per player "
                                     "and per game")
    p.add_argument("--player", metavar="NAME", help="only the games this player sat in")
    p.add_argument("--game", metavar="TITLE", help="only this game (its title or name)")
    p.add_argument("--db", help="the database (default: the user data directory)")
    p.add_argument("--json", action="store_true", help="as JSON")
    handlers["stats"] = _history("stats")

    p = sub.add_parser("backup", help="copy the database to FILE (works while the app runs)")
    p.add_argument("file", metavar="FILE", help="the backup file to write")
    p.add_argument("--db", help="the database (default: the user data directory)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    handlers["backup"] = _history("backup")

    p = sub.add_parser("restore", help="make a backup the game database (the current one is "
                                       "kept aside)")
    p.add_argument("file", metavar="FILE", help="a backup written by companion backup")
    p.add_argument("--db", help="the database (default: the user data directory)")
    handlers["restore"] = _history("restore")

    p = sub.add_parser("import", help="merge games exported by another table (export --all, "
                                      "jsonl or json) by their uuids")
    p.add_argument("files", nargs="+", metavar="FILE", help="files written by export --all")
    p.add_argument("--db", help="the database (default: the user data directory)")
    handlers["import"] = _history("import_games")

    p = sub.add_parser("check", help="check the database and that every stored game plays")
    p.add_argument("--db", help="the database (default: the user data directory)")
    p.add_argument("--repair", action="store_true",
                   help="set aside the steps (or games) that cannot be played; nothing is deleted")
    handlers["check"] = cmd_check

    # companion doctor: the machine's lines (companion/doctor.py), then the hardware plugin's
    plugins = {ep.name: ep for ep in entry_points(group="companion.commands")}
    hardware = plugins.pop("doctor").load() if "doctor" in plugins else None
    p = sub.add_parser("doctor", help=doctor.HELP)
    doctor.add_arguments(p, hardware)
    handlers["doctor"] = doctor.runner(hardware)

    for ep in plugins.values():
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
        return EXIT_DONE
    try:
        return handlers[args.command](args)
    except Unusable as problem:
        _say(f"companion {args.command}: {_one_line(problem)}", sys.stderr)
        return EXIT_UNUSABLE
    except sqlite3.DatabaseError as problem:
        # A page of a game's log damaged while the file rested (a clean start and a reader
        # check only the lists' tables): named in one line, as every unusable file is.
        _say(f"companion {args.command}: the game database failed ({problem}); "
             "`companion check` names the damaged game", sys.stderr)
        return EXIT_UNUSABLE
    except BrokenPipeError:
        # The reader went away (`companion stats | head`): nothing of ours failed. Further
        # writes (and the interpreter's last flush) go nowhere instead of raising again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_DONE
