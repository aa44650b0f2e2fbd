"""The files' fourth round: names that mean something else, and one line whatever the name.
Each test is the class its probe was an example of (docs/security.md, "Files and sticks"):

- every ``--db`` of every command refuses SQLite's names for a database kept only while the
  command runs (``:memory:``, an empty name) and a name ending in "/": nothing "added" that is
  then kept nowhere;
- every file name a command writes or reads that ends in "/" names a folder, never the file
  before the slash (``export -o keep.jsonl/ --force`` replaced keep.jsonl);
- a database whose name leaves no room for the names kept beside it is one line for every
  command that opens it (a 255-byte name gave ``check`` a traceback);
- a socket, a pipe or a device given as a file to read is named as what it is, and as the file
  the person gave (``restore`` named the database instead)."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import socket
import stat
from pathlib import Path

import pytest

from companion.cli.main import build_parser, main

SCRIPT = '{"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}\n'


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as stop:              # argparse's refusal of an argument
            code = stop.code
    return code, out.getvalue(), err.getvalue()


def db_commands() -> list[list[str]]:
    """Every command line of the companion that takes --db, with what else it needs."""
    parser, _ = build_parser()
    found = []
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, command in sub.choices.items():
        nested = [a for a in command._actions if a.dest.endswith("_command") and a.choices]
        lines = [[name, n] for a in nested for n, c in a.choices.items()
                 if any("--db" in x.option_strings for x in c._actions)]
        if any("--db" in x.option_strings for x in command._actions):
            lines.append([name])
        found += lines
    return found


NEEDS = {"replay": ["g.jsonl"], "export": ["--log", "1"], "backup": ["b.sqlite3"],
         "restore": ["b.sqlite3"], "import": ["g.jsonl"], "run": ["--demo"]}


def test_every_command_s_db_names_a_file_that_is_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("g.jsonl").write_text(SCRIPT)
    commands = db_commands()
    assert len(commands) >= 10, commands               # the walk found the commands
    for line in commands:
        for bad, words in ((":memory:", "only while the command runs"),
                           ("", "only while the command runs"),
                           ("games.sqlite3/", "names a folder")):
            code, out, err = run(*line, *NEEDS.get(line[0], []), "--db", bad)
            assert code == 2 and words in err, (line, bad, err)
            assert "Traceback" not in err and out == ""
    assert sorted(os.listdir(tmp_path)) == ["g.jsonl"]   # nothing made anywhere


def test_a_name_ending_in_a_slash_is_a_folder_never_the_file_before_it(tmp_path,
                                                                       monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("g.jsonl").write_text(SCRIPT)
    assert run("replay", "g.jsonl", "--db", "a.sqlite3")[0] == 0
    Path("keep.jsonl").write_text("kept")
    for argv in (["export", "--log", "1", "-o", "keep.jsonl/", "--force"],
                 ["export", "--all", "-o", "keep.jsonl/", "--force"],
                 ["backup", "keep.jsonl/"]):
        code, _, err = run(*argv, "--db", "a.sqlite3")
        assert code == 2 and "ends with '/'" in err and "folder" in err, (argv, err)
    assert Path("keep.jsonl").read_text() == "kept"


def test_a_database_name_with_no_room_beside_it_is_one_line_for_every_command(tmp_path,
                                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("g.jsonl").write_text(SCRIPT)
    assert run("replay", "g.jsonl", "--db", "a.sqlite3")[0] == 0
    assert run("backup", "b.sqlite3", "--db", "a.sqlite3")[0] == 0    # for restore
    long = "d" * 247 + ".sqlite3"                       # 255 bytes: the most a name may have
    shutil.copyfile("b.sqlite3", long)                  # a whole database of its own
    before = sorted(os.listdir(tmp_path))
    for line in db_commands():
        if line[0] in ("run", "doctor", "club"):
            continue                                   # the app, the machine, the club's own
        needs = ["c.sqlite3"] if line[0] == "backup" else NEEDS.get(line[0], [])
        code, out, err = run(*line, *needs, "--db", long)
        assert code != 0 and len(err.strip().splitlines()) == 1, (line, err)
        assert "shorter name" in err and "Traceback" not in err, (line, err)
    assert sorted(os.listdir(tmp_path)) == before      # nothing made beside it


@pytest.mark.parametrize("kind", ["socket", "pipe", "device"])
def test_a_socket_pipe_or_device_given_to_read_is_named_as_what_it_is(tmp_path, monkeypatch,
                                                                      kind):
    monkeypatch.chdir(tmp_path)
    if kind == "socket":
        held = socket.socket(socket.AF_UNIX)
        held.bind("odd")
    elif kind == "pipe":
        os.mkfifo("odd")
    else:
        if os.geteuid() != 0:
            pytest.skip("making a device needs root")
        os.mknod("odd", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    what = {"socket": "socket", "pipe": "pipe", "device": "device"}[kind]
    for argv in (["restore", "odd", "--db", "c.sqlite3"], ["import", "odd", "--db", "c.sqlite3"],
                 ["replay", "odd"]):
        code, _, err = run(*argv)
        assert code == 2 and err.startswith(f"companion {argv[0]}: odd: ") and what in err, err
    assert not Path("c.sqlite3").exists()
