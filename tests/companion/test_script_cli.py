"""Table scripts and the ``companion`` command: replay, strict, export, history."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion import __version__
from companion.cli.main import main
from companion.core import ScriptError, SetupError
from companion.script import export_lines, parse_line, replay
from companion.store import Store
from tests.support.autoplay import play

ROOT = Path(__file__).resolve().parents[2]
WARLOCK = [
    '{"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Daniel", "Emma"]}',
    '# the rulebook example',
    '{"do": "play_role", "player": "Anna", "role": "warlock"}',
    '{"do": "so_be_it", "player": "Barb"}',
    '{"do": "claim", "player": "Carl"}',
    '{"input": "button", "id": "seat4.claim"}',
    '{"do": "so_be_it", "player": "Anna"}',
    '{"do": "pass", "player": "Emma"}',
]


def test_replay_prints_the_state_with_the_documented_keys():
    out = replay(WARLOCK).result()
    for key in ("game", "players", "phase", "turn", "over", "winners", "set", "round", "role",
                "holder", "favors", "rejected"):
        assert key in out
    barb = out["players"][1]
    assert {k: barb[k] for k in ("name", "score", "red", "white", "green", "gold", "vials",
                                 "potions")} == {"name": "Barb", "score": 0, "red": 1, "white": 1,
                                                 "green": 1, "gold": 3, "vials": 0, "potions": []}
    assert out["phase"] == "resolve" and out["turn"] == "Daniel"
    assert out["last_round"]["holder"] == "Daniel" and out["last_round"]["favors"] == ["Barb"]
    assert out["rejected"] == [{"line": 7, "reason": 'Anna announced the Warlock: the player who '
                                'begins a round may not say "So be it!"'}]


def test_strict_replay_stops_at_the_first_refused_line():
    with pytest.raises(ScriptError, match=r"^line 7: Anna announced the Warlock"):
        replay(WARLOCK, strict=True)


@pytest.mark.parametrize("line, message", [
    ("{not json", "not JSON"),
    ("[1, 2]", "a line is a JSON object"),
    ('{"input": "button"}', "needs its id"),
    ('{"player": "Anna"}', 'needs "do"'),
    ('{"do": "claim", "player": 3}', "player: give the player's name"),
    ("[" * 100_000, "its brackets are nested too deep"),
    ('{"do": "claim", "player": "Anna", "n": ' + "9" * 5000 + "}",
     "holds a number of more than 4300 digits"),
])
def test_lines_that_are_not_commands_are_refused_with_a_reason(line, message):
    with pytest.raises(ScriptError, match=message):
        parse_line(line)
    out = replay([WARLOCK[0], line]).result()
    assert out["rejected"][0]["line"] == 2 and message in out["rejected"][0]["reason"]


def test_unknown_game_and_empty_script_are_clear_errors():
    with pytest.raises(SetupError, match="empty"):
        replay(["", "# nothing"])
    with pytest.raises(SetupError, match="^line 2: Unknown game 'chess'"):
        replay(["# a comment first", '{"game": "chess", "players": []}'])


def test_export_replays_to_the_identical_state(tmp_path):
    setup = {"players": ["Ann", "Bo", "Cy", "Di"], "variants": ["excluded_roles"]}
    _, commands = play(setup, seed=5)
    with Store(tmp_path / "c.sqlite3") as store:
        from companion.games import get_rules
        session = store.new_game(get_rules("witchs_brew"), setup)
        for command in commands[:60]:
            session.execute(command)
        session.undo()
        lines = export_lines(store.open_session(session.game_id))
    assert json.loads(lines[0])["game"] == "witchs_brew"
    assert len(lines) == 1 + 59
    assert replay(lines).session.state == session.state


def test_cli_replay_export_history_round_trip(tmp_path, capsys):
    script = tmp_path / "game.jsonl"
    _, commands = play({"players": ["Ann", "Bo", "Cy"]}, seed=8)
    script.write_text("\n".join(['{"game": "witchs_brew", "players": ["Ann", "Bo", "Cy"]}'] +
                                [json.dumps(c.to_dict()) for c in commands]))
    db = str(tmp_path / "c.sqlite3")
    assert main(["replay", str(script), "--db", db]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["over"] is True and first["winners"] and first["rejected"] == []
    assert main(["export", "--log", str(first["game_id"]), "--db", db,
                 "-o", str(tmp_path / "out.jsonl")]) == 0
    assert main(["replay", str(tmp_path / "out.jsonl")]) == 0
    second = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in second.items()} == {k: v for k, v in first.items() if k != "game_id"}
    assert main(["history", "--db", db]) == 0
    listing = capsys.readouterr().out
    assert "Witch's Brew" in listing and "finished" in listing and "*" in listing


def test_cli_export_of_a_missing_game_fails_clearly(tmp_path, capsys):
    Store(tmp_path / "c.sqlite3").close()
    assert main(["export", "--log", "42", "--db", str(tmp_path / "c.sqlite3")]) == 2
    assert "no game number 42" in capsys.readouterr().err


def test_cli_strict_exit_status_and_reason(tmp_path, capsys):
    script = tmp_path / "s.jsonl"
    script.write_text("\n".join(WARLOCK))
    assert main(["replay", "--strict", str(script)]) == 1
    assert "line 7" in capsys.readouterr().err


def test_version_help_and_python_dash_m():
    run = subprocess.run([sys.executable, "-m", "companion", "--version"], capture_output=True,
                         text=True, cwd=ROOT, check=True)
    assert run.stdout.strip() == f"companion {__version__}"
    run = subprocess.run([sys.executable, "-m", "companion", "--help"], capture_output=True,
                         text=True, cwd=ROOT, check=True)
    for sub in ("replay", "export", "history", "run"):
        assert sub in run.stdout


def test_cli_export_of_a_game_in_play_with_hands_warns_and_keeps_them(tmp_path, capsys):
    """The script keeps the hands (it must replay the same game); a game still in
    play says on stderr that the hands are in it, a finished one or one without hands not."""
    script = tmp_path / "game.jsonl"
    hand = ["witch", "druid", "wizard", "warlock", "alchemist"]
    script.write_text("\n".join([
        '{"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}',
        json.dumps({"do": "choose_hand", "player": "Anna", "roles": hand})]))
    db = str(tmp_path / "c.sqlite3")
    assert main(["replay", str(script), "--db", db]) == 0
    game = json.loads(capsys.readouterr().out)["game_id"]
    assert main(["export", "--log", str(game), "--db", db]) == 0
    out, err = capsys.readouterr()
    assert '"choose_hand"' in out and "still in play" in err and "hand" in err
    assert out.count("\n") == 2                        # stdout stays the script alone
    assert main(["export", "--log", str(game), "--raw", "--db", db]) == 0   # the rows too
    out, err = capsys.readouterr()
    assert '\\"choose_hand\\"' in out and "game 1 is still in play" in err
    script.write_text("\n".join(WARLOCK[:3]))          # in play, no hands: no warning
    assert main(["replay", str(script), "--db", db]) == 0
    game = json.loads(capsys.readouterr().out)["game_id"]
    assert main(["export", "--log", str(game), "--db", db]) == 0
    assert capsys.readouterr().err == ""
    assert main(["export", "--log", str(game), "--raw", "--db", db]) == 0
    assert capsys.readouterr().err == ""
    # the history's export of unfinished games carries the log for import: the same warning
    assert main(["export", "--all", "--include-unfinished", "--db", db]) == 0
    out, err = capsys.readouterr()
    assert '"choose_hand"' in out and "game 1 is still in play" in err
    assert main(["export", "--all", "--db", db]) == 0          # finished games only: none
    assert capsys.readouterr().err == ""
