"""Files and the command line: whatever a person can type, name or pipe in, and whatever a disk
holds, ``companion replay`` / ``export`` / ``history`` end with exit status 2 and ONE line on
standard error naming the file, the line where there is one, and what is wrong; ``--strict``
refusals keep exit status 1; never a traceback."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.core import Command, Session
from companion.games import get_rules
from companion.script import export_lines, replay
from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]
SETUP = '{"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}'
PLAY = SETUP + '\n{"do": "play_role", "player": "Anna", "role": "witch"}\n'


def _files(tmp: Path) -> dict[str, Path]:
    """Every kind of bad input, written once per test."""
    tmp.joinpath("folder").mkdir()
    made = {
        "good": PLAY,
        "not_utf8": b"# fine\n" + SETUP.encode() + b'\n{"do": "claim", "player": "Barb\xff"}\n',
        "deep": "[" * 100_000 + "\n",
        "deep_after_comments": "# one\n\n# three\n" + "{" * 100_000,
        "big_number": '{"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"], "n": '
                      + "9" * 5000 + "}\n",
        "not_object": '["witchs_brew", "Anna", "Barb", "Carl"]\n',
        "game_not_text": '{"game": 5}\n',
        "empty": "\n# only a comment\n",
        "chess": '{"game": "chess", "players": ["Anna", "Barb"]}\n',
        "one_player": '{"game": "witchs_brew", "players": ["Anna"]}\n',
        "surrogate_name": '{"game": "witchs_brew", "players": ["Anna", "Barb", "\\ud800"]}\n',
        "refused": PLAY + '{"do": "so_be_it", "player": "Anna"}\n',
        "big_command": PLAY + '{"do": "claim", "player": "Barb", "n": ' + "1" * 4400 + "}\n",
        "deep_command": PLAY + "[" * 100_000 + "\n",
        "surrogate_command": PLAY + '{"do": "claim", "player": "B\\udcffarb"}\n',
        "bom": "\ufeff" + PLAY,
    }
    out = {"folder": tmp / "folder", "missing": tmp / "missing.jsonl"}
    for name, content in made.items():
        path = tmp / f"{name}.jsonl"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        out[name] = path
    return out


# (argv with {file} / {tmp} placeholders, exit status, fragments of the one stderr line)
UNUSABLE = [
    (["replay", "{missing}"], ["missing.jsonl: cannot be read (no such file)"]),
    (["replay", "{folder}"], ["folder: cannot be read (it is a folder, not a file)"]),
    (["replay", "{not_utf8}"], ["not_utf8.jsonl, line 3: not UTF-8 text (byte 0xff)"]),
    (["replay", "{deep}"], ["deep.jsonl, line 1: not JSON", "nested too deep"]),
    (["replay", "{deep_after_comments}"], ["deep_after_comments.jsonl, line 4:"]),
    (["replay", "{big_number}"], ["big_number.jsonl, line 1: holds a number of more than 4300"]),
    (["replay", "{not_object}"], ["not_object.jsonl, line 1: the setup is a JSON object"]),
    (["replay", "{game_not_text}"], ["game_not_text.jsonl, line 1: the setup is a JSON object"]),
    (["replay", "{empty}"], ["empty.jsonl: the script is empty"]),
    (["replay", "{chess}"], ["chess.jsonl, line 1: Unknown game 'chess'"]),
    (["replay", "{one_player}"], ["one_player.jsonl, line 1:"]),
    (["replay", "{surrogate_name}", "--db", "{tmp}/c.sqlite3"], ["surrogate_name.jsonl, line 1:"]),
    (["replay", "--strict", "{big_number}"], ["big_number.jsonl, line 1:"]),
    (["replay", "{good}", "--db", "{folder}"], ["folder is a folder, not a game database"]),
    (["replay", "{good}", "--db", "{good}/c.sqlite3"],
     ["good.jsonl/c.sqlite3: cannot be used (", "good.jsonl is not a folder"]),
    (["replay", "\ud800.jsonl"], ["\\ud800.jsonl: cannot be read (not a name a file can have)"]),
    (["replay", os.fsdecode(b"\xff.jsonl")], ["\\xff.jsonl: cannot be read (no such file)"]),
    (["replay", "nul\0.jsonl"], ["nul\\x00.jsonl: cannot be read (not a name a file can have)"]),
    (["replay", "new\nline.jsonl"], ["new\\nline.jsonl: cannot be read (no such file)"]),
    (["export", "--log", "42", "--db", "{stored}"],
     ["There is no game number 42 in", "stored.sqlite3; companion history lists the games"]),
    (["export", "--log", "99999999999999999999999", "--db", "{stored}"],
     ["There is no game number 99999999999999999999999 in"]),
    (["export", "--log", "1", "--db", "{tmp}/typo.sqlite3"],
     ["typo.sqlite3: no such file (no game was ever stored there)"]),
    (["export", "--log", "1", "--db", "{folder}"], ["folder is a folder, not a game database"]),
    (["export", "--log", "1", "--db", "{stored}", "-o", "{tmp}/nowhere/out.jsonl"],
     ["nowhere/out.jsonl: cannot be written (its folder does not exist)"]),
    (["export", "--log", "1", "--db", "{stored}", "-o", "{folder}"],
     ["folder: cannot be written (it is a folder, not a file)"]),
    (["export", "--log", "1", "--db", "{stored}", "-o", "\udc80\ud800.jsonl"],
     ["\\udc80\\ud800.jsonl: cannot be written (not a name a file can have)"]),
    (["history", "--db", "{folder}"], ["folder is a folder, not a game database"]),
    (["history", "--db", "{good}/sub/c.sqlite3"], ["c.sqlite3: no such file"]),
    (["history", "--db", "\ud800.sqlite3"], ["\\ud800.sqlite3: no such file"]),
    (["replay", "{good}", "--db", "\ud800.sqlite3"],
     ["\\ud800.sqlite3: cannot be opened as the game database (not a name a file can have)"]),
]


@pytest.fixture
def files(tmp_path):
    made = _files(tmp_path)
    stored = tmp_path / "stored.sqlite3"
    with Store(stored) as store:
        store.new_game(get_rules("witchs_brew"), json.loads(SETUP))
    made["stored"] = stored
    made["tmp"] = tmp_path
    return made


def _argv(template: list[str], files: dict[str, Path]) -> list[str]:
    out = []
    for arg in template:
        for key, path in files.items():
            arg = arg.replace("{" + key + "}", str(path))
        out.append(arg)
    return out


def _one_line(err: str) -> str:
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("template, fragments", UNUSABLE)
def test_what_cannot_be_used_ends_with_status_2_and_one_line(files, capsys, template, fragments):
    argv = _argv(template, files)
    assert main(argv) == 2
    captured = capsys.readouterr()
    line = _one_line(captured.err)
    assert line.startswith(f"companion {argv[0]}: ")
    for fragment in fragments:
        assert fragment in line
    assert captured.out == ""


def test_what_cannot_be_used_writes_nothing(files, capsys):
    db = files["tmp"] / "c.sqlite3"
    assert main(["replay", str(files["not_utf8"]), "--db", str(db)]) == 2
    assert main(["history", "--db", str(db)]) == 2
    assert not db.exists()  # a bad file, or a typo'd --db, leaves no database behind
    for name in ("deep", "one_player", "surrogate_name", "chess"):
        assert main(["replay", str(files[name]), "--db", str(db)]) == 2
    with Store(db) as store:
        assert store.games() == []


@pytest.mark.parametrize("name, line, reason", [
    ("refused", 3, 'may not say "So be it!"'),
    ("big_command", 3, "holds a number of more than 4300 digits"),
    ("deep_command", 3, "nested too deep"),
    ("surrogate_command", 3, ""),
])
def test_a_refused_line_is_listed_or_with_strict_ends_with_status_1(files, capsys, name, line,
                                                                    reason):
    assert main(["replay", str(files[name])]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    [rejected] = json.loads(captured.out)["rejected"]
    assert rejected["line"] == line and reason in rejected["reason"]
    assert main(["replay", "--strict", str(files[name])]) == 1
    err = _one_line(capsys.readouterr().err)
    assert err.startswith(f"companion replay: {files[name]}, line {line}: ") and reason in err


def test_a_byte_order_mark_and_crlf_line_ends_are_read_as_text(files, tmp_path, capsys):
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(PLAY.replace("\n", "\r\n").encode())
    for path in (files["bom"], crlf):
        assert main(["replay", "--strict", str(path)]) == 0
        assert json.loads(capsys.readouterr().out)["role"] == "witch"


def test_a_separator_inside_a_name_does_not_split_the_line(tmp_path, capsys):
    """Lines end at newlines only, as editors count them: U+2028 is text inside JSON."""
    script = tmp_path / "s.jsonl"
    script.write_text('{"game": "witchs_brew", "players": ["An\u2028na", "Barb", "Carl"]}\n'
                      '{"do": "claim", "player": "Nobody"}\n', encoding="utf-8")
    assert main(["replay", str(script)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"][0]["name"] == "An\u2028na" and out["rejected"][0]["line"] == 2


@pytest.mark.parametrize("data, status, fragment", [
    (PLAY.encode(), 0, ""),
    (SETUP.encode() + b"\n\x80\n", 2, "companion replay: standard input, line 2: not UTF-8"),
    (b"", 2, "companion replay: standard input: the script is empty"),
])
def test_standard_input(monkeypatch, capsys, data, status, fragment):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main(["replay", "-"]) == status
    err = capsys.readouterr().err
    if status:
        assert _one_line(err).startswith(fragment)
    else:
        assert err == ""


def test_a_closed_standard_input(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", None)
    assert main(["replay", "-"]) == 2
    assert "standard input: cannot be read" in _one_line(capsys.readouterr().err)


def test_an_unwritable_output_leaves_no_partial_file_and_the_database_as_it_was(files, capsys):
    before = files["stored"].read_bytes()
    assert main(["export", "--log", "1", "--db", str(files["stored"]), "-o",
                 str(files["tmp"] / "nowhere" / "out.jsonl")]) == 2
    assert not (files["tmp"] / "nowhere").exists()
    assert main(["export", "--log", "1", "--db", str(files["stored"])]) == 0
    assert [json.loads(x) for x in capsys.readouterr().out.splitlines()] == [json.loads(SETUP)]
    assert files["stored"].read_bytes() == before


def test_export_falls_back_to_escapes_only_where_text_cannot_be_written():
    session = Session(get_rules("witchs_brew"), {"players": ["Zoë", "Barb", "Carl"]})
    session.execute(Command("play_role", "Zoë", {"role": "witch"}))
    typed, escaped = export_lines(session), export_lines(session, ascii_only=True)
    assert "Zoë" in typed[0] and "Zo\\u00eb" in escaped[0] and escaped[0].isascii()
    assert replay(escaped, strict=True).session.state == replay(typed, strict=True).session.state


def _run(args: list, env_extra: dict | None = None, stdin: bytes = b"") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, cwd=ROOT, env=env, timeout=120)


def test_python_dash_m_never_shows_a_traceback(files):
    """The real process: argv bytes that are not UTF-8, pipes, and an ASCII-only terminal that
    can show neither the names nor a lone surrogate in a reason."""
    tmp = files["tmp"]
    zoe = tmp / "zoe.jsonl"
    zoe.write_text('{"game": "witchs_brew", "players": ["Zoë", "Barb", "Carl"]}\n'
                   '{"do": "claim", "player": "\\ud800"}\n', encoding="utf-8")
    cases = [
        (["replay", bytes(tmp) + b"/\xff.jsonl"], {}, b"", 2, b"\\xff.jsonl: cannot be read"),
        (["replay", str(files["deep"])], {}, b"", 2, b"line 1: not JSON"),
        (["replay", str(files["big_number"])], {}, b"", 2, b"more than 4300 digits"),
        (["replay", "-"], {}, SETUP.encode() + b"\n\xfe", 2, b"standard input, line 2"),
        (["replay", "--strict", str(files["refused"])], {}, b"", 1, b"line 3"),
        (["replay", "--strict", str(zoe)], {"PYTHONIOENCODING": "ascii"}, b"", 1, b"line 2"),
        (["export", "--log", "7", "--db", str(files["stored"])], {}, b"", 2, b"number 7"),
        (["history", "--db", str(files["folder"])], {}, b"", 2, b"is a folder"),
    ]
    for args, env, stdin, status, fragment in cases:
        run = _run(args, env, stdin)
        assert b"Traceback" not in run.stderr, run.stderr.decode(errors="replace")
        assert run.returncode == status, (args, run.stderr)
        assert run.stderr.count(b"\n") == 1 and fragment in run.stderr, run.stderr
    run = _run(["replay", str(zoe)], {"PYTHONIOENCODING": "ascii"})
    assert run.returncode == 0 and run.stderr == b"" and run.stdout.isascii()
    out = json.loads(run.stdout)
    assert out["players"][0]["name"] == "Zoë" and out["rejected"][0]["line"] == 2


def test_a_reader_that_goes_away_is_no_traceback(tmp_path):
    """`companion history | head -1`: the pipe closes before the listing is written."""
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        for _ in range(40):
            store.new_game(get_rules("witchs_brew"), {"players": ["Anna", "Barb", "Carl"]})
    child = subprocess.Popen([sys.executable, "-m", "companion", "history", "--db", str(db)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    child.stdout.close()                       # the reader is gone before the first line
    _, err = child.communicate(timeout=60)
    assert child.returncode == 0 and b"Traceback" not in err, err.decode()
