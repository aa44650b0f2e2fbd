"""The hardware subcommands of ``companion``, plugged in through the ``companion.commands``
entry point group (``companion/cli/main.py``): each object has ``HELP``, ``add_arguments(parser)``
and ``run(args) -> int``.

    [project.entry-points."companion.commands"]
    doctor = "hardware.commands:doctor"
    dicesim = "hardware.commands:dicesim"
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable


@dataclass(frozen=True)
class Subcommand:
    HELP: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# -- companion doctor -------------------------------------------------------------------------
def _doctor_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "List the pin factory, every configured button and LED and whether it opens, the serial "
        "ports, the dice tray's greeting, your hardware groups and the GL renderer the app "
        "would use. Exit status 1 if a configured device fails.")
    parser.add_argument("--hardware", metavar="FILE",
                        help="the hardware config (default: the app's, in the user config dir)")
    parser.add_argument("--demo", action="store_true",
                        help="check the demo table on mock pins instead of a config file")
    parser.add_argument("--interactive", action="store_true",
                        help="then light each LED, wait for each button and for a die roll")
    parser.add_argument("--no-gl", dest="gl", action="store_false",
                        help="skip the GL renderer probe (it opens a small window)")
    parser.add_argument("--dice-wait", type=float, default=3.0, metavar="S",
                        help="seconds to wait for the dice tray to open and greet (default 3)")
    parser.add_argument("--wait", type=float, default=15.0, metavar="S",
                        help="interactive: seconds to wait for each button (default 15); "
                             "a die roll gets twice as long")


def _doctor_run(args: argparse.Namespace) -> int:
    from .doctor import Doctor, load_for_doctor

    pin_factory = None
    if args.demo:
        from gpiozero.pins.mock import MockFactory

        from .config import DEMO_CONFIG

        config, source, error, pin_factory = DEMO_CONFIG, "demo table", None, MockFactory()
    else:
        config, source, error = load_for_doctor(args.hardware)
    doctor = Doctor(config, source=source, config_error=error, pin_factory=pin_factory,
                    gl=args.gl, dice_wait=args.dice_wait, interactive=args.interactive,
                    button_wait=args.wait, die_wait=2 * args.wait)
    try:
        return doctor.run()
    except KeyboardInterrupt:
        print("\ncompanion doctor: interrupted", file=sys.stderr)
        return 130


doctor = Subcommand("check the table's hardware: pins, buttons, LEDs, serial, dice tray, GL",
                    _doctor_arguments, _doctor_run)


# -- companion dicesim ------------------------------------------------------------------------
def default_link() -> Path:
    """Where ``dicesim`` keeps its stable link to the current pseudo-terminal."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return Path(runtime) / "dicesim"
    return Path(tempfile.gettempdir()) / f"dicesim-{os.getuid()}"


def _faces(text: str) -> tuple[int, int]:
    low, sep, high = text.partition("-")
    try:
        pair = (int(low), int(high))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: faces are MIN-MAX, like 1-6") from None
    if not sep or not 0 <= pair[0] < pair[1] <= 999:
        raise argparse.ArgumentTypeError(f"{text!r}: faces are MIN-MAX, like 1-6")
    return pair


def _rate(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError("a rate between 0 and 1")
    return value


def _dicesim_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "A dice tray on a pseudo-terminal, speaking docs/dice-protocol.md: prints the port, "
        "keeps a stable link to it (a replug makes a new /dev/pts/N), answers HELLO? and PING, "
        "and sends scripted or random rolls. Point the app at the link: [dice] url = LINK.")
    parser.add_argument("--link", type=Path, default=None, metavar="PATH",
                        help=f"the stable link to the current port (default {default_link()})")
    parser.add_argument("--script", metavar="FILE",
                        help="send these protocol lines instead of random rolls (- = stdin); "
                             "directives: @wait S, @unplug, @replug")
    parser.add_argument("--dice", default="d1,d2", metavar="IDS",
                        help="random rolls: the dice, comma-separated (default d1,d2)")
    parser.add_argument("--faces", type=_faces, default=(1, 6), metavar="MIN-MAX",
                        help="random rolls: the faces (default 1-6)")
    parser.add_argument("--interval", type=float, default=3.0, metavar="S",
                        help="seconds between rolls or script lines (default 3)")
    parser.add_argument("--moving", type=float, default=0.5, metavar="S",
                        help="random rolls: MOVING lines this long before the result "
                             "(default 0.5; negative: none)")
    parser.add_argument("--count", type=int, default=0, metavar="N",
                        help="stop after N rolls (default: run until Ctrl-C)")
    parser.add_argument("--wait-host", type=float, default=0.0, metavar="S",
                        help="before rolling, wait up to S seconds for the app to connect")
    parser.add_argument("--name", default="dicesim", help="the name in the greeting")
    parser.add_argument("--firmware", default="1.0", help="the version in the greeting")
    parser.add_argument("--garbage", type=_rate, nargs="?", const=0.2, default=0.0,
                        metavar="RATE", help="fault: odd lines before this share of lines "
                                             "(default when given: 0.2)")
    parser.add_argument("--partial", action="store_true",
                        help="fault: write every line in random pieces with short pauses")
    parser.add_argument("--disconnect-every", type=int, default=0, metavar="N",
                        help="fault: unplug after every N rolls, replug after --down seconds")
    parser.add_argument("--down", type=float, default=2.0, metavar="S",
                        help="seconds unplugged for --disconnect-every (default 2)")
    parser.add_argument("--seed", type=int, help="random seed, for a repeatable run")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the port")
    ble = parser.add_argument_group(
        "smart dice", "--ble serves simulated GoDice and Pixels instead of a tray: an app "
        "whose [ble] air names the socket reads them as if they were on the radio")
    ble.add_argument("--ble", metavar="MAKES", nargs="?", const="pixels,pixels,pixels,godice,"
                     "godice", help="the dice, comma-separated makes (default when given: "
                     "three Pixels, two GoDice)")
    ble.add_argument("--air", type=Path, default=None, metavar="PATH",
                     help=f"the socket (default {default_air()})")
    ble.add_argument("--drops", type=_rate, default=0.0, metavar="RATE",
                     help="fault: this share of rolls is a die going out of range for --down s")
    ble.add_argument("--write-config", type=Path, metavar="FILE",
                     help="also write a hardware.toml with these dice paired (replaced "
                          "atomically), for companion run --demo --hardware FILE")


def default_air() -> Path:
    """Where ``dicesim --ble`` puts its socket: a folder of its own beside the tray's link."""
    return default_link().with_name(default_link().name + "-ble") / "air"


def _dicesim_run(args: argparse.Namespace) -> int:
    if args.ble is not None:
        return _ble_run(args)
    from .dice.protocol import DIE_ID
    from .dice.simulator import DiceSimulator, run_script

    dice = [d.strip() for d in args.dice.split(",") if d.strip()]
    bad = [d for d in dice if not DIE_ID.match(d)]
    if bad or not dice:
        print(f"companion dicesim: not die ids: {', '.join(bad) or '(none)'}", file=sys.stderr)
        return 2
    lines = None
    if args.script:
        try:
            text = (sys.stdin.read() if args.script == "-"
                    else Path(args.script).read_text(encoding="utf-8"))
        except OSError as exc:
            print(f"companion dicesim: {args.script}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        lines = text.splitlines()

    stop = threading.Event()
    say = (lambda text: None) if args.quiet else (lambda text: print(text, flush=True))
    previous = _on_sigterm(stop)
    link = args.link or default_link()
    try:
        with DiceSimulator(link=link, name=args.name, version=args.firmware,
                           garbage=args.garbage, partial=args.partial,
                           rng=random.Random(args.seed), sleep=stop.wait) as sim:
            print(f"dicesim: dice tray on {sim.path}", flush=True)
            print(f"dicesim: link {link} (use it as the dice url; it follows replugs)",
                  flush=True)
            if args.wait_host > 0:
                say(f"dicesim: waiting up to {args.wait_host:g} s for the app to connect")
                sim.host_seen.wait(args.wait_host)
            if lines is not None:
                run_script(sim, lines, interval=args.interval, stop=stop,
                           echo=lambda line: say(f"-> {line}"))
            else:
                _random_rolls(sim, args, dice, stop, say)
    except ValueError as exc:   # a bad script directive
        print(f"companion dicesim: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    say("dicesim: unplugged, bye")
    return 0


def _random_rolls(sim, args, dice, stop: threading.Event, say) -> None:
    rolls = 0
    moving = args.moving if args.moving >= 0 else None
    while not stop.is_set() and (args.count <= 0 or rolls < args.count):
        if rolls and stop.wait(args.interval):
            break
        subset = dice if len(dice) == 1 or sim.rng.random() < 0.5 else [sim.rng.choice(dice)]
        result = sim.random_roll(subset, args.faces, moving_s=moving)
        rolls += 1
        say("-> " + " ".join(f"{d}={v}" for d, v in result.items()))
        if args.disconnect_every > 0 and rolls % args.disconnect_every == 0 and \
                (args.count <= 0 or rolls < args.count):
            sim.unplug()
            say(f"dicesim: unplugged for {args.down:g} s")
            if stop.wait(args.down):
                break
            say(f"dicesim: plugged in again at {sim.replug()}")


def _ble_run(args: argparse.Namespace) -> int:
    """Simulated smart dice on a socket: they roll by themselves every --interval seconds."""
    from .dice.ble_air import AirServer
    from .dice.ble_fake import AutoRoller, FakeDie
    from .dice.ble_protocol import MAKES

    makes = [m.strip().lower() for m in args.ble.split(",") if m.strip()]
    bad = [m for m in makes if m not in MAKES]
    if bad or not makes or len(makes) > 12:
        print(f"companion dicesim: --ble takes 1-12 makes of {', '.join(MAKES)}; got "
              f"{args.ble!r}", file=sys.stderr)
        return 2
    dice = [FakeDie(f"C4:5E:00:00:00:{n:02X}", make, colour=n % 6, battery=90 - 7 * n)
            for n, make in enumerate(makes, start=1)]
    air = args.air or default_air()
    stop = threading.Event()
    say = (lambda text: None) if args.quiet else (lambda text: print(text, flush=True))
    previous = _on_sigterm(stop)
    try:
        server = AirServer(dice, air)
    except OSError as exc:
        print(f"companion dicesim: {air}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"dicesim: {len(dice)} smart dice on {air}", flush=True)
    if args.write_config is not None:
        from .config import BleConfig, BleDieConfig, HardwareConfig, save_config

        save_config(HardwareConfig(ble=BleConfig(tuple(
            BleDieConfig(d.address, d.make, d.name) for d in dice), air=str(air))),
            args.write_config)
        print(f"dicesim: wrote {args.write_config}", flush=True)
    say("dicesim: in a hardware.toml (or pair them on the Hardware screen), then "
        "companion run --hardware FILE (with --demo too: mock buttons, these dice):\n"
        f'[ble]\nair = "{air}"\n' + "".join(
            f'[ble.dice."{d.address}"]\nmake = "{d.make}"\nname = "{d.name}"\n' for d in dice))
    roller = AutoRoller(dice, interval=args.interval, garbage=args.garbage, drops=args.drops,
                        down=args.down, seed=args.seed, say=lambda t: say(f"-> {t}"))
    try:
        while not stop.wait(0.2):
            if args.count > 0 and roller.rolls >= args.count:
                break
    except KeyboardInterrupt:
        pass
    finally:
        roller.close()
        server.close()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    say("dicesim: the dice are gone, bye")
    return 0


def _on_sigterm(stop: threading.Event):
    """Stop cleanly on SIGTERM too (removes the link); only possible on the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())


dicesim = Subcommand("a simulated dice tray on a pseudo-terminal, or smart dice on a socket "
                     "(--ble), for demos and tests",
                     _dicesim_arguments, _dicesim_run)

__all__ = ["Subcommand", "dicesim", "doctor", "default_link"]
