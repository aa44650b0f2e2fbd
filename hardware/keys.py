"""The demo keyboard: keys that stand in for the table's buttons when there is no table.

Kept with the hardware because a key press takes the same path as a button (an input id such
as "seat1.claim"), and the key printed on screen must match the map.
"""

from __future__ import annotations

from .config_check import SEAT_BUTTONS

# Key name as Kivy reports it (``Keyboard.keycode_to_string``, lower case) -> input id. One
# column of the keyboard per seat: q/a/z, w/s/x, e/d/c, r/f/v, t/g/b, y/h/n for claim /
# so_be_it / pass. The first key listed for an id is the one printed on screen.
_SEAT_KEYS = ("qaz", "wsx", "edc", "rfv", "tgb", "yhn")
KEYBOARD_MAP: dict[str, str] = {
    key: f"seat{seat}.{role}"
    for seat, keys in enumerate(_SEAT_KEYS, start=1)
    for key, role in zip(keys, SEAT_BUTTONS)
}
KEYBOARD_MAP.update({"u": "undo", "backspace": "undo", "i": "redo"})


def input_for_key(key: str) -> str | None:
    """The input id a demo key stands for ("q" -> "seat1.claim"), or None."""
    return KEYBOARD_MAP.get(key.lower())


def key_label(input_id: str) -> str | None:
    """The key to print on screen for an input ("seat1.claim" -> "Q"), or None if no key."""
    for key, target in KEYBOARD_MAP.items():
        if target == input_id:
            return key.upper() if len(key) == 1 else key.title()
    return None
