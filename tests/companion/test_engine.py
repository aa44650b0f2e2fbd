"""The engine: undo/redo/dropped, journal, automatic events, input, dice, JSON, replay."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from companion.core import (
    Command, Event, GameRules, InputEvent, RuleViolation, Session, Step,
)
from companion.core import engine as engine_mod
from companion.games import get_rules
from companion.core.errors import SetupError
from companion.core.gate import Arg, Declared, Whole


# --------------------------------------------------------------------------------------------
# A tiny counting game: "add" (undoable), "roll" (a die: not undoable), a bonus that the flow
# adds by itself once the total reaches 10.
# --------------------------------------------------------------------------------------------
def _setup(config: dict[str, Any]) -> dict[str, Any]:
    return {"total": 0, "rolls": [], "bonus": False, "over": False}


def _decide(state: dict[str, Any], cmd: Command) -> list[Event]:
    if cmd.do == "add":
        n = cmd.args.get("n", 1)
        if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
            raise RuleViolation("add: a positive whole number")
        return [Event("added", {"n": n})]
    if cmd.do == "roll":
        return [Event("rolled", {"value": cmd.args["value"]}, undoable=False)]
    raise RuleViolation(f"tiny has no command {cmd.do!r}")


def _evolve(state: dict[str, Any], event: Event) -> dict[str, Any]:
    s = copy.deepcopy(state)
    if event.type == "added":
        s["total"] += event.data["n"]
    elif event.type == "rolled":
        s["rolls"].append(event.data["value"])
        s["total"] += event.data["value"]
    elif event.type == "bonus":
        s["bonus"] = True
        s["total"] += 5
    else:
        raise ValueError(event.type)
    return s


def _flow(state: dict[str, Any]) -> list[Event]:
    if state["total"] >= 10 and not state["bonus"]:
        return [Event("bonus", {"at": state["total"]})]
    return []


def _prompt(state: dict[str, Any]) -> dict[str, Any]:
    return {"phase": "play", "turn": None, "text": f"Total {state['total']}: add or roll"}


def _map_input(state: dict[str, Any], event: InputEvent) -> Command | None:
    if event.kind == "button" and event.id == "plus":
        return Command("add", None, {"n": 1})
    if event.kind == "die":
        return Command("roll", None, {"value": event.value})
    return None


#: What the gate lets through: "add" any whole number (the rules refuse one under 1 themselves),
#: "roll" a die's face.
TINY_COMMANDS = {"add": Declared({"n": Arg(Whole())}),
                 "roll": Declared({"value": Arg(Whole(1, 6), required=True)})}

TINY = GameRules(
    name="tiny", title="Tiny", setup=_setup, decide=_decide, evolve=_evolve, flow=_flow,
    prompt=_prompt, summary=lambda s: dict(s), map_input=_map_input, results=lambda s: [],
    commands=TINY_COMMANDS, setup_keys={}, seat_names=lambda s: [], players=(1, 1),
)


def tiny() -> Session:
    return Session(TINY, {})


def add(s: Session, n: int = 1) -> Step:
    return s.execute(Command("add", None, {"n": n}))


def statuses(s: Session) -> list[tuple[int, str]]:
    return [(st.n, st.status) for st in s.steps]


class FakeJournal:
    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def append(self, step: Step, dropped: list[int], standing=None) -> None:
        self.calls.append(("append", step.n, step.command.do, step.command.args.get("n"),
                           list(dropped), step.status))

    def set_status(self, n: int, status: str, standing=None) -> None:
        self.calls.append(("set_status", n, status))


# --------------------------------------------------------------------------------------------
# undo / redo / dropped
# --------------------------------------------------------------------------------------------
def test_execute_numbers_steps_and_folds_state():
    s = tiny()
    first = add(s, 2)
    second = add(s, 3)
    assert (first.n, second.n) == (1, 2)
    assert first.status == second.status == "done"
    assert s.state["total"] == 5
    assert [e.type for e in first.events] == ["added"]
    assert first.command == Command("add", None, {"n": 2})


def test_undo_keeps_the_step_marked_undone():
    s = tiny()
    add(s, 2)
    add(s, 3)
    undone = s.undo()
    assert undone.n == 2 and undone.status == "undone"
    assert statuses(s) == [(1, "done"), (2, "undone")]
    assert len(s.steps) == 2
    assert s.state["total"] == 2
    assert [st.n for st in s.done_steps()] == [1]
    assert s.can_redo and s.can_undo


def test_redo_reapplies_in_order():
    s = tiny()
    add(s, 1)
    add(s, 10)   # total 11 -> automatic bonus +5
    add(s, 100)
    s.undo()
    s.undo()
    assert s.state == {"total": 1, "rolls": [], "bonus": False, "over": False}
    redone = s.redo()
    assert redone.n == 2 and redone.status == "done"
    assert s.state["total"] == 16 and s.state["bonus"] is True
    s.redo()
    assert s.state["total"] == 116
    assert statuses(s) == [(1, "done"), (2, "done"), (3, "done")]
    assert not s.can_redo


def test_new_command_after_undo_drops_the_redo_branch():
    s = tiny()
    add(s, 1)
    add(s, 2)
    add(s, 3)
    s.undo()
    s.undo()
    step = add(s, 40)
    assert step.n == 4
    assert statuses(s) == [(1, "done"), (2, "dropped"), (3, "dropped"), (4, "done")]
    assert s.state["total"] == 41 + 5  # bonus reached at 41
    assert not s.can_redo
    with pytest.raises(RuleViolation, match="Nothing to redo: undo something first"):
        s.redo()
    # undo now goes back over step 4 only, then 1; dropped steps stay dropped
    s.undo()
    assert s.state["total"] == 1
    assert statuses(s) == [(1, "done"), (2, "dropped"), (3, "dropped"), (4, "undone")]
    s.redo()
    assert s.state["total"] == 46


def test_nothing_to_undo_and_nothing_to_redo():
    s = tiny()
    assert not s.can_undo and not s.can_redo
    with pytest.raises(RuleViolation, match="Nothing to undo: no command has been played yet"):
        s.undo()
    with pytest.raises(RuleViolation, match="Nothing to redo: undo something first"):
        s.redo()
    add(s)
    with pytest.raises(RuleViolation, match="Nothing to redo"):
        s.execute(Command("redo"))
    s.execute(Command("undo"))
    with pytest.raises(RuleViolation, match="Nothing to undo"):
        s.execute(Command("undo"))
    assert statuses(s) == [(1, "undone")]


def test_undo_and_redo_as_commands():
    s = tiny()
    add(s, 4)
    assert s.execute(Command("undo")).status == "undone"
    assert s.state["total"] == 0
    assert s.execute(Command("redo")).status == "done"
    assert s.state["total"] == 4
    assert len(s.steps) == 1  # undo/redo are not steps themselves


def test_rule_violation_changes_nothing():
    journal = FakeJournal()
    s = Session(TINY, {}, journal=journal)
    add(s, 3)
    add(s, 4)
    s.undo()
    state_before = copy.deepcopy(s.state)
    steps_before = list(s.steps)
    calls_before = list(journal.calls)
    with pytest.raises(RuleViolation, match="add: a positive whole number"):
        add(s, -1)
    with pytest.raises(RuleViolation, match="Tiny has no command 'jump'; it knows add, redo, roll, undo"):
        s.execute(Command("jump"))
    assert s.state == state_before
    assert s.steps == steps_before
    assert statuses(s) == [(1, "done"), (2, "undone")]  # the redo branch is NOT dropped
    assert journal.calls == calls_before
    assert s.redo().n == 2


def test_rule_violation_is_a_value_error_for_plain_callers():
    s = tiny()
    with pytest.raises(ValueError):
        add(s, 0)


def test_automatic_events_are_marked_automatic():
    s = tiny()
    add(s, 9)
    step = add(s, 1)
    assert [(e.type, e.automatic) for e in step.events] == [("added", False), ("bonus", True)]
    assert step.events[1].data == {"at": 10}
    assert s.state["total"] == 15
    assert step.events[1].to_dict() == {"type": "bonus", "data": {"at": 10}, "automatic": True}


def test_witchs_brew_automatic_events_are_marked(wb):
    s = wb.new(3)
    wb.do(s, "play_role", "Anna", role="wolf_keeper")
    step = wb.do(s, "so_be_it", "Barb")
    assert [(e.type, e.automatic) for e in step.events] == [
        ("answered", False), ("effect_applied", True)]
    step = wb.do(s, "pass", "Carl")
    assert [(e.type, e.automatic) for e in step.events] == [
        ("answered", False), ("round_resolved", True), ("effect_applied", True)]


def test_flow_that_never_settles_is_an_error_not_a_hang():
    looping = GameRules(
        name="loop", title="Loop", setup=_setup, decide=_decide, evolve=lambda s, e: s,
        flow=lambda s: [Event("again")], prompt=_prompt, summary=dict, map_input=_map_input,
        results=lambda s: [], commands=TINY_COMMANDS, setup_keys={}, seat_names=lambda s: [],
    )
    s = Session(looping, {})
    with pytest.raises(RuntimeError, match="did not settle"):
        add(s)
    assert s.steps == []
    assert engine_mod.FLOW_LIMIT == 200


# --------------------------------------------------------------------------------------------
# journal and listeners
# --------------------------------------------------------------------------------------------
def test_journal_receives_appends_and_status_changes_in_order():
    journal = FakeJournal()
    s = Session(TINY, {}, journal=journal)
    add(s, 1)
    add(s, 2)
    s.undo()
    s.undo()
    s.redo()
    add(s, 3)
    s.undo()
    assert journal.calls == [
        ("append", 1, "add", 1, [], "done"),
        ("append", 2, "add", 2, [], "done"),
        ("set_status", 2, "undone"),
        ("set_status", 1, "undone"),
        ("set_status", 1, "done"),
        ("append", 3, "add", 3, [2], "done"),
        ("set_status", 3, "undone"),
    ]
    assert statuses(s) == [(1, "done"), (2, "dropped"), (3, "undone")]


def test_journal_failure_leaves_the_session_unchanged():
    class Broken(FakeJournal):
        def append(self, step, dropped, standing=None):
            raise OSError("disk full")

    s = Session(TINY, {}, journal=Broken())
    with pytest.raises(OSError, match="disk full"):
        add(s, 5)
    assert s.steps == [] and s.state["total"] == 0


def test_listeners_are_told_after_every_change():
    s = tiny()
    seen: list[tuple[int, str, int]] = []
    s.add_listener(lambda session, step: seen.append((step.n, step.status, session.state["total"])))
    add(s, 2)
    s.undo()
    s.redo()
    with pytest.raises(RuleViolation):
        add(s, 0)
    assert seen == [(1, "done", 2), (1, "undone", 0), (1, "done", 2)]


# --------------------------------------------------------------------------------------------
# non-undoable events (dice)
# --------------------------------------------------------------------------------------------
def test_dice_results_cannot_be_undone():
    journal = FakeJournal()
    s = Session(TINY, {}, journal=journal)
    add(s, 1)
    step = s.execute(Command("roll", None, {"value": 4}))
    assert step.undoable is False
    assert step.events[0].to_dict() == {"type": "rolled", "data": {"value": 4}, "undoable": False}
    assert not s.can_undo
    calls = list(journal.calls)
    with pytest.raises(RuleViolation,
                       match="Dice results cannot be undone; correct a misread die instead"):
        s.undo()
    with pytest.raises(RuleViolation, match="Dice results cannot be undone"):
        s.handle_input(InputEvent("button", "undo"))
    assert statuses(s) == [(1, "done"), (2, "done")]
    assert s.state["total"] == 5 and s.state["rolls"] == [4]
    assert journal.calls == calls
    # a later undoable step can be undone, but not past the die
    add(s, 1)
    s.undo()
    with pytest.raises(RuleViolation, match="Dice results cannot be undone"):
        s.undo()


def test_step_with_any_non_undoable_event_is_not_undoable():
    step = Step(1, Command("x"), (Event("a"), Event("b", undoable=False)))
    assert step.undoable is False
    assert Step(1, Command("x"), (Event("a"),)).undoable is True
    assert Step(1, Command("x"), ()).undoable is True


# --------------------------------------------------------------------------------------------
# handle_input
# --------------------------------------------------------------------------------------------
def test_handle_input_undo_redo_buttons_and_mapped_inputs():
    s = tiny()
    s.handle_input(InputEvent("button", "plus"))
    s.handle_input(InputEvent("die", "d6", 6))
    assert s.state["total"] == 7 and s.state["rolls"] == [6]
    s2 = tiny()
    s2.handle_input(InputEvent("button", "plus"))
    s2.handle_input(InputEvent("button", "plus"))
    assert s2.handle_input(InputEvent("button", "undo")).status == "undone"
    assert s2.state["total"] == 1
    assert s2.handle_input(InputEvent("button", "redo", source="gpio")).status == "done"
    assert s2.state["total"] == 2


def test_handle_input_that_means_nothing_is_refused_with_the_prompt():
    s = tiny()
    with pytest.raises(RuleViolation, match=r"^That button means nothing now: Total 0: add or roll$"):
        s.handle_input(InputEvent("button", "banana"))
    assert s.steps == []


def test_handle_input_seat_buttons_in_witchs_brew(wb):
    s = wb.new(5)
    wb.do(s, "play_role", "Anna", role="warlock")
    step = s.handle_input(InputEvent("button", "seat2.so_be_it", source="gpio"))
    assert step.command == Command("so_be_it", "Barb")
    assert wb.counters(s, "Barb")["gold"] == 3
    step = s.handle_input(InputEvent("button", "seat3.claim"))
    assert step.command == Command("claim", "Carl")
    assert s.summary()["holder"] == "Carl"
    s.handle_input(InputEvent("button", "undo"))
    assert s.summary()["holder"] == "Anna"
    assert s.prompt()["turn"] == "Carl"
    s.handle_input(InputEvent("button", "redo"))
    assert s.summary()["holder"] == "Carl"
    with pytest.raises(RuleViolation, match="^There is no seat 9 at this table: it has 5 seats$"):
        s.handle_input(InputEvent("button", "seat9.claim"))
    with pytest.raises(RuleViolation, match="That button means nothing now"):
        s.handle_input(InputEvent("button", "seatX.claim"))
    with pytest.raises(RuleViolation, match="That button means nothing now"):
        s.handle_input(InputEvent("button", "seat4.dance"))
    with pytest.raises(RuleViolation, match="That die means nothing now"):
        s.handle_input(InputEvent("die", "d6", 3))


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
