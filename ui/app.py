"""The Kivy app: owns the store, the session, the inbox and the devices.

Screens only read its properties and call its methods, so the rules stay in ``companion`` and
threads stay here: device threads ``put`` on the Inbox, a Clock trigger drains it on the main
thread. Nothing polls; the only repeating clock is the 1 Hz turn timer while a game runs.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Keyboard, Window
from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty, DictProperty, NumericProperty, ObjectProperty, StringProperty,
)

from companion.core.errors import CompanionError, RuleViolation, SetupError
from companion.core.model import Command, InputEvent
from companion.games import get_rules
from companion.store import Store, default_path
from hardware.inbox import Inbox
from ui import theme
from ui.games import GAMES, table_screens

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
KV_FILES = [
    "widgets/common.kv", "widgets/seat_panel.kv", "widgets/role_picker.kv",
    "widgets/action_panels.kv", "widgets/effect_dialog.kv", "root.kv",
    "screens/home.kv", "screens/result.kv", "widgets/hw_fields.kv",
    "screens/hardware_settings.kv",
    *(kv for game in GAMES.values() for kv in game.kv),
]
REFUSAL_SECONDS = 5.0
#: Inputs from something a player pressed or rolled (not the screen): a refusal also beeps.
PHYSICAL_SOURCES = frozenset({"gpio", "serial", "keyboard"})
#: What holding a button means (docs/wiring.md, "Holding a button"). The press has already
#: played; a hold with a meaning first takes back what its press played, so a press and its
#: hold never count twice. Any other hold is ignored: the press stands.
#: ``seatN.pass`` -> undo, and ``next`` -> menu, only on tables without that button.
HOLD_UNDO, HOLD_MENU = "undo", "menu"
_KEY_NAMES = {code: name for name, code in Keyboard.keycodes.items()}


class CompanionApp(App):
    """One table: one store, at most one session in play, the buttons and lights."""

    title = "Table companion"
    u = NumericProperty(1.0)
    session = ObjectProperty(None, allownone=True)
    summary = ObjectProperty({})
    prompt = ObjectProperty({})
    revision = NumericProperty(0)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    refusal = StringProperty("")
    notice = StringProperty("")
    hardware_status = StringProperty("")
    hardware_problem = StringProperty("")
    dice_status = StringProperty("")      # the dice tray, for the status strip; "" = no tray
    dice_ok = BooleanProperty(False)      # the tray is connected
    dice_activity = StringProperty("")    # the last thing a die did: "die d1 rolling..."
    demo = BooleanProperty(False)
    key_labels = DictProperty({})
    turn_seconds = NumericProperty(0)

    def __init__(self, db_path: str | Path | None = None, demo: bool = False,
                 hardware_path: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.db_path = str(db_path or default_path())
        self.demo = demo
        self.hardware_path = hardware_path
        self.store: Store | None = None
        self.buttons = None
        self.lights = None
        self.buzzer = None
        self.dice_reader = None
        self.dice_config = None
        self.dice_backoff = (0.5, 8.0)    # seconds between attempts to reopen the tray
        self._dice_generation = 0         # statuses of a reader already closed are ignored
        self._cue: tuple[Any, Any] = (None, None)   # (session, awaited seat) last beeped for
        self.pin_factory = None
        self.hardware_config = None       # the config the devices run on now
        self.input_listener = None        # a screen taking every input instead of the game
        self._last_press: tuple = (None, None, None, -1)   # (id, session, step, revision)
        self.inbox = Inbox()
        self._turn_key: tuple | None = None
        self._turn_started = 0.0
        self._timer = None
        self._clear_refusal = Clock.create_trigger(lambda *_: self.dismiss_refusal(),
                                                   REFUSAL_SECONDS)

    # -- life cycle ----------------------------------------------------------------------
    def build(self):
        for name in KV_FILES:
            Builder.load_file(str(HERE / name))
        Window.clearcolor = theme.BG
        Window.bind(size=self._on_window_size, on_key_down=self._on_key_down)
        self._on_window_size(Window, Window.size)
        self.inbox.wake = Clock.create_trigger(self._drain_inbox)
        from ui.root import Root

        return Root()

    def open_settings(self, *_args) -> bool:
        """No Kivy settings panel on F1: this is a kiosk, not a developer's window."""
        return False

    def on_start(self) -> None:
        self.open_store(self.db_path)
        self.start_hardware()

    def on_stop(self) -> None:
        self.stop_hardware()
        self._stop_timer()
        if self.store is not None:
            self.store.close()
            self.store = None

    @property
    def screens(self):
        return self.root.ids.sm

    def show(self, name: str) -> None:
        self.screens.current = name

    def _on_window_size(self, _window, size) -> None:
        self.u = theme.unit(*size)

    # -- store and sessions --------------------------------------------------------------
    def open_store(self, path: str | Path) -> None:
        """Use the game database at ``path`` (the tests give each test its own)."""
        self.leave_session()
        if self.store is not None:
            self.store.close()
        self.db_path = str(path)
        try:
            self.store = Store(path)
            self.notice = self.store.notice or ""
        except (OSError, sqlite3.Error) as problem:  # unwritable disk, full disk: still play
            self.store = Store(":memory:")
            self.notice = (f"The game database {path} cannot be used ({problem}). "
                           "Games played now are NOT saved.")
        self.show("home")
        self.screens.get_screen("home").refresh()

    def start_game(self, setup: dict[str, Any]) -> str | None:
        """Start the game the setup names; returns the SetupError's message, or None when the
        game is on."""
        try:
            session = self.store.new_game(get_rules(setup["game"]), setup)
        except SetupError as problem:
            return str(problem)
        self._play(session)
        return None

    def resume(self, game_id: int) -> None:
        try:
            session = self.store.open_session(game_id)
        except CompanionError as problem:
            self.notice = str(problem)
            return
        self._play(session)

    def abandon(self, game_id: int) -> None:
        self.store.abandon(game_id)
        self.screens.get_screen("home").refresh()

    def leave_session(self) -> None:
        self.session = None
        self.summary, self.prompt = {}, {}
        self.can_undo = self.can_redo = False
        self._stop_timer()
        self._show_lights(None)

    def new_game(self, game: str = "witchs_brew") -> None:
        self.leave_session()
        self.show(GAMES[game].setup_screen)

    def open_hardware(self) -> None:
        """The Hardware screen (from home): the wiring, editable, and a test of every input."""
        self.leave_session()
        self.dismiss_refusal()
        self.show("hardware_settings")

    def go_home(self) -> None:
        self.leave_session()
        self.dismiss_refusal()
        self.show("home")
        self.screens.get_screen("home").refresh()

    def _play(self, session) -> None:
        self.session = session
        session.add_listener(self._on_change)
        self._on_change(session, None)

    def _on_change(self, session, _step) -> None:
        """Every change, from any input, ends here: refresh what the screens bind to."""
        if session is not self.session:
            return
        self.summary = session.summary()
        self.prompt = session.prompt()
        self.can_undo, self.can_redo = session.can_undo, session.can_redo
        # The turn timer restarts when the game moves on to another turn, phase or round.
        key = tuple(self.summary.get(k) for k in ("set", "round", "season_number", "turn_no")) \
            + (self.prompt.get("phase"), self.prompt.get("seat"), self.prompt.get("turn"))
        if key != self._turn_key:
            self._turn_key, self._turn_started, self.turn_seconds = key, time.monotonic(), 0
        self.revision += 1
        seat = self.prompt.get("seat")
        self._show_lights(seat)
        if session is self._cue[0] and seat is not None and seat != self._cue[1]:
            self.buzz("turn")   # the awaited seat changed (not on starting or resuming a game)
        self._cue = (session, seat)
        game = GAMES[session.rules.name]
        if session.over:
            self._stop_timer()
            self.show(game.result_screen)
        else:
            self._start_timer()
            self.show(game.table_screen)

    # -- commands and inputs -------------------------------------------------------------
    def send(self, command: Command) -> bool:
        """Play a command from the screen; a refusal is shown and changes nothing."""
        if self.session is None:
            return False
        try:
            self.session.execute(command)
        except RuleViolation as refusal:
            self.refuse(str(refusal))
            return False
        return True

    def press(self, input_id: str, source: str = "touch") -> None:
        """An on-screen seat or table button: the same path as a physical one."""
        self.handle(InputEvent("button", input_id, source=source))

    def handle(self, event: InputEvent):
        """Any input, on the main thread: the game's input map gives it meaning. A refusal is
        shown (and beeped, for a physical input) and changes nothing. A die from the tray is
        shown in the status strip whether or not the game takes it. The ``menu`` button goes
        home (the game is saved and offered for resume). Returns the step played, or None."""
        from_tray = event.kind == "die" and event.source == "serial"
        if from_tray:
            self.dice_activity = f"die {event.id}: {event.value}"
        if event.kind == "button" and event.id == "menu":
            self.go_home()
            return None
        if self.session is None:
            if from_tray:
                self.dice_activity += " (no game in play)"
            return None
        try:
            return self.session.handle_input(event)
        except RuleViolation as refusal:
            reason = str(refusal)
            if event.kind == "die":
                reason = f"Die {event.id} showed {event.value}: {reason}"
                if from_tray:
                    self.dice_activity += ", not applied"
            self.refuse(reason)
            if event.source in PHYSICAL_SOURCES:
                self.buzz("refused")
            return None

    def undo(self) -> None:
        self.send(Command("undo"))

    def redo(self) -> None:
        self.send(Command("redo"))

    def refuse(self, message: str) -> None:
        self.refusal = message
        self._clear_refusal.cancel()
        self._clear_refusal()

    def dismiss_refusal(self) -> None:
        self.refusal = ""

    def _drain_inbox(self, *_args) -> None:
        """Main thread: play every input the devices queued since the last wake-up."""
        for event in self.inbox.drain():
            if self.input_listener is not None:   # the Hardware screen's test: no game play
                self.input_listener(event)
                continue
            if event.kind == "button" and event.value == "hold":
                self._hold(event)
                continue
            if event.source == "serial" and event.kind in ("die", "die_moving"):
                event = self._game_die(event)
            if event.kind == "die_moving":
                self.dice_activity = f"die {event.id} rolling..."   # never a result
                continue
            step = self.handle(event)
            if event.kind == "button":
                self._last_press = (event.id, self.session, step, self.revision)

    def hold_meaning(self, input_id: str) -> str | None:
        """What holding ``input_id`` means on this table: HOLD_UNDO, HOLD_MENU or None."""
        wired = self.hardware_config.buttons if self.hardware_config is not None else {}
        if input_id.startswith("seat") and input_id.endswith(".pass") and "undo" not in wired:
            return HOLD_UNDO
        if input_id == "next" and "menu" not in wired:
            return HOLD_MENU
        return None

    def _hold(self, event: InputEvent) -> None:
        """A button held past hold_s (after its press was played). Its meaning replaces the
        press: what the press played is taken back first, and only if nothing else was played
        since; otherwise the hold is refused and changes nothing."""
        meaning = self.hold_meaning(event.id)
        if meaning is None or (meaning == HOLD_UNDO and self.session is None):
            return
        pressed, session, step, revision = self._last_press
        self._last_press = (None, None, None, -1)
        if pressed == event.id and step is not None:
            if session is not self.session or revision != self.revision:
                self.refuse(f"Holding {event.id} did nothing: something else was played "
                            "after it was pressed")
                self.buzz("refused")
                return
            try:
                self.session.undo()          # the press's own step
            except RuleViolation as refusal:
                self.refuse(str(refusal))
                return
        self.dismiss_refusal()               # a refused press is replaced by its hold
        if meaning == HOLD_MENU:
            self.go_home()
        elif not self.send(Command("undo")):
            self.buzz("refused")

    def _game_die(self, event: InputEvent) -> InputEvent:
        """The tray's die as the game knows it: [dice.ids] and [dice.face_names]."""
        if self.dice_config is None:
            return event
        die, value = self.dice_config.game_die(event.id, event.value)
        return replace(event, id=die, value=value)

    def _on_key_down(self, _window, key, _scancode, _codepoint, modifiers) -> bool:
        """Demo mode: keys stand in for the seat buttons and feed the same Inbox (on the table
        screens, and on the Hardware screen for its test unless a text field is typed in)."""
        testing = self.input_listener is not None and \
            not getattr(self.screens.current_screen, "typing", False)
        if not self.demo or not (testing or self.session is not None
                                 and self.screens.current in table_screens()):
            return False
        if set(modifiers) & {"ctrl", "alt", "meta"}:
            return False
        from hardware.config import input_for_key

        input_id = input_for_key(_KEY_NAMES.get(key, ""))
        if input_id is None:
            return False
        self.inbox.put(InputEvent("button", input_id, source="keyboard"))
        return True

    # -- devices -------------------------------------------------------------------------
    def start_hardware(self) -> None:
        """Buttons, seat LEDs and the buzzer (GPIO) and the dice tray (serial) from the config.
        Each part that cannot start is said on screen; the others still start, and touch
        always works. Device threads only ``put`` on the Inbox or schedule on the Clock."""
        self.stop_hardware()
        self.hardware_status = self.hardware_problem = ""
        self.key_labels = {}
        self.hardware_config = None
        try:
            from hardware import DEMO_CONFIG, KEYBOARD_MAP, key_label, load_config

            if self.demo:
                from gpiozero.pins.mock import MockFactory

                self.pin_factory, config = MockFactory(), DEMO_CONFIG
                self.key_labels = {i: key_label(i) for i in set(KEYBOARD_MAP.values())}
            else:
                self.pin_factory = None  # gpiozero's own choice: GPIOZERO_PIN_FACTORY
                config = self._load_config(load_config)
        except Exception as problem:  # a bad config, gpiozero missing: say so, keep touch
            log.warning("hardware config unusable: %s", problem)
            self.hardware_problem = f"Hardware config not used: {problem}. Touch still works."
            return
        self.hardware_config = config
        problems = []
        if not config.is_empty:
            problems += self._start_gpio(config)
        if config.dice is not None:
            problems += self._start_dice(config.dice)
        self.hardware_problem = " ".join(problems)
        if self.demo:
            self.hardware_status = "Demo: mock buttons; keys stand in for them."
        elif not config.buttons:
            self.hardware_status = ("No buttons configured: dice tray and touch."
                                    if config.dice is not None
                                    else "No buttons configured: play by touch.")

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

        self._dice_generation += 1
        generation = self._dice_generation

        def on_status(status) -> None:   # reader threads: hand over, touch nothing
            Clock.schedule_once(partial(self._on_dice_status, generation, status))

        self.dice_config = dice
        self.dice_status = f"dice reader: opening {dice.url}"
        self.dice_ok, self.dice_activity = False, ""
        try:
            self.dice_reader = DiceReader.from_config(dice, self.inbox.put, on_status=on_status,
                                                      backoff=self.dice_backoff)
        except Exception as problem:
            log.warning("dice reader unavailable: %s", problem)
            self.dice_config, self.dice_status = None, ""
            return [f"Dice reader unavailable: {problem}. Enter dice by touch."]
        return []

    def _on_dice_status(self, generation: int, status, *_dt) -> None:
        """Main thread: show what the dice reader reports."""
        from hardware.dice import DiceStatus

        if generation != self._dice_generation or self.dice_reader is None:
            return   # from a reader closed since
        if status.state == DiceStatus.REFUSED:   # a value no die can show: nothing applied
            self.dice_activity = status.text
            self.refuse(status.text[:1].upper() + status.text[1:])
            self.buzz("refused")
        elif status.state == DiceStatus.DEVICE_ERROR:
            self.dice_activity = status.text   # the tray's own trouble; still connected
        elif status.state != DiceStatus.CLOSED:
            self.dice_status = status.text
            self.dice_ok = status.state in (DiceStatus.CONNECTED, DiceStatus.READY)

    def buzz(self, kind: str) -> None:
        """A buzzer cue ("turn", "refused"), if there is a buzzer; never fails the app."""
        if self.buzzer is not None:
            try:
                self.buzzer.beep(kind)
            except Exception:
                log.exception("buzzer")

    def config_path(self) -> Path:
        """The hardware config the app reads (and the Hardware screen writes): ``--hardware``,
        else ``hardware.toml`` in the user config directory."""
        from hardware.config import default_config_path

        return Path(self.hardware_path) if self.hardware_path else default_config_path()

    def _load_config(self, load_config):
        return load_config(self.config_path(), missing_ok=not self.hardware_path)

    def stop_hardware(self) -> None:
        """Close every device (the dice reader within ~2 s at most); safe to call twice."""
        self._dice_generation += 1
        self._close_devices("buttons", "lights", "buzzer", "dice_reader")
        self.dice_config = None
        self.dice_status = self.dice_activity = ""
        self.dice_ok = False

    def _close_devices(self, *names: str) -> None:
        for name in names:
            device = getattr(self, name)
            setattr(self, name, None)
            if device is not None:
                try:
                    device.close()
                except Exception:
                    log.exception("closing %r", device)

    def _show_lights(self, seat: int | None) -> None:
        if self.lights is not None:
            try:
                self.lights.show(None if seat is None else seat + 1)
            except Exception:
                log.exception("seat lights")

    # -- turn timer (1 Hz, only while a game runs) ----------------------------------------
    def _start_timer(self) -> None:
        if self._timer is None:
            self._timer = Clock.schedule_interval(self._tick, 1.0)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _tick(self, _dt) -> None:
        self.turn_seconds = int(time.monotonic() - self._turn_started)
