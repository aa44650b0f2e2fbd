"""Cauldron's inputs, declared: every setup key and every command's arguments, checked by the one
gate (``companion.core.gate``) before the rules see them.

The rules used to parse what they were given, each command its own way: an Omen's ``"magic"``
was silently dropped, ``"variants": 5`` ended in a traceback, a die ``2.0`` slipped through some
commands and not others. Here each input is declared once, in the game's words, with the ranges
the box gives (a die shows 1-6; a count cannot exceed the tokens in the box); ``decide`` then
works on clean values only: ingredients, characters and variants in their canonical spelling,
players by the name typed at setup, whole numbers as ``int``. Only one spelling of each key is
declared: the one docs/cauldron.md documents and the screens send.
"""

from __future__ import annotations

from typing import Any, Sequence

from companion.core import gate
from companion.core.gate import (
    PLAYER_NONE, PLAYER_OPTIONAL, PLAYER_REQUIRED, Arg, Choice, Declared, Either, Flag, ListOf,
    MapOf, Player, Record, SeatColours, Text, Whole,
)
from companion.games.cauldron import data as d

State = dict[str, Any]


def seat_names(state: State) -> list[str]:
    """The players' names, as typed at setup, in seat order."""
    return [p["name"] for p in state["players"]]


def _spellings(keys: Sequence[str], *, plural: bool = False) -> dict[str, str]:
    """Other ways a table writes a key: "Spider Web", "spider web", "spider-web" (and "spider
    webs" for ingredients)."""
    out: dict[str, str] = {}
    for key in keys:
        words = key.replace("_", " ")
        forms = {d.label(key), words, key.replace("_", "-")}
        if plural and not key.endswith("s"):
            forms |= {words + "s", key + "s"}
        out.update({form: key for form in forms if form != key})
    return out


INGREDIENT = Choice(d.INGREDIENTS, _spellings(d.INGREDIENTS, plural=True))
#: What a potion card may print: an ingredient or the Any symbol.
POTION_PART = Choice((*d.INGREDIENTS, d.ANY), _spellings(d.INGREDIENTS, plural=True))
CHARACTER = Choice(d.CHARACTERS, {f"the {c}": c for c in d.CHARACTERS})
VARIANT = Choice(d.VARIANTS, {**_spellings(d.VARIANTS),
                              **{f"{d.label(v)} game": v for v in d.VARIANTS}})
SPELL_KIND = Choice(d.SPELL_KINDS)
DIE = Whole(1, 6)
SEAT = Player(seat_names)
#: Where a Magik change or a card entered out of turn comes from.
SOURCE = Choice(d.SOURCES)


def _tokens(state: State) -> int:
    return state["settings"]["box_ingredients"]


def _fields(state: State) -> int:
    return state["settings"]["box_fields"]


#: A Potion card as the table types it in (the rulebook prints none).
POTION_CARD = Record({
    "name": Arg(Text(60, blank=False), True, "as printed on the card"),
    "kind": Arg(Choice(d.POTION_KINDS), doc="easy, basic (if not given) or advanced"),
    "yield": Arg(Whole(0, d.WIN), True, "the Magik it yields"),
    "ingredients": Arg(ListOf(POTION_PART, 1, 10), True, "as printed; any for the Any symbol"),
    "quick": Arg(Flag(), doc="a Quick Potion (brewing it is a Quick Action)"),
    "spell": Arg(Flag(), doc="brewing it grants a Basic Spell"),
}, what="a potion card")


# -- the setup ----------------------------------------------------------------------------------
def _setup_names(config: Any) -> list[str]:
    """The names of a setup not yet checked (``characters`` names players from ``players``)."""
    names = []
    entries = config.get("players") if isinstance(config, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        raw = entry.get("name") if isinstance(entry, dict) else entry
        try:
            names.append(gate.clean_text(raw, "name", limit=40, blank=False))
        except Exception:  # noqa: BLE001 - the players key refuses it, naming the seat
            continue
    return names


class SeatEntry(Either):
    """A seat: a name, or a record with the character card's details. The record's own refusal
    (``players[1].role: not a key``) is kept instead of a vague "a name or a record"."""

    def check(self, value: Any, at: str, state: State) -> Any:
        name, record = self.options
        return (record if isinstance(value, dict) else name).check(value, at, state)


SEAT_RECORD = Record({
    "name": Arg(Text(40, blank=False, line=True), True, "as the table calls the player"),
    "character": Arg(CHARACTER, doc="the Character card"),
    "ability": Arg(Text(), doc="its ability, as the card reads"),
    "once_per_season": Arg(Flag(), doc="the ability takes a Used token"),
    "max_cellars": Arg(Whole(0, 6), doc="Cellars the seat may own (2 unless a card says)"),
}, what="a seat")

SETTINGS = Record({
    "market_start": Arg(Choice(("left", "right")),
                        doc="left of the last gatherer (full rules) or right (quick reference)"),
    "quick_passes_milestones": Arg(Flag(), doc="Quick Game: milestones at or below 15 count "
                                                "as passed"),
    "field_supply": Arg(MapOf(INGREDIENT, Whole(0, 200)), doc="Fields of each type in the box"),
    "box_ingredients": Arg(Whole(1, 1000), doc="Ingredient tokens in the box (132)"),
    "box_fields": Arg(Whole(1, 500), doc="Fields in the box (44)"),
    "box_cellars": Arg(Whole(0, 100), doc="Cellar cards in the box (12)"),
}, what="the settings")

SETUP_KEYS: dict[str, Arg] = {
    "players": Arg(ListOf(SeatEntry((Text(40, blank=False, line=True), SEAT_RECORD)), 2, 6), True,
                   "clockwise: names, or records with a character"),
    "variants": Arg(ListOf(VARIANT, 0, len(d.VARIANTS), unique=True)),
    "milestones": Arg(Record({m: Arg(Whole(d.MILESTONE_MIN, d.MILESTONE_MAX))
                              for m in d.MILESTONES}, what="the milestones"),
                      doc="where the Magik Track prints them"),
    "characters": Arg(MapOf(Player(_setup_names), CHARACTER),
                      doc="player name to character"),
    "settings": Arg(SETTINGS),
    "colours": Arg(SeatColours(), doc="one colour per player, in seat order, from the palette "
                                      "(companion.core.palette), to match the pieces"),
}


# -- the commands -------------------------------------------------------------------------------
def _seat(**args: Arg) -> Declared:
    return Declared(args, PLAYER_REQUIRED)


def _table(**args: Arg) -> Declared:
    return Declared(args, PLAYER_NONE)


_COUNTS = MapOf(INGREDIENT, Whole(0, _tokens))


def _changes(low_high: Any) -> MapOf:
    return MapOf(INGREDIENT, Whole(lambda s: -low_high(s), low_high))


COMMANDS: dict[str, Declared] = {
    "set_milestones": _table(milestones=Arg(SETUP_KEYS["milestones"].spec, True,
                                            "where the Magik Track prints them")),
    "begin": _table(),
    "omen": _table(
        text=Arg(Text(), doc="the Omen as read aloud"),
        magik=Arg(MapOf(SEAT, Whole(-d.WIN, d.WIN)),
                  doc="the Magik the Omen gives or takes, by player"),
        produce=Arg(MapOf(INGREDIENT, Whole(-20, 20)), doc="more or fewer Ingredients"),
        first=Arg(Either((Choice(("lsp", "hsp")), SEAT)), doc="who starts")),
    "fill_board": _table(ingredients=Arg(_COUNTS, doc="counts other than one per Field")),
    "turn_order_roll": _seat(value=Arg(DIE, True, "the die the player rolled")),
    "rolloff": _table(kind=Arg(Choice(("lsp", "hsp")), True,
                                 "whose tie: lsp, the fewest Magik, or hsp, the most")),
    "rolloff_roll": _seat(value=Arg(DIE, True, "the die the player rolled")),
    "roll": Declared({"value": Arg(DIE, True, "the die rolled")}, PLAYER_OPTIONAL,
                     "the die the game expects now"),
    "correct_roll": _seat(value=Arg(DIE, True, "what the die really showed"),
                          roll=Arg(Choice(("turn_order", "steal", "rolloff")),
                                   doc="which roll: turn_order, steal or rolloff"),
                          round=Arg(Whole(1, 99), doc="which round of rolls, 1 the first")),
    "gather": _seat(ingredient=Arg(INGREDIENT, doc="the Ingredient gathered"),
                    ingredients=Arg(ListOf(INGREDIENT, 1, 2),
                                    doc="the two Ingredients of the Witch's Little Helpers")),
    "steal": _seat(target=Arg(SEAT, doc="the player stolen from"),
                   ingredient=Arg(INGREDIENT, doc="the Ingredient to steal"),
                   roll=Arg(DIE, doc="the die rolled for it")),
    "brew": _seat(potion=Arg(Text(60, blank=False), True, "the Potion's name"),
                  any=Arg(ListOf(INGREDIENT, 1, 10), doc="what pays the Any spaces")),
    "cast_spell": _seat(kind=Arg(SPELL_KIND, doc="the Spell's kind, basic or advanced"),
                        instant=Arg(Flag(), doc="an Instant Spell"),
                        dome=Arg(Flag(), doc="the Magik Dome"),
                        name=Arg(Text(80), doc="the Spell's name"),
                        text=Arg(Text(), doc="what the Spell says")),
    "move_ingredient": _seat(ingredient=Arg(INGREDIENT, True, "the Ingredient moved"),
                             to=Arg(Choice(("cellar", "pool")), True, "cellar or pool")),
    "end_turn": _seat(skip=Arg(Flag(), doc="a Spell or Omen left the turn without an Action")),
    "buy": _seat(item=Arg(Choice(d.ITEMS), True, "what is bought"),
                 field=Arg(INGREDIENT, doc="the Field's type"),
                 discount=Arg(Whole(0, d.WIN), doc="Magik off the price, from a card"),
                 discard=Arg(SPELL_KIND, doc="the kind of Spell discarded, with three held"),
                 potion=Arg(POTION_CARD, doc="the Potion card drawn")),
    "pass": _seat(),
    "set_character": _seat(character=Arg(CHARACTER, True, "the Character card"),
                           ability=Arg(Text(), doc="its ability, as the card reads"),
                           once_per_season=Arg(Flag(), doc="the ability takes a Used token")),
    "add_potion": _seat(potion=Arg(POTION_CARD, True, "the Potion card"),
                        source=Arg(SOURCE, doc="where the card comes from")),
    "discard_potion": _seat(potion=Arg(Text(60, blank=False), True, "the Potion's name")),
    "discard_spell": _seat(kind=Arg(SPELL_KIND, doc="the kind of Spell discarded")),
    "use_ability": _seat(note=Arg(Text(), doc="what the ability did")),
    "adjust_magik": _seat(delta=Arg(Whole(-d.WIN, d.WIN), True, "the Magik gained or lost"),
                          source=Arg(SOURCE, doc="what changed it")),
    "adjust": Declared({
        "pool": Arg(_changes(_tokens), doc="changes to the player's pool"),
        "spells": Arg(MapOf(SPELL_KIND, Whole(-50, 50)), doc="changes to the Spells held"),
        "board": Arg(_changes(_tokens), doc="changes to the Ingredients on the board"),
        "fields": Arg(_changes(_fields), doc="changes to the Fields"),
        "note": Arg(Text(), doc="why"),
    }, PLAYER_OPTIONAL, "a correction by hand"),
    "fields_exhausted": _table(ingredient=Arg(INGREDIENT, True, "the Field type run out")),
}
