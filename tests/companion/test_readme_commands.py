"""Each game's documented setup keys and command tables cannot drift from the declarations the
gate checks.

Each game's file in docs/ (named for its title: ``docs/witchs-brew.md``) has a ``Setup keys:``
line and a ``| command | arguments |`` table.
Names of keys and arguments are written as backticked bare identifiers (dotted for the fields of
a record, ``potion.stack``); values are written quoted or as JSON, so they are never mistaken
for names. A documented key that is not declared, or a declared one that is not documented,
fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.core import gate as g
from companion.games import all_games

DOCS = Path(__file__).resolve().parents[2] / "docs"
NAME = re.compile(r"`([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*)`")


def _fields(name: str, spec: g.Spec) -> set[str]:
    """The dotted names of a record's fields under ``name`` (records in lists and either-ors too)."""
    if isinstance(spec, g.Record):
        out: set[str] = set()
        for key, arg in spec.fields.items():
            out |= {f"{name}.{key}"} | _fields(f"{name}.{key}", arg.spec)
        return out
    if isinstance(spec, g.ListOf):
        return _fields(name, spec.item)
    if isinstance(spec, g.Either):
        return set().union(*(_fields(name, o) for o in spec.options))
    return set()


def declared_args(declared: g.Declared) -> set[str]:
    names = set(declared.args) | ({"player"} if declared.player != g.PLAYER_NONE else set())
    for key, arg in declared.args.items():
        names |= _fields(key, arg.spec)
    return names


def declared_setup(keys: dict[str, g.Arg]) -> set[str]:
    names = {"game", *keys}
    for key, arg in keys.items():
        names |= _fields(key, arg.spec)
    return names


def doc(title: str) -> Path:
    """A game's reference file, named for its title: Witch's Brew is ``docs/witchs-brew.md``."""
    return DOCS / (title.lower().replace("'", "").replace(" ", "-") + ".md")


def section(game: str) -> list[str]:
    """The lines of a game's reference file."""
    path = doc(all_games()[game].title)
    assert path.is_file(), f"{all_games()[game].title} has no reference file {path.name} in docs/"
    return path.read_text(encoding="utf-8").splitlines()


def documented(lines: list[str]) -> tuple[set[str], dict[str, set[str]]]:
    """The setup keys and, per command, the argument names a game's file documents."""
    setup: set[str] = set()
    commands: dict[str, set[str]] = {}
    in_setup = False
    for line in lines:
        if line.startswith("Setup keys:"):
            in_setup = True
        elif not line.strip():
            in_setup = False
        if in_setup:
            setup |= set(NAME.findall(line))
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) >= 2 and cells[0] not in ("command", "") and not set(cells[0]) <= set("-: "):
            names = NAME.findall(" ".join(cells[1:]))
            for command in NAME.findall(cells[0]):
                commands.setdefault(command, set()).update(names)
    return setup, commands


GAMES = sorted(all_games())


@pytest.mark.parametrize("game", GAMES)
def test_every_setup_key_is_documented_and_every_documented_key_declared(game: str) -> None:
    rules = all_games()[game]
    setup, _ = documented(section(game))
    expected = declared_setup(dict(rules.setup_keys))
    assert setup, f"{doc(rules.title).name}: no 'Setup keys:' line"
    assert setup - expected == set(), f"documented but not declared: {sorted(setup - expected)}"
    assert expected - setup == set(), f"declared but not documented: {sorted(expected - setup)}"


@pytest.mark.parametrize("game", GAMES)
def test_every_command_and_argument_is_documented_and_declared(game: str) -> None:
    rules = all_games()[game]
    _, commands = documented(section(game))
    engine = set(g.ENGINE_COMMANDS)
    assert set(commands) - set(rules.commands) - engine == set(), "documented commands the game lacks"
    assert set(rules.commands) - set(commands) == set(), (
        f"declared commands {doc(rules.title).name} lacks")
    for name, declared in rules.commands.items():
        expected = declared_args(declared)
        assert commands[name] == expected, (
            f"{rules.title} {name}: documented {sorted(commands[name])}, declared {sorted(expected)}")


def test_the_parser_sees_a_drift() -> None:
    """The check itself can fail: a made-up file with one undeclared and one missing name."""
    lines = ["Setup keys: `game`, `players`, `colour`", "",
             "| command | arguments |", "|---|---|", "| `claim`, `pass` | `player`, `loud` |",
             "| `resolve` | `player`, `potion.stack`: `{\"red\": 2}` or \"red\" |"]
    setup, commands = documented(lines)
    assert setup == {"game", "players", "colour"}
    assert commands == {"claim": {"player", "loud"}, "pass": {"player", "loud"},
                        "resolve": {"player", "potion.stack"}}
