"""The table's devices and their events reaching the main thread.

The buttons, seat lights and buzzer (GPIO), the dice tray (serial) and the smart dice
(Bluetooth LE, :mod:`ui.table.smart_dice`) of one app, started from
the hardware config. Device threads only ``put`` on the Inbox or schedule on the Clock; a Clock
trigger drains the Inbox on the main thread, where everything else here runs. What a drained
input means for the game is the app's: this module hands it to ``app.handle``, and shows what
the devices report through the Kivy properties the screens bind to (``app.hardware_status``,
``app.dice_status``...).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Keyboard, Window

from companion.core.errors import RuleViolation
from companion.core.model import Command, InputEvent
from hardware.inbox import Inbox
from ui.table.frame_wait import FrameWait
from ui.table.smart_dice import SmartDice

log = logging.getLogger(__name__)

#: What holding a button means (docs/wiring.md, "Holding a button"). The press has already
#: played; a hold with a meaning first takes back what its press played, so a press and its
#: hold never count twice. Any other hold is ignored: the press stands.
#: ``seatN.pass`` -> undo, and ``next`` -> menu, only on tables without that button.
HOLD_UNDO, HOLD_MENU = "undo", "menu"
_KEY_NAMES = {code: name for name, code in Keyboard.keycodes.items()}


class TableDevices:
    """The devices of one app (``app.devices``) and the Inbox their threads put on."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.inbox = Inbox()
        self.buttons = None
        self.lights = None
        self.buzzer = None
        self.dice_reader = None
        self.dice_config = None
        self.dice_backoff = (0.5, 8.0)    # seconds between attempts to reopen the tray
        self.ble_backoff = (1.0, 30.0)    # seconds between attempts to reach a smart die
        self.smart_dice = SmartDice(self)  # GoDice and Pixels over Bluetooth LE ([ble])
        self.tray_line = ""               # the tray's part of the strip
        self.tray_ok = False
        self._dice_generation = 0         # statuses of a reader already closed are ignored
        self.pin_factory = None
        self.config = None                # the hardware config the devices run on now
        self.input_listener = None        # a screen taking every input instead of the game
        self._last_press: tuple = (None, None, None, -1)   # (id, session, step, revision)

    def listen(self) -> None:
        """Main thread, once the window is up: wake on the Inbox (at once, not at the next
        frame's slot: ui/table/frame_wait.py), take the demo keys."""
        drain, early = Clock.create_trigger(self._drain_inbox), FrameWait.on(Clock)

        def wake() -> None:   # the drain scheduled, then the frame's sleep cut short for it
            drain()
            early.wake()

        self.inbox.wake = wake
        Window.bind(on_key_down=self._on_key_down)

    # -- inputs reaching the main thread -------------------------------------------------
    def _drain_inbox(self, *_args) -> None:
        """Main thread: play every input the devices queued since the last wake-up."""
        app = self.app
        for event in self.inbox.drain():
            if event.kind == "club":              # the club's sync thread (ui/table/club.py)
                app.club_heard(event.value)
                continue
            if self.input_listener is not None:   # the Hardware screen's test: no game play
                self.input_listener(event)
                continue
            if event.kind == "button" and event.value == "hold":
                self._hold(event)
                continue
            if event.source == "serial" and event.kind in ("die", "die_moving"):
                event = self._game_die(event)
            elif event.source == "ble" and event.kind in ("die", "die_moving"):
                event = self.smart_dice.game_event(event)   # None: shown, not played
                if event is None:
                    continue
            if event.kind == "die_moving":
                app.dice_activity = f"die {event.id} rolling..."   # never a result
                continue
            # a phone's input is its seat's command on the table its page showed, or nothing
            step = app.phone_input(event) if getattr(event, "press", "") else app.handle(event)
            app.phone_answered(event, step)       # a phone's press: told what became of it
            if event.kind == "button":
                self._last_press = (event.id, app.session, step, app.revision)

    def hold_meaning(self, input_id: str) -> str | None:
        """What holding ``input_id`` means on this table: HOLD_UNDO, HOLD_MENU or None."""
        wired = self.config.buttons if self.config is not None else {}
        if input_id.startswith("seat") and input_id.endswith(".pass") and "undo" not in wired:
            return HOLD_UNDO
        if input_id == "next" and "menu" not in wired:
            return HOLD_MENU
        return None

    def _hold(self, event: InputEvent) -> None:
        """A button held past hold_s (after its press was played). Its meaning replaces the
        press: what the press played is taken back first, and only if nothing else was played
        since; otherwise the hold is refused and changes nothing."""
        app = self.app
        meaning = self.hold_meaning(event.id)
        if meaning is None or (meaning == HOLD_UNDO and app.session is None):
            return
        pressed, session, step, revision = self._last_press
        self._last_press = (None, None, None, -1)
        if pressed == event.id and step is not None:
            if session is not app.session or revision != app.revision:
                app.refuse(f"Holding {event.id} did nothing: something else was played "
                           "after it was pressed")
                self.buzz("refused")
                return
            try:
                app.session.undo()           # the press's own step
            except RuleViolation as refusal:
                app.refuse(str(refusal))
                return
        app.dismiss_refusal()                # a refused press is replaced by its hold
        if meaning == HOLD_MENU:
            app.go_home()
        elif not app.send(Command("undo")):
            self.buzz("refused")

    def _game_die(self, event: InputEvent) -> InputEvent:
        """The tray's die as the game knows it: [dice.ids] and [dice.face_names]."""
        if self.dice_config is None:
            return event
        die, value = self.dice_config.game_die(event.id, event.value)
        return replace(event, id=die, value=value)

    def _on_key_down(self, _window, key, _scancode, _codepoint, modifiers) -> bool:
        """Demo mode: keys stand in for the seat buttons and feed the same Inbox (on the table
        screens, and on the Hardware screen for its test), never while a field is typed in."""
        from ui.kiosk.keyboard import typing_into

        app = self.app
        if typing_into() is not None:
            return False
        testing = self.input_listener is not None
        if not app.demo or not (testing or app.session is not None
                                and app.screens.current in app.table_screens):
            return False
        if set(modifiers) & {"ctrl", "alt", "meta"}:
            return False
        from hardware.config import input_for_key

        input_id = input_for_key(_KEY_NAMES.get(key, ""))
        if input_id is None:
            return False
        self.inbox.put(InputEvent("button", input_id, source="keyboard"))
        return True

    # -- starting and stopping -----------------------------------------------------------
    def start(self) -> None:
        """Buttons, seat LEDs and the buzzer (GPIO) and the dice tray (serial) from the config.
        Each part that cannot start is said on screen; the others still start, and touch
        always works. Device threads only ``put`` on the Inbox or schedule on the Clock."""
        app = self.app
        self.stop()
        app.hardware_status = app.hardware_problem = ""
        app.key_labels = {}
        self.config = None
        try:
            from hardware import DEMO_CONFIG, KEYBOARD_MAP, key_label, load_config

            if app.demo:
                from gpiozero.pins.mock import MockFactory

                self.pin_factory, config = MockFactory(), DEMO_CONFIG
                app.key_labels = {i: key_label(i) for i in set(KEYBOARD_MAP.values())}
            else:
                self.pin_factory = None  # gpiozero's own choice: GPIOZERO_PIN_FACTORY
                config = load_config(self.config_path(), missing_ok=not app.hardware_path)
        except Exception as problem:  # a bad config, gpiozero missing: say so, keep touch
            log.warning("hardware config unusable: %s", problem)
            app.hardware_problem = f"Hardware config not used: {problem}. Touch still works."
            return
        problems = []
        if app.demo and app.hardware_path:   # a demo table may roll simulated smart dice
            config, problems = self._demo_smart_dice(config)
        self.config = config
        if not config.is_empty:
            problems += self._start_gpio(config)
        if config.dice is not None:
            problems += self._start_dice(config.dice)
        if config.ble is not None and config.ble.dice:   # a [ble] with no die paired: nothing
            problems += self.smart_dice.start(config.ble)
        app.hardware_problem = " ".join(problems)
        if app.demo:
            app.hardware_status = "Demo: mock buttons; keys stand in for them."
        elif not config.buttons:
            dice = [word for word, there in (("dice tray", config.dice is not None),
                                             ("smart dice", bool(config.ble and config.ble.dice)))
                    if there]
            app.hardware_status = (f"No buttons configured: {' and '.join(dice)} and touch."
                                   if dice else "No buttons configured: play by touch.")

    def _demo_smart_dice(self, config) -> tuple[Any, list[str]]:
        """The demo table with the ``[ble]`` of ``--hardware`` (``companion dicesim --ble``
        prints one): mock buttons, dice on the simulated air. Nothing else of the file."""
        from hardware.config import load_config

        try:
            ble = load_config(self.config_path(), missing_ok=False).ble
        except Exception as problem:
            log.warning("demo smart dice unusable: %s", problem)
            return config, [f"Smart dice not used: {problem}."]
        return (replace(config, ble=ble) if ble is not None else config), []

    def _start_gpio(self, config) -> list[str]:
        """Buttons, seat LEDs, buzzer; returns the problems to show."""
        from hardware import SeatButtons, SeatLights, TableBuzzer

        try:
            if config.buttons:
                self.buttons = SeatButtons.from_config(config, self.inbox.put,
                                                       pin_factory=self.pin_factory)
            if config.leds:
                self.lights = SeatLights.from_config(config, pin_factory=self.pin_factory)
        except Exception as problem:  # no GPIO, a pin in use: say so, keep touch
            log.warning("buttons unavailable: %s", problem)
            self._close_devices("buttons", "lights")
            return [f"Buttons unavailable: {problem}. Touch still works."]
        try:
            self.buzzer = TableBuzzer.from_config(config, pin_factory=self.pin_factory)
        except Exception as problem:
            log.warning("buzzer unavailable: %s", problem)
            return [f"Buzzer unavailable: {problem}."]
        return []

    def _start_dice(self, dice) -> list[str]:
        """The dice tray reader. It opens the port on its own thread and reports through
        ``on_status``, which is marshalled to the main thread here; until then the strip says
        it is opening. A tray that is not there is a status, not a problem: it is retried."""
        from hardware.dice import DiceReader

        app = self.app
        self._dice_generation += 1
        generation = self._dice_generation

        def on_status(status) -> None:   # reader threads: hand over, touch nothing
            Clock.schedule_once(partial(self._on_dice_status, generation, status))

        self.dice_config = dice
        self.tray_line = f"dice reader: opening {dice.url}"
        self.show_dice_line()
        app.dice_ok, app.dice_activity = False, ""
        try:
            self.dice_reader = DiceReader.from_config(dice, self.inbox.put, on_status=on_status,
                                                      backoff=self.dice_backoff)
        except Exception as problem:
            log.warning("dice reader unavailable: %s", problem)
            self.dice_config, self.tray_line = None, ""
            self.show_dice_line()
            return [f"Dice reader unavailable: {problem}. Enter dice by touch."]
        return []

    def _on_dice_status(self, generation: int, status, *_dt) -> None:
        """Main thread: show what the dice reader reports."""
        from hardware.dice import DiceStatus

        app = self.app
        if generation != self._dice_generation or self.dice_reader is None:
            return   # from a reader closed since
        if status.state == DiceStatus.REFUSED:   # a value no die can show: nothing applied
            app.dice_activity = status.text
            app.refuse(status.text[:1].upper() + status.text[1:])
            self.buzz("refused")
        elif status.state == DiceStatus.DEVICE_ERROR:
            app.dice_activity = status.text   # the tray's own trouble; still connected
        elif status.state != DiceStatus.CLOSED:
            self.tray_line = status.text
            self.tray_ok = status.state in (DiceStatus.CONNECTED, DiceStatus.READY)
            self.show_dice_line()

    def show_dice_line(self) -> None:
        """The strip's dice line: the tray's state and the smart dice's, each if there."""
        app, smart = self.app, self.smart_dice
        app.dice_status = "; ".join(p for p in (self.tray_line, smart.line) if p)
        tray_ok = self.tray_ok if self.dice_config is not None else True
        smart_ok = smart.ok if smart.config is not None else True
        app.dice_ok = bool(app.dice_status) and tray_ok and smart_ok

    def config_path(self) -> Path:
        """The hardware config the app reads (and the Hardware screen writes): ``--hardware``,
        else ``hardware.toml`` in the user config directory."""
        from hardware.config import default_config_path

        path = self.app.hardware_path
        return Path(path) if path else default_config_path()

    def stop(self) -> None:
        """Close every device (the dice reader within ~2 s at most); safe to call twice."""
        self._dice_generation += 1
        self._close_devices("buttons", "lights", "buzzer", "dice_reader")
        self.dice_config, self.tray_line, self.tray_ok = None, "", False
        self.smart_dice.stop()
        self.app.dice_status = self.app.dice_activity = ""
        self.app.dice_ok = False

    def _close_devices(self, *names: str) -> None:
        for name in names:
            device = getattr(self, name)
            setattr(self, name, None)
            if device is not None:
                try:
                    device.close()
                except Exception:
                    log.exception("closing %r", device)

    # -- outputs -------------------------------------------------------------------------
    def buzz(self, kind: str) -> None:
        """A buzzer cue ("turn", "refused"), if there is a buzzer; never fails the app."""
        if self.buzzer is not None:
            try:
                self.buzzer.beep(kind)
            except Exception:
                log.exception("buzzer")

    def show_seat(self, seat: int | None) -> None:
        """Light the seat awaited (0-based), or none."""
        if self.lights is not None:
            try:
                self.lights.show(None if seat is None else seat + 1)
            except Exception:
                log.exception("seat lights")
