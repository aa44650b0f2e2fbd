"""What a Witch's Brew setup and each command may hold, declared for the gate.

The gate (companion.core.gate) checks every command against these declarations before
``decide`` sees it: a role is one of the 12 (by key or by its title, any case), a counter is
one of the five, an amount is a whole number the box can hold, a player is a name at this
table. So ``decide`` only asks what the rules ask: whose turn, what the seat can pay, what the
stacks and the supply still hold. docs/witchs-brew.md's setup keys and command table are checked
against this module (tests/companion/test_readme_commands.py).
"""

from __future__ import annotations

from typing import Any

from companion.core.gate import (
    PLAYER_NONE, PLAYER_REQUIRED, Arg, Choice, Declared, Flag, ListOf, MapOf, Player, Record,
    SeatColours, Text, Whole, clean_text, player_names,
)
from companion.games.witchs_brew.roles import (
    COUNTERS, DROPS, MAX_POINTS, MOST_AT_ONCE, ROLES, STACK_SIZES, STACKS, START,
)
from companion.games.witchs_brew.state import BOX_SUPPLY, VARIANT, seat_names

State = dict[str, Any]

#: A role by its key ("wolf_keeper") or by the title on the card ("Wolf keeper").
ROLE = Choice(tuple(ROLES), aliases={r.title: key for key, r in ROLES.items()})
DROP = Choice(DROPS)
STACK = Choice(STACKS, aliases={key.replace("_", " "): key for key in STACKS})
PLAYER = Player(seat_names)


def _most(state: State, counter: str) -> int:
    """The most of one counter a change may move: what the table plays with in all, or
    MOST_AT_ONCE where the supply of it is unlimited."""
    held = state["supply"][counter]
    return MOST_AT_ONCE if held is None else held


def _box(counter: str):
    return lambda state: _most(state, counter)


def _minus_box(counter: str):
    return lambda state: -_most(state, counter)


def counter_changes(what: str) -> Record:
    """Signed changes of a seat's counters; no change can move more than the box holds."""
    return Record({c: Arg(Whole(_minus_box(c), _box(c)), doc=f"change of {c}") for c in COUNTERS},
                  what=what)


def drop_amounts(what: str) -> Record:
    return Record({d: Arg(Whole(0, _box(d)), doc=f"{d} drops") for d in DROPS}, what=what)


POTION = Record({
    "stack": Arg(STACK, required=True, doc="the stack the card was taken from"),
    "points": Arg(Whole(0, MAX_POINTS), required=True, doc="the value in its glass bulb"),
    "raven": Arg(Flag(), doc="the card shows a raven (false if left out)"),
    "name": Arg(Text(limit=80), doc="the potion's name, if the table writes it down"),
}, what="a potion card")

COMMANDS: dict[str, Declared] = {
    "play_role": Declared({"role": Arg(ROLE, required=True, doc="the role card announced")},
                          PLAYER_REQUIRED, doc="the seat that begins a round announces a role"),
    "claim": Declared(player=PLAYER_REQUIRED, doc="\"I am the ...!\": the role moves to this seat"),
    "so_be_it": Declared(player=PLAYER_REQUIRED, doc="\"So be it!\": the favor, at once"),
    "pass": Declared(player=PLAYER_REQUIRED, doc="the seat does not hold the card"),
    "forfeit": Declared({"role": Arg(ROLE, required=True, doc="the forgotten card")},
                        PLAYER_REQUIRED, doc="a forgotten card goes face down"),
    "resolve": Declared({
        "drop": Arg(DROP, doc="Alchemist: the drop returned"),
        "drops": Arg(drop_amounts("the drops taken"), doc="Assistant: the drops taken"),
        "potion": Arg(POTION, doc="brewers: the card taken; card effects: a card won"),
        "pay": Arg(drop_amounts("the drops paid"), doc="brewers: the drops printed on it"),
        "changes": Arg(counter_changes("the seat's changes"), doc="card effects: the seat's"),
        "others": Arg(MapOf(PLAYER, counter_changes("that player's changes"), most=5),
                      doc="card effects: the other players' changes, by name"),
    }, PLAYER_REQUIRED, doc="carry out the full action or favor owed"),
    "abstain": Declared(player=PLAYER_REQUIRED,
                        doc="decline the full action or favor owed, or one the companion "
                            "applied, until the next role is announced"),
    "adjust": Declared({
        "changes": Arg(counter_changes("the seat's changes"), doc="counters corrected"),
        "potion": Arg(POTION, doc="a potion card added"),
        "remove_potion": Arg(Whole(0, sum(STACK_SIZES.values()) - 1),
                             doc="the index of a potion card removed (0 = the first taken)"),
    }, PLAYER_REQUIRED, doc="a correction by hand, at any time"),
    "choose_hand": Declared({
        "roles": Arg(ListOf(ROLE, least=5, most=5, unique=True), required=True,
                     doc="the seat's 5 role cards for this set (ids or titles)"),
    }, PLAYER_REQUIRED, doc="the seat's hand for this set, known to the companion alone"),
    "reveal_excluded": Declared({
        "roles": Arg(ListOf(ROLE, least=1, most=2, unique=True), required=True,
                     doc="the spare role cards turned over this set"),
    }, PLAYER_NONE, doc="variant: the spare roles nobody may choose this set"),
}


def _setup_names(config: State) -> list[str]:
    """The setup's players as the gate will keep them (``players`` is checked first)."""
    return [clean_text(n, "players") for n in config["players"]]


def _seats(config: State) -> int:
    return len(config["players"])


SETUP_KEYS: dict[str, Arg] = {
    "players": Arg(player_names(3, 6), required=True,
                   doc="names in clockwise seat order (3-5 players, 6 with the expansion)"),
    "starter": Arg(Player(_setup_names), doc="who begins the first set (default: the first)"),
    "variants": Arg(ListOf(Choice((VARIANT,)), most=1, unique=True),
                    doc="[\"excluded_roles\"] for 3 or 4 players"),
    "colours": Arg(SeatColours(as_hex=True),
                   doc="one seat colour per player, in seat order, from the palette "
                       "(companion.core.palette; the state keeps its hex code)"),
    "supply": Arg(Record({
        "drops": Arg(Whole(lambda c: _seats(c) * START["red"], 200),
                     doc=f"drops of each colour in all (box: {BOX_SUPPLY['drops']}; "
                         "left out: unlimited)"),
        "gold": Arg(Whole(lambda c: _seats(c) * START["gold"], 200),
                    doc=f"gold nuggets in all (box: {BOX_SUPPLY['gold']}; left out: unlimited)"),
    }, what="the supply"), doc="drops and gold the table plays with, when they may run out "
                               "(unlimited if left out)"),
}
