"""The whole app in a process of its own, headless, with real gpiozero buttons on gpiozero's
MockFactory (GPIOZERO_PIN_FACTORY=mock). Run by test_e2e_gpio.py:

    python gpio_child.py DB HARDWARE_TOML

It starts a Witch's Brew game, plays the first role by command, then presses the awaited seat's
``pass`` button by driving its mock pin low from a background thread, as a wire would. It pumps
the Kivy loop until the press has become a stored step, then stops the app (closing the devices
and the store) and prints one JSON line: what was played and on which thread.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")

PLAYERS = ["Anna", "Barb", "Carl"]
TIMEOUT_S = 10.0


def main(db: str, hardware: str) -> int:
    from ui.kiosk.command import configure_kivy

    configure_kivy((800, 480), fullscreen=False)
    from kivy.config import Config

    Config.set("graphics", "maxfps", "0")
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    from gpiozero import Device

    from companion.core.model import Command
    from companion.games.witchs_brew.roles import ROLES
    from hardware.config import load_config
    from ui.app import CompanionApp

    app = CompanionApp(db_path=db, hardware_path=hardware)
    app._run_prepare()                      # build, on_start: the store
    EventLoop.idle()                        # the first frame: the hardware starts after it
    report: dict = {"hardware_problem": app.hardware_problem,
                    "buttons": list(app.devices.buttons.ids) if app.devices.buttons else []}
    try:
        assert app.start_game({"game": "witchs_brew", "players": PLAYERS}) is None
        session = app.session
        starter = session.prompt()["turn"]
        session.execute(Command("play_role", starter, {"role": next(iter(ROLES))}))
        prompt = session.prompt()
        seat = prompt["seat"] + 1
        report["awaited"] = prompt["turn"]
        listeners: list[str] = []
        session.add_listener(lambda s, step: listeners.append(threading.current_thread().name))
        steps_before = len(session.steps)

        pin = Device.pin_factory.pin(load_config(hardware).buttons[f"seat{seat}.pass"])
        pressed = threading.Event()

        def press() -> None:               # a wire, not the main thread
            pin.drive_low()
            pin.drive_high()
            pressed.set()

        presser = threading.Thread(target=press, name="wire")
        presser.start()
        deadline = time.monotonic() + TIMEOUT_S
        while len(session.steps) == steps_before and time.monotonic() < deadline:
            EventLoop.idle()               # the Clock trigger drains the Inbox here
        presser.join(TIMEOUT_S)
        report.update(
            pressed=pressed.is_set(),
            steps=len(session.steps),
            command=session.steps[-1].command.to_dict(),
            listener_threads=listeners,
            main_thread=threading.main_thread().name,
            refusal=app.refusal,
            game_id=session.game_id,
        )
    finally:
        app.stop()                          # on_stop: devices closed, store closed
    print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
