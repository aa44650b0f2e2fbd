"""A phone's connection and what its messages may do: its pass (watching, or a player's seat
link), its allowance of messages, and the check that turns a seat's press into the InputEvent
its physical button would make, refused with the reason otherwise (ui.web.server calls it)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from companion.view.forms import MAX_FORM
from companion.view.hands import HAND_KEYS, enters_hand
from ui.web import passes as kept
from ui.web.commands import PhoneInput
from ui.web.messages import Refused
from ui.web.outbox import Outbox

#: The messages a connection may send: a burst of BURST, then RATE a second.
RATE, BURST = 3.0, 6
WATCH = -1


@dataclass(eq=False)
class Client:
    """One phone's WebSocket: its pass (None: watching), its message allowance, what the
    server owes it (``outbox``), and whether it was told to go (``leaving``: another page of
    its link took over; it no longer counts among the link's sockets)."""

    ws: web.WebSocketResponse
    seat: Any = WATCH                       # WATCH, or the SeatPass it presses with
    allowance: float = float(BURST)
    since: float = field(default_factory=time.monotonic)
    dropped: int = 0
    opened: float = field(default_factory=time.monotonic)
    leaving: bool = False
    outbox: Outbox = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.outbox = Outbox(self.ws)

    @property
    def watching(self) -> bool:
        return not isinstance(self.seat, kept.SeatPass)

    def allowed(self, now: float) -> bool:
        self.allowance = min(float(BURST), self.allowance + (now - self.since) * RATE)
        self.since = now
        if self.allowance < 1:
            self.dropped += 1
            return False
        self.allowance -= 1
        return True


HAND_KEYS_ALL = tuple(HAND_KEYS.values())


def seat_input(snapshot: dict[str, Any] | None, client: Client, seat: int | None,
               message: dict[str, Any]) -> PhoneInput:
    """The input ``client``'s checked message stands for on ``snapshot`` (the table now),
    pressed for ``seat`` (where its player sits now), or Refused with the reason. It carries
    its seat, its player and the snapshot it was made on: the main thread plays it only while
    the table is still there, and only as that seat's (ui.web.commands)."""
    if client.watching:
        raise Refused("This page watches the table: it has no buttons")
    if snapshot is None:
        raise Refused("No game at the table now")
    if message["seen"] != snapshot["n"]:
        raise Refused("The table has moved on: look again, then press")
    if seat is None or seat >= len(snapshot["controls"]):
        raise Refused(f"{client.seat.name} is not at the table now")
    controls = snapshot["controls"][seat]
    name = snapshot["seats"][seat]["name"]
    bound = {"source": f"{name}'s phone", "seat": seat, "player": name,
             "seen": message["seen"], "press": press_key(client, message["id"])}
    if message["type"] == "press":
        offered = [b["button"] for b in controls["buttons"]]
        if message["button"] not in offered:
            raise Refused(f"button: {name}'s buttons can do "
                          f"{', '.join(offered) or 'nothing'} now, not {message['button']!r}")
        return PhoneInput("button", f"seat{seat + 1}.{message['button']}", **bound)
    if message["type"] == "choose":
        offered = [c["choice"] for c in controls.get("choices", [])]
        forms = [f["form"] for f in controls.get("forms", [])]
        if message["choice"].startswith(HAND_KEYS_ALL):   # the seat's own hand
            why = enters_hand(snapshot, seat, message["choice"])
            if why:
                raise Refused(why)
        elif message["choice"].partition(":")[0] in forms:  # an entry its part offers now
            if len(message["choice"]) > MAX_FORM:
                raise Refused(f"choice: an entry is at most {MAX_FORM} characters")
        elif message["choice"] not in offered:
            raise Refused(f"choice: the table offers {name} "
                          f"{', '.join(offered) or 'no choice'} now, not {message['choice']!r}")
        return PhoneInput("choice", f"seat{seat + 1}.{message['choice']}", **bound)
    dice = {d["die"]: d["faces"] for d in controls["dice"]}
    if message["die"] not in dice:
        raise Refused(f"die: the game asks {name} for no die {message['die']!r} now")
    if message["value"] not in dice[message["die"]]:
        raise Refused(f"value: {message['die']} has no face {message['value']!r}")
    return PhoneInput("die", message["die"], message["value"], **bound)


def press_key(client: Client, press: Any) -> str:
    """A press's key: its page's id under the link's token (two links' pages may pick the
    same id; one link's pages never do: each page's ids start with a random prefix)."""
    token = client.seat.token if not client.watching else "watch"
    return f"{token}:{press}"
