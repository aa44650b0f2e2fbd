"""The setup screen's problems in people's words, each at the seat it concerns.

The rules judge a setup when the game starts (``RULES.start``, a SetupError naming the part it
refuses: ``players[2]: ...``, ``characters.Anna: ...``, ``settings.field_supply: ...``). Asked
the same question beforehand, on every edit after a refused start, the screen can put each
problem beside the seat row it concerns and take it away the moment the table fixes it. Nothing
is checked here that the rules do not check."""

from __future__ import annotations

import re

from companion.core.errors import SetupError
from companion.games.cauldron import RULES
from companion.games.cauldron import data as d

_SEAT = re.compile(r"^players\[(\d+)\](?:\.[\w.]+)?:\s*")
_CHARACTER = re.compile(r"^characters\.([^:]+):\s*")
_COLOUR = re.compile(r"^colours\[(\d+)\]:\s*")
_SEAT_IN_WORDS = re.compile(r"players\[\d+\] \(([^)]*)\)")
_PART = re.compile(r"^[\w.\[\]]+:\s*")


def people_words(message: str) -> str:
    """'settings.box_fields: the starting board needs ...' -> 'The starting board needs ...'."""
    text = _PART.sub("", message, count=1).strip()
    return text[:1].upper() + text[1:]


def setup_problems(setup: dict) -> tuple[dict[int, str], str]:
    """What the rules would say to ``setup``: ({seat: words}, words for the whole table)."""
    try:
        RULES.start(dict(setup))
    except SetupError as problem:
        message = str(problem)
    else:
        return {}, ""
    names = [p.get("name", "") for p in setup.get("players", [])]
    seat = _SEAT.match(message)
    if seat and int(seat.group(1)) < len(names):
        return {int(seat.group(1)): people_words(message)}, ""
    colour = _COLOUR.match(message)
    if colour and int(colour.group(1)) < len(names):      # "Orange for players[2] (Carl) ..."
        return {int(colour.group(1)): _SEAT_IN_WORDS.sub(r"\1", people_words(message))}, ""
    character = _CHARACTER.match(message)
    if character and character.group(1).strip() in names:
        return {names.index(character.group(1).strip()): people_words(message)}, ""
    words = people_words(message)
    for i in reversed(range(len(names))):    # "the Wizard", "the Witch is chosen twice"
        character = setup["players"][i].get("character")
        if character and f"the {d.label(character)}" in words:
            return {i: words}, ""
    return {}, words
