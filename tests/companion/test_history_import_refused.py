"""``companion import`` of files that are not games (companion/history/merge.py): a field that
is not right, a line that is not a game, a missing file, any damage to an exported game and
garbage lines are refused naming the line, and nothing changes.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.store.check import check
from companion.store import Store
from tests.companion.exported import cli, plays_of, write


# -- files that are not games ----------------------------------------------------------------
def _set(game: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
    for part in parents:
        game = game[part]
    game[last] = value


@pytest.mark.parametrize("path, value, words", [
    ("uuid", "nope", "uuid: 'nope' is not a uuid"),
    ("game", "chess", "game: 'chess' is not a game this companion knows"),
    ("status", "paused", "status: 'paused' is not one of finished, running, abandoned"),
    ("stored.created_at", "2026-01-05T18:00:00", "stored.created_at: '2026-01-05T18:00:00' is "
                                                 "not a time with its offset"),
    ("stored.seats.0.name", " ", "stored.seats[0].name: ' ' is not a name"),
    ("stored.seats.0.profile.colour", "mauve",
     "stored.seats[0].profile.colour: 'mauve' is not a palette colour"),
    ("stored.seats.0.profile.short_name", "Annabel",
     "stored.seats[0].profile.short_name: 'Annabel' is longer than 6 letters"),
    ("stored.log.0.n", 5, "stored.log[0].n: 5 is not step 1"),
    ("stored.log.0.status", "maybe", "stored.log[0].status: 'maybe' is not one of done, "),
    ("stored.log.0.events", {}, "stored.log[0].events: a mapping of 0 is not a list"),
    ("stored.seats.0.name", "Zed", "its seats are not the players of its setup"),
])
def test_a_field_that_is_not_right_is_named_with_its_line(small, tmp_path, path, value, words):
    _, lines = small
    games = [json.loads(line) for line in lines]
    _set(games[2], path, value)
    code, said, err = cli("import", write(tmp_path / "f.jsonl", [json.dumps(g) for g in games]),
                          "--db", tmp_path / "c.sqlite3")
    assert code == 2 and not said
    assert "f.jsonl, line 3: " in err and words in err
    assert plays_of(tmp_path / "c.sqlite3") == []



@pytest.mark.parametrize("text, words", [
    ("{\"uuid\": 1\n", "bad.jsonl, line 1: not JSON"),
    ("\n\n[{\"a\": 1 x}]\n", "bad.jsonl, line 3: not JSON"),
    ("[1]\n", "bad.jsonl: game 1 of the list: the game: 1 is not an object"),
    ("{}\n", "bad.jsonl, line 1: uuid: the game has no uuid"),
    ("{\"a\": NaN}\n", "bad.jsonl, line 1: not JSON (NaN is not a number JSON allows)"),
    ("{\"a\": " + "9" * 30 + "}\n", "bad.jsonl, line 1: a: a 100-bit number is more than"),
    ("{\"a\": \"\\udc00\"}\n", "bad.jsonl, line 1: the game.a holds a broken character"),
])
def test_a_line_that_is_not_a_game_is_named_and_nothing_changes(small, tmp_path, text, words):
    db, lines = small
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text, encoding="utf-8")
    target = tmp_path / "c.sqlite3"
    code, said, err = cli("import", write(tmp_path / "all.jsonl", lines), bad, "--db", target)
    assert code == 2 and err.startswith(f"companion import: {bad}")
    assert words in err and "Traceback" not in err
    assert "all.jsonl: 7 game(s) added" in said   # the good file was merged, the bad one not
    assert len(plays_of(target)) == 7


def test_a_missing_file_changes_nothing_and_creates_no_database(small, tmp_path):
    _, lines = small
    target = tmp_path / "c.sqlite3"
    code, _, err = cli("import", write(tmp_path / "all.jsonl", lines), tmp_path / "nope.jsonl",
                       "--db", target)
    assert code == 2 and "nope.jsonl: cannot be read (no such file)" in err
    assert not target.exists()


def _paths(value: Any, at: tuple = ()) -> list[tuple]:
    if isinstance(value, dict):
        return [at] + [p for k, v in value.items() for p in _paths(v, at + (k,))]
    if isinstance(value, list):
        return [at] + [p for i, v in enumerate(value) for p in _paths(v, at + (i,))]
    return [at]


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_damage_to_an_exported_game_is_refused_by_line_or_imports_a_sound_game(
        small, tmp_path_factory, data):
    _, lines = small
    game = json.loads(data.draw(st.sampled_from(lines)))
    game["uuid"] = str(uuid.uuid4())
    at = data.draw(st.sampled_from(_paths(game)[1:]))
    *parent_path, last = at
    parent = game
    for step in parent_path:
        parent = parent[step]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[last]
    else:
        parent[last] = data.draw(JSON)
    text = data.draw(st.sampled_from([json.dumps(game), json.dumps(game)[:-7], "x" + lines[0]]))
    folder = tmp_path_factory.mktemp("damage")
    target = folder / "c.sqlite3"
    code, said, err = cli("import", write(folder / "d.jsonl", [text]), "--db", target)
    assert code in (0, 2) and "Traceback" not in err
    if code == 2:
        assert "d.jsonl, line 1: " in err and not said
        assert plays_of(target) == []
    else:
        assert "1 game(s) added" in said
        with Store(target) as store:
            assert check(store.conn) == []


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.one_of(st.text(max_size=30), JSON.map(json.dumps),
                                st.builds(lambda v: json.dumps({"uuid": str(uuid.uuid4()),
                                                                "stored": v}), JSON)),
                      min_size=1, max_size=4))
def test_garbage_lines_are_refused_by_line_and_change_nothing(tmp_path_factory, lines):
    folder = tmp_path_factory.mktemp("garbage")
    target = folder / "c.sqlite3"
    text = "\n".join(lines)
    (folder / "g.jsonl").write_text(text, encoding="utf-8", errors="surrogatepass")
    code, said, err = cli("import", folder / "g.jsonl", "--db", target)
    assert "Traceback" not in err
    if code == 0:   # blank lines or an empty list: no game, none added
        assert text.strip() in ("", "[]") and "0 game(s) added" in said
    else:
        assert code == 2 and not said and err.count("\n") == 1
        assert "g.jsonl, line " in err or "g.jsonl: game " in err or "not UTF-8" in err
    assert plays_of(target) == []



def _damaged(lines: list[str], game: str, change) -> str:
    """The first exported game of ``game`` with ``change`` applied to its record, as a line."""
    record = next(json.loads(line) for line in lines if json.loads(line)["game"] == game)
    record["uuid"] = str(uuid.uuid4())
    change(record["stored"])
    return json.dumps(record)


def _potion_event(stored: dict) -> dict:
    return next(e for s in stored["log"] for e in s["events"] if e["type"] == "potion_added")


@pytest.mark.parametrize("game, change, words", [
    # an event that folds to a potion without ingredients: the rules cannot sum the game up
    ("cauldron", lambda st: _potion_event(st)["data"]["potion"].pop("ingredients"),
     "its log folds to a game the rules cannot read"),
    # a dropped step keeps its command as stored, whatever it is, but it must keep one
    ("witchs_brew", lambda st: next(s for s in st["log"] if s["status"] == "dropped").pop(
        "command"), "command: is missing"),
])
def test_damage_found_by_the_fuzzer_is_refused_by_line(small, tmp_path, game, change, words):
    _, lines = small
    target = tmp_path / "c.sqlite3"
    code, said, err = cli("import", write(tmp_path / "d.jsonl", [_damaged(lines, game, change)]),
                          "--db", target)
    assert code == 2 and "d.jsonl, line 1" in err and words in err
    assert "Traceback" not in err and not said and plays_of(target) == []


def test_a_game_stored_without_its_finished_at_imports_as_one_with_none(small, tmp_path):
    """The check takes a missing ``finished_at`` as an empty one (a running game has none):
    the import did too, instead of failing on the missing key (found by the fuzzer above)."""
    _, lines = small
    record = next(json.loads(line) for line in lines if json.loads(line)["status"] == "running")
    record["uuid"] = str(uuid.uuid4())
    del record["stored"]["finished_at"]
    target = tmp_path / "c.sqlite3"
    code, said, err = cli("import", write(tmp_path / "d.jsonl", [json.dumps(record)]),
                          "--db", target)
    assert code == 0 and "1 game(s) added" in said, err
    with Store(target, readonly=True) as store:
        assert check(store.conn) == []
