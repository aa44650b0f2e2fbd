"""``companion doctor``'s smart dice section: each paired die by name, make, the game's die
and a GoDice's shell, whether the ble extra is there, and whether each die answers
(connected, what it says it is, its battery), with the one line to show when there is no
Bluetooth at all (no adapter, switched off, no system bus, D-Bus refusing the user).

The dice are reached the way the app reaches them (:class:`hardware.dice.ble.BleDiceSource`),
for at most ``wait`` seconds, then let go so the app can have them.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

from .config_data import BleConfig
from .doctor_checks import FAIL, INFO, OK, WARN

Report = Callable[[str, str], None]


def check_smart_dice(ble: BleConfig | None, report: Report, *, wait: float = 3.0,
                     transport: Any = None) -> None:
    """Report the paired dice; connect to each for at most ``wait`` seconds."""
    if ble is None or not ble.dice:
        report(INFO, "none paired (pair GoDice or Pixels on the Hardware screen, or add "
                     '[ble.dice."AA:BB:CC:DD:EE:FF"] make = "pixels" to the config)')
        return
    for die in ble.dice:
        faces = f", faces {', '.join(map(str, die.face_names))}" if die.face_names else ""
        what = "any die" if die.die == "any" else die.die
        name = die.name or {"pixels": "a Pixels", "godice": "a GoDice"}.get(die.make, die.make)
        shell = f", {die.shell.upper()} shell" if die.make == "godice" else ""
        report(INFO, f"{name} ({die.make}, {die.address}{shell}): {what}{faces}")
    transport = transport or ble.transport()
    if transport is None and not in_bluetooth_group():
        report(WARN, "not in the bluetooth group: BlueZ answers only its members on Raspberry "
                     "Pi OS (the kiosk unit needs it in SupplementaryGroups)")
    if transport is None:
        missing = _missing_modules(ble)
        if missing:
            report(FAIL, f"the ble extra is not installed (no {', '.join(missing)}): "
                         "pip install 'table-companion[ble]'")
            return
    from .dice.ble import BleDiceSource, BleDie, BleStatus

    heard: list[Any] = []
    lock = threading.Lock()

    def status(s: Any) -> None:
        with lock:
            heard.append(s)

    source = BleDiceSource([BleDie(d.address, d.make, d.name, d.shell) for d in ble.dice],
                           lambda _event: None, transport=transport, on_status=status,
                           backoff=(60.0, 60.0), low_battery=ble.low_battery)
    try:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and len(source.connected) < len(ble.dice):
            with lock:
                if any(s.state == BleStatus.ABSENT for s in heard):
                    break
            time.sleep(0.02)
        time.sleep(min(0.2, wait))            # a battery answer right after connecting
        with lock:
            seen = list(heard)
        absent = next((s for s in seen if s.state == BleStatus.ABSENT), None)
        if absent is not None:
            report(WARN, absent.text)         # one line for every die: touch plays on
            return
        for die in ble.dice:
            name = die.name or die.address
            if die.address in source.connected:
                battery = source.battery_words(die.address)
                low = die.address in source.battery and \
                    source.battery[die.address] < ble.low_battery
                identity = source.identity.get(die.address)
                kind = f", {identity.words}" if identity is not None else ""
                if identity is not None and not identity.six_sided:
                    report(WARN, f"{name}: connected, a {identity.words}: the games roll "
                                 "six-sided dice, so its rolls are refused")
                    continue
                report(WARN if low else OK, f"{name}: connected{kind}" +
                       (f", {battery}" if battery else ""))
            else:
                why = next((s.text for s in reversed(seen) if s.address == die.address
                            and s.state == BleStatus.UNAVAILABLE), "")
                report(WARN, f"{name}: not connected within {wait:g} s"
                             + (f" ({why.split(': ', 1)[-1]})" if why else "")
                             + ": awake (roll it once)? in range? paired to a phone app?")
    finally:
        source.close()


def in_bluetooth_group() -> bool:
    """True for root, without a bluetooth group (no BlueZ policy by group), or as a member."""
    import grp
    import os

    if os.geteuid() == 0:
        return True
    try:
        gid = grp.getgrnam("bluetooth").gr_gid
    except KeyError:
        return True
    return gid in os.getgroups() or gid == os.getegid()


def _missing_modules(ble: BleConfig) -> list[str]:
    import importlib.util

    needed = ["bleak"] + (["godice"] if any(d.make == "godice" for d in ble.dice) else [])
    return [name for name in needed if importlib.util.find_spec(name) is None]
