"""Inside the app (run by benchmarks/probe.py): inputs put on the app's Inbox as a device thread
puts them, and the time from the put to the first frame drawn after the game changed.

Buttons: a Witch's Brew game played by a seeded table (tests/support/autoplay.py); the seats'
answers (claim, so be it, pass) go in as seat button presses from a thread, as gpiozero's do,
the other commands from the screen (``app.send``). Dice: a Cauldron Quest game
(tests/companion/quest_autoplay.py), each die the game waits for read from the "tray"
(source ``serial``). A put comes at a random point of the frame, so waiting for the next Clock
tick is in the figure, as at the table.
"""

from __future__ import annotations

import argparse
import random
import threading
import time
from typing import Any, Callable, Iterator

from benchmarks.frames import FRAME_TIMEOUT, WITCHS_BREW, Frames, playing, report

ANSWERS = ("claim", "so_be_it", "pass")


def scenario(args: argparse.Namespace) -> Callable[[Frames], None]:
    def run(frames: Frames) -> None:
        frames.run(steps(args))

    return run


def bare_scenario(args: argparse.Namespace) -> Callable[[Frames], None]:
    """The least Kivy can do: a thread hands a value to the main thread (``Clock``, as the
    Inbox's wake-up does), a label shows it, and the next frame is drawn. For a bare script
    whose root is a Label (benchmarks/bare/idle.py). With ``--early`` the thread also cuts
    the frame's sleep short, as the app's Inbox does: the like-for-like yardstick."""

    def run(frames: Frames) -> None:
        from kivy.app import App
        from kivy.clock import Clock

        app, rng = App.get_running_app(), random.Random(args.seed)
        changed: dict[str, float] = {}
        early = None
        if getattr(args, "early", False):
            from ui.table.frame_wait import FrameWait

            early = FrameWait.on(Clock)

        def show(value: int) -> None:
            app.root.text = str(value)
            changed["t"] = time.perf_counter()

        def steps() -> Iterator:
            got: dict[str, list[float]] = {"bare_to_frame": [], "bare_to_change": []}
            for i in range(args.presses):
                changed.clear()
                when: dict[str, float] = {}
                delay = rng.uniform(0, 1 / 30)

                def device(i: int = i) -> None:
                    time.sleep(delay)
                    when["put"] = time.perf_counter()
                    Clock.schedule_once(lambda _dt: show(i))
                    if early is not None:
                        early.wake()

                threading.Thread(target=device, daemon=True).start()
                drawn = yield ("frame", lambda: "t" in changed, FRAME_TIMEOUT)
                if drawn is not None and "put" in when:
                    got["bare_to_frame"].append(drawn - when["put"])
                    got["bare_to_change"].append(changed["t"] - when["put"])
                yield ("sleep", rng.uniform(0.05, 0.1))
            report(**got)
            app.stop()

        frames.run(steps())

    return run


def parts_of_a_frame() -> dict[str, float]:
    """When the latest frame's parts began: Kivy's layout and text pass (``Clock.tick_draw``,
    wrapped on the Clock object), and the window's drawing (``on_draw``, whose bound handlers
    run before Kivy's own)."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    marks: dict[str, float] = {}
    tick_draw = Clock.tick_draw

    def timed_tick_draw(*args):
        marks["tick_draw"] = time.perf_counter()
        try:
            return tick_draw(*args)
        finally:
            marks["tick_draw_end"] = time.perf_counter()

    Clock.tick_draw = timed_tick_draw
    Window.bind(on_draw=lambda *_: marks.__setitem__("draw", time.perf_counter()))
    return marks


def steps(args: argparse.Namespace) -> Iterator:
    from kivy.app import App

    from companion.core.model import InputEvent
    from tests.companion import quest_autoplay
    from tests.support import autoplay

    app, rng = App.get_running_app(), random.Random(args.seed)
    changed: dict[str, float] = {}
    hooked: set[int] = set()
    got: dict[str, list[float]] = {k: [] for k in (
        "steps_before", "button_to_frame", "button_to_change", "change_to_frame",
        "change_to_layout", "layout_and_text", "drawing", "die_drawing", "touch_to_frame",
        "touch_call", "die_to_frame", "die_to_change")}
    missed = 0

    marks = parts_of_a_frame()

    def hook() -> None:
        session = app.session
        if session is not None and id(session) not in hooked:
            hooked.add(id(session))
            session.add_listener(lambda _s, _step: changed.__setitem__("t", time.perf_counter()))

    def put_from_thread(event: InputEvent) -> dict[str, float]:
        when: dict[str, float] = {}
        delay = rng.uniform(0, 1 / 30)

        def device() -> None:
            time.sleep(delay)
            when["put"] = time.perf_counter()
            app.devices.inbox.put(event)

        threading.Thread(target=device, daemon=True).start()
        return when

    def shown(when: dict[str, float]) -> Iterator:
        """The frame that showed what a put from a thread changed; None, counted as missed,
        when no frame did or the put never happened."""
        nonlocal missed
        drawn = yield ("frame", lambda: "t" in changed, FRAME_TIMEOUT)
        if drawn is None or "put" not in when:
            missed += 1
            return None
        return drawn

    def new_game(setup: dict[str, Any]) -> Iterator:
        app.start_game(setup)
        hook()
        yield ("frame", lambda: True, FRAME_TIMEOUT)
        yield ("sleep", 0.3)

    if args.resume_id is not None:   # a long game (benchmarks/latency.py): its presses first
        app.resume(args.resume_id)
        hook()
        yield ("frame", lambda: True, FRAME_TIMEOUT)
        yield ("sleep", 0.3)
    else:
        yield from new_game(dict(WITCHS_BREW))
    presses = 0
    while presses < args.presses:
        session = yield from playing(app, lambda: new_game(dict(WITCHS_BREW)))
        command = autoplay.next_command(session, rng)
        prompt = session.prompt()
        got["steps_before"].append(len(session.done_steps_view()))
        changed.clear()
        if command.do in ANSWERS and prompt.get("phase") == "answer":
            event = InputEvent("button", f"seat{prompt['seat'] + 1}.{command.do}", source="gpio")
            when = put_from_thread(event)
            drawn = yield from shown(when)
            presses += 1
            if drawn is None:
                continue
            got["button_to_frame"].append(drawn - when["put"])
            got["button_to_change"].append(changed["t"] - when["put"])
            got["change_to_frame"].append(drawn - changed["t"])
            if marks.get("draw", 0) > changed["t"]:   # the parts of the frame that showed it
                got["change_to_layout"].append(marks["tick_draw"] - changed["t"])
                got["layout_and_text"].append(marks["tick_draw_end"] - marks["tick_draw"])
                got["drawing"].append(drawn - marks["draw"])
        else:
            start = time.perf_counter()
            app.send(command)
            called = time.perf_counter()
            drawn = yield ("frame", lambda: True, FRAME_TIMEOUT)
            if drawn is not None:
                got["touch_to_frame"].append(drawn - start)
                got["touch_call"].append(called - start)
        yield ("sleep", rng.uniform(0.05, 0.1))

    app.go_home()
    quest = {"game": "quest", "players": list(quest_autoplay.PLAYERS),
             "needed": list(quest_autoplay.NEEDED)}
    yield from new_game(dict(quest))
    dice = 0
    while dice < args.dice:
        session = yield from playing(app, lambda: new_game(dict(quest)))
        options = quest_autoplay.legal_commands(session.state, rng)
        rolls = [o for o in options if isinstance(o, InputEvent) and o.kind == "die"]
        changed.clear()
        if rolls:
            when = put_from_thread(rng.choice(rolls))
            drawn = yield from shown(when)
            dice += 1
            if drawn is None:
                continue
            got["die_to_frame"].append(drawn - when["put"])
            got["die_to_change"].append(changed["t"] - when["put"])
            if marks.get("draw", 0) > changed["t"]:
                got["die_drawing"].append(drawn - marks["draw"])
        else:
            app.send(quest_autoplay.random_command(session.state, rng))
            yield ("frame", lambda: True, FRAME_TIMEOUT)
        yield ("sleep", rng.uniform(0.05, 0.1))
    report(**got, missed=missed)
    app.stop()
