"""``companion doctor`` on mock pins, loop:// and a simulated tray."""

import argparse
import io
import os
import shutil
import sys
import threading

import pytest

from hardware.commands import doctor as doctor_command
from hardware.config import parse_config
from hardware.dice import DiceSimulator
from hardware.doctor import (
    INFO,
    OK,
    WARN,
    Doctor,
    judge_renderer,
    load_for_doctor,
    pin_label,
    probe_gl,
)

CONFIG = """\
[buttons]
undo = 5
[seats.1]
claim = 17
pass = 22
led = 23
[dice]
url = "loop://"
"""


def parse_args(*argv):
    parser = argparse.ArgumentParser(prog="companion doctor")
    doctor_command.add_arguments(parser)
    return parser.parse_args(list(argv))


def sections(text):
    return [line for line in text.splitlines() if line and not line.startswith(" ")]


def test_cli_with_mock_pins_and_loop(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    path = tmp_path / "hardware.toml"
    path.write_text(CONFIG, encoding="utf-8")
    code = doctor_command.run(parse_args("--hardware", str(path), "--no-gl",
                                         "--dice-wait", "0.3"))
    out = capsys.readouterr().out
    assert code == 0, out
    assert sections(out) == ["companion doctor: the table's hardware", "Pin factory", "Config",
                             "GPIO devices", "Serial ports", "Dice reader",
                             "Smart dice (Bluetooth LE)", "User groups",
                             "Summary: 0 failed, 1 warning"]
    assert "MockFactory (from GPIOZERO_PIN_FACTORY=mock)" in out
    assert f"{path}: 3 buttons, 1 LED (seats 1), dice tray at loop://" in out
    assert "seat1.claim  button  GPIO17 (pin 11): opened, released" in out
    assert "seat1.led    LED     GPIO23 (pin 16): opened" in out
    assert "loop:// is a loopback" in out


def test_a_pin_that_cannot_open_fails_the_run(factory):
    from gpiozero import Button

    taken = Button(17, pin_factory=factory)          # another program holds GPIO17
    try:
        out = io.StringIO()
        config = parse_config({"seats": {"1": {"claim": 17, "pass": 22}}})
        code = Doctor(config, source="t.toml", pin_factory=factory, out=out, gl=False).run()
    finally:
        taken.close()
    text = out.getvalue()
    assert code == 1
    assert "FAIL  seat1.claim  button  GPIO17 (pin 11)" in text
    assert "ok    seat1.pass   button  GPIO22 (pin 15)" in text
    assert "Summary: 1 failed" in text


def test_a_stuck_button_is_a_warning():
    from gpiozero.pins.mock import MockFactory, MockPin

    class StuckLow(MockPin):
        """A button shorted to ground: reads low whatever the pull."""

        def _set_pull(self, value):
            super()._set_pull(value)
            self.drive_low()

    factory = MockFactory(pin_class=StuckLow)
    out = io.StringIO()
    config = parse_config({"buttons": {"next": 27}})
    try:
        assert Doctor(config, source="t", pin_factory=factory, out=out, gl=False).run() == 0
    finally:
        factory.reset()
    assert "WARN  next  button  GPIO27 (pin 13): reads pressed at rest" in out.getvalue()


def test_missing_dice_port_fails(tmp_path, factory):
    out = io.StringIO()
    config = parse_config({"dice": {"url": "/dev/serial/by-id/usb-no-such-tray-if00"}})
    code = Doctor(config, source="t", pin_factory=factory, out=out, gl=False,
                  dice_wait=2).run()
    assert code == 1
    assert "not plugged in" in out.getvalue()


def test_greeting_from_a_simulated_tray(tmp_path, factory):
    with DiceSimulator(link=tmp_path / "tray", name="dicetray", version="1.2") as sim:
        out = io.StringIO()
        config = parse_config({"dice": {"url": sim.url, "baudrate": 9600}})
        code = Doctor(config, source="t", pin_factory=factory, out=out, gl=False,
                      dice_wait=2).run()
    text = out.getvalue()
    assert code == 0, text
    assert f"ok    {sim.url}: greeting dicetray 1.2" in text


def test_config_error_is_reported_not_raised(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    path = tmp_path / "hardware.toml"
    path.write_text('[dice]\nurl = "loop://"\nbaudrate = 1234\n', encoding="utf-8")
    code = doctor_command.run(parse_args("--hardware", str(path), "--no-gl"))
    out = capsys.readouterr().out
    assert code == 1
    assert "dice.baudrate: 1234 is not a standard baud rate" in out


def test_demo_table(capsys):
    assert doctor_command.run(parse_args("--demo", "--no-gl")) == 0
    out = capsys.readouterr().out
    assert "demo table: 20 buttons" in out and "not configured" in out


def test_interactive_lights_leds_and_waits_for_buttons_and_a_die(tmp_path, factory):
    config_text = {"buttons": {"undo": 5}, "seats": {"1": {"claim": 17, "led": 23}}}

    with DiceSimulator(link=tmp_path / "tray") as sim:
        config_text["dice"] = {"url": sim.url}
        config = parse_config(config_text)
        skip = {"undo"}                               # nobody presses undo

        def on_wait(kind, input_id):
            def act():
                if kind == "button":
                    pin = factory.pin(config.buttons[input_id])
                    pin.drive_low()
                    pin.drive_high()
                else:
                    sim.die("d1", 4)
            if input_id not in skip:
                threading.Thread(target=act).start()   # from another thread, like hardware

        out = io.StringIO()
        code = Doctor(config, source="t", pin_factory=factory, out=out, gl=False,
                      dice_wait=2, interactive=True, led_s=0.01, button_wait=0.3,
                      die_wait=3, on_wait=on_wait).run()
    text = out.getvalue()
    assert "seat1.led was lit" in text
    assert "ok    seat1.claim: pressed" in text
    assert "FAIL  undo: no press seen" in text
    assert "ok    die d1 shows 4" in text
    assert code == 1


def test_judge_renderer():
    assert judge_renderer("V3D 4.2", on_pi=True) == (OK, "V3D 4.2")
    status, text = judge_renderer("llvmpipe (LLVM 15.0.6, 128 bits)", on_pi=True)
    assert status == WARN and "video and render groups" in text
    assert judge_renderer("softpipe", on_pi=False)[0] == INFO
    assert pin_label(17) == "GPIO17 (pin 11)"


@pytest.mark.skipif(shutil.which("true") is None, reason="needs a POSIX userland")
def test_gl_probe_failure_is_described(tmp_path):
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\necho 'no display here' >&2\nexit 3\n")
    fake.chmod(0o755)
    found = probe_gl(timeout=5, python=str(fake))
    assert "exit status 3" in found["error"] and "no display here" in found["error"]


def test_gl_probe_headless():
    pytest.importorskip("kivy")
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen")
    found = probe_gl(timeout=20, python=sys.executable, env=env)
    assert "RENDERER" in found or "error" in found
    if "RENDERER" in found:
        assert found["RENDERER"]


def test_load_for_doctor_missing_explicit_file(tmp_path):
    config, source, error = load_for_doctor(str(tmp_path / "nope.toml"))
    assert config is None and "not found" in error


def test_plugs_into_the_companion_command(monkeypatch, capsys):
    """The objects the entry points name satisfy companion/cli/main.py's plug-in contract."""
    from importlib.metadata import EntryPoint

    import companion.cli.main as cli
    import companion.cli.plugins as plugins

    eps = [EntryPoint(name, f"hardware.commands:{name}", "companion.commands")
           for name in ("doctor", "dicesim")]
    monkeypatch.setattr(plugins, "entry_points",
                        lambda group: eps if group == "companion.commands" else [])
    parser, handlers = cli.build_parser()
    assert {"doctor", "dicesim"} <= set(handlers)
    assert cli.main(["doctor", "--demo", "--no-gl"]) == 0
    assert "Summary: 0 failed" in capsys.readouterr().out
