"""A pulled plug in all three games, at every fsync the store makes.

The kill test SIGKILLs a child, but the operating system still writes out what the child wrote,
so a store that acknowledged a step before syncing it would pass there and lose the step on a
real power cut. Here a child plays each game in three runs (each run closes the store, so the
WAL is checkpointed, deleted and made again) under an LD_PRELOAD shim (tests/support/
fsync_recorder.c) that copies the database files at every fsync. From each point the files a
power cut may leave are rebuilt, under four models (tests/support/powerloss.py): only synced
bytes, a torn fsync, a half-written fsync, and everything written. Each image must open with
the companion's Store, pass SQLite's integrity check and ``companion check``, hold every step
acknowledged before that point, fold like a replay and take the next command.

A control drops one fsync of a commit whose step was then acknowledged: the check must see the
step lost there, or it could not see it anywhere.

``COMPANION_POWER_STEPS`` sets the steps played per game (default 45, about 10 seconds for the
file on two cores; 0 plays the whole games, about two minutes). Needs Linux and a C compiler
(skipped without); the figures are printed under "figures: power loss" in the test summary."""

from __future__ import annotations

import os
import random
import sys
from collections import Counter

import pytest

from companion.core import Session
from companion.core.errors import RuleViolation
from companion.games import get_rules
from companion.store import Store
from tests.companion.test_store_kills import SCRIPTS
from tests.support import powerloss
from tests.support.figures import report

STEPS = int(os.environ.get("COMPANION_POWER_STEPS", "45"))
RUNS = 3
#: WAL pages between checkpoints in the second run (a step writes about four)
AUTOCHECKPOINT = 12


@pytest.fixture(scope="session")
def shim(tmp_path_factory):
    if not sys.platform.startswith("linux"):
        pytest.skip("the fsync recorder needs Linux (LD_PRELOAD and /proc/self/fd)")
    built = powerloss.compile_shim(tmp_path_factory.mktemp("shim"))
    if built is None:
        pytest.skip("no C compiler (cc, gcc or clang) to build tests/support/fsync_recorder.c")
    return built


def _undoable_end(setup, commands):
    """The longest prefix of ``commands`` whose last step can be taken back (a die cannot)."""
    rules = get_rules(setup["game"])
    for end in range(len(commands), 0, -1):
        session = Session(rules, setup)
        for command in commands[:end]:
            session.execute(command)
        try:
            session.undo()
            return end
        except RuleViolation:
            continue
    raise AssertionError("no step of the script can be taken back")


def _played(tmp_path, shim, game):
    """The child's record of one game played in RUNS runs (the second checkpoints every few
    steps, the last one takes its last step back), the commands it played and the steps'
    statuses at the end."""
    setup, commands = SCRIPTS[game](7)
    commands = commands[: _undoable_end(setup, commands[:STEPS] if STEPS else commands)]
    record_dir, db = tmp_path / "record", tmp_path / "play" / "c.sqlite3"
    record_dir.mkdir()
    db.parent.mkdir()
    rec = powerloss.Record()
    for run in range(1, RUNS + 1):
        script = tmp_path / f"run{run}.jsonl"
        powerloss.write_script(script, setup, commands[: len(commands) * run // RUNS])
        flags = {2: ["--autocheckpoint", str(AUTOCHECKPOINT)], RUNS: ["--undo"]}.get(run, [])
        powerloss.record(shim, db, record_dir, script, rec, *flags)
    assert rec.acked == len(commands) and rec.undone
    with Store(db, readonly=True) as store:
        statuses = [s.status for s in store.steps(store.games()[0].id)]
    assert statuses[-1] == "undone"
    return rec, commands, statuses


@pytest.mark.parametrize("game", sorted(SCRIPTS))
def test_a_power_cut_at_any_fsync_keeps_every_acknowledged_step(tmp_path, shim, game):
    rec, commands, statuses = _played(tmp_path, shim, game)
    rng = random.Random(f"{game}-power")
    seen: dict[str, powerloss.Outcome] = {}
    tally: Counter[str] = Counter()
    failures: list[str] = []
    lost = 0
    for point in rec.points:
        for model, files in powerloss.images(rec.points, point.k, rng).items():
            tally[model] += 1
            required = statuses if point.undone else None
            key = powerloss.fingerprint(files, point.acked, required)
            if key not in seen:
                seen[key] = powerloss.rebuild(files, tmp_path / "cut" / f"{point.k}-{model}",
                                              commands, point.acked, required)
            outcome = seen[key]
            lost += outcome.lost
            if outcome.problem:
                failures.append(f"point {point.k} ({point.synced} synced, {point.acked} "
                                f"acknowledged), {model}: {outcome.problem}")
    checkpoints = sum(p.synced == "db" for p in rec.points)
    report("power loss",
           f"{game}: {len(rec.points)} fsync points ({checkpoints} of the database file), "
           f"{sum(tally.values())} images rebuilt "
           f"({len(seen)} distinct; {', '.join(f'{tally[m]} {m}' for m in powerloss.MODELS)}), "
           f"{len(failures)} failed, {lost} steps lost ({rec.acked} acknowledged, then one "
           "undone)")
    assert not failures, "\n".join(failures[:10])
    assert checkpoints >= RUNS and any(p.undone for p in rec.points)


def _next_acknowledgement(rec, k):
    """The first acknowledgement printed after point k: (last ACK, undone), or None."""
    here = rec.points[k - 1]
    for later in [(p.acked, p.undone) for p in rec.points[k:]] + [(rec.acked, rec.undone)]:
        if later != (here.acked, here.undone):
            return later
    return None


@pytest.mark.parametrize("game", ["quest"])
def test_the_check_sees_what_is_lost_when_a_wal_fsync_is_dropped(tmp_path, shim, game):
    rec, commands, statuses = _played(tmp_path, shim, game)
    dropped, steps, undos = 0, set(), 0
    for point in rec.points:
        files = powerloss.dropped_fsync(rec.points, point.k)
        following = _next_acknowledgement(rec, point.k)
        if point.synced != "db-wal" or following is None or files == powerloss.durable(
                rec.points, point.k):
            continue  # not a WAL fsync that wrote something, then acknowledged
        acked, undone = following
        outcome = powerloss.rebuild(files, tmp_path / "cut" / str(point.k), commands, acked,
                                    statuses if undone else None)
        dropped += 1
        if undone != point.undone:
            undos += 1
            assert outcome.problem == "the acknowledged undo was lost", point.k
        else:
            steps.add(acked)
            assert outcome.lost == 1, (point.k, outcome)
    report("power loss", f"control ({game}): {dropped} WAL fsyncs dropped, each followed by "
                         f"an acknowledgement: the step ({len(steps)}) or the undo ({undos}) "
                         "seen lost every time")
    assert steps == set(range(1, len(commands) + 1)) and undos >= 1
