"""The configured devices, opened for real by ``companion doctor`` and tried by hand.

A config can be valid and still not work: a pin held by another program, a button stuck down,
a tray that opens but never greets. :class:`DeviceBench` opens every button, LED, the buzzer
and the dice reader the way the app would, reports each, and in ``--interactive`` lights,
sounds and waits for presses and a roll; then it releases them all. It owns the devices and
the waiting; :class:`hardware.doctor.Doctor` owns the report.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, TextIO

from companion.core.model import InputEvent

from .config import HardwareConfig
from .doctor_checks import FAIL, INFO, OK, WARN, pin_label
from .errors import ConfigError

Report = Callable[[str, str], object]


class DeviceBench:
    """Opens and tries the devices of ``config``; ``report(status, text)`` records each
    result, ``out`` takes the prompts. ``on_wait(kind, id)`` is called right before waiting
    for an input (kind "button" or "die"), which is how tests press the buttons."""

    def __init__(self, config: HardwareConfig | None, report: Report, out: TextIO, *,
                 dice_wait: float = 3.0, led_s: float = 1.5, button_wait: float = 15.0,
                 die_wait: float = 30.0,
                 on_wait: Callable[[str, str | None], object] | None = None) -> None:
        self.config = config
        self.report = report
        self.out = out
        self.dice_wait = dice_wait
        self.led_s = led_s
        self.button_wait = button_wait
        self.die_wait = die_wait
        self.on_wait = on_wait
        self._buttons: dict[str, object] = {}
        self._lights: dict[int, object] = {}
        self._buzzer = None
        self._reader = None
        self._seen: dict[tuple[str, str | None], threading.Event] = {}
        self._seen_lock = threading.Lock()
        self._last_die: InputEvent | None = None

    # -- GPIO ------------------------------------------------------------------------------
    def open_gpio(self, factory) -> None:
        from .buttons import SeatButtons
        from .buzzer import TableBuzzer
        from .lights import SeatLights

        config = self.config
        assert config is not None
        if config.is_empty:
            self.report(INFO, "no buttons, LEDs or buzzer configured")
            return
        width = max(len(k) for k in (*config.buttons, *config.leds,
                                     *(["buzzer"] if config.buzzer is not None else [])))
        for input_id, pin in config.buttons.items():
            where = f"{input_id:<{width}}  button  {pin_label(pin)}"
            board = self._open(where, factory, lambda: SeatButtons(
                {input_id: pin}, self._note, pull_up=config.pull_up, bounce_s=config.bounce_s,
                hold_s=config.hold_s, pin_factory=factory))
            if board is None:
                continue
            self._buttons[input_id] = board
            if board.is_pressed(input_id):
                wiring = "to 3V3" if config.pull_up else "to ground"
                self.report(WARN, f"{where}: reads pressed at rest (held down, stuck, or wired "
                                  f"{wiring} while pull_up is {str(config.pull_up).lower()})")
            else:
                self.report(OK, f"{where}: opened, released")
        for key, pin in config.leds.items():
            seat = int(key.split(".", 1)[0][4:])
            where = f"{key:<{width}}  LED     {pin_label(pin)}"
            lights = self._open(where, factory,
                                lambda: SeatLights({seat: pin}, pin_factory=factory))
            if lights is None:
                continue
            self._lights[seat] = lights
            led = getattr(lights, "_leds", {}).get(seat)
            kind = ("dimmable (PWM)" if type(led).__name__ == "PWMLED"
                    else "on/off (this pin factory has no PWM)")
            self.report(OK, f"{where}: opened, {kind}")
        if config.buzzer is not None:
            where = f"{'buzzer':<{width}}  buzzer  {pin_label(config.buzzer)}"
            buzzer = self._open(where, factory,
                                lambda: TableBuzzer(config.buzzer, pin_factory=factory))
            if buzzer is not None:
                self._buzzer = buzzer
                self.report(OK, f"{where}: opened, silent")

    def _open(self, where: str, factory, make: Callable[[], object]):
        """What ``make`` opens, or None with the reason reported as a failure: one device
        that cannot open must not stop the others from being checked."""
        if factory is None:
            self.report(FAIL, f"{where}: no pin factory")
            return None
        try:
            return make()
        except Exception as exc:
            self.report(FAIL, f"{where}: {exc}")
            return None

    # -- the dice tray ---------------------------------------------------------------------
    def open_dice(self) -> None:
        from .dice import DiceReader, DiceStatus, check_tray_url

        dice = self.config.dice if self.config is not None else None
        if dice is None:
            self.report(INFO, 'not configured (add [dice] url = "/dev/serial/by-id/..." '
                              'to the config)')
            return
        try:      # a config built in code was never checked: never open what it refuses
            check_tray_url(dice.url)
        except ConfigError as problem:
            self.report(FAIL, str(problem))
            return
        seen: list[DiceStatus] = []
        changed = threading.Event()

        def status(s: DiceStatus) -> None:
            seen.append(s)
            changed.set()

        reader = DiceReader.from_config(dice, self._note, on_status=status,
                                        backoff=(60.0, 60.0), name="doctor dice reader")
        self._reader = reader
        first = _wait_for(changed, seen, (DiceStatus.CONNECTED, DiceStatus.UNAVAILABLE),
                          self.dice_wait)
        if first is None:
            self.report(FAIL, f"{dice.url}: did not open within {self.dice_wait:g} s")
            return
        if first.state == DiceStatus.UNAVAILABLE:
            self.report(FAIL, first.text)
            return
        ready = _wait_for(changed, seen, (DiceStatus.READY,), self.dice_wait)
        if ready is None and dice.url.startswith("loop://"):
            self.report(WARN, "loop:// is a loopback (what is sent comes back), not a tray: "
                              "it opens, nobody greets. Fine for tests and demos")
        elif ready is None:
            self.report(WARN, f"{dice.url}: opened at {dice.baudrate} baud, but no greeting "
                              f"(HELLO) within {self.dice_wait:g} s: another device, a wrong "
                              f"baud rate, or firmware without HELLO? support")
        else:
            self.report(OK, f"{dice.url}: greeting {reader.greeting}")

    # -- by hand ---------------------------------------------------------------------------
    def try_by_hand(self) -> None:
        """Light each LED, sound the buzzer, then wait for each button and a die roll."""
        for seat, lights in self._lights.items():
            print(f"  ...   seat {seat} LED on for {self.led_s:g} s: look at it", file=self.out,
                  flush=True)
            lights.show(seat, pulse=False)
            threading.Event().wait(self.led_s)
            lights.off()
            self.report(INFO, f"seat{seat}.led was lit for {self.led_s:g} s")
        if self._buzzer is not None:
            from .buzzer import cue_seconds

            print("  ...   buzzer: one beep, then two: listen", file=self.out, flush=True)
            pause = threading.Event()
            self._buzzer.beep("turn")
            pause.wait(cue_seconds("turn") + 0.5)
            self._buzzer.beep("refused")
            pause.wait(cue_seconds("refused") + 0.2)
            self.report(INFO, f"buzzer on {pin_label(self._buzzer.pin)} sounded one beep, "
                              f"then two")
        for input_id in self._buttons:
            got = self._expect("button", input_id,
                               f"press {input_id} within {self.button_wait:g} s",
                               self.button_wait)
            self.report(OK if got else FAIL,
                        f"{input_id}: pressed" if got else f"{input_id}: no press seen")
        if self._reader is not None and self._reader.connected:
            got = self._expect("die", None, f"roll a die in the tray within {self.die_wait:g} s",
                               self.die_wait)
            last = self._last_die
            self.report(OK if got else FAIL,
                        f"die {last.id} shows {last.value}" if got and last else
                        "no die result seen")

    def _expect(self, kind: str, input_id: str | None, prompt: str, timeout: float) -> bool:
        event = threading.Event()
        with self._seen_lock:
            self._seen[(kind, input_id)] = event
        print(f"  ...   {prompt}", file=self.out, flush=True)
        if self.on_wait is not None:
            self.on_wait(kind, input_id)
        try:
            return event.wait(timeout)
        finally:
            with self._seen_lock:
                self._seen.pop((kind, input_id), None)

    def _note(self, event: InputEvent) -> None:
        """emit for every device (any thread): wake whoever waits for this input."""
        if event.kind == "die":
            self._last_die = event
            key = ("die", None)
        elif event.kind == "button" and event.value is None:
            key = ("button", event.id)
        else:
            return
        with self._seen_lock:
            waiting = self._seen.get(key)
        if waiting is not None:
            waiting.set()

    # -- releasing -------------------------------------------------------------------------
    def close(self) -> None:
        """Release everything opened. Each button's close waits up to ~0.1 s for its hold
        thread, so they are closed side by side rather than one after another."""
        devices = [d for d in (*self._buttons.values(), *self._lights.values(), self._buzzer,
                               self._reader) if d is not None]
        self._buttons, self._lights, self._buzzer, self._reader = {}, {}, None, None

        def close(device) -> None:
            try:
                device.close()
            except Exception as exc:  # report, keep closing the rest
                print(f"  (closing {device!r}: {exc})", file=self.out)

        closers = [threading.Thread(target=close, args=(d,), daemon=True) for d in devices]
        for closer in closers:
            closer.start()
        for closer in closers:
            closer.join(5)


def _wait_for(changed: threading.Event, seen: list, states: tuple[str, ...], timeout: float):
    """The first status in ``seen`` whose state is in ``states``, waiting up to ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        changed.clear()
        for status in list(seen):
            if status.state in states:
                return status
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        changed.wait(left)
