"""Inside the app (run by benchmarks/probe.py, scenario ``phone_press``): a seat's answer
pressed on a phone and the same kind of answer pressed on a GPIO button, in one game, each timed
to the first frame drawn after the game changed.

The phones' server is started as the app's sharing starts it, on 127.0.0.1 only, so the app
publishes after every change; one WebSocket client per seat, in this process on a loop of its
own, holds that seat's page (its link and Origin, the newest snapshot's number). The answers of
a seeded Witch's Brew table (tests/support/autoplay.py) alternate: a phone's ``press`` message,
then a low edge on the seat button's mock pin (the demo table's, gpiozero's MockFactory: its
callback thread puts the press on the inbox, as on the Pi). Either comes at a random point of the
frame, so waiting for the next Clock tick is in both figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import threading
import time
from typing import Any, Callable, Iterator

from benchmarks.frames import FRAME_TIMEOUT, WITCHS_BREW, Frames, playing, report

ANSWERS = ("claim", "so_be_it", "pass")


class SeatPhones(threading.Thread):
    """A page per seat on the server's seat links, each keeping the newest snapshot's number."""

    def __init__(self, urls: list[str]) -> None:
        super().__init__(daemon=True, name="bench-phones")
        self.urls, self.seen = urls, [0] * len(urls)
        self.loop = asyncio.new_event_loop()
        self.sockets: list[Any] = [None] * len(urls)
        self.ready = threading.Event()
        self.start()
        if not self.ready.wait(10):
            raise RuntimeError("benchmarks: the seats' phones did not connect")

    def run(self) -> None:
        self.loop.run_until_complete(self._talk())

    async def _talk(self) -> None:
        import aiohttp

        async with aiohttp.ClientSession() as client:
            await asyncio.gather(*(self._page(client, seat) for seat in range(len(self.urls))))

    async def _page(self, client, seat: int) -> None:
        url = self.urls[seat]
        origin = "/".join(url.split("/")[:3])
        async with client.ws_connect(url + "/ws", origin=origin) as ws:
            self.sockets[seat] = ws
            async for message in ws:
                data = json.loads(message.data)
                if data["type"] == "snapshot" and data["table"]:
                    self.seen[seat] = data["table"]["n"]
                    if all(self.seen):
                        self.ready.set()

    def press(self, seat: int, button: str, delay: float) -> dict[str, float]:
        """Send the seat's press after ``delay`` seconds; ``put``: when it was sent."""
        when: dict[str, float] = {}

        async def send() -> None:
            await asyncio.sleep(delay)
            text = json.dumps({"type": "press", "button": button, "seen": self.seen[seat],
                               "id": int(time.monotonic_ns() % 1_000_000_000)})
            when["put"] = time.perf_counter()
            await self.sockets[seat].send_str(text)

        asyncio.run_coroutine_threadsafe(send(), self.loop)
        return when


def share_on_loopback(app) -> Any:
    """The app's sharing (ui/table/phones.py, ``start_sharing``) on 127.0.0.1 and a free port,
    the table settings untouched."""
    from ui.web.server import PhoneServer

    server = PhoneServer(app.devices.inbox, on_change=app._count_phones)
    server.start(port=0, addresses=["127.0.0.1"])
    app.phone_server, app.phones_on = server, True
    app.publish_table()
    return server


def scenario(args: argparse.Namespace) -> Callable[[Frames], None]:
    def run(frames: Frames) -> None:
        frames.run(steps(args))

    return run


def steps(args: argparse.Namespace) -> Iterator:
    from kivy.app import App

    from tests.support import autoplay

    app, rng = App.get_running_app(), random.Random(args.seed)
    changed: dict[str, float] = {}
    hooked: set[int] = set()
    got: dict[str, list[float]] = {"phone_to_frame": [], "gpio_to_frame": []}
    missed = 0

    def new_game() -> Iterator:
        app.start_game(dict(WITCHS_BREW))
        session = app.session
        if id(session) not in hooked:
            hooked.add(id(session))
            session.add_listener(lambda _s, _step: changed.__setitem__("t", time.perf_counter()))
        yield ("frame", lambda: True, FRAME_TIMEOUT)
        yield ("sleep", 0.3)

    def gpio(input_id: str, delay: float) -> tuple[dict[str, float], Any]:
        pin = app.devices.pin_factory.pin(app.devices.config.buttons[input_id])
        when: dict[str, float] = {}

        def press() -> None:
            time.sleep(delay)
            when["put"] = time.perf_counter()
            pin.drive_low()

        threading.Thread(target=press, daemon=True).start()
        return when, pin

    yield from new_game()
    server = share_on_loopback(app)
    seats = server.links()["seats"]
    phones = SeatPhones([seat["urls"][0] for seat in seats])
    kinds = ("phone", "gpio")
    pressed = 0
    while pressed < 2 * args.presses:
        session = yield from playing(app, new_game)
        command = autoplay.next_command(session, rng)
        prompt = session.prompt()
        changed.clear()
        if command.do in ANSWERS and prompt.get("phase") == "answer":
            seat, kind, pin = prompt["seat"], kinds[pressed % 2], None
            delay = rng.uniform(0, 1 / 30)
            if kind == "phone":
                while phones.seen[seat] != server._snapshot["n"]:   # the page is current
                    yield ("sleep", 0.005)
                when = phones.press(seat, command.do, delay)
            else:
                when, pin = gpio(f"seat{seat + 1}.{command.do}", delay)
            drawn = yield ("frame", lambda: "t" in changed, FRAME_TIMEOUT)
            if pin is not None:
                pin.drive_high()
            pressed += 1
            if drawn is None or "put" not in when:
                missed += 1
            else:
                got[f"{kind}_to_frame"].append(drawn - when["put"])
        else:
            app.send(command)
            yield ("frame", lambda: True, FRAME_TIMEOUT)
        yield ("sleep", rng.uniform(0.05, 0.1))
    report(**got, missed=missed, maxfps=_maxfps())
    app.phone_server, app.phones_on = None, False
    server.stop()
    app.stop()


def _maxfps() -> int:
    from kivy.config import Config

    return Config.getint("graphics", "maxfps")
