"""Inside the app (run by benchmarks/probe.py, scenario ``phones_crowd``): a Witch's Brew table
shared on 127.0.0.1 as the app shares it, drawing continuously (a redraw asked every frame, so
the frame rate is what the Pi can draw, not what an idle table needs), and reporting how many
frames it has drawn once a second. The benchmark (benchmarks/phones_crowd.py) opens the crowd
and the seat's phone from outside, in its own process: the app's file handles are its own."""

from __future__ import annotations

import argparse
import time
from typing import Callable

from benchmarks.frames import WITCHS_BREW, Frames, report
from benchmarks.phones_probe import share_on_loopback


def scenario(_args: argparse.Namespace) -> Callable[[Frames], None]:
    def run(frames: Frames) -> None:
        from kivy.app import App
        from kivy.clock import Clock
        from kivy.core.window import Window

        app = App.get_running_app()
        app.start_game(dict(WITCHS_BREW))
        server = share_on_loopback(app)
        links = server.links()
        report(phones_url=links["watch"][0], seat_url=links["seats"][1]["urls"][0])
        Clock.schedule_interval(lambda _dt: Window.canvas.ask_update(), 0)
        Clock.schedule_interval(lambda _dt: report(frames=frames.count, at=time.monotonic()), 1)

    return run
