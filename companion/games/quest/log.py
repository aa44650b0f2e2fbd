"""Cauldron Quest steps in the table's words, for the log the table reads and for undo to say
what it took back: "Ann rolled hat and spell", "Magic die 2 read 5", "Bottle 3 moved to the
cauldron", "The wizard moved 4 spaces". The team plays together, so "who" is the player whose
turn it is; spaces as the board shows them, never an id or a command's name."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from companion.core.model import Command, Event
from companion.games.quest import board
from companion.games.quest.dice import DIE_WORDS
from companion.games.quest.odds import ROLLS
from companion.games.quest.state import SPELL_TITLES, settings_from

Words = Callable[[dict[str, Any], str, Callable[[Any], str]], str]


def _spell(key: Any) -> str:
    return f"the {SPELL_TITLES[key]}" if key in SPELL_TITLES else "a spell"


def _dice(values: Any) -> str:
    return ", ".join(str(v) for v in values) if isinstance(values, list) else "?"


def _ingredient(key: Any) -> str:
    return key.replace("_", " ") if isinstance(key, str) else "an ingredient"


def _knocked(e: dict[str, Any]) -> str:
    knocked = e.get("knocked") or e.get("hit") or []
    return f", knocking back bottle {', '.join(str(b) for b in knocked)}" if knocked else ""


def _judged(e: dict[str, Any], who: str, where: Callable[[Any], str]) -> str:
    """A miss with rolls left is not a failure: the team rolls again, so the log says which
    roll missed ("roll 1 of 3 missed") and "fails" only when the last roll has missed (issue
    33: "Spell fails" while roll 2 of 3 went on)."""
    spell = _spell(e.get("spell"))
    spell = f"{spell[0].upper()}{spell[1:]}"
    if e.get("success"):
        return f"{spell} works"
    roll = e.get("roll")
    if isinstance(roll, int) and 0 < roll < ROLLS:
        return f"{spell}: roll {roll} of {ROLLS} missed"
    return f"{spell} fails"


WORDS: dict[str, Words] = {
    "action_rolled": lambda e, who, where: f"{who} rolled {e.get('a')} and {e.get('b')}",
    "die_read": lambda e, who, where: (f"{DIE_WORDS.get(e.get('die'), 'A die')} read "
                                       f"{e.get('value')}"),
    "magic_rolled": lambda e, who, where: f"{who} rolled the magic dice: {_dice(e.get('dice'))}",
    "roll_corrected": lambda e, who, where: (
        f"Roll corrected: {e.get('a')} and {e.get('b')}" if e.get("kind") == "action"
        else f"Roll corrected: magic dice {_dice(e.get('dice'))}"),
    "spell_announced": lambda e, who, where: f"{who} announced {_spell(e.get('spell'))}",
    "dice_kept": lambda e, who, where: (
        "Kept " + ", ".join(DIE_WORDS.get(k, "a die") for k in e.get("keep", []))
        if e.get("keep") else "Kept no dice"),
    "spell_judged": _judged,
    "bottle_moved": lambda e, who, where: (f"{who} moved bottle {e.get('bottle')} to "
                                           f"{where(e.get('to'))}"),
    "bottle_returned": lambda e, who, where: (f"Bottle {e.get('bottle')} went back to "
                                              f"{where(e.get('to'))}"),
    "path_blocked": lambda e, who, where: f"Path {e.get('path')} blocked{_knocked(e)}",
    "obstacle_removed": lambda e, who, where: f"The Spell Breaker cleared path {e.get('path')}",
    "bottle_revealed": lambda e, who, where: (f"Bottle {e.get('bottle')} holds "
                                              f"{_ingredient(e.get('ingredient'))}"),
    "bottles_swapped": lambda e, who, where: "Bottles {} and {} swapped places".format(
        *(list(e.get("bottles") or []) + ["?", "?"])[:2]),
    "wizard_moved": lambda e, who, where: (f"The wizard moved {e.get('steps')} spaces"
                                           f"{_knocked(e)}"),
    "turn_ended": lambda e, who, where: (f"{e.get('player', who)}'s turn is over"
                                         + (f": {e['reason']}" if e.get("reason") else "")),
    "game_won": lambda e, who, where: "The team wins: the potion is brewed!",
    "game_lost": lambda e, who, where: "The wizard wins: every path is blocked",
}


def describe(command: Command, events: Sequence[Event], names: Sequence[str],
             memo: dict[str, Any]) -> list[str]:
    """One line per event, the command's first. ``memo`` keeps whose turn it is and the board's
    settings (for naming spaces) across the game's steps."""
    if "settings" not in memo:
        try:
            memo["settings"] = settings_from(memo.get("setup") or {})
        except Exception:  # a setup today's rules refuse: spaces by their plain names
            memo["settings"] = None
    settings = memo["settings"]

    def where(space: Any) -> str:
        if settings is None or not isinstance(space, str):
            return str(space)
        return board.describe(space, settings)

    who = command.player or memo.get("turn") or (names[0] if names else "The team")
    out = []
    for event in events:
        words = WORDS.get(event.type)
        out.append(words(event.data, who, where) if words
                   else event.type.replace("_", " ").capitalize())
        if event.type == "turn_ended" and event.data.get("next"):
            memo["turn"] = event.data["next"]
    return out or [f"{who} played"]


def chapter(events: Sequence[Event], names: Sequence[str], memo: dict[str, Any]) -> str | None:
    """The log's heading a step opens ("Turn 3: Leo"), or None when it goes on under the one
    before. The turns go round the table from the first listed, as the rules take them."""
    turn = memo.setdefault("turn", 1)
    heading = None
    if memo.get("shown") != turn:
        who = names[(turn - 1) % len(names)] if names else "the team"
        heading, memo["shown"] = f"Turn {turn}: {who}", turn
    memo["turn"] += sum(1 for event in events if event.type == "turn_ended")
    return heading
