"""Cauldron steps in the table's words, for the log the table reads and for undo to say what it
took back: "Anna brewed Oil of Earthquakes, +3 Magik", "Ben stole a Spider Web from Carl (rolled
5)", "Market over". Seats by name, ingredients, items and milestones as the box prints them;
"fewest Magik" / "most Magik", never an id or a command's name."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from companion.core.model import Command, Event
from companion.games.cauldron import data as d

Words = Callable[[dict[str, Any], Callable[[Any], str]], str]
WANT = {"low": "fewest Magik", "lsp": "fewest Magik", "high": "most Magik", "hsp": "most Magik"}


def _thing(key: Any) -> str:
    return d.label(key) if isinstance(key, str) else "an ingredient"


def _things(keys: Any) -> str:
    if isinstance(keys, dict):  # counts: "4 Spider Web, 4 Frog Legs"
        said = [f"{n} {_thing(k)}" for k, n in keys.items() if isinstance(n, int) and n > 0]
        return ", ".join(said) or "nothing"
    keys = list(keys or [])
    return ", ".join(_thing(k) for k in keys) if keys else "nothing"


def _adjusted(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    """'Corrected Anna's pool and Spells, the board' (what changed, not a seat that did not)."""
    mine = [words for key, words in (("pool", "pool"), ("spells", "Spells")) if e.get(key)]
    parts = [f"{who(e.get('seat'))}'s " + " and ".join(mine)] if mine else []
    parts += [words for key, words in (("board", "the board"), ("fields", "the Fields"))
              if e.get(key)]
    return "Corrected " + (", ".join(parts) if parts else "by hand")


def _magik(n: Any) -> str:
    return f"{n:+d} Magik" if isinstance(n, int) else "Magik"


def _stole(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    roll = f" (rolled {e['roll']})" if e.get("roll") is not None else ""
    if e.get("success"):
        return f"{who(e.get('seat'))} stole {_thing(e.get('ingredient'))} from {who(e.get('target'))}{roll}"
    return f"{who(e.get('seat'))} failed to steal from {who(e.get('target'))}{roll}"


def _begun(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    """'The game begins', and the dealt potion cards not entered yet when there are some."""
    owed = e.get("owed")
    if not isinstance(owed, dict) or not owed:
        return "The game begins"
    parts = []
    for seat, kinds in owed.items():
        n = len(kinds) if isinstance(kinds, list) else 0
        seat_no = int(seat) if isinstance(seat, str) and seat.isdigit() else seat
        parts.append(f"{who(seat_no)} {n} card{'s' if n != 1 else ''}")
    return "The game begins with dealt potion cards not entered: " + ", ".join(parts)


def _kind_card(kind: Any) -> str:
    """"an Advanced potion card", "a Basic potion card" (an unknown kind: "a potion card")."""
    if kind not in ("easy", "basic", "advanced"):
        return "a potion card"
    return f"{'an' if kind[0] in 'ae' else 'a'} {kind.capitalize()} potion card"


def _bought(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    item = d.ITEM_TEXT.get(e.get("item"), "an item")
    # a potion card bought goes to the seat's hand: the log never names it (the seat's own)
    if e.get("field"):
        item = f"{item} of {_thing(e['field'])}"
    return f"{who(e.get('seat'))} bought {item} for {e.get('cost')} Magik"


def _rolloff(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    seats = ", ".join(who(s) for s in e.get("contenders", []))
    want = WANT.get(e.get("want") or e.get("kind"), "a tie")
    return f"Roll-off for {want}: {seats}"


def _turn_order(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    if e.get("first") is not None:
        return f"{who(e['first'])} goes first"
    seats = ", ".join(who(s) for s in e.get("contenders", []))
    return f"Roll for turn order: {seats}"


def _milestone(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    name = d.MILESTONE_TEXT.get(e.get("milestone"), "A milestone")
    return f"{name} reached by {who(e.get('seat'))}"


def _corrected(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    new = e.get("new", e.get("value"))
    return f"Roll corrected for {who(e.get('seat'))}: {e.get('old')} is now {new}"


WORDS: dict[str, Words] = {
    "game_begun": lambda e, who: _begun(e, who),
    "omen_drawn": lambda e, who: f"Omen: {e.get('text') or 'drawn'}",
    "board_filled": lambda e, who: f"Board filled: {_things(e.get('ingredients'))}",
    "gathered": lambda e, who: f"{who(e.get('seat'))} gathered {_things(e.get('ingredients'))}",
    "steal_declared": lambda e, who: (f"{who(e.get('seat'))} tries to steal "
                                      f"{_thing(e.get('ingredient'))} from {who(e.get('target'))}"),
    "stole": _stole,
    "brewed": lambda e, who: f"{who(e.get('seat'))} brewed {e.get('potion')}, {_magik(e.get('gain'))}",
    "spell_cast": lambda e, who: (f"{who(e.get('seat'))} cast "
                                  f"{e.get('name') or 'a ' + str(e.get('kind')) + ' spell'}"),
    "ingredient_moved": lambda e, who: (f"{who(e.get('seat'))} moved {_thing(e.get('ingredient'))} "
                                        f"to the {'Cellar' if e.get('to') == 'cellar' else 'pool'}"),
    "turn_ended": lambda e, who: f"{who(e.get('seat'))} ended the turn",
    "bought": _bought,
    "market_turn_ended": lambda e, who: (f"{who(e.get('seat'))} passed at the market"
                                         if e.get("passed") else f"{who(e.get('seat'))} is done shopping"),
    "milestones_set": lambda e, who: "Milestone positions set",
    "character_set": lambda e, who: f"{who(e.get('seat'))} plays the {_thing(e.get('character'))}",
    # a card in hand is the seat's own: the log says its kind, never which card
    "potion_added": lambda e, who: (f"{who(e.get('seat'))} took "
                                    f"{_kind_card((e.get('potion') or {}).get('kind'))}"),
    "potion_discarded": lambda e, who: f"{who(e.get('seat'))} discarded {e.get('potion')}",
    "spell_discarded": lambda e, who: f"{who(e.get('seat'))} discarded a {e.get('kind')} spell",
    "ability_used": lambda e, who: (f"{who(e.get('seat'))} used the character's ability"
                                    + (f": {e['note']}" if e.get("note") else "")),
    "magik_adjusted": lambda e, who: f"Magik for {who(e.get('seat'))}: {_magik(e.get('applied', e.get('delta')))}",
    "adjusted": _adjusted,
    "fields_exhausted": lambda e, who: f"No {_thing(e.get('ingredient'))} fields left in the box",
    "turn_order_opened": _turn_order,
    "turn_order_rolled": lambda e, who: f"{who(e.get('seat'))} rolled {e.get('value')} for turn order",
    "rolloff_opened": _rolloff,
    "rolloff_rolled": lambda e, who: f"{who(e.get('seat'))} rolled {e.get('value')} in the roll-off",
    "rolloff_voided": lambda e, who: "Roll-off no longer needed",
    "roll_corrected": _corrected,
    "milestone_reached": _milestone,
    "harvest_closed": lambda e, who: f"Harvest over: {who(e.get('market_starter'))} starts the market",
    "market_closed": lambda e, who: f"Market over: season {e.get('season')} ends",
    "game_over": lambda e, who: f"Game over: {who(e.get('winner'))} wins with {e.get('magik')} Magik",
}


def describe(command: Command, events: Sequence[Event], names: Sequence[str],
             memo: dict[str, Any]) -> list[str]:
    """One line per event, the command's first."""
    def who(seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return "nobody" if seat is None else "a player"

    out = []
    for event in events:
        words = WORDS.get(event.type)
        out.append(words(event.data, who) if words else event.type.replace("_", " ").capitalize())
    return out or [f"{command.player or 'The table'} played"]


#: The events of a seat's own turn, in the Harvest and at the Market: the first names whose.
TURN = {"gathered", "steal_declared", "brewed", "spell_cast", "ability_used", "ingredient_moved",
        "turn_ended", "bought", "market_turn_ended"}
#: What ends a turn, and what ends a season's harvest or market.
TURN_ENDS = {"turn_ended", "market_turn_ended"}


def chapter(events: Sequence[Event], names: Sequence[str], memo: dict[str, Any]) -> str | None:
    """The log's heading a step opens ("Season 2 Harvest: Anna's turn", "Season 2 Market"), or
    None when it goes on under the one before. The steps before a season's first turn (the
    omen, the board, the turn order) go under the season's own heading."""
    if "season" not in memo:
        memo.update(season=0, part="", whose=None, open=False)
    first = next((e for e in events if e.type in TURN), None)
    if first is not None and memo["season"] and not memo["open"]:
        memo["open"], memo["whose"] = True, first.data.get("seat")
    seat = memo["whose"] if memo["open"] else None
    if not memo["season"]:
        heading = "Setting up"
    else:
        heading = f"Season {memo['season']} {memo['part']}"
        if isinstance(seat, int) and 0 <= seat < len(names):
            heading += f": {names[seat]}'s turn"
    said, memo["said"] = memo.get("said"), heading
    for event in events:
        if event.type in TURN_ENDS:
            memo["open"] = False
        elif event.type in ("game_begun", "harvest_closed", "market_closed"):
            if event.type != "harvest_closed":
                memo["season"] += 1
            memo.update(part="Market" if event.type == "harvest_closed" else "Harvest",
                        open=False)
    return heading if heading != said else None
