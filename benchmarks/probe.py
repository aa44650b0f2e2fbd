"""The process the benchmarks time: the companion app, or a bare Kivy script, with hooks.

The app has no "exit after the first frame" or "say when a frame is drawn", and the benchmarks
must not change ``ui/`` to get them, so this wrapper adds them from outside with Clock
callbacks and Window events only: it imports ``ui.app`` (or runs a script in
``benchmarks/bare/`` unchanged), schedules a callback for the first tick, binds ``on_flip``
there, and reports on stdout as ``BENCH {json}`` lines (benchmarks/common.py reads them).

    python -m benchmarks.probe app [--exit] [--scenario NAME] [--db PATH] ...
    python -m benchmarks.probe bare benchmarks/bare/hello.py [--scenario latency]

Every child reports ``first_frame``: seconds from its spawn (``BENCH_T0``, the parent's
monotonic clock) to the first frame drawn after the app started. SIGUSR1 then SIGTERM count the
frames drawn between them (``frames``), for the idle figures. The app runs as ``companion run
--demo --size 800x480`` does (ui/kiosk/command.py), on the database ``--db``.
"""

from __future__ import annotations

import argparse
import os
import random
import runpy
import sys
import threading
import time
from typing import Callable, Iterator

from benchmarks.frames import (
    FRAME_TIMEOUT, WITCHS_BREW, Frames, report, vm_hwm_mib, vm_rss_mib,
)

T0 = float(os.environ.get("BENCH_T0", time.monotonic()))


def after_first_frame(then: Callable[["Frames"], None]) -> None:
    """On the first tick (after the app's on_start), wait for the next frame: the first one
    drawn by the running app. It is reported inside its on_flip (a bare script may stop its
    app in the same dispatch, and no Clock callback would run after that); then ``then``."""
    from kivy.clock import Clock

    def first_tick(_dt: float) -> None:
        from kivy.core.window import Window   # not before: a bare script sets its Config first

        def first_flip(*_args) -> None:
            Window.unbind(on_flip=first_flip)
            report(first_frame=time.monotonic() - T0, first_frame_cpu=time.process_time(),
                   first_frame_hwm_mib=vm_hwm_mib())
            Clock.schedule_once(lambda _dt: then(frames))

        frames = Frames()
        Window.bind(on_flip=first_flip)

    Clock.schedule_once(first_tick)


# -- scenarios (the app) ---------------------------------------------------------------------
def stop(_frames: Frames) -> None:
    from kivy.app import App

    App.get_running_app().stop()


def start_game(_frames: Frames) -> None:
    """A Witch's Brew game on its table screen, its 1 Hz turn clock running; then idle."""
    from kivy.app import App

    problem = App.get_running_app().start_game(dict(WITCHS_BREW))
    report(game_started=problem is None, problem=problem)


def phones(_frames: Frames) -> None:
    """The game screen, and once it has drawn and settled, the phones' server on loopback
    with the table's snapshot, fed and listened to as the app would (its inbox). Reports the
    watch link and the resident memory just before the server was imported and started
    (``phones_rss_before_mib``)."""
    from kivy.app import App
    from kivy.clock import Clock

    start_game(_frames)

    def share(_dt: float) -> None:
        before = vm_rss_mib()
        from companion.core.narrator import Narrator
        from companion.view.snapshot import table_view
        from ui.web.server import PhoneServer

        app = App.get_running_app()
        server = PhoneServer(app.devices.inbox)
        server.start(port=0, addresses=["127.0.0.1"])
        server.publish(table_view(app.session, 1, Narrator(app.session)))
        app.phones_for_benchmark = server          # kept alive while the app runs
        report(phones_url=server.links()["watch"][0], phones_rss_before_mib=before)

    Clock.schedule_once(share, 1.5)


def play(args: argparse.Namespace) -> Callable[[Frames], None]:
    """A game opened and ``--commands`` commands played from the screen, a frame after each;
    then the peak memory, and exit."""

    def scenario(frames: Frames) -> None:
        from kivy.app import App

        from tests.support import autoplay

        app, rng = App.get_running_app(), random.Random(args.seed)

        def steps() -> Iterator:
            app.start_game(dict(WITCHS_BREW))
            yield ("frame", lambda: True, FRAME_TIMEOUT)
            for _ in range(args.commands):
                if app.session is None or app.session.over:
                    app.start_game(dict(WITCHS_BREW))
                else:
                    app.send(autoplay.next_command(app.session, rng))
                yield ("frame", lambda: True, FRAME_TIMEOUT)
            report(play_hwm_mib=vm_hwm_mib(), commands=args.commands)
            app.stop()

        frames.run(steps())

    return scenario


def history(args: argparse.Namespace) -> Callable[[Frames], None]:
    """Back to home from a game, ``--rounds`` times: seconds from ``go_home`` to the next frame."""

    def scenario(frames: Frames) -> None:
        from kivy.app import App

        app = App.get_running_app()

        def steps() -> Iterator:
            to_frame, in_call = [], []
            for _ in range(args.rounds):
                app.resume(args.resume_id)
                yield ("frame", lambda: True, FRAME_TIMEOUT)
                yield ("sleep", 0.15)
                start = time.perf_counter()
                app.go_home()
                called = time.perf_counter()
                drawn = yield ("frame", lambda: True, FRAME_TIMEOUT)
                if drawn is not None:
                    to_frame.append(drawn - start)
                    in_call.append(called - start)
                yield ("sleep", 0.15)
            report(home_to_frame=to_frame, home_call=in_call)
            app.stop()

        frames.run(steps())

    return scenario


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["app", "bare"])
    parser.add_argument("script", nargs="?", help="bare: the Kivy script to run")
    parser.add_argument("--exit", action="store_true", help="exit after the first frame")
    parser.add_argument("--scenario", choices=["idle", "game", "phones", "phone_press", "play",
                                               "latency", "history", "phones_crowd"],
                        default="idle")
    parser.add_argument("--db", help="app: the game database")
    parser.add_argument("--commands", type=int, default=10, help="play: commands played")
    parser.add_argument("--presses", type=int, default=30,
                        help="latency: buttons pressed; phone_press: presses of each kind")
    parser.add_argument("--dice", type=int, default=20, help="latency: dice read")
    parser.add_argument("--rounds", type=int, default=5, help="history: trips back home")
    parser.add_argument("--resume-id", type=int, help="history: the unfinished game to open")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--early", action="store_true",
                        help="bare latency: the thread also cuts the frame's sleep short, as "
                             "the app's Inbox does (ui/table/frame_wait.py)")
    args = parser.parse_args()
    if args.what == "bare":
        # Loaded, not run as __main__: its Config is set before anything here imports Kivy's
        # Clock (which reads maxfps once, on import); then its App is run as its main would.
        sys.argv = [args.script]
        names = runpy.run_path(args.script, run_name="bare_script")
        from kivy.app import App

        apps = [v for v in names.values() if isinstance(v, type) and issubclass(v, App)
                and v.__module__ == "bare_script"]
        if args.scenario == "latency":
            from benchmarks.latency_probe import bare_scenario

            after_first_frame(bare_scenario(args))
        else:
            after_first_frame(lambda _frames: None)   # it exits by itself, or is stopped
        apps[0]().run()
        return
    from ui.kiosk.command import configure_kivy

    configure_kivy((800, 480), False)
    from ui.app import CompanionApp

    then: Callable[[Frames], None] = {"idle": lambda _f: None, "game": start_game, "phones": phones,
                                      "play": play(args), "history": history(args),
                                      "phone_press": phone_press(args),
                                      "phones_crowd": phones_crowd(args)}.get(
        args.scenario) or latency(args)
    after_first_frame(stop if args.exit else then)
    CompanionApp(db_path=args.db, demo=True).run()


def latency(args: argparse.Namespace) -> Callable[[Frames], None]:
    from benchmarks.latency_probe import scenario

    return scenario(args)


def phone_press(args: argparse.Namespace) -> Callable[[Frames], None]:
    from benchmarks.phones_probe import scenario

    return scenario(args)


def phones_crowd(args: argparse.Namespace) -> Callable[[Frames], None]:
    from benchmarks.phones_crowd_probe import scenario

    return scenario(args)


if __name__ == "__main__":
    threading.current_thread().name = "probe-main"
    main()
