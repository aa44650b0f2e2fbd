"""The engine's journal and listeners, the steps a die makes (never undone), and the
inputs (buttons, dice) it maps to commands."""

from __future__ import annotations

import pytest

from companion.core import Command, Event, InputEvent, RuleViolation, Session, Step
from tests.companion.tiny_game import TINY, FakeJournal, add, journalled, statuses, tiny


# --------------------------------------------------------------------------------------------
# journal and listeners
# --------------------------------------------------------------------------------------------
def test_journal_receives_appends_and_status_changes_in_order():
    s, journal = journalled()
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
    s, journal = journalled()
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
