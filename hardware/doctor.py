"""``companion doctor``: what hardware the app would find, and whether each part answers.

Prints, section by section: the GPIO pin factory, the config, every configured button, LED and
the buzzer (opened for real, then released), the serial ports found, the dice tray's greeting, the paired smart dice (each connected once,
its battery),
the user's groups and the GL renderer the app would get. ``--interactive`` then lights each
LED, sounds the buzzer, waits for each button and for a die roll. The exit status is 1 if a
configured device failed.

:class:`Doctor` runs the sections and words the report; the questions put to the machine are
in :mod:`hardware.doctor_checks`, the opened devices in :mod:`hardware.doctor_devices`.
"""

from __future__ import annotations

import os
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

from .config import HardwareConfig, default_config_path, load_config
from .doctor_checks import (  # re-exported: the UI and the tests import them from here
    BCM_TO_PHYSICAL,
    FAIL,
    GL_PROBE,
    GROUPS,
    INFO,
    OK,
    SOFTWARE_RENDERERS,
    WARN,
    by_id_links,
    judge_renderer,
    missing_groups,
    on_raspberry_pi,
    pin_label,
    probe_gl,
)
from .doctor_devices import DeviceBench
from .errors import ConfigError


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
        self.interactive = interactive
        self.on_pi = on_raspberry_pi() if on_pi is None else on_pi
        self.findings: list[Finding] = []
        self.ble_transport = None   # None: the radio; tests give the fake air
        self.devices = DeviceBench(config, self.report, self.out, dice_wait=dice_wait,
                                   led_s=led_s, button_wait=button_wait, die_wait=die_wait,
                                   on_wait=on_wait)

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
                self.check_smart_dice()
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
        """Release every device opened."""
        self.devices.close()

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
        smart = _count(len(config.ble.dice), "smart die").replace("dies", "dice") \
            if config.ble is not None and config.ble.dice else "no smart dice"
        self.report(OK, f"{self.source}: {gpio}, {dice}, {smart}")
        return True

    # -- the configured devices (hardware.doctor_devices) ----------------------------------
    def check_gpio(self, factory) -> None:
        assert self.config is not None
        self.section("GPIO devices")
        self.devices.open_gpio(factory)

    def check_dice(self) -> None:
        self.section("Dice reader")
        self.devices.open_dice()

    def check_smart_dice(self) -> None:
        from .doctor_ble import check_smart_dice

        self.section("Smart dice (Bluetooth LE)")
        check_smart_dice(self.config.ble if self.config is not None else None, self.report,
                         wait=self.devices.dice_wait, transport=self.ble_transport)

    def check_interactive(self) -> None:
        self.section("Interactive check")
        self.devices.try_by_hand()

    # -- serial ----------------------------------------------------------------------------
    def check_serial_ports(self) -> None:
        self.section("Serial ports")
        try:
            from serial.tools import list_ports

            ports = sorted(list_ports.comports(), key=lambda p: p.device)
        except Exception as exc:
            self.report(WARN, f"cannot list serial ports: {exc}")
            return
        links = by_id_links()
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


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def load_for_doctor(path: str | None) -> tuple[HardwareConfig | None, str, str | None]:
    """(config, where it came from, error): the doctor reports a bad config, never raises."""
    target = Path(path) if path else default_config_path()
    try:
        config = load_config(target, missing_ok=path is None)
    except ConfigError as exc:
        return None, str(target), str(exc)
    source = str(target) if target.exists() else f"{target} (not found)"
    return config, source, None


__all__ = ["BCM_TO_PHYSICAL", "FAIL", "GL_PROBE", "GROUPS", "INFO", "OK", "SOFTWARE_RENDERERS",
           "WARN", "Doctor", "Finding", "default_config_path", "judge_renderer",
           "load_for_doctor", "missing_groups", "on_raspberry_pi", "pin_label", "probe_gl"]
