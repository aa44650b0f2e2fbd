import logging
import threading

from companion.core.model import InputEvent
from hardware.buttons import SeatButtons
from hardware.inbox import Inbox


def ev(i):
    return InputEvent("button", f"seat{i}.claim", source="gpio")


def test_put_and_drain_in_order():
    inbox = Inbox()
    for i in (1, 2, 3):
        inbox.put(ev(i))
    assert len(inbox) == 3
    assert inbox.drain() == [ev(1), ev(2), ev(3)]
    assert inbox.drain() == [] and len(inbox) == 0


def test_wake_is_called_after_each_put_with_the_event_already_queued():
    inbox = Inbox()
    seen = []
    inbox.wake = lambda: seen.append(len(inbox))
    inbox.put(ev(1))
    inbox.put(ev(2))
    assert seen == [1, 2]


def test_put_from_a_background_thread_wakes_the_main_thread():
    woken = threading.Event()
    waker = []

    def wake():
        waker.append(threading.get_ident())
        woken.set()

    inbox = Inbox(wake=wake)
    worker = threading.Thread(target=inbox.put, args=(ev(4),))
    worker.start()
    assert woken.wait(timeout=2)
    worker.join(timeout=2)
    assert inbox.drain() == [ev(4)]
    assert waker and waker[0] != threading.get_ident()


def test_many_threads_lose_nothing():
    wakes = []
    inbox = Inbox(wake=lambda: wakes.append(1))
    start = threading.Barrier(4)

    def produce(seat):
        start.wait(timeout=5)
        for n in range(500):
            inbox.put(InputEvent("die", f"d{seat}", value=n, source="serial"))

    threads = [threading.Thread(target=produce, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    drained = []
    while any(t.is_alive() for t in threads):
        drained += inbox.drain()
    for t in threads:
        t.join(timeout=5)
    drained += inbox.drain()
    assert len(drained) == 2000 and len(wakes) == 2000
    for seat in range(4):  # each producer's events stay in its order
        assert [e.value for e in drained if e.id == f"d{seat}"] == list(range(500))


def test_failing_wake_keeps_the_event(caplog):
    def wake():
        raise RuntimeError("clock gone")

    inbox = Inbox(wake=wake)
    with caplog.at_level(logging.ERROR, logger="hardware.inbox"):
        inbox.put(ev(1))
    assert inbox.drain() == [ev(1)]
    assert "clock gone" in caplog.text


def test_gpio_threads_land_in_the_inbox(factory):
    """A press driven from another thread (as lgpio calls back) and a hold sent by the
    board's hold timer thread both arrive in the inbox and wake the main thread."""
    woken = threading.Event()
    inbox = Inbox(wake=woken.set)
    with SeatButtons({"undo": 5}, inbox.put, hold_s=0.05, pin_factory=factory):
        presser = threading.Thread(target=factory.pin(5).drive_low)
        presser.start()
        presser.join(timeout=2)
        got = []
        while len(got) < 2 and woken.wait(timeout=2):
            woken.clear()
            got += inbox.drain()
        factory.pin(5).drive_high()
    assert got == [InputEvent("button", "undo", source="gpio"),
                   InputEvent("button", "undo", value="hold", source="gpio")]


def test_the_package_imports_its_devices_only_when_asked():
    """``hardware`` names every public class at its top (its ``__all__``) but imports gpiozero
    and pyserial only when a device is first asked for: the inbox alone pulls in neither. The
    lazy table and ``__all__`` name the same things, and each resolves."""
    import subprocess
    import sys

    code = ("import sys, hardware\n"
            "hardware.Inbox\n"
            "print(sorted(m for m in ('gpiozero', 'serial') if m in sys.modules))\n"
            "assert sorted(hardware._WHERE) == sorted(hardware.__all__), 'lazy table != __all__'\n"
            "missing = [n for n in hardware.__all__ if getattr(hardware, n, None) is None]\n"
            "assert not missing, missing\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
