"""The engine's state and steps as JSON, and replay to the same state."""

from __future__ import annotations

import copy
import json

import pytest

from companion.core import Command, Event, InputEvent, Session, Step
from companion.games import get_rules
from companion.core.errors import SetupError


# --------------------------------------------------------------------------------------------
# JSON and replay
# --------------------------------------------------------------------------------------------
def _a_played_witchs_brew(wb) -> Session:
    s = wb.new(5)
    wb.do(s, "play_role", "Anna", role="warlock")
    wb.do(s, "so_be_it", "Barb")
    wb.do(s, "claim", "Carl")
    wb.do(s, "claim", "Daniel")
    wb.do(s, "pass", "Emma")
    wb.do(s, "resolve", "Daniel", changes={"gold": 1}, others={"Emma": {"gold": -1}},
          potion={"stack": "gold_shelf", "points": 2, "raven": True, "name": "Gold elixir"})
    wb.do(s, "play_role", "Daniel", role="alchemist")
    wb.do(s, "so_be_it", "Emma")
    wb.do(s, "resolve", "Emma", drop="green")
    wb.do(s, "pass", "Anna")
    s.undo()
    s.undo()
    wb.do(s, "abstain", "Emma")       # drops the redo branch
    wb.do(s, "claim", "Anna")
    wb.do(s, "so_be_it", "Barb")
    wb.do(s, "resolve", "Barb", drop="red")
    wb.do(s, "adjust", "Carl", changes={"vials": 2})
    return s


def test_state_is_json_serialisable(wb):
    s = _a_played_witchs_brew(wb)
    text = json.dumps(s.state, sort_keys=True)
    assert json.loads(text) == s.state
    assert json.loads(json.dumps(s.summary())) == s.summary()
    assert json.loads(json.dumps(s.prompt())) == s.prompt()
    assert json.loads(json.dumps(s.initial)) == s.initial


def test_commands_and_events_round_trip_through_json():
    cmd = Command("resolve", "Anna", {"drops": {"red": 2, "green": 1}})
    assert cmd.to_dict() == {"do": "resolve", "player": "Anna", "drops": {"red": 2, "green": 1}}
    assert Command.from_dict(json.loads(json.dumps(cmd.to_dict()))) == cmd
    assert Command.from_dict({"do": "undo"}) == Command("undo")
    ev = Event("rolled", {"value": 3}, automatic=True, undoable=False)
    assert Event.from_dict(json.loads(json.dumps(ev.to_dict()))) == ev
    assert Event.from_dict({"type": "x"}) == Event("x")
    assert InputEvent("die", "d6", 5).to_dict() == {"input": "die", "id": "d6", "value": 5}
    assert InputEvent("button", "undo").to_dict() == {"input": "button", "id": "undo"}
    assert str(cmd) == "resolve Anna" and str(Command("undo")) == "undo"


def test_replay_from_steps_equals_live_state(wb):
    s = _a_played_witchs_brew(wb)
    assert {st.status for st in s.steps} == {"done", "dropped"}
    replay = Session(get_rules("witchs_brew"), dict(s.setup), list(s.steps))
    assert replay.state == s.state
    assert replay.summary() == s.summary()


def test_replay_from_a_json_log_equals_live_state(wb):
    s = _a_played_witchs_brew(wb)
    s.undo()  # leave an undone step in the log too
    log = json.dumps({
        "setup": s.setup,
        "steps": [{"n": st.n, "status": st.status, "command": st.command.to_dict(),
                   "events": [e.to_dict() for e in st.events]} for st in s.steps],
    })
    data = json.loads(log)
    steps = [Step(d["n"], Command.from_dict(d["command"]),
                  tuple(Event.from_dict(e) for e in d["events"]), d["status"])
             for d in data["steps"]]
    replay = Session(get_rules("witchs_brew"), data["setup"], steps)
    assert replay.state == s.state
    assert replay.can_redo
    replay.redo()
    s.redo()
    assert replay.state == s.state


def test_replay_by_re_executing_the_done_commands(wb):
    s = _a_played_witchs_brew(wb)
    fresh = wb.new(5)
    for st in s.done_steps():
        fresh.execute(st.command)
    assert fresh.state == s.state


def test_evolve_never_mutates_earlier_states(wb):
    s = wb.new(3)
    before = s.state
    frozen = copy.deepcopy(before)
    wb.do(s, "play_role", "Anna", role="wolf_keeper")
    wb.do(s, "so_be_it", "Barb")
    wb.do(s, "so_be_it", "Carl")
    assert before == frozen
    assert s.initial == frozen
    s.undo()
    s.undo()
    s.undo()
    assert s.state == frozen


def test_unknown_game_is_a_setup_error():
    with pytest.raises(SetupError, match="Unknown game 'chess': the companion runs cauldron, quest, witchs_brew"):
        get_rules("chess")
