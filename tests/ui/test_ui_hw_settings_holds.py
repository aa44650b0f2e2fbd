"""Holding a button (docs/wiring.md, "Holding a button"). The press has already played when
the hold arrives, so a hold never plays the press again: it is ignored, or its meaning replaces
the press (what the press played is taken back first).

- ``undo``, ``redo``, claim, so be it: the hold does nothing more.
- ``menu``: a press goes home (the game is saved, Resume brings it back).
- ``seatN.pass`` held = undo, on a table without an ``undo`` button.
- ``next`` held = menu (home), on a table without a ``menu`` button.
"""

from __future__ import annotations

import time

import pytest

from companion.core.model import Command, InputEvent
from tests.support.wiring import hardware_toml, press, seat
from ui_helpers import frames, on_hardware, wait_for

PLAYERS = ["Anna", "Barb", "Carl", "Daniel"]
# Three seats, no undo and no menu button: pass and next carry them when held.
NO_UNDO = hardware_toml(
    "[buttons]\nnext = 10\n", seat(1), seat(2), seat(3),
    "[options]\nbounce_ms = 5\nhold_s = 0.15\n")


def start(app):
    """Anna announced the Warlock; Barb (seat 2) is awaited. One step played."""
    assert app.start_game({"game": "witchs_brew", "players": PLAYERS}) is None
    app.session.execute(Command("play_role", "Anna", {"role": "warlock"}))
    frames()


def statuses(app) -> list[str]:
    return [s.status for s in app.session.steps]


def put(app, input_id: str, hold: bool = False) -> None:
    """A GPIO input as the buttons send it, through the Inbox, played on the main thread."""
    app.devices.inbox.put(InputEvent("button", input_id, "hold" if hold else None, source="gpio"))
    frames(2)


@pytest.fixture
def table(app, tmp_path, monkeypatch):
    """(app, factory): the app without --demo on NO_UNDO, a small hold_s, mock pins."""
    import gpiozero
    from gpiozero.pins.mock import MockFactory

    app.devices.stop()
    monkeypatch.setattr(app, "demo", False)
    factory = MockFactory()
    monkeypatch.setattr(gpiozero.Device, "pin_factory", factory)
    path = tmp_path / "hardware.toml"
    path.write_text(NO_UNDO, encoding="utf-8")
    with on_hardware(app, path, home=False):
        assert app.devices.buttons is not None and not app.hardware_problem, \
            app.hardware_problem
        yield app, factory


def test_the_mapping_depends_on_the_buttons_wired(app, table):
    app, _factory = table
    assert app.devices.hold_meaning("seat2.pass") == "undo"
    assert app.devices.hold_meaning("next") == "menu"
    for other in ("seat2.claim", "seat2.so_be_it", "undo", "redo", "menu"):
        assert app.devices.hold_meaning(other) is None


def test_demo_table_has_undo_so_a_held_pass_is_only_a_pass(app):
    assert app.devices.hold_meaning("seat2.pass") is None \
        and app.devices.hold_meaning("next") == "menu"
    start(app)
    put(app, "seat2.pass")
    put(app, "seat2.pass", hold=True)
    assert statuses(app) == ["done", "done"]               # one pass, played once
    assert app.summary["answers"][-1] == {"player": "Barb", "answer": "pass"}


@pytest.mark.parametrize("input_id", ["undo", "seat2.claim", "seat2.so_be_it"])
def test_a_hold_never_plays_its_press_twice(app, input_id):
    start(app)
    put(app, input_id)
    put(app, input_id, hold=True)
    expected = ["undone"] if input_id == "undo" else ["done", "done"]
    assert statuses(app) == expected
    assert not app.refusal


def test_holding_pass_undoes_on_a_table_without_an_undo_button(table):
    """Real pins, real gpiozero threads: the press plays Barb's pass, the hold (0.15 s later)
    takes it back and undoes Anna's role as the undo button would."""
    app, factory = table
    start(app)
    press(factory, 13, 0.6)                                 # seat2.pass, held
    assert wait_for(lambda: statuses(app) == ["undone", "undone"]), statuses(app)
    assert app.prompt["phase"] == "play" and app.prompt["seat"] == 0   # Anna announces again
    assert app.can_redo and not app.refusal


def test_a_quick_press_of_pass_is_only_a_pass(table):
    app, factory = table
    start(app)
    press(factory, 13, 0.0)
    assert wait_for(lambda: statuses(app) == ["done", "done"])
    time.sleep(0.3)                                          # no hold arrives later
    frames(3)
    assert statuses(app) == ["done", "done"]


def test_holding_pass_when_the_press_was_refused_is_one_undo(table):
    app, _factory = table
    start(app)
    put(app, "seat3.pass")                 # Carl is not awaited: refused, nothing played
    assert app.refusal and statuses(app) == ["done"]
    put(app, "seat3.pass", hold=True)
    assert statuses(app) == ["undone"] and not app.refusal


def test_a_hold_after_something_else_was_played_changes_nothing(table):
    app, _factory = table
    start(app)
    put(app, "seat2.pass")                                 # Barb passes
    app.send(Command("pass", "Carl"))                      # Carl answers on the screen
    put(app, "seat2.pass", hold=True)
    assert statuses(app) == ["done", "done", "done"]
    assert app.refusal == ("Holding seat2.pass did nothing: something else was played "
                           "after it was pressed")


def test_holding_next_goes_home_on_a_table_without_menu(table):
    app, _factory = table
    start(app)
    put(app, "next")                       # means nothing in Witch's Brew: refused
    assert app.refusal
    put(app, "next", hold=True)
    assert app.screens.current == "home" and app.session is None and not app.refusal
    assert len(app.store.unfinished()) == 1                 # Resume brings it back
    assert statuses_of_resumed(app) == ["done"]


def statuses_of_resumed(app) -> list[str]:
    app.resume(app.store.unfinished()[0].id)
    return statuses(app)


def test_the_menu_button_goes_home_and_its_hold_adds_nothing(app):
    start(app)
    put(app, "menu")
    assert app.screens.current == "home" and app.session is None
    put(app, "menu", hold=True)
    assert app.screens.current == "home" and not app.refusal
