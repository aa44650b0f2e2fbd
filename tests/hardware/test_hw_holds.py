"""HoldTimer: holds timed from the press and release edges by one sleeping thread.

Timing is checked on a clock moved by hand (``FakeClock``) on a timer without its thread
(``threaded=False``), calling ``fire_due`` after each move. The thread is checked on its own:
with a fake clock that does not move (so it sleeps on), or with the real clock and a short
hold, waiting for the outcome.
"""

import logging
import threading

import pytest

from hardware.holds import HoldTimer

HOLD_S = 60.0


class Record:
    def __init__(self) -> None:
        self.keys: list[str] = []
        self.threads: list[int] = []
        self.fired = threading.Event()

    def __call__(self, key: str) -> None:
        self.keys.append(key)
        self.threads.append(threading.get_ident())
        self.fired.set()


@pytest.fixture
def held():
    return Record()


@pytest.fixture
def timer(held, clock):
    with HoldTimer(HOLD_S, held, clock=clock, threaded=False) as t:
        yield t


def test_a_hold_fires_once_its_time_has_come_not_before(timer, held, clock):
    timer.arm("undo")
    clock.advance(HOLD_S - 0.001)
    assert timer.fire_due() == [] and held.keys == []
    assert timer.pending == ("undo",)
    clock.advance(0.001)
    assert timer.fire_due() == ["undo"]
    assert held.keys == ["undo"] and timer.pending == ()
    clock.advance(HOLD_S)
    assert timer.fire_due() == []            # once per press, not repeated


def test_a_release_in_time_cancels(timer, held, clock):
    timer.arm("undo")
    clock.advance(HOLD_S / 2)
    assert timer.cancel("undo")
    assert not timer.cancel("undo")          # nothing armed any more
    clock.advance(HOLD_S)
    assert timer.fire_due() == [] and held.keys == []


def test_keys_are_timed_from_their_own_press(timer, held, clock):
    timer.arm("seat1.claim")
    clock.advance(10)
    timer.arm("seat2.claim")
    assert timer.pending == ("seat1.claim", "seat2.claim")
    clock.advance(HOLD_S - 10)
    assert timer.fire_due() == ["seat1.claim"]
    clock.advance(9.999)
    assert timer.fire_due() == []
    clock.advance(0.001)
    assert timer.fire_due() == ["seat2.claim"]


def test_keys_due_together_fire_earliest_first(timer, held, clock):
    timer.arm("b")
    clock.advance(1)
    timer.arm("a")
    clock.advance(1)
    timer.arm("b")                           # b again: now the later of the two
    clock.advance(2 * HOLD_S)
    assert timer.fire_due() == ["a", "b"]


def test_arming_again_restarts_the_time(timer, held, clock):
    timer.arm("undo")
    clock.advance(HOLD_S - 1)
    timer.arm("undo")                        # a bounce: timed from the last edge
    clock.advance(1)
    assert timer.fire_due() == []
    clock.advance(HOLD_S)
    assert timer.fire_due() == ["undo"]


def test_no_thread_when_the_owner_drives_it(timer):
    timer.arm("undo")
    assert not timer.running and timer.pending == ("undo",)


def holds_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == "button holds"}


def test_the_thread_starts_at_the_first_press_and_sleeps_on(held, clock):
    others = holds_threads()          # another test's app may still be closing its own
    with HoldTimer(HOLD_S, held, clock=clock) as timer:
        assert not timer.running
        timer.arm("undo")
        timer.cancel("undo")
        timer.arm("redo")
        assert timer.running
        assert len(holds_threads() - others) == 1
    assert not timer.running


def test_the_thread_sends_a_hold_on_its_own(held):
    with HoldTimer(0.02, held) as timer:
        timer.arm("undo")
        assert held.fired.wait(timeout=5), "the timer's thread never sent the hold"
        assert held.keys == ["undo"]
        assert held.threads[0] != threading.get_ident()
        assert timer.pending == ()


def test_close_while_a_hold_is_pending(held, clock):
    timer = HoldTimer(HOLD_S, held, clock=clock)
    timer.arm("undo")
    timer.close()                            # the thread sleeps for 60 s: close wakes it
    assert not timer.running and timer.closed and timer.pending == ()
    clock.advance(2 * HOLD_S)
    assert timer.fire_due() == [] and held.keys == []
    timer.arm("undo")                        # edges after close change nothing
    assert timer.pending == () and not timer.running
    timer.close()                            # twice is fine


def test_close_from_inside_the_callback_stops_the_holds_due_after_it(clock):
    timer = None
    seen = []

    def on_held(key):
        seen.append(key)
        timer.close()

    timer = HoldTimer(HOLD_S, on_held, clock=clock, threaded=False)
    timer.arm("a")
    timer.arm("b")
    clock.advance(2 * HOLD_S)
    assert timer.fire_due() == ["a", "b"]
    assert seen == ["a"]                     # closed after the first: "b" is not sent
    assert timer.closed


def test_close_from_the_timers_own_thread_ends_it(wait_until):
    closed_on = []

    def on_held(key):
        timer.close()                        # would join itself: must not
        closed_on.append(threading.get_ident())

    timer = HoldTimer(0.01, on_held)
    timer.arm("undo")
    assert wait_until(lambda: closed_on and not timer.running, timeout=5)
    assert closed_on[0] != threading.get_ident() and timer.closed


def test_a_failing_callback_is_logged_and_the_next_still_fires(clock, caplog):
    seen = []

    def on_held(key):
        seen.append(key)
        if key == "a":
            raise RuntimeError("ui gone")

    with HoldTimer(HOLD_S, on_held, clock=clock, threaded=False) as timer:
        timer.arm("a")
        timer.arm("b")
        clock.advance(HOLD_S)
        with caplog.at_level(logging.ERROR, logger="hardware.holds"):
            timer.fire_due()
    assert seen == ["a", "b"]
    assert "ui gone" in caplog.text


@pytest.mark.parametrize("hold_s", [-0.1, float("nan")])
def test_a_negative_hold_time_is_refused(hold_s):
    with pytest.raises(ValueError, match="hold_s must be >= 0 s"):
        HoldTimer(hold_s, print)
