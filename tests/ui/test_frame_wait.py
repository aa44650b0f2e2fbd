"""A device's press is drawn at once, not at the next frame's slot (ui/table/frame_wait.py):
the Inbox's wake cuts Kivy's sleep between frames short, and nothing else does."""

from __future__ import annotations

import threading
import time

import pytest
from kivy.clock import Clock

from companion.core.model import InputEvent
from ui.table.frame_wait import MIN_GAP, FrameWait


class Clockwork:
    """Kivy's clock as FrameWait sees it: its time, its last tick and its own readiness."""

    def __init__(self) -> None:
        self.now = self._last_tick = 100.0

    def time(self) -> float:
        return self.now

    def _check_ready(self, fps, min_sleep, undershoot):
        sleeptime = 1 / fps - (self.now - self._last_tick)
        return sleeptime - undershoot <= min_sleep, sleeptime - undershoot

    def usleep(self, microseconds):
        raise AssertionError("Kivy's own sleep is replaced")


def test_unwoken_the_frame_keeps_its_slot():
    clock = Clockwork()
    wait = FrameWait.on(clock)
    clock.now += 0.010
    done, sleeptime = clock._check_ready(30, 0.001, 0.0008)
    assert not done and sleeptime == pytest.approx(1 / 30 - 0.010 - 0.0008)
    assert FrameWait.on(clock) is wait       # installed once: Kivy's check is not wrapped twice


def test_a_wake_brings_the_frame_forward_but_never_within_the_gap_of_the_last():
    clock = Clockwork()
    wait = FrameWait.on(clock)
    clock.now += MIN_GAP / 4
    wait.wake()
    done, sleeptime = clock._check_ready(30, 0.001, 0.0008)
    assert not done and sleeptime == pytest.approx(MIN_GAP * 3 / 4)
    started = time.monotonic()
    clock.usleep(sleeptime * 1e6)            # woken already: the gap's rest, slept plainly
    assert time.monotonic() - started >= sleeptime * 0.9
    clock.now += MIN_GAP
    assert clock._check_ready(30, 0.001, 0.0008) == (True, 0)
    assert not clock._check_ready(30, 0.001, 0.0008)[0]   # the wake is used up


def test_the_sleep_between_frames_ends_when_a_thread_wakes_it():
    clock = Clockwork()
    wait = FrameWait.on(clock)
    threading.Timer(0.05, wait.wake).start()
    started = time.monotonic()
    clock.usleep(10e6)                       # ten seconds, unless woken
    assert time.monotonic() - started < 5


def idle_seconds(fps: float, before=lambda: None) -> float:
    """How long Kivy's own clock sleeps before its next frame at ``fps`` (the tests run with
    maxfps 0: no sleeps), with ``before`` done just after the last frame."""
    old = Clock._max_fps
    try:
        Clock._max_fps = 1000        # a wake an earlier test's press left is used up first
        Clock._last_tick = Clock.time() - 1
        Clock.idle()
        Clock._max_fps = fps
        Clock._last_tick = Clock.time()
        before()
        started = time.monotonic()
        Clock.idle()
        return time.monotonic() - started
    finally:
        Clock._max_fps = old


def test_a_press_put_on_the_inbox_ends_the_apps_wait_for_its_frame(app):
    """The app's own loop: at 2 frames a second the clock sleeps up to half a second; a button put
    on the Inbox by a device thread 20 ms after the last frame ends that sleep. A callback
    scheduled on the main thread (a layout, an animation's step) does not."""
    inbox = app.devices.inbox
    slept = idle_seconds(2, lambda: Clock.schedule_once(lambda _dt: None))
    assert slept > 0.25                 # the slot (less what the tests' clock has run ahead)

    def press() -> None:
        threading.Timer(0.02, inbox.put, [InputEvent("button", "next", source="gpio")]).start()

    assert idle_seconds(2, press) < slept / 2
    inbox.drain()
