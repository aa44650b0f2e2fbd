"""One tap on the panel is one press: the Kivy input providers the kiosk configures
(``ui.kiosk.touch.touch_inputs``) read a touch panel once, and nothing else turns the same touch
into a second event.

The panel here is synthetic but speaks the kernel's language: a fake ``/sys/class/input`` tree
(a multitouch panel and a keyboard, as Kivy's probesysfs finds them) and, for each opening of
``/dev/input/event7``, a pipe of ``struct input_event`` records in multitouch protocol B (slot,
tracking id, positions, BTN_TOUCH, SYN_REPORT), as the official displays send them. Like evdev,
the panel writes every event to every open reader. Kivy's own mtdev provider reads it through a
stand-in for libmtdev (which passes protocol B through unchanged and is not installed on CI);
the providers are built from the config exactly as Kivy's ``runTouchApp`` builds them, and a
button at the tapped spot counts its ``on_press``.
"""

from __future__ import annotations

import os
import select
import struct
import sys
import threading
from dataclasses import dataclass

import pytest
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.input.factory import MotionEventFactory
from kivy.uix.button import Button

from ui.kiosk.touch import touch_inputs, use_touch_inputs

EVENT = struct.Struct("llHHi")          # struct input_event on a 64-bit kernel (timeval first)
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT, BTN_TOUCH, ABS_X, ABS_Y = 0, 0x14A, 0, 1
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39
PANEL = (800, 480)                      # the official 7" display's touch range
MTDEV_ABS_POSITION_Y = 6                # libmtdev's index of the y axis (kivy.lib.mtdev)


@dataclass(frozen=True)
class Abs:
    minimum: int
    maximum: int


@dataclass(frozen=True)
class Event:
    type: int
    code: int
    value: int


class FakeMtdev:
    """What ``kivy.lib.mtdev.Device`` gives the provider, on a pipe the panel writes to."""

    def __init__(self, panel: "Panel", filename: str) -> None:
        if filename != panel.node:
            raise OSError(2, "No such device", filename)
        self.read_fd, self.write_fd = os.pipe()
        self.buffer = b""
        self.closed = False
        self.panel = panel
        panel.opened(self)

    def __bool__(self) -> bool:         # the provider reads while its device is truthy
        return not self.closed

    def get_abs(self, index: int) -> Abs:
        """The axes' ranges, by libmtdev's index (5: x, 6: y; the rest as wide as the panel)."""
        return Abs(0, (PANEL[1] if index == MTDEV_ABS_POSITION_Y else PANEL[0]) - 1)

    def idle(self, ms: int) -> bool:
        """True while nothing came within ``ms``; each call with nothing left tells the panel
        that everything written so far has been read and handed to Kivy."""
        if self.closed:
            self._release()
            return False
        if len(self.buffer) < EVENT.size:
            self.panel.drained(self)
        ready, _, _ = select.select([self.read_fd], [], [], ms / 1000)
        return not ready and len(self.buffer) < EVENT.size

    def get(self) -> Event | None:
        if self.closed:
            self._release()
            return None
        if len(self.buffer) < EVENT.size:
            ready, _, _ = select.select([self.read_fd], [], [], 0)
            if ready:
                self.buffer += os.read(self.read_fd, 4096)
        if len(self.buffer) < EVENT.size:
            return None
        _sec, _usec, kind, code, value = EVENT.unpack_from(self.buffer)
        self.buffer = self.buffer[EVENT.size:]
        return Event(kind, code, value)

    def close(self) -> None:
        """Unplugged: the provider's thread wakes (end of file), sees a falsy device, closes
        its end and stops."""
        if not self.closed:
            self.closed = True
            os.close(self.write_fd)

    def _release(self) -> None:
        if self.read_fd >= 0:
            os.close(self.read_fd)
            self.read_fd = -1


class Panel:
    """A multitouch panel on /dev/input/event7: every tap goes to every open reader."""

    node = "/dev/input/event7"

    def __init__(self) -> None:
        self.readers: list[FakeMtdev] = []
        self.written: dict[int, int] = {}
        self.condition = threading.Condition()
        self.tracking = 0

    def opened(self, reader: FakeMtdev) -> None:
        with self.condition:
            self.readers.append(reader)
            self.condition.notify_all()

    def wait_open(self, count: int) -> None:
        """Until ``count`` provider threads have opened the panel (each opens it itself)."""
        with self.condition:
            assert self.condition.wait_for(lambda: len(self.readers) >= count, timeout=30), \
                f"{len(self.readers)} of {count} readers opened the panel"

    def drained(self, reader: FakeMtdev) -> None:
        with self.condition:
            self.condition.notify_all()

    def tap(self, x: int, y: int) -> None:
        """A finger down at panel pixel (x, y) (from the top left) and up again."""
        self.tracking += 1
        down = [(EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, self.tracking),
                (EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_MT_POSITION_Y, y),
                (EV_KEY, BTN_TOUCH, 1), (EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y),
                (EV_SYN, SYN_REPORT, 0)]
        up = [(EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_KEY, BTN_TOUCH, 0), (EV_SYN, SYN_REPORT, 0)]
        data = b"".join(EVENT.pack(0, 0, *event) for event in down + up)
        for reader in self.readers:
            os.write(reader.write_fd, data)
        self.wait_read()

    def wait_read(self) -> None:
        """Until every reader has taken every byte (the provider thread queued its events)."""
        def done() -> bool:
            return all(len(r.buffer) < EVENT.size and not select.select([r.read_fd], [], [], 0)[0]
                       for r in self.readers)
        with self.condition:
            assert self.condition.wait_for(done, timeout=30), "the provider never read the panel"


@pytest.fixture
def panel(tmp_path, monkeypatch):
    """The panel and a keyboard in a fake /sys/class/input; Kivy's mtdev provider on it."""
    for name, device, abs_bits in (
            ("event7", "generic ft5x06 (79)", (ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X,
                                               ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID)),
            ("event0", "USB keyboard", ())):
        folder = tmp_path / "class" / "input" / name / "device" / "capabilities"
        folder.mkdir(parents=True)
        (folder / "abs").write_text(f"{sum(1 << bit for bit in abs_bits):x}\n")
        (folder.parent / "name").write_text(device + "\n")

    # libmtdev is not on CI: its bindings load without it (as for Kivy's docs), and the
    # provider module is imported with them; then its Device is the fake one.
    if "kivy.input.providers.mtdev" not in sys.modules:
        monkeypatch.setenv("KIVY_DOC", "1")
        import kivy.lib.mtdev  # noqa: F401
        monkeypatch.delenv("KIVY_DOC")
        import kivy.input.providers.mtdev  # noqa: F401
    mtdev = sys.modules["kivy.input.providers.mtdev"]
    probesysfs = sys.modules["kivy.input.providers.probesysfs"]
    the_panel = Panel()
    monkeypatch.setattr(mtdev, "Device", lambda filename: FakeMtdev(the_panel, filename))
    inputs = probesysfs.get_inputs
    monkeypatch.setattr(probesysfs, "_cache_input", None)
    monkeypatch.setattr(probesysfs, "_cache_xinput", [])      # no X11: no xinput to ask
    monkeypatch.setattr(probesysfs, "get_inputs",
                        lambda _path: inputs(str(tmp_path / "class" / "input")))
    yield the_panel
    for reader in the_panel.readers:
        reader.close()


@pytest.fixture
def button(app):
    """A button in the middle of the 800x480 window, above the app, counting its presses."""
    target = Button(size_hint=(None, None), size=(200, 100), pos=(300, 190))
    target.presses = 0
    target.bind(on_press=lambda *_: setattr(target, "presses", target.presses + 1))
    Window.add_widget(target)
    yield target
    Window.remove_widget(target)


def start_providers(items: list[tuple[str, str]]) -> list:
    """Kivy's ``runTouchApp`` way: one provider per ``[input]`` entry (probesysfs adds one
    per matching device to the event loop itself); each started, as ``EventLoop.start`` does."""
    before = list(EventLoop.input_providers)
    made = []
    for key, value in items:
        provider_id, _, args = value.partition(",")
        provider = MotionEventFactory.get(provider_id)(key, args)
        if provider:
            made.append(provider)
    made += [p for p in EventLoop.input_providers if p not in before and p not in made]
    for provider in made:
        EventLoop.add_input_provider(provider)
        provider.start()
    return made


@pytest.fixture
def providers():
    started: list = []
    yield started
    for provider in started:
        provider.stop()
        EventLoop.remove_input_provider(provider)


def tap_middle(panel: Panel, times: int = 1) -> None:
    """Tap the window's middle (400, 240 from the top), then let Kivy dispatch it."""
    for _ in range(times):
        panel.tap(PANEL[0] // 2, PANEL[1] // 2)
        for _ in range(3):
            EventLoop.idle()


def test_one_tap_is_one_press_with_the_kiosk_inputs(app, panel, button, providers):
    providers += start_providers(list(touch_inputs(console=True).items()))
    assert [p.input_fn for p in providers] == [Panel.node]    # the panel, not the keyboard
    panel.wait_open(1)
    tap_middle(panel)
    assert button.presses == 1
    tap_middle(panel, times=3)
    assert button.presses == 4


def test_a_second_provider_for_the_same_panel_presses_twice(app, panel, button, providers):
    """Kivy's own default line (``%(name)s = probesysfs``) beside the kiosk's: the panel is
    opened twice and each tap presses twice. This is what ``use_touch_inputs`` removes."""
    kivy_default = ("%(name)s", "probesysfs")
    providers += start_providers([kivy_default, *touch_inputs(console=True).items()])
    assert [p.input_fn for p in providers] == [Panel.node, Panel.node]
    panel.wait_open(2)
    tap_middle(panel)
    assert button.presses == 2


def test_the_kiosk_has_no_mouse_provider_and_a_desktop_no_panel_reader():
    """On the console SDL turns each touch into a mouse click too: no ``mouse`` provider
    there. On a desktop the window system gives the touchscreen as the pointer: ``mouse``
    alone, without multitouch emulation, and nothing reads /dev/input behind its back."""
    kiosk, desktop = touch_inputs(console=True), touch_inputs(console=False)
    assert [value.split(",")[0] for value in kiosk.values()] == ["probesysfs"]
    assert "provider=mtdev" in kiosk["touch_%(name)s"].split(",")
    assert "select_all=0" in kiosk["touch_%(name)s"].split(",")
    assert desktop == {"mouse": "mouse,disable_multitouch"}


@pytest.mark.parametrize("console", [True, False])
def test_use_touch_inputs_replaces_kivys_default_section(console):
    from kivy.config import ConfigParser

    config = ConfigParser(name=f"touch-test-{console}")
    config.add_section("input")
    config.set("input", "mouse", "mouse")
    config.set("input", "%(name)s", "probesysfs")
    use_touch_inputs(config, console=console)
    assert dict(config.items("input")) == touch_inputs(console)
