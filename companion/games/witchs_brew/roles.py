"""The 12 role cards of Witch's Brew and what their full action and favor do.

Only what the rulebook or the published cards make certain is applied as a rule. Where the
effect is not sure (RULES-NOTES.md marks it *unsure*), the effect is ``TABLE``: the holder reads
the card and enters what happened; ``reported`` is shown as a hint, never applied by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DROPS = ("red", "white", "green")
COUNTERS = DROPS + ("gold", "vials")
CAULDRONS = ("copper", "silver", "iron")
SHELVES = ("ingredient_shelf", "gold_shelf")
STACKS = CAULDRONS + SHELVES
STACK_SIZES = {"copper": 7, "silver": 7, "iron": 7, "ingredient_shelf": 5, "gold_shelf": 5}
#: "there are two ravens in each of the five stacks": a cauldron stack holds 5 plain cards and
#: 2 ravens, a shelf 3 and 2.
RAVENS_PER_STACK = 2
#: The box (rulebook: 45 potion vials, 60 ingredients; RULES-NOTES.md: 20 drops of each colour,
#: 24 gold nuggets). Vials are fixed. Drops and gold "are not meant to run out": unlimited unless
#: the table's setup says how many it plays with (``supply``; the box's counts, or its own).
VIALS_IN_BOX = 45
DROPS_IN_BOX = 20
GOLD_IN_BOX = 24
#: The most of one counter a change may move when the supply of it is unlimited (a 5,000-digit
#: number is still refused, naming its field).
MOST_AT_ONCE = 200
#: Each player's starting drops (one of each colour) and gold, taken from the supply.
START = {"red": 1, "white": 1, "green": 1, "gold": 2, "vials": 0}
#: The printed value in a potion's glass bulb: the rulebook prints none, so any card value.
MAX_POINTS = 99

# Effect kinds. GAIN applies by itself; the others wait for the seat to ``resolve`` or ``abstain``.
GAIN = "gain"              # take from the supply; nothing to choose, nothing to pay
PAY = "pay"                # pay ``cost`` to take ``gain``; confirmed, since paying is a choice
TRADE_DROP = "trade_drop"  # return one drop of the seat's choice, take ``gain``
CHOOSE_DROPS = "choose_drops"  # pay ``cost``, take ``count`` drops in any colours
BREW = "brew"              # take a cauldron potion, paying the drops printed on it
TABLE = "table"            # the card is read at the table; the seat enters the changes


@dataclass(frozen=True)
class Effect:
    kind: str
    text: str
    gain: dict[str, int] = field(default_factory=dict)
    cost: dict[str, int] = field(default_factory=dict)
    count: int = 0
    reported: str = ""

    @property
    def automatic(self) -> bool:
        return self.kind == GAIN


@dataclass(frozen=True)
class Role:
    key: str
    title: str
    colour: str
    full: Effect
    favor: Effect

    @property
    def call(self) -> str:
        """What the player says: "I am the Witch!" """
        return f"I am the {self.title}!"


def _gatherer(key: str, title: str, drop: str, liquid: str) -> Role:
    return Role(
        key, title, "green",
        full=Effect(GAIN, f"Take 3 {liquid} ({drop} drops)", gain={drop: 3}),
        favor=Effect(GAIN, f"Take 1 {liquid} ({drop} drop)", gain={drop: 1}),
    )


def _brewer(key: str, title: str) -> Role:
    return Role(
        key, title, "light blue",
        full=Effect(BREW, "Brew the top potion of a cauldron stack: pay the drops printed on it"),
        favor=Effect(TABLE, "Read your card: the favor is paid in gold",
                     reported="paid in gold; details vary by card"),
    )


ROLES: dict[str, Role] = {
    role.key: role
    for role in (
        _gatherer("wolf_keeper", "Wolf keeper", "red", "wolf blood"),
        _gatherer("snake_hunter", "Snake hunter", "white", "snake venom"),
        _gatherer("herb_collector", "Herb collector", "green", "herb juice"),
        Role("alchemist", "Alchemist", "gold",
             full=Effect(TRADE_DROP, "Return any 1 drop, take 5 gold", gain={"gold": 5}),
             favor=Effect(TRADE_DROP, "Return any 1 drop, take 2 gold", gain={"gold": 2})),
        Role("fortune_teller", "Fortune teller", "gold",
             full=Effect(PAY, "Pay 1 gold, take 2 vials", cost={"gold": 1}, gain={"vials": 2}),
             favor=Effect(PAY, "Pay 1 gold, take 1 vial", cost={"gold": 1}, gain={"vials": 1})),
        Role("assistant", "Assistant", "gold",
             full=Effect(CHOOSE_DROPS, "Pay 1 gold, take any 3 drops", cost={"gold": 1}, count=3),
             favor=Effect(TABLE, "Read your card", reported="1 gold for 1 drop")),
        _brewer("witch", "Witch"),
        _brewer("druid", "Druid"),
        _brewer("wizard", "Wizard"),
        Role("warlock", "Warlock", "purple",
             full=Effect(TABLE, "Use the spell on the top spell book (read it aloud)"),
             favor=Effect(GAIN, "Take 1 gold", gain={"gold": 1})),
        Role("cutpurse", "Cutpurse", "red",
             full=Effect(TABLE, "Read your card: take from the other players",
                         reported="gold from the others, tied to the gold shelf"),
             favor=Effect(TABLE, "Read your card", reported="amount unsure")),
        Role("begging_monk", "Begging monk", "red",
             full=Effect(TABLE, "Read your card: the others give to you",
                         reported="drops from the others, tied to the ingredient shelf"),
             favor=Effect(TABLE, "Read your card", reported="amount unsure")),
    )
}


def counter_words(counter: str) -> str:
    """A counter as players say it: "red drops", "gold", "vials"."""
    return f"{counter} drops" if counter in DROPS else counter


def amount(n: int, counter: str) -> str:
    """A number of a counter as players say it: "1 red drop", "2 vials", "1 gold"."""
    words = counter_words(counter)
    if abs(n) == 1 and words.endswith("s"):
        words = words[:-1]
    return f"{n} {words}"


def plain_per_stack(stack: str) -> int:
    """Cards without a raven in a stack: 5 in a cauldron stack, 3 on a shelf."""
    return STACK_SIZES[stack] - RAVENS_PER_STACK
