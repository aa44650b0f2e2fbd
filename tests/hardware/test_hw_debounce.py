import threading

import pytest

from hardware.debounce import Debouncer


def test_drops_presses_within_the_window(clock):
    d = Debouncer(0.03, clock=clock)
    assert d.accept("seat1.claim")
    clock.advance(0.01)
    assert not d.accept("seat1.claim")
    clock.advance(0.015)  # 25 ms after the accepted press: still chatter
    assert not d.accept("seat1.claim")
    clock.advance(0.006)  # 31 ms after it: a new press
    assert d.accept("seat1.claim")


def test_window_counts_from_the_last_accepted_press(clock):
    d = Debouncer(0.03, clock=clock)
    assert d.accept("undo")
    for _ in range(5):
        clock.advance(0.005)
        assert not d.accept("undo")
    clock.advance(0.010)
    # 35 ms after the accepted press, though only 10 ms after the last rejected one.
    assert d.accept("undo")


def test_inputs_are_independent(clock):
    d = Debouncer(0.03, clock=clock)
    assert d.accept("seat1.claim")
    assert d.accept("seat2.claim")
    assert not d.accept("seat1.claim")


def test_reset(clock):
    d = Debouncer(0.03, clock=clock)
    assert d.accept("a") and d.accept("b")
    d.reset("a")
    assert d.accept("a") and not d.accept("b")
    d.reset()
    assert d.accept("b")


def test_zero_window_accepts_everything(clock):
    d = Debouncer(0, clock=clock)
    assert all(d.accept("a") for _ in range(3))


def test_negative_window_is_refused():
    with pytest.raises(ValueError):
        Debouncer(-0.1)


def test_concurrent_presses_at_one_instant_count_once(clock):
    def slow_clock():  # widens any race between reading and recording the last press
        threading.Event().wait(0.01)
        return clock()

    d = Debouncer(0.03, clock=slow_clock)
    results = []
    start = threading.Barrier(8)

    def press():
        start.wait(timeout=5)
        results.append(d.accept("seat1.claim"))

    threads = [threading.Thread(target=press) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=5)
    assert sorted(results) == [False] * 7 + [True]
