"""The smart dice's figure: a die landing -> the frame showing it, from a smart die (the BLE source
on the fake air) against the serial tray (the DiceReader on a pseudo-terminal), in one run.

One child app (``python -m benchmarks.smart_dice --child``) runs without --demo on a
hardware.toml with both: the tray's dice d1-d5 and five smart dice, each pair mapped to the
same die of Cauldron Quest (the action dice by their face names). A seeded Quest game is
played; each die the game waits for lands, in turn, in the tray (``DiceSimulator.die``: one
``DIE`` line on the pty) or as a smart die (``FakeDie.roll``: its make's bytes, through
``godice`` for a GoDice), at a random point of the frame, from a thread. Timed from that call
to the first frame drawn after the game changed. The rest of each path is the app's own: the
reader's threads or the BLE source's asyncio loop, the Inbox, the routing, the rules, the
commit, the frame.

    python -m benchmarks --only smart_dice        python -m benchmarks.smart_dice  (alone)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterator

from benchmarks.common import Figure, print_figure, run
from benchmarks.context import Context

TITLE = "a die landing -> the frame showing it: smart die (BLE, fake air) vs the serial tray"
DIE_A = ["bottle", "bottle", "bottle", "bottle", "hat", "hat"]
DIE_B = [2, 3, 3, 4, "spell", "spell"]
GAME_DICE = ("action_a", "action_b", "magic1", "magic2", "magic3")
MAKES = ("godice", "pixels", "pixels", "godice", "pixels")


def address(n: int) -> str:
    return f"C4:5E:00:00:01:{n:02X}"


def config_text(link: str) -> str:
    names = {"action_a": DIE_A, "action_b": DIE_B}
    tray = "".join(f'd{n} = "{die}"\n' for n, die in enumerate(GAME_DICE, 1))
    faces = "".join(f"d{n} = {_toml(names[die])}\n" for n, die in enumerate(GAME_DICE, 1)
                    if die in names)
    smart = "".join(
        f'[ble.dice."{address(n)}"]\nmake = "{make}"\ndie = "{die}"\n'
        + (f"face_names = {_toml(names[die])}\n" if die in names else "")
        for n, (die, make) in enumerate(zip(GAME_DICE, MAKES), 1))
    return (f'[dice]\nurl = "{link}"\n[dice.ids]\n{tray}[dice.face_names]\n{faces}'
            f"[ble]\n{smart}")


def _toml(names: list) -> str:
    return "[" + ", ".join(f'"{n}"' if isinstance(n, str) else str(n) for n in names) + "]"


def face_number(die: str, value) -> int:
    """The face to land on for the game's ``value`` of ``die`` (a symbol on an action die)."""
    names = {"action_a": DIE_A, "action_b": DIE_B}.get(die)
    return names.index(value) + 1 if names is not None else int(value)


# -- the child: the app, its tray and its smart dice -----------------------------------------
def child(args: argparse.Namespace) -> None:
    from benchmarks.frames import FRAME_TIMEOUT, playing, report
    from benchmarks.probe import after_first_frame
    from ui.kiosk.command import configure_kivy

    configure_kivy((800, 480), False)
    from hardware.dice import DiceSimulator
    from hardware.dice.ble_fake import FakeDie, FakeTransport
    from ui.app import CompanionApp

    folder = Path(tempfile.mkdtemp(prefix="smart-dice-bench-"))
    tray = DiceSimulator(link=folder / "tray", name="benchtray", version="1")
    dice = {die: FakeDie(address(n), make) for n, (die, make) in
            enumerate(zip(GAME_DICE, MAKES), 1)}
    config = folder / "hardware.toml"
    config.write_text(config_text(str(tray.link)), encoding="utf-8")
    app = CompanionApp(db_path=args.db, demo=False, hardware_path=str(config))
    app.devices.smart_dice.transport = FakeTransport(list(dice.values()))
    rng = random.Random(args.seed)

    def steps() -> Iterator:
        from companion.core.model import InputEvent
        from tests.companion import quest_autoplay

        changed: dict[str, float] = {}
        got: dict[str, list[float]] = {"serial": [], "ble": [], "serial_change": [],
                                       "ble_change": []}
        missed = 0
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (app.devices.smart_dice.ok and app.dice_ok):
            yield ("sleep", 0.1)
        quest = {"game": "quest", "players": list(quest_autoplay.PLAYERS),
                 "needed": list(quest_autoplay.NEEDED)}

        def new_game() -> Iterator:
            app.start_game(dict(quest))
            app.session.add_listener(
                lambda _s, _step: changed.__setitem__("t", time.perf_counter()))
            yield ("frame", lambda: True, FRAME_TIMEOUT)

        yield from new_game()
        rolled = 0
        while rolled < 2 * args.dice:
            session = yield from playing(app, new_game)
            options = quest_autoplay.legal_commands(session.state, rng)
            rolls = [o for o in options if isinstance(o, InputEvent) and o.kind == "die"]
            changed.clear()
            if not rolls:
                app.send(quest_autoplay.random_command(session.state, rng))
                yield ("frame", lambda: True, FRAME_TIMEOUT)
                continue
            roll = rng.choice(rolls)
            kind = "ble" if rolled % 2 else "serial"
            face = face_number(roll.id, roll.value)
            when: dict[str, float] = {}
            delay = rng.uniform(0, 1 / 30)

            def land(kind=kind, die=roll.id, face=face) -> None:
                time.sleep(delay)
                when["t"] = time.perf_counter()
                if kind == "ble":
                    dice[die].roll(face, tumble=False)
                else:
                    tray.die(f"d{GAME_DICE.index(die) + 1}", face)

            threading.Thread(target=land, daemon=True).start()
            drawn = yield ("frame", lambda: "t" in changed, FRAME_TIMEOUT)
            rolled += 1
            if drawn is None or "t" not in when:
                missed += 1
            else:
                got[kind].append(drawn - when["t"])
                got[kind + "_change"].append(changed["t"] - when["t"])
            yield ("sleep", rng.uniform(0.05, 0.1))
        report(**got, missed=missed)
        app.stop()

    after_first_frame(lambda frames: frames.run(steps()))
    try:
        app.run()
    finally:
        tray.close()


# -- the figure ------------------------------------------------------------------------------
def measure(ctx: Context) -> Figure:
    fig = Figure("smart_dice", TITLE)
    dice = ctx.pick(20, 60, 3)
    done = run([sys.executable, "-m", "benchmarks.smart_dice", "--child", "--dice", str(dice),
                "--db", str(ctx.sandbox.path("smart_dice.sqlite3"))],
               ctx.sandbox.env(), timeout=300)
    got = done.report
    fig.add("smart die (BLE source, fake air) -> frame", got["ble"], p99=True)
    fig.add("  of which landing -> game changed", got["ble_change"], p99=True,
            note="the source's loop, the Inbox, the routing, the rules, the commit")
    fig.add("serial tray (DiceReader, pty) -> frame", got["serial"], p99=True)
    fig.add("  of which landing -> game changed", got["serial_change"], p99=True)
    if got["ble"] and got["serial"]:
        fig.add("ratio of medians, smart die / tray", [statistics.median(got["ble"])
                                                       / statistics.median(got["serial"])], "x")
    if got.get("missed"):
        fig.notes.append(f"{got['missed']} dice drew no frame within 5 s")
    fig.notes.append("maxfps 30: a frame is 33 ms; a die lands at a random point of the frame")
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=TITLE)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--dice", type=int, default=20, help=argparse.SUPPRESS)   # the child's
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    from benchmarks.common import Sandbox

    sandbox = Sandbox()
    try:
        started = time.monotonic()
        figure = measure(Context(sandbox=sandbox, quick=args.quick))
        figure.seconds = time.monotonic() - started
        print_figure(figure)
    finally:
        sandbox.close()


if __name__ == "__main__":
    main()
