"""The table's smart dice (GoDice, Pixels over Bluetooth LE) on the main thread.

:class:`hardware.dice.ble.BleDiceSource` runs on its own thread and puts the dice's events on
the one Inbox, like the tray's reader; here, on the main thread, each is given the game's die
(:class:`hardware.dice.route.DiceRouter`) and its face name (the tray's rule,
``hardware.config_data.face_name``), and what the dice report becomes the strip's line: how
many are connected, who is reconnecting, whose battery is low. A die that is not six-sided
is refused by name with what the game in play rolls ("Pixel 03 is a D20: Cauldron rolls
six-sided dice"). ``bleak`` and the routing are imported only when a ``[ble]`` section is
configured: start-up and idle are unchanged without it.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import partial
from typing import Any

from kivy.clock import Clock

from companion.core.model import InputEvent

log = logging.getLogger(__name__)

ANY = "any"   # hardware.dice.route.ANY, not imported: the app starts without hardware.dice
#: the statuses that are about the link (the others: battery, a refused face, no Bluetooth)
_LINK_STATES = ("connecting", "connected", "disconnected", "unavailable")


class SmartDice:
    """The source, its statuses and the routing of its rolls, for one app's devices."""

    def __init__(self, devices: Any) -> None:
        self.devices = devices
        self.transport = None        # None: the real radio; tests and demo mode give a fake
        self.source = None
        self.config = None
        self.router = None           # hardware.dice.route.DiceRouter, once a source starts
        self.links: dict[str, str] = {}      # address -> its last link state
        self.absent = ""                     # the one line when there is no Bluetooth
        self.line = ""                       # for the strip
        self.battery: dict[str, int] = {}    # address -> percent, as the statuses said
        self.charging: dict[str, bool] = {}
        self.colour: dict[str, str] = {}
        self.die_type: dict[str, str] = {}   # address -> what the die says it is ("d20")
        self.last_ignored = ""               # the last roll not asked for, and why
        self._generation = 0

    # -- starting and stopping (main thread) ---------------------------------------------
    def start(self, ble) -> list[str]:
        """Start reading the paired dice; returns the problems to show (none if it runs)."""
        from hardware.dice.ble import BleDiceSource, BleDie
        from hardware.dice.route import DiceRouter

        self.stop()
        self.config = ble
        self.router = DiceRouter({d.die for d in ble.dice if d.die != ANY})
        self._generation += 1
        generation = self._generation

        def on_status(status) -> None:   # the source's thread: hand over, touch nothing
            Clock.schedule_once(partial(self._on_status, generation, status))

        dice = [BleDie(d.address, d.make, d.name, d.shell) for d in ble.dice]
        self.links = {d.address: "connecting" for d in ble.dice}
        try:
            self.source = BleDiceSource(dice, self.devices.inbox.put,
                                        transport=self.transport or ble.transport(),
                                        on_status=on_status, low_battery=ble.low_battery,
                                        backoff=self.devices.ble_backoff)
        except Exception as problem:   # no ble extra, no Bluetooth: one line, touch plays on
            log.warning("smart dice unavailable: %s", problem)
            self.config, self.links = None, {}
            self._show()
            return [f"Smart dice unavailable: {problem}. Enter dice by touch."]
        self._show()
        return []

    def stop(self) -> None:
        self._generation += 1
        source, self.source = self.source, None
        if source is not None:
            try:
                source.close()
            except Exception:
                log.exception("closing the smart dice")
        self.config, self.links, self.absent = None, {}, ""
        self.battery, self.colour, self.charging, self.die_type = {}, {}, {}, {}
        if self.router is not None:
            self.router.reset()
        self._show()

    # -- the dice's events (main thread, from the Inbox) -----------------------------------
    def game_event(self, event: InputEvent) -> InputEvent | None:
        """A smart die's event as the game's die, or None when there is nothing to play:
        a moving die (shown), an unpaired one, or a roll the game does not ask for
        (ignored and counted: dice on a table get bumped)."""
        app = self.devices.app
        paired = self.config.die(event.id) if self.config is not None else None
        if paired is None or self.router is None:
            return None
        name = self.short(event.id)
        if event.kind == "die_moving":
            app.dice_activity = f"{name} {event.value or 'rolling'}..."   # never a result
            return None
        session = app.session
        inputs = session.prompt().get("inputs", []) if session is not None \
            and not session.over else []
        route = self.router.route(event.id, paired.die, inputs)
        value = paired.game_value(event.value)
        if route.die is None:
            count = self.router.count_ignored()
            self.last_ignored = f"{self.label(event.id)} showed {value}: {route.why}"
            log.info("ignored: %s", self.last_ignored)
            app.dice_activity = f"{name}: {value} not asked ({count} ignored)"
            return None
        return replace(event, id=route.die, value=value)

    def short(self, address: str) -> str:
        """The die's name as the strip has room for it (12 characters)."""
        paired = self.config.die(address) if self.config is not None else None
        name = (paired.name if paired is not None else "") or address
        return name if len(name) <= 12 else name[:11] + "~"

    def label(self, address: str) -> str:
        """'magic1 (Pixel01)': the game's die first, as the table says it."""
        paired = self.config.die(address) if self.config is not None else None
        if paired is None:
            return address
        die = "any die" if paired.die == ANY else paired.die
        return f"{die} ({paired.name or address})"

    # -- statuses ------------------------------------------------------------------------
    def _on_status(self, generation: int, status, *_dt) -> None:
        """Main thread: what the source reports, into the strip."""
        if generation != self._generation or self.source is None:
            return    # from a source closed since
        app = self.devices.app
        if status.state == "absent":
            self.absent = status.text
        elif status.state in _LINK_STATES and status.address:
            self.links[status.address] = status.state
            self.absent = "" if status.state == "connected" else self.absent
        elif status.state == "battery" and status.address:
            if status.battery is not None:
                self.battery[status.address] = status.battery
            if status.charging is not None:
                self.charging[status.address] = status.charging
            if status.colour:
                self.colour[status.address] = status.colour
        elif status.state == "identity" and status.address:
            self.die_type[status.address] = status.die_type
            if status.colour:
                self.colour[status.address] = status.colour
        elif status.state == "refused":
            text = status.text
            if status.die_type:          # not six-sided: the refusal says what the game rolls
                text = f"{text}: {self.rolls()}"
                app.dice_activity = f"{self.short(status.address)}: " \
                    f"{status.die_type.upper()}, not applied"
            else:
                app.dice_activity = text
            app.refuse(text[:1].upper() + text[1:])
            self.devices.buzz("refused")
        self._show()

    def rolls(self) -> str:
        """'Cauldron rolls six-sided dice': what the game in play rolls, for a refusal."""
        session = getattr(self.devices.app, "session", None)
        rules = getattr(session, "rules", None)
        if getattr(rules, "name", None) in ("cauldron", "quest"):
            return f"{rules.title} rolls six-sided dice"     # the rules' own title
        return "the games roll six-sided dice"

    def _show(self) -> None:
        self.line = self.summary()
        self.devices.show_dice_line()
        screens = getattr(self.devices.app, "screens", None)   # the Hardware screen's rows
        if screens is not None and screens.current == "hardware_settings":
            panel = screens.current_screen.ids.get("smart_dice")
            if panel is not None:
                panel.show()

    @property
    def ok(self) -> bool:
        return bool(self.links) and all(s == "connected" for s in self.links.values())

    def summary(self) -> str:
        """'smart dice: 3 of 4 connected; Pixel01 reconnecting', or with every die there the
        first one low on battery ('...; Pixel3 battery 12 %'); '' without smart dice. Short:
        the strip has one line (the Hardware screen lists every die)."""
        if self.config is None or self.source is None:
            return ""
        if self.absent:
            return self.absent
        up = sum(1 for s in self.links.values() if s == "connected")
        line = f"smart dice: {up} of {len(self.links)} connected"
        away = [a for a, s in self.links.items() if s in ("disconnected", "unavailable")]
        if away:
            return f"{line}; {self.short(away[0])} reconnecting"
        low = [f"{self.short(a)} battery {self.battery[a]} %" for a in self.links
               if a in self.battery and self.battery[a] < self.config.low_battery]
        return f"{line}; {low[0]}" if low else line

    def rows(self) -> list[dict[str, Any]]:
        """The paired dice for the Hardware screen: address, name, make, die, link, battery."""
        if self.config is None:
            return []
        return [{"address": d.address, "name": d.name, "make": d.make, "die": d.die,
                 "link": self.links.get(d.address, ""), "battery": self.battery.get(d.address),
                 "charging": self.charging.get(d.address, False),
                 "colour": self.colour.get(d.address, ""), "low": self.config.low_battery,
                 "die_type": self.die_type.get(d.address, ""), "shell": d.shell}
                for d in self.config.dice]
