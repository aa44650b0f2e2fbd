"""``companion doctor``: what hardware the app would find, and whether each part answers.

Prints, section by section: the GPIO pin factory, the config, every configured button, LED and
the buzzer (opened for real, then released), the serial ports found, the dice tray's greeting,
the user's groups and the GL renderer the app would get. ``--interactive`` then lights each
LED, sounds the buzzer, waits for each button and for a die roll. The exit status is 1 if a
configured device failed.
"""

from __future__ import annotations

import grp
import os
import subprocess
import sys
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

from companion.core.model import InputEvent

from .config import HardwareConfig
from .errors import ConfigError

OK, WARN, FAIL, INFO = "ok", "WARN", "FAIL", "info"

# BCM GPIO -> physical pin on the 40-pin header (every Pi since the B+).
BCM_TO_PHYSICAL = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31, 13: 33,
    19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 12: 32,
    16: 36, 20: 38, 21: 40,
}

SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swrast", "software rasterizer")
GROUPS = {"video": "the GPU", "render": "the GPU", "gpio": "GPIO pins",
          "dialout": "serial ports", "input": "the touchscreen"}

# Run in a child process: a failing or hanging GL driver cannot take the doctor down with it.
GL_PROBE = r"""
import os
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
from kivy.config import Config
Config.set("graphics", "width", "64")
Config.set("graphics", "height", "64")
from kivy.core.window import Window
from kivy.graphics.opengl import glGetString, GL_RENDERER, GL_VENDOR, GL_VERSION
for key, name in ((GL_RENDERER, "RENDERER"), (GL_VENDOR, "VENDOR"), (GL_VERSION, "VERSION")):
    value = glGetString(key)
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    print(f"GL_{name}={value}", flush=True)
"""


def pin_label(pin: int) -> str:
    physical = BCM_TO_PHYSICAL.get(pin)
    return f"GPIO{pin} (pin {physical})" if physical else f"GPIO{pin}"


def on_raspberry_pi() -> bool:
    for path in ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model"):
        try:
            if "Raspberry Pi" in Path(path).read_text(errors="replace"):
                return True
        except OSError:
            pass
    return False


def judge_renderer(renderer: str, *, on_pi: bool) -> tuple[str, str]:
    """(status, sentence) for a GL_RENDERER string."""
    if any(word in renderer.lower() for word in SOFTWARE_RENDERERS):
        if on_pi:
            return WARN, (f"{renderer}: software rendering on a Raspberry Pi means the app "
                          f"cannot use the GPU, almost always a permission problem: add the "
                          f"user to the video and render groups (sudo usermod -aG video,render "
                          f"$USER), log in again; check dtoverlay=vc4-kms-v3d in config.txt")
        return INFO, f"{renderer}: software rendering (normal on a machine without a GPU driver)"
    return OK, renderer


def probe_gl(timeout: float = 20.0, python: str = sys.executable,
             env: dict[str, str] | None = None) -> dict[str, str]:
    """Open a tiny Kivy window in a child process; return {"RENDERER": ..., ...} or
    {"error": ...}."""
    try:
        done = subprocess.run([python, "-c", GL_PROBE], capture_output=True, text=True,
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"error": f"no answer within {timeout:g} s"}
    except OSError as exc:
        return {"error": f"cannot run {python}: {exc}"}
    found = {}
    for line in done.stdout.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.startswith("GL_"):
            found[key[3:]] = value.strip()
    if "RENDERER" not in found:
        tail = [line for line in (done.stderr or "").strip().splitlines() if line.strip()][-3:]
        found["error"] = (f"could not open a window (exit status {done.returncode})"
                          + (": " + " | ".join(tail) if tail else ""))
    return found


def missing_groups() -> list[str]:
    """The hardware groups that exist here and the user is not in (none for root)."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return []
    mine = set(os.getgroups()) | {os.getgid()}
    missing = []
    for name in GROUPS:
        try:
            gid = grp.getgrnam(name).gr_gid
        except KeyError:
            continue
        if gid not in mine:
            missing.append(name)
    return missing


@dataclass
class Finding:
    status: str
    text: str


class Doctor:
    """One run of the checks. ``out`` receives the report; ``on_wait(kind, id)`` is called
    in interactive mode right before waiting for an input (kind "button" or "die"), which is
    how tests press the buttons."""

    def __init__(self, config: HardwareConfig | None, *, source: str = "",
                 config_error: str | None = None, pin_factory=None,
                 out: TextIO | None = None, gl: bool = True, gl_timeout: float = 20.0,
                 dice_wait: float = 3.0, interactive: bool = False, led_s: float = 1.5,
                 button_wait: float = 15.0, die_wait: float = 30.0,
                 on_wait: Callable[[str, str | None], object] | None = None,
                 on_pi: bool | None = None) -> None:
        self.config = config
        self.source = source
        self.config_error = config_error
        self.pin_factory = pin_factory
        self.out = out or sys.stdout
        self.gl = gl
        self.gl_timeout = gl_timeout
        self.dice_wait = dice_wait
        self.interactive = interactive
        self.led_s = led_s
        self.button_wait = button_wait
        self.die_wait = die_wait
        self.on_wait = on_wait
        self.on_pi = on_raspberry_pi() if on_pi is None else on_pi
        self.findings: list[Finding] = []
        self._buttons: dict[str, object] = {}
        self._lights: dict[int, object] = {}
        self._buzzer = None
        self._reader = None
        self._seen: dict[tuple[str, str | None], threading.Event] = {}
        self._seen_lock = threading.Lock()
        self._last_die: InputEvent | None = None

    # -- output ----------------------------------------------------------------------------
    def section(self, title: str) -> None:
        print(f"\n{title}", file=self.out, flush=True)

    def report(self, status: str, text: str) -> None:
        self.findings.append(Finding(status, text))
        print(f"  {status:<5} {text}", file=self.out, flush=True)

    @property
    def failed(self) -> int:
        return sum(f.status == FAIL for f in self.findings)

    # -- the run ---------------------------------------------------------------------------
    def run(self) -> int:
        print("companion doctor: the table's hardware", file=self.out, flush=True)
        try:
            factory = self.check_pin_factory()
            if self.check_config():
                self.check_gpio(factory)
                self.check_serial_ports()
                self.check_dice()
            else:
                self.check_serial_ports()
            self.check_groups()
            if self.gl:
                self.check_gl()
            if self.interactive and self.config is not None:
                self.check_interactive()
        finally:
            self.close()
        warned = sum(f.status == WARN for f in self.findings)
        self.section(f"Summary: {self.failed} failed, {warned} "
                     f"warning{'' if warned == 1 else 's'}")
        return 1 if self.failed else 0

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

    # -- pin factory -----------------------------------------------------------------------
    def check_pin_factory(self):
        self.section("Pin factory")
        needs_gpio = self.config is not None and not self.config.is_empty
        env = os.environ.get("GPIOZERO_PIN_FACTORY")
        origin = (f"from GPIOZERO_PIN_FACTORY={env}" if env else
                  "gpiozero's default: the first of lgpio, rpigpio, pigpio, native that loads")
        factory = self.pin_factory
        if factory is None:
            try:
                from gpiozero import Device

                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    Device.ensure_pin_factory()
                factory = Device.pin_factory
            except Exception as exc:
                self.report(FAIL if needs_gpio else INFO,
                            f"no pin factory ({origin}): {exc}")
                return None
        else:
            origin = "given"
        board = ""
        try:
            board = f", board {factory.board_info.model}"
        except Exception:  # not every factory knows its board
            pass
        self.report(OK, f"{type(factory).__name__} ({origin}){board}")
        return factory

    # -- config ----------------------------------------------------------------------------
    def check_config(self) -> bool:
        self.section("Config")
        if self.config_error:
            self.report(FAIL, self.config_error)
            return False
        config = self.config
        if config is None or (config.is_empty and config.dice is None):
            self.report(INFO, f"{self.source or 'no config'}: nothing configured; the app runs "
                              f"on touch alone")
            return config is not None
        gpio = "no buttons, LEDs or buzzer"
        if not config.is_empty:
            seats = ", ".join(map(str, config.seats)) or "none"
            gpio = (f"{_count(len(config.buttons), 'button')}, "
                    f"{_count(len(config.leds), 'LED')} (seats {seats})"
                    + (", buzzer" if config.buzzer is not None else ""))
        dice = f"dice tray at {config.dice.url}" if config.dice else "no dice tray"
        self.report(OK, f"{self.source}: {gpio}, {dice}")
        return True

    # -- GPIO ------------------------------------------------------------------------------
    def check_gpio(self, factory) -> None:
        from .buttons import SeatButtons
        from .buzzer import TableBuzzer
        from .lights import SeatLights

        config = self.config
        assert config is not None
        self.section("GPIO devices")
        if config.is_empty:
            self.report(INFO, "no buttons, LEDs or buzzer configured")
            return
        width = max(len(k) for k in (*config.buttons, *config.leds,
                                     *(["buzzer"] if config.buzzer is not None else [])))
        for input_id, pin in config.buttons.items():
            where = f"{input_id:<{width}}  button  {pin_label(pin)}"
            if factory is None:
                self.report(FAIL, f"{where}: no pin factory")
                continue
            try:
                board = SeatButtons({input_id: pin}, self._note, pull_up=config.pull_up,
                                    bounce_s=config.bounce_s, hold_s=config.hold_s,
                                    pin_factory=factory)
            except Exception as exc:
                self.report(FAIL, f"{where}: {exc}")
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
            if factory is None:
                self.report(FAIL, f"{where}: no pin factory")
                continue
            try:
                lights = SeatLights({seat: pin}, pin_factory=factory)
            except Exception as exc:
                self.report(FAIL, f"{where}: {exc}")
                continue
            self._lights[seat] = lights
            led = getattr(lights, "_leds", {}).get(seat)
            kind = ("dimmable (PWM)" if type(led).__name__ == "PWMLED"
                    else "on/off (this pin factory has no PWM)")
            self.report(OK, f"{where}: opened, {kind}")
        if config.buzzer is not None:
            where = f"{'buzzer':<{width}}  buzzer  {pin_label(config.buzzer)}"
            if factory is None:
                self.report(FAIL, f"{where}: no pin factory")
                return
            try:
                self._buzzer = TableBuzzer(config.buzzer, pin_factory=factory)
            except Exception as exc:
                self.report(FAIL, f"{where}: {exc}")
                return
            self.report(OK, f"{where}: opened, silent")

    # -- serial ----------------------------------------------------------------------------
    def check_serial_ports(self) -> None:
        self.section("Serial ports")
        try:
            from serial.tools import list_ports

            ports = sorted(list_ports.comports(), key=lambda p: p.device)
        except Exception as exc:
            self.report(WARN, f"cannot list serial ports: {exc}")
            return
        links = _by_id_links()
        dice = self.config.dice if self.config is not None else None
        target = os.path.realpath(dice.url) if dice and "://" not in dice.url else None
        if not ports:
            self.report(INFO, "none found")
        for port in ports:
            parts = [port.device]
            if port.description and port.description != "n/a":
                parts.append(port.description)
            real = os.path.realpath(port.device)
            parts += [f"({link})" for link in links.get(real, ())]
            if target is not None and real == target:
                parts.append("<- dice.url")
            self.report(INFO, "  ".join(parts))

    def check_dice(self) -> None:
        from .dice import DiceReader, DiceStatus

        self.section("Dice reader")
        dice = self.config.dice if self.config is not None else None
        if dice is None:
            self.report(INFO, 'not configured (add [dice] url = "/dev/serial/by-id/..." '
                              'to the config)')
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

    # -- permissions and GL ----------------------------------------------------------------
    def check_groups(self) -> None:
        self.section("User groups")
        missing = missing_groups()
        if not missing:
            self.report(OK, "in every hardware group found here (or root)")
            return
        needs = ", ".join(f"{g} ({GROUPS[g]})" for g in missing)
        self.report(WARN if self.on_pi else INFO, f"not in: {needs}")

    def check_gl(self) -> None:
        self.section("GL renderer")
        found = probe_gl(self.gl_timeout)
        if "error" in found:
            self.report(WARN, f"the app's window could not be probed: {found['error']}")
            return
        status, text = judge_renderer(found["RENDERER"], on_pi=self.on_pi)
        version = found.get("VERSION")
        self.report(status, text + (f"; OpenGL {version}" if version and status == OK else ""))

    # -- interactive -----------------------------------------------------------------------
    def check_interactive(self) -> None:
        self.section("Interactive check")
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


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _by_id_links() -> dict[str, list[str]]:
    """Real device -> its /dev/serial/by-id and by-path links."""
    links: dict[str, list[str]] = {}
    for folder in ("/dev/serial/by-id", "/dev/serial/by-path"):
        try:
            entries = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in entries:
            path = os.path.join(folder, name)
            links.setdefault(os.path.realpath(path), []).append(path)
    return links


def default_config_path() -> Path:
    """Where the app looks for ``hardware.toml`` when not given ``--hardware``."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("table-companion", appauthor=False)) / "hardware.toml"


def load_for_doctor(path: str | None) -> tuple[HardwareConfig | None, str, str | None]:
    """(config, where it came from, error): the doctor reports a bad config, never raises."""
    from .config import load_config

    target = Path(path) if path else default_config_path()
    try:
        config = load_config(target, missing_ok=path is None)
    except ConfigError as exc:
        return None, str(target), str(exc)
    source = str(target) if target.exists() else f"{target} (not found)"
    return config, source, None
