"""The Hardware screen's fields: a pin cell (tap it to choose a pin), the pin picker (every
BCM pin 2-27 with what it is used for), a stepper over a list of choices, and the serial ports
found. No config rules here: the screen checks a draft with ``parse_config``."""

from __future__ import annotations

import os
from typing import Any, Callable

from kivy.properties import (
    BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from hardware.config import FIRST_PIN, LAST_PIN, RESERVED_PINS
from hardware.doctor import BCM_TO_PHYSICAL
from ui import theme
from ui.widgets.common import FlatButton

#: How each role reads on a cell ("so_be_it" -> "so be it").
ROLE_WORDS = {"so_be_it": "so be it", "led": "LED", "pin": "buzzer"}


def role_word(key: str) -> str:
    """'seat2.so_be_it' -> 'so be it', 'undo' -> 'undo', 'buzzer.pin' -> 'buzzer'."""
    name = key.rsplit(".", 1)[-1]
    return ROLE_WORDS.get(name, name)


def owner_words(key: str) -> str:
    """'seat2.so_be_it' -> 'seat 2 so be it' (wraps between words on a small button)."""
    head = key.split(".", 1)[0]
    if head.startswith("seat") and "." in key:
        return f"seat {head[4:]} {role_word(key)}"
    return role_word(key)


def pin_text(pin: Any) -> str:
    """What a cell shows for a draft value: 'GPIO17', 'not wired', or the odd value."""
    if pin is None:
        return "not wired"
    if isinstance(pin, int) and not isinstance(pin, bool):
        return f"GPIO{pin}"
    return f"{pin!r}?"


class PinCell(FlatButton):
    """One input or output of the draft: its pin, its role and the header pin. ``lit`` while
    its button was just pressed (the screen's test), ``bad`` when the check names it."""

    key = StringProperty("")
    pin = ObjectProperty(None, allownone=True)
    lit = BooleanProperty(False)
    bad = BooleanProperty(False)

    def on_kv_post(self, _base) -> None:
        self.fbind("pin", self._show)
        self.fbind("lit", self._show)
        self.fbind("bad", self._show)
        self._show()

    def _show(self, *_args) -> None:
        pin, word = self.pin, role_word(self.key)
        self.title = pin_text(pin)
        physical = BCM_TO_PHYSICAL.get(pin) if isinstance(pin, int) else None
        if self.lit:
            self.caption = f"{word}: pressed"
        else:
            self.caption = f"{word}, pin {physical}" if physical else word
        self.fs = 20 if pin is not None else 18
        if self.lit:
            self.fill, self.ink = theme.ACCENT, theme.DARK_INK
        elif self.bad:
            self.fill, self.ink = theme.BAD, theme.INK
        else:
            # not wired: still a live button (a tap wires it), so white words, never greyed
            self.fill = theme.GREY_BTN if pin is not None else theme.SURFACE_HI
            self.ink = theme.INK


class ChoiceStepper(BoxLayout):
    """``label`` [-] value [+] over ``choices`` (ascending). A value not among the choices
    (from a hand-edited file) is kept until stepped, then moves to the next choice."""

    label = StringProperty("")
    value = NumericProperty(0)
    choices = ListProperty([])
    unit = StringProperty("")
    zero = StringProperty("")        # what 0 means, when it means "off"
    changed = ObjectProperty(None, allownone=True)

    def step(self, by: int) -> None:
        ahead = [c for c in self.choices if (c > self.value if by > 0 else c < self.value)]
        if not ahead:
            return
        self.value = ahead[0] if by > 0 else ahead[-1]
        if self.changed is not None:
            self.changed(self)

    @staticmethod
    def shown(value: float, unit: str, zero: str = "") -> str:
        if zero and value == 0:
            return zero
        number = f"{value:g}"
        return f"{number} {unit}" if unit else number


class PinPicker(ModalView):
    """Choose a BCM pin for ``key``: a pad of every pin 2-27 with what uses it now, the
    reserved ones (I2C, UART) greyed out, and 'Not wired'. ``chosen(pin or None)``."""

    title = StringProperty("")

    def __init__(self, key: str, current: Any, used: dict[int, str],
                 chosen: Callable[[int | None], None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.key, self.chosen = key, chosen
        self.title = f"{key}: choose a BCM pin  (now {pin_text(current)})"
        pad = self.ids.pad
        for pin in range(FIRST_PIN, LAST_PIN + 1):
            owner = used.get(pin)
            button = FlatButton(title=str(pin), fs=22, selected=pin == current)
            if pin in RESERVED_PINS:
                button.caption, button.disabled = RESERVED_PINS[pin].split(" ")[0], True
            elif owner is not None and owner != key:
                button.caption, button.fill = owner_words(owner), theme.SURFACE_HI
            else:
                button.caption = f"free, pin {BCM_TO_PHYSICAL[pin]}" if owner is None \
                    else f"pin {BCM_TO_PHYSICAL[pin]}"
                button.fill = theme.GOOD if pin == current else theme.GREY_BTN
            button.bind(on_release=lambda _b, p=pin: self.pick(p))
            button.pin = pin
            pad.add_widget(button)
        none = FlatButton(title="Not wired", fs=18, fill=theme.CALM)
        none.bind(on_release=lambda *_: self.pick(None))
        cancel = FlatButton(title="Cancel", fs=18)
        cancel.bind(on_release=lambda *_: self.dismiss())
        pad.add_widget(none)
        pad.add_widget(cancel)

    def pick(self, pin: int | None) -> None:
        self.dismiss()
        self.chosen(pin)


def serial_ports() -> list[tuple[str, str]]:
    """(what to put in dice.url, what to show) for each serial port found: the stable
    /dev/serial/by-id link where there is one, else the device. Never raises."""
    try:
        from serial.tools import list_ports

        ports = sorted(list_ports.comports(), key=lambda p: p.device)
    except Exception:
        return []
    links: dict[str, str] = {}
    try:
        folder = "/dev/serial/by-id"
        for name in sorted(os.listdir(folder)):
            links.setdefault(os.path.realpath(os.path.join(folder, name)), name)
    except OSError:
        pass
    found = []
    for port in ports:
        link = links.get(os.path.realpath(port.device))
        if link:
            found.append((f"/dev/serial/by-id/{link}", f"{link} ({port.device})"))
        else:
            about = port.description if port.description not in (None, "", "n/a") else ""
            found.append((port.device, f"{port.device} {about}".strip()))
    return found
