"""The engine: undo/redo/dropped, refused commands, automatic events."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from companion.core import Command, Event, RuleViolation, Session
from companion.core import engine as engine_mod
from tests.companion.tiny_game import TINY, add, journalled, statuses, tiny


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
    s, journal = journalled()
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
    looping = dataclasses.replace(TINY, name="loop", title="Loop", evolve=lambda s, e: s,
                                  flow=lambda s: [Event("again")])
    s = Session(looping, {})
    with pytest.raises(RuntimeError, match="did not settle"):
        add(s)
    assert s.steps == []
    assert engine_mod.FLOW_LIMIT == 200
