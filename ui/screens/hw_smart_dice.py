"""The Hardware screen's smart dice: scan, list each die by name, make, type, colour and
battery, and pair it to a game's die (or "any die") with a face map for stickered faces and,
for a GoDice, the shell it wears (D6 unless set here: the die cannot say it), shown beside it.

The panel edits the screen's draft (``draft["ble"]``, the TOML table of hardware.toml's
``[ble]`` section), so "Check" and "Save and restart devices" treat the pairing as every other
key: the same validation as at start, written atomically, kept by the dice's addresses. A scan
runs off the main thread (``hardware.dice.ble.scan``) and hands its result back through the
Clock; no Bluetooth is one line on the panel, never a traceback.
"""

from __future__ import annotations

import logging
import threading
from functools import partial
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.games.quest.dice import DIE_WORDS
from companion.games.quest.state import DEFAULTS as QUEST
from hardware.config import ANY_DIE
from ui import theme
from ui.widgets.common import FlatButton

log = logging.getLogger(__name__)

SCAN_S = 5.0
MAKE_WORDS = {"pixels": "Pixels", "godice": "GoDice"}
#: the shells a GoDice wears, in the order the shell button steps through them
#: (hardware.config_check.GODICE_SHELLS; hardware.dice is not imported before a scan)
SHELLS = ("d6", "d20", "d10", "d10x", "d4", "d8", "d12")
TYPE_WORDS = {"d6pipped": "D6 (pipped)", "d6fudge": "Fudge die", "d00": "D00 (percentile)",
              "d10x": "D10 (tens)", "unknown": ""}


def type_words(die_type: str) -> str:
    """'D20', 'D6 (pipped)': hardware.dice.ble_protocol.type_words, without importing it."""
    return TYPE_WORDS.get(die_type, die_type.upper())
#: the game dice a smart die may be: Cauldron's rolls take "any die"; Quest names its five
DIE_CHOICES = (ANY_DIE, "magic1", "magic2", "magic3", "action_a", "action_b")
#: face maps for dice with stickers: Cauldron Quest's action dice as printed
FACE_PRESETS = (("numbers", ()), ("action die A", tuple(QUEST["die_a"])),
                ("action die B", tuple(QUEST["die_b"])))


def die_words(die: str) -> str:
    return "any die" if die == ANY_DIE else DIE_WORDS.get(die, die)


def face_words(names: Any) -> str:
    names = tuple(names or ())
    return next((word for word, preset in FACE_PRESETS if preset == names), "own faces")


class SmartDiceRow(BoxLayout):
    """One die: what it is (``text``), the game's die it is and its faces, pair or forget."""

    address = StringProperty("")
    text = StringProperty("")
    die = StringProperty("")
    faces = StringProperty("")
    shell = StringProperty("")      # a paired GoDice's shell ("D20 shell"); "" for a Pixels
    paired = BooleanProperty(False)
    panel = ObjectProperty(None, allownone=True)


class DieChoice(ModalView):
    """Which game die a smart die is: any die, a magic die, an action die."""

    title = StringProperty("")

    def __init__(self, name: str, current: str, chosen, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title = f"{name[:32]}: which die is it?"
        for die in DIE_CHOICES:
            button = FlatButton(title=die_words(die), fs=20, selected=die == current,
                                fill=theme.GOOD if die == current else theme.GREY_BTN)
            button.bind(on_release=lambda _b, d=die: (self.dismiss(), chosen(d)))
            self.ids.pad.add_widget(button)
        cancel = FlatButton(title="Cancel", fs=18)
        cancel.bind(on_release=lambda *_: self.dismiss())
        self.ids.pad.add_widget(cancel)


class SmartDicePanel(BoxLayout):
    """The smart dice part of the Hardware screen (``screen`` is that screen)."""

    note = StringProperty("Tap Scan with the dice awake (roll them once) to find them.")
    scanning = BooleanProperty(False)
    found = ListProperty([])      # adverts of the last scan

    @property
    def app(self):
        return App.get_running_app()

    @property
    def screen(self):
        parent = self.parent
        while parent is not None and not hasattr(parent, "draft"):
            parent = parent.parent
        return parent

    # -- the draft ------------------------------------------------------------------------
    def paired(self) -> dict[str, dict[str, Any]]:
        ble = self.screen.draft.get("ble")
        dice = ble.get("dice") if isinstance(ble, dict) else None
        return dice if isinstance(dice, dict) else {}

    def pair(self, address: str) -> None:
        advert = next((a for a in self.found if a.address == address), None)
        if advert is None:
            return
        ble = self.screen.draft.setdefault("ble", {})
        ble.setdefault("dice", {})[address] = {"make": advert.make, "name": advert.name,
                                              "die": ANY_DIE}
        self._changed(f"{advert.name or address} paired as any die.")

    def forget(self, address: str) -> None:
        self.paired().pop(address, None)
        if not self.paired():
            self.screen.draft.pop("ble", None)
        self._changed(f"{address} forgotten.")

    def choose_die(self, address: str) -> None:
        entry = self.paired().get(address, {})
        DieChoice(str(entry.get("name") or address), entry.get("die", ANY_DIE),
                  chosen=lambda die: self.set_die(address, die)).open()

    def set_die(self, address: str, die: str) -> None:
        entry = self.paired().get(address)
        if entry is not None:
            entry["die"] = die
            self._changed(f"{entry.get('name') or address} is {die_words(die)}.")

    def next_faces(self, address: str) -> None:
        """Numbers -> action die A -> action die B -> numbers (the stickers on the die)."""
        entry = self.paired().get(address)
        if entry is None:
            return
        now = tuple(entry.get("face_names") or ())
        names = [preset for _word, preset in FACE_PRESETS]
        step = names[(names.index(now) + 1) % len(names)] if now in names else ()
        if step:
            entry["face_names"] = list(step)
        else:
            entry.pop("face_names", None)
        self._changed(f"{entry.get('name') or address}: faces are {face_words(step)}.")

    def next_shell(self, address: str) -> None:
        """D6 -> D20 -> D10 -> ... -> D6: the shell the GoDice wears (kept only when not D6)."""
        entry = self.paired().get(address)
        if entry is None or entry.get("make") != "godice":
            return
        now = entry.get("shell", SHELLS[0])
        step = SHELLS[(SHELLS.index(now) + 1) % len(SHELLS)] if now in SHELLS else SHELLS[0]
        if step == SHELLS[0]:
            entry.pop("shell", None)
        else:
            entry["shell"] = step
        self._changed(f"{entry.get('name') or address} wears its {step.upper()} shell.")

    def _changed(self, words: str) -> None:
        screen = self.screen
        screen.dirty = True
        self.show()
        screen.say(words + " Not saved yet: Check, or Save and restart devices.", "info")

    # -- scanning (the scan on its own thread, the result on the main thread) -------------
    def scan(self) -> None:
        if self.scanning:
            return
        from hardware.dice.ble import scan

        self.scanning, self.note = True, f"Scanning for {SCAN_S:g} s..."
        transport = self.app.devices.smart_dice.transport or self._air()

        def work() -> None:
            try:
                result: Any = scan(SCAN_S, transport)
            except Exception as problem:   # BluetoothAbsent, or bleak's own: said, not raised
                result = problem
            Clock.schedule_once(partial(self._scanned, result))

        threading.Thread(target=work, daemon=True, name="smart dice scan").start()

    def _scanned(self, result: Any, *_dt) -> None:
        self.scanning = False
        if isinstance(result, Exception):
            from hardware.dice.ble_link import BluetoothAbsent, absent_line

            log.info("scan failed: %s", result)
            said = absent_line(str(result)) if isinstance(result, BluetoothAbsent) else \
                f"The scan failed: {str(result)[:120] or type(result).__name__}"
            self.note = f"{said}. Dice can still be entered by touch."
            self.found = []
            self.show()
            return
        self.found = list(result)
        fresh = [a for a in self.found if a.address not in self.paired()]
        self.note = (f"{len(self.found)} dice found, {len(fresh)} not paired yet."
                     if self.found else "No smart dice found: wake them (roll once) and Scan.")
        self.show()

    def _air(self):
        """The simulated air the draft names (companion dicesim --ble), else None."""
        from hardware.dice.ble_air import AirTransport

        ble = self.screen.draft.get("ble")
        air = ble.get("air") if isinstance(ble, dict) else None
        return AirTransport(air) if isinstance(air, str) and air.startswith("/") else None

    # -- the rows -------------------------------------------------------------------------
    def show(self) -> None:
        box = self.ids.rows
        box.clear_widgets()
        if self.found and not self.scanning:
            fresh = sum(1 for a in self.found if a.address not in self.paired())
            self.note = f"{len(self.found)} dice found, {fresh} not paired yet."
        live = {r["address"]: r for r in self.app.devices.smart_dice.rows()}
        seen = {a.address: a for a in self.found}
        for address, entry in sorted(self.paired().items()):
            entry = entry if isinstance(entry, dict) else {}
            shell = str(entry.get("shell", SHELLS[0])).upper() + " shell" \
                if entry.get("make") == "godice" else ""
            box.add_widget(SmartDiceRow(
                panel=self, address=address, paired=True, die=die_words(str(entry.get("die", ANY_DIE))),
                faces=face_words(entry.get("face_names")), shell=shell,
                text=describe(address, entry, seen.get(address), live.get(address))))
        for advert in self.found:
            if advert.address not in self.paired():
                box.add_widget(SmartDiceRow(panel=self, address=advert.address, paired=False,
                                            text=describe(advert.address, {}, advert, None)))


def describe(address: str, entry: dict[str, Any], advert: Any, live: dict | None) -> str:
    """'Pixel01' over 'Pixels · D6 · onyx black · battery 80 % · connected', from what is
    known: a Pixels' type as it says it (its advert, then its IAmADie), a GoDice's shell
    (its button says it once paired), the battery and whether it is on the charger."""
    live = live or {}
    name = entry.get("name") or (advert.name if advert else "") or address
    make_id = entry.get("make") or (advert.make if advert else "")
    make = MAKE_WORDS.get(make_id, "")
    kind = type_words(live.get("die_type") or (advert.die_type if advert else "") or "")
    if make_id == "godice":
        kind = ""        # a setting, not something it says: its shell button shows it
    colour = live.get("colour") or (advert.colour if advert else "")
    battery = live.get("battery")
    battery = battery if battery is not None else (advert.battery if advert else None)
    charging = live.get("charging", False)
    link = live.get("link", "")
    low = " (low)" if battery is not None and battery < live.get("low", 20) and not charging \
        else ""
    power = f"battery {battery} %{low}" if battery is not None else ""
    if charging:
        power = f"{power} (charging)" if power else "on the charger"
    parts = [make, kind, colour, power, link]
    return f"{name[:32]}\n" + " · ".join(p for p in parts if p)
