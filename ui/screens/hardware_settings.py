"""Hardware: the table's wiring, edited on the touchscreen, and a live test of every button.

The screen edits a *draft*, the TOML tables of ``hardware.toml`` as a dict. "Check" runs the
draft through ``parse_config`` (the same validation as at start) and shows the error naming
the key; "Save and restart devices" writes the file atomically and restarts the devices, so the
new wiring works at once. While the screen is shown it takes every input from the Inbox
instead of the game: a press lights its row ("seat2.claim pressed"), a hold says what holding
means, a die shows its value. In demo mode the demo table is shown and can be edited and
checked, but not saved (demo mode always runs on the demo table).
"""

from __future__ import annotations

import copy
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from hardware.config import (
    SEAT_BUTTONS, SEAT_LED, STANDARD_BAUDRATES, ConfigError, HardwareConfig, config_to_data,
    keep_unreadable, parse_config, read_toml, save_config,
)
from ui import theme
from ui.screens.hw_draft import describe, draft_from
from ui.widgets.common import Box, FlatButton, Txt
from ui.widgets.hw_fields import PinCell, PinPicker, serial_ports

BOUNCE_CHOICES = (0, 5, 10, 15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 300, 500)
HOLD_CHOICES = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0)
TURN_LIMIT_CHOICES = (0, 30, 45, 60, 90, 120, 180, 240, 300, 600)   # 0: no time cue
BAUD_CHOICES = tuple(b for b in STANDARD_BAUDRATES if 9600 <= b <= 1000000)
LIGHT_SECONDS = 2.0
TONES = {"info": theme.SURFACE_HI, "good": theme.GOOD, "bad": theme.BAD, "test": theme.ACCENT}
TEST_HINT = ("Test: press any button on the table and its row lights up here (the game is "
             "not played while this screen is open).")


def seat_keys(seat: int) -> list[str]:
    return [f"seat{seat}.{name}" for name in (*SEAT_BUTTONS, SEAT_LED)]


class HwRow(Box):
    """A labelled row of pin cells (``keys``); lit while one of its inputs was just used."""

    label = StringProperty("")
    keys = ListProperty([])
    lit = BooleanProperty(False)

    def on_kv_post(self, _base) -> None:
        screen = self._screen()
        for key in self.keys:
            cell = PinCell(key=key)
            cell.bind(on_release=lambda c: screen.pick_pin(c.key))
            self.ids.cells.add_widget(cell)
            screen.cells[key] = cell
            screen.rows[key] = self

    def _screen(self):
        parent = self.parent
        while not isinstance(parent, HardwareSettingsScreen):
            parent = parent.parent
        return parent


class HardwareSettingsScreen(Screen):
    where = StringProperty("")       # the file the config is saved to, or the demo note
    message = StringProperty(TEST_HINT)
    tone = StringProperty("info")
    can_save = BooleanProperty(True)
    url_bad = BooleanProperty(False)
    ports = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self.cells: dict[str, PinCell] = {}
        self.rows: dict[str, HwRow] = {}
        self.draft: dict[str, Any] = {}
        self.dirty = False
        self._lit: list[Any] = []
        self._unlight = Clock.create_trigger(lambda *_: self._light(None), LIGHT_SECONDS)
        super().__init__(**kwargs)

    def on_kv_post(self, _base) -> None:
        self.app.bind(u=lambda *_: self._show_ports())

    @property
    def app(self):
        return App.get_running_app()

    @property
    def typing(self) -> bool:
        """A text field has the keyboard: demo keys type into it, they press no button."""
        return bool(self.ids.url.focus)

    # -- entering and leaving: the draft, the test ------------------------------------------
    def on_pre_enter(self, *_args) -> None:
        self.ids.scroll.scroll_y = 1
        self.load()
        self.rescan()
        self.app.devices.input_listener = self.on_input

    def on_pre_leave(self, *_args) -> None:
        if self.app.devices.input_listener == self.on_input:
            self.app.devices.input_listener = None
        self._light(None)

    def load(self) -> None:
        """The draft from what the table runs on: the demo table, or the config file."""
        app = self.app
        self.can_save = not app.demo
        self.dirty, note = False, ""
        if app.demo:
            self.where = ("Demo table on mock buttons: try changes and Check them; nothing is "
                          "saved (run without --demo for a real table).")
            self.draft = config_to_data(app.devices.config or HardwareConfig.empty())
        else:
            path = app.devices.config_path()
            self.where = f"File: {path}"
            self.draft, note = self._read(path)
        self._show_draft()
        self.say(note or TEST_HINT, "bad" if note and "error" in note else "info")

    def _read(self, path) -> tuple[dict[str, Any], str]:
        try:   # the one reader: no link, no pipe, no depth or size it cannot hold
            raw = read_toml(path)
        except FileNotFoundError:
            return config_to_data(HardwareConfig.empty()), \
                "No config file yet: the table runs on touch. Saving creates it."
        except ConfigError as problem:
            return config_to_data(HardwareConfig.empty()), (
                f"The file has an error and cannot be read ({problem}); saving replaces it "
                f"and keeps the old one as {path.name}.bak.")
        draft, dropped = draft_from(raw)
        notes = []
        try:
            parse_config(raw)
        except ConfigError as problem:
            notes.append(f"The file has an error: {problem}. Fix it here and save.")
        if dropped:
            notes.append(f"Unknown keys not shown (saving drops them): {', '.join(dropped)}.")
        return draft, " ".join(notes)

    # -- the draft -----------------------------------------------------------------------
    def _slot(self, key: str, create: bool = False) -> tuple[dict | None, str]:
        """(the table holding ``key``'s pin in the draft, the name in it)."""
        if key == "buzzer.pin":
            section, name = ["buzzer"], "pin"
        elif key.startswith("seat"):
            seat, name = key[4:].split(".", 1)
            section = ["seats", seat]
        else:
            section, name = ["buttons"], key
        table: Any = self.draft
        for part in section:
            if not isinstance(table, dict) or (part not in table and not create):
                return None, name
            table = table.setdefault(part, {})
        return (table if isinstance(table, dict) else None), name

    def pin_of(self, key: str) -> Any:
        table, name = self._slot(key)
        return None if table is None else table.get(name)

    def set_pin(self, key: str, pin: int | None) -> None:
        """Put ``pin`` on ``key`` in the draft (None: not wired); nothing is saved yet."""
        if pin is None:
            table, name = self._slot(key)
            if table is not None:
                table.pop(name, None)
            seats = self.draft.get("seats", {})
            for number in [n for n, keys in seats.items() if not keys]:
                del seats[number]
            if not self.draft.get("buzzer"):
                self.draft.pop("buzzer", None)
        else:
            table, name = self._slot(key, create=True)
            table[name] = pin
        self.dirty = True
        self._show_draft()
        self.say(f"{key}: {'not wired' if pin is None else f'GPIO{pin}'}. Not saved yet: "
                 "Check, or Save and restart devices.", "info")

    def used_pins(self) -> dict[int, str]:
        return {pin: key for key in self.cells
                if isinstance(pin := self.pin_of(key), int)}

    def set_option(self, name: str, value: Any) -> None:
        self.draft.setdefault("options", {})[name] = value
        self.dirty = True

    def set_turn_limit(self, seconds: int) -> None:
        """The buzzer's time cue after a turn this long; 0 takes the key out."""
        buzzer = self.draft.get("buzzer", {})
        if buzzer.get("turn_limit_s", 0) == seconds:
            return
        if seconds:
            self.draft.setdefault("buzzer", {})["turn_limit_s"] = seconds
        else:
            buzzer.pop("turn_limit_s", None)
            if not buzzer:
                self.draft.pop("buzzer", None)
        self.dirty = True

    def set_dice(self, name: str, value: Any) -> None:
        if "dice" not in self.draft and name == "url" and not value:
            return
        dice = self.draft.setdefault("dice", {})
        if dice.get(name) != value:
            dice[name] = value
            self.dirty = True
            self.url_bad = False

    def data(self) -> dict[str, Any]:
        """The draft as the file would say it: no [dice] without a URL."""
        data = copy.deepcopy(self.draft)
        url = data.get("dice", {}).get("url")
        if "dice" in data and (url is None or (isinstance(url, str) and not url.strip())):
            del data["dice"]
        return data

    def _show_draft(self) -> None:
        for key, cell in self.cells.items():
            cell.pin, cell.bad = self.pin_of(key), False
        options = self.draft.get("options", {})   # a wrong value shows the default; Check names it
        self.ids.bounce.value = number(options.get("bounce_ms"), 30)
        self.ids.hold.value = number(options.get("hold_s"), 1.5)
        self.ids.turn_limit.value = number(self.draft.get("buzzer", {}).get("turn_limit_s"), 0)
        dice = self.draft.get("dice", {})
        url = dice.get("url", "")
        self.ids.url.text = url if isinstance(url, str) else repr(url)
        self.ids.baud.value = number(dice.get("baudrate"), 115200)
        self.url_bad = False
        self.ids.smart_dice.show()

    # -- pins, ports ---------------------------------------------------------------------
    def pick_pin(self, key: str) -> None:
        PinPicker(key, self.pin_of(key), self.used_pins(),
                  chosen=lambda pin: self.set_pin(key, pin)).open()

    def rescan(self) -> None:
        self.ports = serial_ports()
        self._show_ports()

    def _show_ports(self) -> None:
        """A full-width button per port found (sized in units: redrawn when the window is)."""
        box = self.ids.ports
        box.clear_widgets()
        u = self.app.u
        for url, shown in self.ports[:3]:
            button = FlatButton(title=shown, fs=18, size_hint_y=None, height=u * 52)
            button.bind(on_release=lambda _b, u=url: self.use_port(u))
            box.add_widget(button)
        if not self.ports:
            box.add_widget(Txt(text="No serial ports found: plug the tray in and Rescan.",
                               fs=18, ink=theme.MUTED, size_hint_y=None, height=u * 40))

    def use_port(self, url: str) -> None:
        self.ids.url.text = url
        self.set_dice("url", url)

    # -- check and save ------------------------------------------------------------------
    def check(self) -> HardwareConfig | None:
        """Validate the draft as the app would at start; the error names the key and lights
        its cell. Changes nothing."""
        for cell in self.cells.values():
            cell.bad = False
        self.url_bad = False
        try:
            config = parse_config(self.data())
        except ConfigError as problem:
            key = str(problem).split(":", 1)[0]
            key = key.removeprefix("buttons.")
            if key in self.cells:
                self.cells[key].bad = True
            self.url_bad = key.startswith("dice")
            self.say(f"{problem}. Nothing was saved.", "bad")
            return None
        self.say(f"Check passed: {describe(config)}."
                 + (" Not saved yet." if self.dirty else ""), "good")
        return config

    def save(self) -> bool:
        """Check, write the file (atomically), restart the devices on it."""
        app = self.app
        if app.demo:
            self.say("Demo mode runs on the demo table: nothing is saved.", "bad")
            return False
        config = self.check()
        if config is None:
            return False
        path = app.devices.config_path()
        try:
            keep_unreadable(path)   # unreadable: kept as .bak (never through a link)
            save_config(config, path)
        except OSError as problem:
            self.say(f"Cannot write {path}: {problem.strerror or problem}. Nothing was "
                     "changed.", "bad")
            return False
        self.dirty = False
        app.devices.stop()
        app.devices.start()
        problem = app.hardware_problem
        self.say(f"Saved to {path}; devices restarted: {describe(config)}."
                 + (f" {problem}" if problem else ""), "bad" if problem else "good")
        return True

    def say(self, text: str, tone: str = "info") -> None:
        self.message, self.tone = text, tone

    # -- the test: inputs come here while the screen is shown -------------------------------
    def on_input(self, event) -> None:
        if event.kind == "button":
            held = event.value == "hold"
            what = f"{event.id} held" if held else f"{event.id} pressed"
            if held:
                meaning = self.app.devices.hold_meaning(event.id)
                what += f" (holding it means {meaning})" if meaning else " (a hold does nothing)"
            if event.id not in self.cells:
                what += " (not in this config)"
            self._light(event.id)
        elif event.kind in ("die", "die_moving"):
            what = (f"die {event.id}: {event.value}" if event.kind == "die"
                    else f"die {event.id} rolling...")
            self._light("dice")
        else:
            return
        if event.source == "ble":   # a smart die: by its name, not its address
            what = what.replace(event.id, self.app.devices.smart_dice.short(event.id))
        source = {"gpio": "GPIO", "serial": "dice tray", "ble": "smart die",
                  "keyboard": "key"}.get(event.source)
        self.say(what + (f"  (from {source})" if source else ""), "test")

    def _light(self, key: str | None) -> None:
        for widget in self._lit:
            widget.lit = False
        self._lit = []
        if key is None:
            return
        targets = [self.cells.get(key), self.rows.get(key)]
        if key == "dice":
            targets = [self.ids.dice_row]
        self._lit = [w for w in targets if w is not None]
        for widget in self._lit:
            widget.lit = True
        self._unlight.cancel()
        self._unlight()


def number(value: Any, default: float) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    return value if ok and value == value else default
