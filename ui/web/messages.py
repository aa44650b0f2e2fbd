"""What a phone may send, declared per message type and checked like every other input: a
message that is not a JSON object, names no known type, lacks a field, carries an unknown key
or a value of the wrong type is refused with a reason naming it, and nothing else happens.

    {"type": "press", "button": "claim", "seen": 12, "id": 3}
    {"type": "die", "die": "magic1", "value": 4, "seen": 12, "id": 4}
    {"type": "choose", "choice": "role:witch", "seen": 12, "id": 5}

    {"type": "ask", "id": "k3f9a2c1.4", "boot": "9c1e..."}

``seen`` is the number of the snapshot the phone showed when pressed: a press against an older
table is refused (the phone shows the new one), never applied to a state nobody saw. ``id`` is
the page's own name for the press (a random prefix of the page and a count: two pages of one
link never share one): every answer names it (received, then applied or refused with the
words), a resend of an id is answered with what became of it and never played again, and a
page back from a lost connection ``ask``s after each press it has no answer for, naming the
server's ``boot`` it sent it to (the hello's), so it can say the press's real fate.
"""

from __future__ import annotations

import json
from typing import Any

#: At most this many bytes a message (the WebSocket refuses a larger frame).
MAX_BYTES = 4096
#: aiohttp's ping (a dead phone found by the server), and the beat: something every phone
#: hears at least this often, so a page that hears nothing for two knows it is not connected.
HEARTBEAT_S, BEAT_S = 20.0, 5.0
#: How long a closing phone may take to answer (Stop sharing waits no longer).
CLOSE_TIMEOUT_S = 2.0
#: How a connection is closed (code, reason): on Stop sharing (the page stops trying), on a
#: restart (it reconnects by itself), a pass ended (it shows why), the watchers full.
STOPPED, RESTARTING = (1001, b"Sharing stopped"), (1012, b"Restarting")
ENDED, FULL = (4000, b"Link ended"), (1013, b"Full")

_TEXT = (str,)
_NUMBER = (int,)
_ID = (int, str)
#: What a press id may be when it is text: a page's random prefix and its count.
ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
MAX_ID = 40
#: Each type's fields and the JSON types each may have (bool is never a number here).
MESSAGES: dict[str, dict[str, tuple[type, ...]]] = {
    "press": {"button": _TEXT, "seen": _NUMBER, "id": _ID},
    "die": {"die": _TEXT, "value": (int, str), "seen": _NUMBER, "id": _ID},
    "choose": {"choice": _TEXT, "seen": _NUMBER, "id": _ID},
    "ask": {"id": _ID, "boot": _TEXT},
}
_TYPE_WORDS = {str: "text", int: "a whole number"}


class Refused(ValueError):
    """A message the server will not act on; ``str()`` says why, to the phone that sent it."""


def parse(text: Any) -> dict[str, Any]:
    """The checked message, or Refused naming what is wrong."""
    if not isinstance(text, str):
        raise Refused("Messages are JSON text")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise Refused(f"A message is at most {MAX_BYTES} bytes")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused("A message must be JSON") from None
    if not isinstance(message, dict):
        raise Refused("A message must be a JSON object")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in MESSAGES:
        known = ", ".join(sorted(MESSAGES))
        raise Refused(f"type: must be one of {known}, got {_shown(kind)}")
    fields = MESSAGES[kind]
    for key in message:
        if key != "type" and key not in fields:
            raise Refused(f"{kind}: unknown key {_shown(key)}")
    for key, types in fields.items():
        if key not in message:
            raise Refused(f"{kind}.{key}: missing")
        value = message[key]
        if isinstance(value, bool) or not isinstance(value, types):
            wants = " or ".join(_TYPE_WORDS[t] for t in types)
            raise Refused(f"{kind}.{key}: must be {wants}, got {_shown(value)}")
    press = message["id"]
    if isinstance(press, str) and not (0 < len(press) <= MAX_ID and set(press) <= ID_CHARS):
        raise Refused(f"{kind}.id: at most {MAX_ID} letters, digits, '.', '_' or '-', "
                      f"got {_shown(press)}")
    return message


def _shown(value: Any) -> str:
    """A value as a refusal quotes it: short, whatever a phone sent."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def reply(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, **fields}, separators=(",", ":"))
