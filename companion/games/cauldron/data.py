"""Cauldron's fixed numbers and words: ingredients, characters, variants, the Magik track and
the market's costs. Everything the rulebook prints lives here, so the rules read like it."""

from __future__ import annotations

# -- ingredients and fields ---------------------------------------------------------------
INGREDIENTS = (
    "spider_web", "frog_legs", "poisonous_mushroom",
    "blood_crystal", "snake_skin", "dragon_egg", "mandrake_root",
)
#: The three field types every game starts with (number of seats + 1 of each).
STARTING_FIELDS = ("spider_web", "frog_legs", "poisonous_mushroom")
#: The Quick Game adds one field of each of these to the starting board.
QUICK_FIELDS = ("blood_crystal", "snake_skin", "dragon_egg", "mandrake_root")
#: A potion ingredient that any token can pay for.
ANY = "any"
#: The box (RULES-NOTES): 132 Ingredient tokens, 44 Fields, 12 Cellar cards. How many of each
#: type is not known: the table may say (setting ``field_supply``) or mark a type run out.
BOX_INGREDIENTS, BOX_FIELDS, BOX_CELLARS = 132, 44, 12


def label(key: str) -> str:
    """'poisonous_mushroom' -> 'Poisonous Mushroom' (also for milestones and characters)."""
    return key.replace("_", " ").title()


# -- characters ---------------------------------------------------------------------------
CHARACTERS = ("alchemist", "druid", "shaman", "occultist", "trickster", "witch", "wizard")
#: The only ability the rulebook itself prints; the others are typed in from the cards.
ABILITIES = {
    "witch": "Little Helpers: replaces the Gather Action: gather two available Ingredients "
             "instead of one.",
}


# -- variants -----------------------------------------------------------------------------
SIMPLE, QUICK, ADVANCED, LESS_LUCK = "simple", "quick", "advanced", "less_luck"
VARIANTS = (SIMPLE, QUICK, ADVANCED, LESS_LUCK)
VARIANT_TEXT = {
    SIMPLE: "Simple Game: no Spells, no Wizard",
    QUICK: "Quick Game: start at 15 Magik with an Advanced Potion, an Advanced Spell and a Cellar",
    ADVANCED: "Advanced Game: up to 2 purchases in each Market Season",
    LESS_LUCK: "Less Luck: the lowest score starts each Harvest; buying a Spell or Potion draws "
               "two cards, keep one",
}


# -- the Magik track ------------------------------------------------------------------------
START_MAGIK = 2
QUICK_START_MAGIK = 15
ENTHUSIASM_MAX = 10       # at or below: +1 Magik for brewing a Basic Potion (Easy included)
ADVANCED_ALCHEMY = 25     # at or above: no two-ingredient potions, no bonus ingredient
WIN = 35                  # reached only by brewing
NOT_BY_BREWING_MAX = 34   # spells, omens, milestones and corrections stop here
MILESTONES = ("magik_overflow", "rituals_of_power", "the_breaking")
MILESTONE_TEXT = {
    "magik_overflow": "Magik Overflow",
    "rituals_of_power": "Rituals of Power",
    "the_breaking": "The Breaking",
}
#: Who a card or Less Luck asks for (``lsp`` / ``hsp`` in commands and state), in the table's
#: words: the rulebook's "LSP" and "HSP" are abbreviations a player has to look up.
SCORING_TEXT = {"lsp": "the player with the fewest Magik", "hsp": "the player with the most Magik"}
ROLLOFF_TEXT = {"lsp": "fewest-Magik roll-off", "hsp": "most-Magik roll-off"}
#: Unreadable in every public source: the table enters them from its board.
MILESTONE_MIN, MILESTONE_MAX = START_MAGIK + 1, NOT_BY_BREWING_MAX


def zone(magik: int) -> str | None:
    if magik <= ENTHUSIASM_MAX:
        return "enthusiasm"
    if magik >= ADVANCED_ALCHEMY:
        return "advanced_alchemy"
    return None


# -- potions and spells -------------------------------------------------------------------
POTION_KINDS = ("easy", "basic", "advanced")
BASIC_KINDS = ("easy", "basic")  # "Basic Potions (Easy) are equivalent to Basic Potions"
SPELL_KINDS = ("basic", "advanced")
MAX_SPELLS = 3
KIND_TEXT = {"easy": "Basic Potion (Easy)", "basic": "Basic Potion", "advanced": "Advanced Potion"}

# -- the market -----------------------------------------------------------------------------
ITEMS = ("field", "cellar", "basic_spell", "advanced_spell", "basic_potion", "advanced_potion")
ITEM_TEXT = {
    "field": "a Field", "cellar": "a Cellar", "basic_spell": "a Basic Spell",
    "advanced_spell": "an Advanced Spell", "basic_potion": "a Basic Potion",
    "advanced_potion": "an Advanced Potion",
}
FIELD_COST = 3
BASIC_SPELL_COST = 1
ADVANCED_SPELL_COST = 3
CELLAR_COSTS = (3, 4)     # first, second (and any further one a card allows)
MAX_CELLARS = 2
ADVANCED_POTION_EXTRA = 2
PURCHASES = 1
ADVANCED_PURCHASES = 2

# -- dice -----------------------------------------------------------------------------------
STEAL_SUCCESS = 4         # a steal succeeds on 4 or more

#: Where a Magik change, or a potion card entered out of turn, comes from.
SOURCES = ("omen", "spell", "milestone", "ability", "potion", "correction")

# -- settings a table may change (where tables and printings differ) --------------------------
DEFAULT_SETTINGS = {
    #: who opens the Market: "left" of the last gatherer (full rules) or "right" (quick reference)
    "market_start": "left",
    #: Quick Game: milestones at or below the starting 15 count as passed, by nobody
    "quick_passes_milestones": True,
    #: how many fields of each type the box holds; None: unknown, the table says when one runs out
    "field_supply": None,
    #: what the box holds (a table with another printing or spare pieces may say otherwise)
    "box_ingredients": BOX_INGREDIENTS,
    "box_fields": BOX_FIELDS,
    "box_cellars": BOX_CELLARS,
}


def counts_text(counts: dict[str, int]) -> str:
    """{'spider_web': 5, 'frog_legs': 0} -> '5 Spider Web' (zeros left out)."""
    parts = [f"{counts[i]} {label(i)}" for i in INGREDIENTS if counts.get(i)]
    return ", ".join(parts) if parts else "nothing"
