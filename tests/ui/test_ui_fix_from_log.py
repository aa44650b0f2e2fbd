"""A misread die fixed from its entry in the log: dice come in as the tray sends
them, the log dialog shows a Fix button on the entry of a roll the rules would still let the
table fix, which opens the game's own fix dialog on that roll; an older roll's entry has no
button but a muted line under it: "Too late to fix" and the rule in words (a grey Too
late button looked like a control and answered with an error). Cauldron Quest and Cauldron.
Screenshots: fix_from_log_quest_*, fix_from_log_quest_refused_*, fix_from_log_cauldron_*."""

from __future__ import annotations

from companion.core.model import Command, InputEvent
from companion.games.quest import moves
from test_ui_cauldron_fixes import to_turn_order
from test_ui_quest_play import start as start_quest
from ui_helpers import both_sizes, dialogs, find, frames, tap, tap_title

from ui.widgets.game_log import GameLog, GameLogRow


def tray(app, die: str, value) -> None:
    """A die as the dice tray's reader hands it to the app."""
    app.handle(InputEvent("die", die, value, source="serial"))
    frames()


def open_log(app) -> GameLog:
    tap(app.root.ids.game_bar.ids.events)
    frames(5)
    (log,) = dialogs()
    return log


def row_of(log: GameLog, n: int) -> GameLogRow:
    """The row of step ``n`` that carries its button, scrolled into view (the RecycleView
    builds only the rows in view)."""
    rv, rows = log.ids.rv, log.ids.rv.data
    index = next(k for k, r in enumerate(rows) if r["step"] == n and r["fix"])
    room = max(1.0, sum(r["height"] for r in rows) - rv.height)
    rv.scroll_y = max(0.0, min(1.0, 1 - sum(r["height"] for r in rows[:index]) / room))
    frames(3)
    (row,) = [w for w in find(lambda w: isinstance(w, GameLogRow), log) if w.step == n and w.fix]
    return row


def die_rows(log: GameLog) -> list[dict]:
    """The first line of each die step (its button, if any)."""
    return [r for r in log.ids.rv.data if r["die"] and not r["late"]]


def late_lines(log: GameLog) -> dict[int, str]:
    """Each die step too late to fix: its status line's words."""
    return {r["step"]: r["text"] for r in log.ids.rv.data if r["late"]}


def test_quest_a_misread_roll_fixed_from_the_log_and_an_older_one_refused(app):
    s = start_quest(app)
    tray(app, "action_a", "bottle")
    tray(app, "action_b", 3)
    assert s.summary()["action"] == {"a": "bottle", "b": 3}
    read_one, roll = s.done_steps()[-2:]
    log = open_log(app)
    assert [(r["step"], r["fix"]) for r in die_rows(log)] == [(read_one.n, ""),
                                                               (roll.n, "Fix")]
    assert late_lines(log) == {read_one.n: "Too late to fix: This is one die of a roll read "
                               "die by die: fix the roll from the entry where its last die came in"}
    assert all("step" in r for r in log.ids.rv.data)
    both_sizes("fix_from_log_quest", before=lambda: open_log(app))
    log = open_log(app)
    tap(row_of(log, roll.n).ids.fix)
    (fix,) = dialogs()                                   # the log made way for the dice
    assert type(fix).__name__ == "FixDiceDialog" and fix.kind == "action"
    tap(next(b for b in fix.rows[1][1] if b.value == 4))  # die B really shows 4
    tap_title("Save", fix)
    assert not dialogs() and s.summary()["action"] == {"a": "bottle", "b": 4}
    # Mia moves a bottle 4 spaces, then Leo rolls: the first roll is long settled.
    bottle = next(b for b in range(1, 7) if moves.targets(s.state, b, 4))
    app.send(Command("move_bottle", args={"bottle": bottle,
                                          "to": moves.targets(s.state, bottle, 4)[0]}))
    tray(app, "action_a", "bottle")
    tray(app, "action_b", 2)
    assert s.summary()["turn"] == "Leo"
    log = open_log(app)
    before, steps = s.state, len(s.steps)
    assert [r["fix"] for r in die_rows(log)][-1] == "Fix"      # Leo's roll, not acted on yet
    # Mia's roll: no button to press and be refused, its reason where it applies
    assert late_lines(log)[roll.n] == ("Too late to fix: Only the latest roll can be fixed, "
                                       "before the team acts on it: the dice have been rolled "
                                       "again since")
    assert not [w for w in find(lambda w: isinstance(w, GameLogRow), log)
                if w.step == roll.n and w.fix]
    assert log.refusal == "" and s.state == before and len(s.steps) == steps
    both_sizes("fix_from_log_quest_late", before=lambda: open_log(app), portrait=True)


def test_cauldron_a_turn_order_die_fixed_from_the_log_then_too_late(app):
    s = to_turn_order(app)
    for face in (5, 3, 2, 1):                            # Anna, Barb, Carl, Daniel
        tray(app, "d1", face)
    assert app.summary["turn_order"][0] == "Anna"
    anna, barb = s.done_steps()[-4:-2]
    log = open_log(app)
    assert [r["fix"] for r in die_rows(log)] == ["Fix"] * 4   # the first turn has not begun
    both_sizes("fix_from_log_cauldron", before=lambda: open_log(app))
    log = open_log(app)
    tap(row_of(log, barb.n).ids.fix)
    (fix,) = dialogs()
    assert fix.kind == "turn_order" and fix.seat == "Barb"    # that entry's die
    tap_title("6", fix)
    tap(fix.ids.fix)
    assert not dialogs() and app.summary["turn_order"][0] == "Barb"
    assert s.state["harvest"]["order"]["rounds"][0]["1"] == 6
    tap_title("Gather")                                  # Barb's turn has begun
    tap_title("Spider Web")
    log = open_log(app)
    assert set(r["fix"] for r in die_rows(log)) == {""}            # no button on any
    late = late_lines(log)
    assert late[barb.n].startswith("Too late to fix: Only the latest turn order die of Barb's "
                                   "can be fixed")
    assert late[anna.n].startswith("Too late to fix: No turn order roll of Anna's can be "
                                   "corrected now: a turn order roll until the first turn begins")
    both_sizes("fix_from_log_cauldron_late", before=lambda: open_log(app), portrait=True)


def test_a_new_game_starts_without_the_last_games_undo_toast(app):
    """The undo toast lies in the game bar's place for a few seconds: left over from the last
    game it would take the first tap meant for the bar's log (it did, in a test that followed
    an undo)."""
    start_quest(app)
    app.undo_words = "Undone: Ann rolled the action dice"
    start_quest(app)
    assert app.undo_words == ""
    tray(app, "action_a", "bottle")
    open_log(app).dismiss()
