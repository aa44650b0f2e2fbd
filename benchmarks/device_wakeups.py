"""Thread wake-ups of the devices while nobody touches the table (an idle table should cost no CPU).

A device thread that polls (a wait with a short timeout in a loop) wakes the CPU even when
nothing happens; twenty gpiozero ``Button`` hold threads did so about 200 times a second. Each
scenario below opens its devices in this process, lets them settle, idles for ``--seconds`` and
counts the context switches of the threads it started (``voluntary_ctxt_switches`` plus
``nonvoluntary_ctxt_switches`` in ``/proc/self/task/<tid>/status``; one switch is one wake-up).
Buttons use gpiozero's mock pin factory; on a Pi, ``--factory lgpio`` opens the real pins
instead (the scenarios that press a button need the mock pins and are left out; lgpio's own
alert thread is counted). Prints figures; asserts nothing.
Run: .venv/bin/python benchmarks/device_wakeups.py [--seconds 5] [--factory lgpio]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import socket
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Callable, ContextManager, Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

from gpiozero import Button  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402

from hardware.buttons import SeatButtons  # noqa: E402
from hardware.config import DEMO_CONFIG  # noqa: E402
from hardware.dice.reader import DiceReader  # noqa: E402
from hardware.dice.simulator import DiceSimulator  # noqa: E402
from hardware.inbox import Inbox  # noqa: E402

Scenario = Callable[[], ContextManager[object]]


def switches(tid: int) -> int:
    """Context switches of one thread of this process so far (0 once it has ended)."""
    total = 0
    try:
        text = Path(f"/proc/self/task/{tid}/status").read_text()
    except FileNotFoundError:
        return 0
    for line in text.splitlines():
        if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
            total += int(line.split()[1])
    return total


def own_threads(before: set[int], exclude: tuple[str, ...]) -> dict[int, str]:
    """Threads started since ``before``, by native id, but not the ones named in ``exclude``
    (a simulator is the far end, not one of our devices)."""
    return {t.native_id: t.name for t in threading.enumerate()
            if t.native_id not in before and not t.name.startswith(exclude)}


def thread_kind(name: str) -> str:
    """A thread's name without its numbers and paths: "Thread-7 (held)" -> "Thread-N (held)"."""
    return re.sub(r"\d+", "N", " ".join(word for word in name.split() if "/" not in word))


def measure(title: str, scenario: Scenario, seconds: float, settle: float,
            exclude: tuple[str, ...] = ()) -> None:
    before = {t.native_id for t in threading.enumerate()}
    with scenario():
        time.sleep(settle)
        threads = own_threads(before, exclude)
        start = {tid: switches(tid) for tid in threads}
        time.sleep(seconds)
        woke = {tid: switches(tid) - start[tid] for tid in threads}
    total = sum(woke.values())
    kinds = Counter(thread_kind(name) for name in threads.values())
    names = ", ".join(f"{count} x {kind}" if count > 1 else kind
                      for kind, count in sorted(kinds.items()))
    print(f"{title:<52} {len(threads):>3} threads {total / seconds:>7.1f} wake-ups/s"
          f"   {names or '-'}")


# -- scenarios ------------------------------------------------------------------------------
def make_factory(kind: str):
    if kind == "lgpio":
        try:
            from gpiozero.pins.lgpio import LGPIOFactory
        except ImportError as exc:
            raise SystemExit(f"--factory lgpio needs the lgpio module, on a Pi: {exc}")
        return LGPIOFactory()
    return MockFactory()


@contextlib.contextmanager
def gpiozero_buttons(kind: str) -> Iterator[object]:
    """The old board: one gpiozero Button with a hold time per input, as SeatButtons made."""
    factory = make_factory(kind)
    buttons = [Button(pin, pull_up=True, bounce_time=0.03, hold_time=1.5, pin_factory=factory)
               for pin in DEMO_CONFIG.buttons.values()]
    for button in buttons:
        button.when_pressed = button.when_held = lambda: None
    try:
        yield buttons
    finally:
        for button in buttons:
            button.close()
        factory.close()


@contextlib.contextmanager
def seat_buttons(kind: str, pressed_once: bool = False) -> Iterator[object]:
    """The board now; ``pressed_once`` presses and releases a button first (mock pins), so
    the hold timer's thread has started and is asleep."""
    factory = make_factory(kind)
    inbox = Inbox()
    try:
        with SeatButtons.from_config(DEMO_CONFIG, inbox.put, pin_factory=factory) as board:
            if pressed_once:
                pin = factory.pin(DEMO_CONFIG.buttons["undo"])
                pin.drive_low()
                pin.drive_high()
            yield board
    finally:
        factory.close()


@contextlib.contextmanager
def seat_buttons_held() -> Iterator[object]:
    """The board now, one button held down the whole time (a hold is pending, then sent)."""
    factory = MockFactory()
    with SeatButtons.from_config(DEMO_CONFIG, Inbox().put, pin_factory=factory) as board:
        pin = factory.pin(DEMO_CONFIG.buttons["undo"])
        pin.drive_low()
        yield board
        pin.drive_high()
    factory.reset()


@contextlib.contextmanager
def dice_on(url: str) -> Iterator[object]:
    with DiceReader(url, Inbox().put) as reader:
        yield reader


@contextlib.contextmanager
def dice_on_pty() -> Iterator[object]:
    with tempfile.TemporaryDirectory() as tmp:
        with DiceSimulator(link=Path(tmp) / "dicetray") as sim:
            with DiceReader(str(sim.link), Inbox().put) as reader:
                yield reader


@contextlib.contextmanager
def dice_on_socket() -> Iterator[object]:
    """A tray on a TCP socket (ser2net and the like) that says nothing."""
    server = socket.create_server(("127.0.0.1", 0))
    conns: list[socket.socket] = []
    acceptor = threading.Thread(target=lambda: conns.append(server.accept()[0]),
                                name="bench tcp tray", daemon=True)
    acceptor.start()
    try:
        with DiceReader(f"socket://127.0.0.1:{server.getsockname()[1]}", Inbox().put) as reader:
            yield reader
    finally:
        for conn in conns:
            conn.close()
        server.close()


@contextlib.contextmanager
def dice_missing() -> Iterator[object]:
    """A tray that is not plugged in: the reader retries with backoff up to 8 s."""
    with DiceReader("/dev/serial/by-id/usb-bench-no-such-tray", Inbox().put) as reader:
        yield reader


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="idle window per scenario")
    parser.add_argument("--settle", type=float, default=1.0, help="time not measured first")
    parser.add_argument("--factory", choices=("mock", "lgpio"), default="mock",
                        help="pin factory for the buttons (lgpio: on a Pi, real pins)")
    args = parser.parse_args()
    kind = args.factory
    n = len(DEMO_CONFIG.buttons)
    print(f"idle {args.seconds:g} s per scenario, after {args.settle:g} s to settle; "
          f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}")
    run = [
        (f"before: {n} gpiozero Buttons with hold_time ({kind})",
         lambda: gpiozero_buttons(kind), ()),
        (f"now: SeatButtons, {n} buttons, never pressed ({kind})",
         lambda: seat_buttons(kind), ()),
    ]
    if kind == "mock":
        run += [
            (f"now: SeatButtons, {n} buttons, pressed once", lambda: seat_buttons(kind, True), ()),
            (f"now: SeatButtons, {n} buttons, one held down", seat_buttons_held, ()),
        ]
    run += [
        ("dice reader on loop://", lambda: dice_on("loop://"), ()),
        ("dice reader on a pty tray (simulator not counted)", dice_on_pty, ("dicesim",)),
        ("dice reader on socket://", dice_on_socket, ("bench tcp tray",)),
        ("dice reader, tray not plugged in", dice_missing, ()),
    ]
    for title, scenario, exclude in run:
        measure(title, scenario, args.seconds, args.settle, exclude)
    print("inbox: no thread of its own (a deque under a lock; put wakes the main thread)")


if __name__ == "__main__":
    main()
