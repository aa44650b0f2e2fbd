"""Power cuts in all three games: a child process plays a legal script into the database and is
SIGKILLed at random points, from outside between steps or from inside a step's transaction
(``--die-at``). The store promises that a step the table saw acknowledged is never lost, and
that whatever a cut leaves behind is a game that reads, folds and plays on. Witch's Brew alone
was tried before; Cauldron's long games and Cauldron Quest's board have their own events.

After every kill: SQLite's integrity check is ok, ``companion check`` finds nothing, every
acknowledged step is there and at most one more, the stored fold equals a fresh replay of the
exported commands, and the game resumes where it stood: the next legal command is accepted.

``COMPANION_FAULT_KILLS`` sets the kills per game (default 40, about 25 seconds for the file
on two cores); the figures are printed in the "faults" section of the test summary."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.store.check import check
from companion.core import Command, Session
from companion.games import get_rules
from companion.script import export_lines, replay
from companion.store import Store
from tests.companion import cauldron_autoplay, quest_autoplay
from tests.support import autoplay
from tests.support.store_child import KILLS, Kills

ROOT = Path(__file__).resolve().parents[2]
KILLS_PER_GAME = int(os.environ.get("COMPANION_FAULT_KILLS", "40"))
# statements every step sends, so a child armed with one of them dies inside that step
STATEMENTS = ["BEGIN IMMEDIATE", "INSERT INTO steps", "INSERT INTO events",
              "UPDATE games SET updated_at", "COMMIT"]


def _quest(seed: int) -> tuple[dict[str, Any], list[Command]]:
    setup = {"game": "quest", "players": list(quest_autoplay.PLAYERS),
             "needed": list(quest_autoplay.NEEDED)}
    rng = random.Random(seed)
    session = Session(get_rules("quest"), setup)
    commands: list[Command] = []
    while not session.over:
        assert len(commands) < 2000, "quest autoplay: the game did not end"
        command = quest_autoplay.random_command(session.state, rng)
        session.execute(command)
        commands.append(command)
    return setup, commands


def _witchs_brew(seed: int) -> tuple[dict[str, Any], list[Command]]:
    setup = {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Daniel", "Emma"]}
    return setup, autoplay.play(setup, seed=seed)[1]


def _cauldron(seed: int) -> tuple[dict[str, Any], list[Command]]:
    setup = {"game": "cauldron", **cauldron_autoplay.setup_for(3)}
    return setup, cauldron_autoplay.play(setup, seed=seed)[1]


SCRIPTS: dict[str, Callable[[int], tuple[dict[str, Any], list[Command]]]] = {
    "witchs_brew": _witchs_brew, "cauldron": _cauldron, "quest": _quest}


def _run_child(db: Path, script: Path, rng: random.Random, stored: int,
               target: int | None) -> tuple[int, bool, bool]:
    """One run of the child, killed on reaching ``target`` steps (None: let it finish): the
    highest step it acknowledged (0 if none), whether it was killed, and whether from inside."""
    flags: list[str] = []
    from_inside = target is not None and rng.random() < 0.5
    if from_inside:
        flags = ["--die-at", rng.choice(STATEMENTS), "--die-after", str(max(0, target - stored))]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-m", "tests.support.store_child", str(db),
                              str(script), *flags],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=ROOT, env=env)
    acked = 0
    assert child.stdout is not None
    for line in child.stdout:
        if line.startswith("ACK"):
            acked = int(line.split()[1])
            if target is not None and not from_inside and acked >= target:
                child.send_signal(signal.SIGKILL)  # lands somewhere in the next step
                break
    # read on through the same file object: its read-ahead buffer may hold ACK lines already
    # (communicate() reads the pipe itself and would never see them)
    rest = child.stdout.read()
    err = child.stderr.read() if child.stderr is not None else ""
    child.wait(timeout=120)
    assert "Traceback" not in err, err
    # what the child printed before the kill reached it was acknowledged too
    acked = max([acked] + [int(x.split()[1]) for x in rest.splitlines() if x.startswith("ACK")])
    return acked, child.returncode == -signal.SIGKILL, from_inside


def _assert_survived(db: Path, commands: list[Command], acked: int) -> tuple[int, int]:
    """Everything the store promises after a cut; plays the next command. Returns the steps
    the cut left and the steps stored now (all of them acknowledged)."""
    raw = sqlite3.connect(db)
    try:
        assert [r[0] for r in raw.execute("PRAGMA integrity_check")] == ["ok"]
        assert check(raw) == []
    finally:
        raw.close()
    with Store(db) as store:
        assert store.notice is None
        game_id = store.games()[0].id
        stored = list(store.steps(game_id))
        lost = max(0, acked - len(stored))
        assert lost == 0 and len(stored) <= acked + 1, (acked, len(stored))
        assert [s.command for s in stored] == commands[: len(stored)]
        resumed = store.open_session(game_id)
        fresh = replay(export_lines(resumed), strict=True).session
        assert fresh.state == resumed.state
        if resumed.over:
            return len(stored), len(stored)
        assert resumed.prompt() == fresh.prompt()
        resumed.execute(commands[len(stored)])  # plays on from where the cut left it
        return len(stored), len(stored) + 1


@pytest.mark.parametrize("game", sorted(SCRIPTS))
def test_killed_at_random_points_in_every_game_no_acknowledged_step_is_lost(tmp_path, game):
    setup, commands = SCRIPTS[game](7)
    script = tmp_path / "game.jsonl"
    script.write_text("\n".join([json.dumps(setup)] + [json.dumps(c.to_dict()) for c in commands]))
    db = tmp_path / "c.sqlite3"
    rng = random.Random(f"{game}-2026")
    targets = sorted(rng.sample(range(1, len(commands)), min(KILLS_PER_GAME, len(commands) - 1)))
    tries = kills = inside = stored = lost = 0
    for target in targets + [None]:
        if target is not None and target <= stored:
            continue  # the parent's own step already went past it
        acked, killed, from_inside = _run_child(db, script, rng, stored, target)
        tries, kills, inside = tries + 1, kills + killed, inside + (killed and from_inside)
        acked = max(acked, stored)
        survived, stored = _assert_survived(db, commands, acked)
        lost += max(0, acked - survived)
    assert stored == len(commands)
    with Store(db) as store:
        assert store.games("finished")[0].results
    KILLS.append(Kills(game, tries, kills, inside, len(commands), lost))
    assert lost == 0
