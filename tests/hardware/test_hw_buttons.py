import logging
import threading
from functools import partial

import pytest
from gpiozero import Button

from companion.core.model import InputEvent
from hardware.buttons import SeatButtons
from hardware.config import DEMO_CONFIG, parse_config
from hardware.errors import HardwareError
from hardware.holds import HoldTimer

CONFIG = parse_config({
    "buttons": {"undo": 5, "redo": 6},
    "seats": {"1": {"claim": 17, "so_be_it": 27, "pass": 22}, "2": {"claim": 24}},
})


def press(factory, pin):
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def gpio(input_id, value=None):
    return InputEvent("button", input_id, value=value, source="gpio")


@pytest.fixture
def board(factory, clock):
    events = []
    with SeatButtons.from_config(CONFIG, events.append, pin_factory=factory,
                                 clock=clock) as b:
        b.events = events
        yield b


def test_press_reaches_emit_as_input_event(board, factory):
    factory.pin(17).drive_low()
    assert board.events == [InputEvent("button", "seat1.claim", source="gpio")]
    factory.pin(17).drive_high()  # release is not an input
    assert board.events == [gpio("seat1.claim")]


def test_each_pin_reports_its_own_id(board, factory):
    assert set(board.ids) == set(CONFIG.buttons)
    for input_id, pin in CONFIG.buttons.items():
        press(factory, pin)
    assert board.events == [gpio(i) for i in CONFIG.buttons]


def test_is_pressed(board, factory):
    factory.pin(24).drive_low()
    assert board.is_pressed("seat2.claim") and not board.is_pressed("undo")


def test_pull_down_wiring(factory):
    events = []
    with SeatButtons({"undo": 5}, events.append, pull_up=False, pin_factory=factory):
        factory.pin(5).drive_high()
    assert events == [gpio("undo")]


def test_chatter_within_the_window_is_one_press(board, factory, clock):
    # A bouncing contact: ten closes and opens within 20 ms, under the 30 ms window.
    for _ in range(10):
        factory.pin(17).drive_low()
        clock.advance(0.001)
        factory.pin(17).drive_high()
        clock.advance(0.001)
    assert board.events == [gpio("seat1.claim")]
    clock.advance(0.05)
    press(factory, 17)
    assert board.events == [gpio("seat1.claim")] * 2


def test_chatter_on_one_seat_does_not_swallow_another(board, factory, clock):
    press(factory, 17)
    press(factory, 24)
    press(factory, 17)
    assert board.events == [gpio("seat1.claim"), gpio("seat2.claim")]


def test_hold_emits_press_then_hold_from_a_device_thread(factory):
    events, held, threads = [], threading.Event(), []

    def emit(event):
        events.append(event)
        threads.append(threading.get_ident())
        if event.value == "hold":
            held.set()

    with SeatButtons({"undo": 5}, emit, hold_s=0.05, pin_factory=factory):
        factory.pin(5).drive_low()
        assert held.wait(timeout=2), "hold was never reported"
        factory.pin(5).drive_high()
    assert events == [gpio("undo"), gpio("undo", "hold")]
    assert threads[1] != threading.get_ident()


# Holds on a clock moved by hand: the board's hold timer runs without its thread (which sleeps
# in real time), and ``holds.fire_due()`` sends what is due after each move.
LONG_HOLD_S = 60.0
BY_HAND = partial(HoldTimer, threaded=False)


@pytest.fixture
def slow_board(factory, clock):
    events = []
    with SeatButtons(CONFIG.buttons, events.append, hold_s=LONG_HOLD_S, pin_factory=factory,
                     clock=clock, hold_timer=BY_HAND) as b:
        b.events = events
        yield b


def test_hold_is_sent_after_hold_s_not_before(slow_board, factory, clock):
    factory.pin(5).drive_low()
    clock.advance(LONG_HOLD_S - 0.001)
    assert slow_board.holds.fire_due() == []
    assert slow_board.events == [gpio("undo")]
    clock.advance(0.001)
    assert slow_board.holds.fire_due() == ["undo"]
    assert slow_board.events == [gpio("undo"), gpio("undo", "hold")]
    clock.advance(LONG_HOLD_S)               # still down: one hold per press, not repeated
    assert slow_board.holds.fire_due() == []
    factory.pin(5).drive_high()
    assert slow_board.events == [gpio("undo"), gpio("undo", "hold")]


def test_release_before_hold_s_is_no_hold(slow_board, factory, clock):
    factory.pin(5).drive_low()
    clock.advance(LONG_HOLD_S - 0.001)
    factory.pin(5).drive_high()
    assert slow_board.holds.pending == ()
    clock.advance(LONG_HOLD_S)
    assert slow_board.holds.fire_due() == []
    assert slow_board.events == [gpio("undo")]


def test_two_buttons_held_from_different_times_each_get_their_own_hold(slow_board, factory,
                                                                       clock):
    factory.pin(17).drive_low()                          # seat 1 at t
    clock.advance(20)
    factory.pin(24).drive_low()                          # seat 2 at t + 20
    clock.advance(LONG_HOLD_S - 20)
    assert slow_board.holds.fire_due() == ["seat1.claim"]
    clock.advance(19.999)
    assert slow_board.holds.fire_due() == []
    clock.advance(0.001)
    assert slow_board.holds.fire_due() == ["seat2.claim"]
    assert slow_board.events == [gpio("seat1.claim"), gpio("seat2.claim"),
                                 gpio("seat1.claim", "hold"), gpio("seat2.claim", "hold")]


def test_a_bounce_on_the_press_restarts_the_hold_and_does_not_lose_it(slow_board, factory,
                                                                      clock):
    factory.pin(5).drive_low()
    clock.advance(0.002)
    factory.pin(5).drive_high()                          # chatter inside the 30 ms window
    clock.advance(0.002)
    factory.pin(5).drive_low()                           # ...and down for good
    clock.advance(LONG_HOLD_S - 0.002)
    assert slow_board.holds.fire_due() == []             # timed from the last edge
    clock.advance(0.002)
    assert slow_board.holds.fire_due() == ["undo"]
    assert slow_board.events == [gpio("undo"), gpio("undo", "hold")]


def test_close_while_a_hold_is_pending(factory, clock):
    events = []
    board = SeatButtons(CONFIG.buttons, events.append, hold_s=LONG_HOLD_S,
                        pin_factory=factory, clock=clock)
    factory.pin(5).drive_low()
    assert board.holds.pending == ("undo",) and board.holds.running
    board.close()                                        # wakes the sleeping timer at once
    assert not board.holds.running and board.holds.pending == ()
    clock.advance(2 * LONG_HOLD_S)
    assert board.holds.fire_due() == []
    assert events == [gpio("undo")]


def test_no_thread_per_button(factory):
    def device_threads():
        return {t for t in threading.enumerate() if t is not threading.current_thread()}

    before = device_threads()
    with SeatButtons.from_config(DEMO_CONFIG, [].append, pin_factory=factory) as board:
        assert len(board.ids) == 20
        assert device_threads() == before                # no thread until a press
        press(factory, DEMO_CONFIG.buttons["undo"])
        press(factory, DEMO_CONFIG.buttons["seat1.claim"])
        started = device_threads() - before
        assert [t.name for t in started] == ["button holds"]   # one for the whole board
    assert device_threads() == before


def test_close_stops_events_and_releases_pins(factory):
    events = []
    board = SeatButtons.from_config(CONFIG, events.append, pin_factory=factory)
    board.close()
    board.close()  # twice is fine
    assert board.closed and board.ids == ()
    press(factory, 17)
    assert events == []
    Button(17, pin_factory=factory).close()  # the pin is free again


def test_context_manager_closes(factory):
    with SeatButtons({"undo": 5}, print, pin_factory=factory) as board:
        assert not board.closed
    assert board.closed


def test_pin_in_use_is_a_hardware_error_and_leaks_nothing(factory):
    taken = Button(17, pin_factory=factory)
    try:
        with pytest.raises(HardwareError) as info:
            SeatButtons({"undo": 5, "seat1.claim": 17}, print, pin_factory=factory)
        assert str(info.value).startswith("seat1.claim: cannot open GPIO17")
        assert isinstance(info.value, OSError)
    finally:
        taken.close()
    Button(5, pin_factory=factory).close()  # undo's pin was released on the failure


def test_failing_emit_is_logged_and_buttons_keep_working(factory, clock, caplog):
    events = []

    def emit(event):
        if not events:
            events.append("boom")
            raise RuntimeError("ui gone")
        events.append(event)

    with caplog.at_level(logging.ERROR, logger="hardware.buttons"):
        with SeatButtons({"undo": 5}, emit, pin_factory=factory, clock=clock):
            press(factory, 5)
            clock.advance(1)
            press(factory, 5)
    assert events == ["boom", gpio("undo")]
    assert "ui gone" in caplog.text


def test_demo_table_builds_on_the_mock_factory(factory, clock):
    events = []
    with SeatButtons.from_config(DEMO_CONFIG, events.append, pin_factory=factory,
                                 clock=clock) as board:
        assert len(board.ids) == 20
        for pin in DEMO_CONFIG.buttons.values():
            press(factory, pin)
    assert [e.id for e in events] == list(DEMO_CONFIG.buttons)
