"""What every ``companion`` command shares: reading a script and writing a file, opening the game
database for one command, and saying things in one line that never fails on a name."""

from __future__ import annotations

import argparse
import errno
import json
import os
import sqlite3
import sys
from contextlib import contextmanager
from typing import Any, BinaryIO, Iterator, TextIO

from companion.cli.status import Unusable
from companion.core.errors import StoreError
from companion.files import FileRefused, write_whole
from companion.files.budget import SCRIPT_STEPS
from companion.files.read import FileTooBig, NotAFile, open_regular, read_bounded, read_regular
from companion.files.walk import PathRefused
from companion.files.write import LinkRefused, family


# -- saying things ---------------------------------------------------------------------------
def say(text: str, stream: TextIO | None = None) -> None:
    """Print one message that never fails on a character the stream cannot show (a lone
    surrogate, a name in another alphabet on a plain terminal): it is written as an escape."""
    stream = stream or sys.stdout
    encoding = getattr(stream, "encoding", None) or "utf-8"
    stream.write(text.encode(encoding, "backslashreplace").decode(encoding) + "\n")


def fits(text: str, stream: TextIO) -> bool:
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except UnicodeEncodeError:
        return False
    return True


def print_json(value: Any) -> None:
    """JSON as typed where the terminal can show it, else with exact ``\\u`` escapes."""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    sys.stdout.write((text if fits(text, sys.stdout) else json.dumps(value, indent=2)) + "\n")


def one_line(text: str) -> str:
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


def file_label(name: str) -> str:
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


def at_line(label: str, problem: object) -> str:
    """``game.jsonl, line 3: ...`` where the problem names a line, else ``game.jsonl: ...``."""
    text = one_line(problem)
    return f"{label}, {text}" if text.startswith("line ") else f"{label}: {text}"


_REASONS = {
    errno.ENOENT: "no such file", errno.EISDIR: "it is a folder, not a file",
    errno.EACCES: "permission denied", errno.EPERM: "permission denied",
    errno.ENOTDIR: "a part of the path is not a folder", errno.ENOSPC: "the disk is full",
    errno.EEXIST: "a part of the path is a file, not a folder",
    errno.EROFS: "the disk is read-only", errno.ENAMETOOLONG: "the name is too long",
}


def why(problem: BaseException) -> str:
    if isinstance(problem, ValueError):  # a NUL byte or a lone surrogate in the name
        return "not a name a file can have"
    reason = _REASONS.get(getattr(problem, "errno", None) or 0)
    return reason or getattr(problem, "strerror", None) or one_line(problem)


# -- files -----------------------------------------------------------------------------------
def read_script(name: str) -> list[str]:
    """The script's lines: from a file or standard input (``-``), UTF-8 (a leading byte order
    mark is allowed), split at newlines only, as editors count lines."""
    label = file_label(name)
    try:
        if name == "-":
            stdin = sys.stdin
            if stdin is None:
                raise OSError(errno.EBADF, "standard input is closed")
            data = (read_bounded(stdin.buffer, "script", label) if hasattr(stdin, "buffer")
                    else stdin.read().encode("utf-8", "surrogateescape"))
        else:
            data = read_regular(name, "script", label)
    except (NotAFile, FileTooBig) as problem:
        raise Unusable(str(problem)) from None
    except (OSError, ValueError) as problem:
        raise Unusable(f"{label}: cannot be read ({why(problem)})") from None
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as bad:
        line = data.count(b"\n", 0, bad.start) + 1
        raise Unusable(f"{label}, line {line}: not UTF-8 text (byte 0x{data[bad.start]:02x}); "
                       "save the script as UTF-8") from None
    if text.count("\n") > SCRIPT_STEPS + 1000:   # refused before a line is parsed
        raise Unusable(f"{label}: it holds more than {SCRIPT_STEPS:,} lines, more than the "
                       "companion replays in one game")
    return text.split("\n")


def open_import(name: str) -> BinaryIO:
    """A file to import, opened to be read a game at a time (standard input for ``-``): a
    regular file no bigger than the import limit, or Unusable naming it."""
    label = file_label(name)
    if name == "-":
        if sys.stdin is None or not hasattr(sys.stdin, "buffer"):
            raise Unusable(f"{label}: cannot be read (standard input is closed)")
        return sys.stdin.buffer
    try:
        return open_regular(name, "import", label)
    except (NotAFile, FileTooBig) as problem:
        raise Unusable(str(problem)) from None
    except (OSError, ValueError) as problem:
        raise Unusable(f"{label}: cannot be read ({why(problem)})") from None


def write_file(name: str, text: str, *, database: str | None = None,
               force: bool = False) -> None:
    """``text`` as the file ``name``, by the one writer (companion/files/write.py): never over
    the game database (``database``, or the default one) or a file beside it, never through a
    link or onto a pipe; an existing file only with ``force``."""
    from companion.store import default_path

    if name == "-":   # -o -: standard output, as without -o
        sys.stdout.write(text)
        return
    try:
        write_whole(name, text, mode=0o644, force=force,
                    protect=family(database or default_path()))
    except LinkRefused as problem:   # /dev/stdout is a link too: never replaced, never followed
        raise Unusable(f"{file_label(str(problem))}; to write to standard output, leave out -o "
                       "(or give -o -)") from None
    except (FileRefused, PathRefused) as problem:
        raise Unusable(file_label(str(problem))) from None
    except (OSError, ValueError) as problem:
        reason = ("its folder does not exist" if getattr(problem, "errno", None) == errno.ENOENT
                  else why(problem))
        raise Unusable(f"{file_label(name)}: cannot be written ({reason})") from None


def database_name(text: str) -> str:
    """``--db``: a file's name. SQLite takes ``:memory:`` (and an empty name) for a database
    that lives only while the command runs: a game "stored" there is gone when it ends, so both
    are refused by name (a file really called that is ``./:memory:``)."""
    if text in ("", ":memory:"):
        shown = "an empty name" if not text else ":memory:"
        raise argparse.ArgumentTypeError(
            f"{shown} names a database SQLite keeps only while the command runs: nothing "
            "would be kept; give a file's name (./:memory: for a file called that)")
    if text.endswith("/"):
        raise argparse.ArgumentTypeError(f"{text} ends with '/', so it names a folder, not "
                                         "the database's file")
    return text


@contextmanager
def open_database(path: str | None, *, create: bool = True) -> Iterator[Any]:
    """The store for one command, closed after it; any way it cannot be used is Unusable.
    Without ``create`` (history, export) the database is only read: nothing is created, moved
    or changed, and the companion may be running meanwhile. A ``--db`` that does not exist is
    named, not made (a typo would otherwise leave an empty database behind and report that the
    game is not in it); a default database that does not exist yet yields None: no games."""
    from companion.store import Store, default_path

    if path and not create and not os.path.lexists(path):
        raise Unusable(f"{file_label(path)}: no such file (no game was ever stored there)")
    path = path or str(default_path())
    label = file_label(path)
    if not create and not os.path.lexists(path):
        yield None
        return
    try:
        store = Store(path, readonly=not create)
    except StoreError as problem:
        raise Unusable(one_line(problem)) from None
    except (OSError, ValueError, sqlite3.Error) as problem:
        reason = ("its folder does not exist and cannot be made"
                  if getattr(problem, "errno", None) == errno.ENOENT else why(problem))
        raise Unusable(f"{label}: cannot be opened as the game database ({reason})") from None
    if store.notice:
        say(store.notice, sys.stderr)
    try:
        yield store
    except sqlite3.Error as problem:
        raise Unusable(f"{label}: the game database failed ({one_line(problem)})") from None
    finally:
        store.close()
