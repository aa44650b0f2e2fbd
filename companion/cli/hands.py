"""What both exports say of a seat's cards in hand (private to the seat): which commands name them, and the
one warning for a game still in play. Apart from play.py and history.py, which both use it."""

from __future__ import annotations

import json
import sys
from typing import Any

from companion.cli.files import say


#: The commands that carry a seat's unplayed cards (private to the seat): a Witch's Brew hand, a Cauldron
#: potion card entered (``buy`` carries one when a card is drawn with it).
HAND_COMMANDS = ("choose_hand", "add_potion")


def names_cards(do: str, args: dict[str, Any]) -> bool:
    """Whether a command names a seat's cards in hand."""
    return do in HAND_COMMANDS or (do == "buy" and "potion" in args)


def holds_hands(session: Any) -> bool:
    """Whether the game's standing commands name a seat's cards in hand. The export keeps them
    (a script without them would not replay the same game, and whoever runs the command on
    the Pi can read the database anyway), so a game still in play is exported with a warning
    rather than with the hands hidden, as the record hides them from everyone else."""
    return any(names_cards(step.command.do, step.command.args) for step in session.done_steps())


def raw_holds_hands(lines: list[str]) -> bool:
    """Whether a game's rows as stored (``export --raw``) may name a seat's cards in hand while
    it is not finished: a step whose command names them, or one that cannot be read (a raw
    export is for rows that may not fold; what cannot be read is not known to hold no hand)."""
    header = json.loads(lines[0])
    if header.get("status") == "finished":
        return False
    for line in lines[1:]:
        try:
            command = json.loads(json.loads(line)["command"])
            if names_cards(command.get("do"), command):     # args stored beside "do"
                return True
        except (ValueError, TypeError, KeyError, AttributeError):
            return True
    return False


def warn_hands(games: list[str]) -> None:
    """The one warning of both exports, on stderr (stdout stays the file's text)."""
    if games:
        say(f"companion export: {', '.join(games)} still in play and this export holds every "
            "seat's hand (the cards each chose or entered): keep it from the table until the "
            "game is over", sys.stderr)
