"""Cauldron's words and colours for the screens, and the rules' own answer to "why not?".

Ingredients are shown by their whole names (``name``) and a colour each; the word is always
shown, the colour only helps. The short words (``short``) are left only where a seat card is too
narrow for the whole name, and the seat's own dialog, one tap away, names them whole.
``why_not`` asks the rules (a dry run of ``decide`` on the current state) so a button can say
beforehand what a tap would be told: the screens never re-implement a rule.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App

from companion.core.errors import RuleViolation
from companion.core.model import Command
from companion.games.cauldron import data as d
from companion.games.cauldron.hand import missing
from companion.games.cauldron.state import SEAT_COLOURS
from companion.games.witchs_brew.state import COLOUR_NAMES
from ui import theme

SHORT = {
    "spider_web": "Web", "frog_legs": "Frog", "poisonous_mushroom": "Mushroom",
    "blood_crystal": "Crystal", "snake_skin": "Snake", "dragon_egg": "Egg",
    "mandrake_root": "Root", "any": "Any",
}
INGREDIENT_COLOURS = {
    "spider_web": "#D5DAE1", "frog_legs": "#6DBB4F", "poisonous_mushroom": "#B48CF2",
    "blood_crystal": "#E5533D", "snake_skin": "#D9B44A", "dragon_egg": "#F29A5B",
    "mandrake_root": "#B08A66", "any": "#48515D",
}
CHARACTER_NAMES = {c: d.label(c) for c in d.CHARACTERS}
ZONE_WORDS = {"enthusiasm": "Enthusiasm", "advanced_alchemy": "Advanced Alchemy"}
ITEM_TITLES = {
    "field": "Field", "cellar": "Cellar", "basic_spell": "Basic Spell",
    "advanced_spell": "Advanced Spell", "basic_potion": "Basic Potion",
    "advanced_potion": "Advanced Potion",
}
KIND_SHORT = {"easy": "Easy", "basic": "Basic", "advanced": "Advanced"}


def short(kind: str) -> str:
    """'Web' for Spider Web: only where the whole name cannot fit (the seat cards)."""
    return SHORT.get(kind, d.label(kind))


def ingredient_name(kind: str) -> str:
    """The whole name as the box prints it: 'Spider Web', 'Poisonous Mushroom', 'Any'."""
    return "Any" if kind == d.ANY else d.label(kind)


def counts_words(counts: dict[str, int]) -> str:
    """{'spider_web': 2, 'any': 1} -> '2 Spider Web, 1 Any' (whole names, zeros left out)."""
    return ", ".join(f"{counts[k]} {ingredient_name(k)}" for k in (*d.INGREDIENTS, d.ANY)
                     if counts.get(k))


def holds_words(player: dict[str, Any]) -> str:
    """'Pool: 2 Spider Web, 1 Frog Legs; Cellars: Dragon Egg, empty' ('' when both are empty):
    the whole names of what a seat card shortens."""
    parts = []
    if any(player["pool"].values()):
        parts.append("Pool: " + counts_words(player["pool"]))
    if player["cellars"]:
        parts.append("Cellars: " + ", ".join(ingredient_name(c) if c else "empty"
                                             for c in player["cellars"]))
    return "; ".join(parts)


def ingredient_colours(kind: str) -> tuple[tuple, tuple]:
    """(fill, ink) of an ingredient chip or button."""
    hex_colour = INGREDIENT_COLOURS.get(kind, "#48515D")
    return theme.rgba(hex_colour), theme.ink_on(hex_colour)


def colour_name(hex_colour: str) -> str:
    return COLOUR_NAMES[SEAT_COLOURS.index(hex_colour)] if hex_colour in SEAT_COLOURS else ""


def seat_hex(app, seat: int) -> str:
    """The seat's colour as the game's state keeps it."""
    return app.session.state["players"][seat]["colour"]


def counts_markup(counts: dict[str, int], size: int | None = None) -> str:
    """{'spider_web': 2} -> 'Web 2' with the word coloured (and the word always there)."""
    parts = []
    for kind in d.INGREDIENTS:
        n = counts.get(kind, 0)
        if n:
            parts.append(f"[color={INGREDIENT_COLOURS[kind]}][b]{short(kind)}[/b][/color] {n}")
    return "  ".join(parts)


def hands_on_phones(app=None) -> bool:
    """The table setting Hands on phones: then no Pi screen names a seat's potion
    cards in hand (the seat cards, the seat's dialog, the brew and the entry show how many),
    except behind that seat's own Hidden entry while it is open."""
    app = app or App.get_running_app()
    return bool(getattr(getattr(app, "table_settings", None), "hands", False))


def in_hand_words(player: dict[str, Any]) -> str:
    """'3 potion cards in hand, on Anna's phone' (the count the Pi may show)."""
    n = len(player["potions"])
    cards = "1 potion card" if n == 1 else f"{n} potion cards"
    return f"{cards} in hand, on {player['name']}'s phone"


def recipe(potion: dict[str, Any]) -> str:
    """'2 Spider Web, Dragon Egg' for a potion's ingredients: whole names, each once."""
    ingredients = list(potion["ingredients"])
    return ", ".join((f"{ingredients.count(k)} " if ingredients.count(k) > 1 else "")
                     + ingredient_name(k) for k in dict.fromkeys(ingredients))


def pool_needs(player: dict, potion: dict) -> str:
    """What the pool lacks for ``potion`` after its recipe, in short: "Needs 1 more Spider
    Web, 1 more of any kind in the pool". The rules' sentence ("Anna lacks 2 Spider Web in the
    pool to brew ...") said the recipe's "2 Spider Web" again, and the seat's name on every
    row of the list (said twice); the counts are the rules' own (companion.games.cauldron.hand)."""
    gap = missing(player, potion)
    parts = [f"{n} more " + ("of any kind" if kind == d.ANY else ingredient_name(kind))
             for kind, n in gap["pool"].items()]
    words = "Needs " + ", ".join(parts) + " in the pool"
    if gap["cellar"]:
        words += "; a Cellar holds some: move them to the pool first"
    return words


def why_not(command: Command) -> str | None:
    """What the gate and the rules would say to ``command`` now (None: it would be accepted)."""
    app = App.get_running_app()
    if app.session is None:
        return "No game is being played"
    rules, state = app.session.rules, app.session.state
    try:
        rules.decide(state, rules.check(state, command))
    except RuleViolation as refusal:
        return refusal.screen
    return None


def send(command: Command) -> bool:
    return App.get_running_app().send(command)


def current_seat(app) -> int | None:
    return app.prompt.get("seat") if app.prompt else None


#: an Ingredient's word on a button too narrow for its whole name: longer than its caption
BUTTON_SHORT = {"poisonous_mushroom": "Mushroom", "blood_crystal": "Crystal",
                "mandrake_root": "Mandrake"}


def name_to_fit(button, kind: str) -> None:
    """An Ingredient's button says its whole name where it fits on one line at the button's
    size, else the short word of the seat cards ("Mushroom"): a name broken over two lines
    left no room for the count under it, and a smaller size is not read from a chair."""
    words_to_fit(button, ingredient_name(kind), BUTTON_SHORT.get(kind, short(kind)),
                 attr="title", margin=12)


def words_to_fit(widget, whole: str, shorter: str, attr: str = "text",
                 margin: float = 2) -> None:
    """``whole`` on ``widget`` (its ``attr``) where it fits on one line, ``margin`` units to
    spare, at the size Large text would draw it (``app.fu``), else ``shorter``: words that
    do not fit are drawn at the normal size, under Large text's floor, so less is shown."""
    from ui.widgets.common import text_needs

    def fit(w, *_args):
        app = App.get_running_app()
        need = text_needs(False, whole, app.fu * w.fs, w.font_name, bool(w.bold), None,
                          "left")[0]
        setattr(w, attr, whole if need <= w.width - app.u * margin else shorter)

    setattr(widget, attr, whole)    # until it is laid out: its width then says which
    widget.bind(width=fit, large=fit)
