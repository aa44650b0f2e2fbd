"""Colours and sizes in one place, so every screen reads the same from across the table.

Sizes are in "units": one unit is one pixel on the 800x480 Pi display and grows with the window
(``CompanionApp.u``), so the layout that fits 800x480 fits 1280x720 as well, only larger. A window
taller than wide is measured against the 720x1280 Touch Display 2 at 1.5 pixels a unit (480x853
units, :data:`PORTRAIT_BASE_SIZE`), and the screens arrange themselves for it
(``CompanionApp.portrait``): at 720x1280 a unit is 1.5 pixels, as on a landscape 1280x720,
instead of 0.9 with two thirds of the screen empty; the 7" panel stood on its side (480x800)
gets 0.94 pixels a unit, so every portrait layout that fits the Touch Display 2 fits it too,
with 32 units of width to spare.
"""

from __future__ import annotations

BASE_SIZE = (800, 480)

# -- the type scale: a few sizes, named by what they are for ---------------------------------
# In units (one pixel at 800x480). A table screen is read from a chair 1.5 m away: nothing on it
# is drawn under DETAIL (capitals of 17 px), and what every chair needs (the headline, the
# seats' names, the figures, every button's words) is ACTION or more (capitals of 21 px).
# Large text multiplies every size by the table's text size factor, the floor with it. What
# does not fit at these sizes is shown less, not smaller: a shorter line, one tap away.

#: What the table waits for now: the headline.
HEADLINE_FS = 32
#: A count or score read from every chair.
FIGURE_FS = 30
#: A seat's name.
NAME_FS = 30
#: A button's words.
ACTION_FS = 30
#: Everything else on a table screen, and the floor: a line of detail, a button's caption.
DETAIL_FS = 24
#: The portrait layouts' size in units: the Touch Display 2 (720x1280) at 1.5 pixels a unit.
PORTRAIT_BASE_SIZE = (480, 853)


def rgba(hex_colour: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    """'#E69F00' -> (r, g, b, a) in 0..1, as Kivy wants colours."""
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, alpha)


def is_portrait(width: float, height: float) -> bool:
    """A window taller than wide gets the portrait arrangements."""
    return height > width


def unit(width: float, height: float) -> float:
    """Pixels per unit for a window size: the base layout (800x480, or 480x853 for a portrait
    window) scaled to fit, never below 0.6. A landscape window larger than the 7-inch panel is
    a larger panel of about the same pixel density (1280x720 is sold as 10 inches), seen from
    the same chairs: half its extra scale (geometrically) goes to size, half to room, so
    1280x720 is 1.22 pixels a unit and lays out 1045x588 units: texts a little larger than on
    the 7-inch panel, and room for more of the log, the track and the board at once."""
    portrait = is_portrait(width, height)
    base_w, base_h = PORTRAIT_BASE_SIZE if portrait else BASE_SIZE
    fit = min(width / base_w, height / base_h)
    if portrait or fit <= 1:
        return max(0.6, fit)
    return fit ** 0.5


def brightness(hex_colour: str) -> float:
    """How light a colour looks, 0 (black) to 1 (white): the eye's weights of red, green, blue."""
    r, g, b, _ = rgba(hex_colour)
    return 0.299 * r + 0.587 * g + 0.114 * b


def ink_on(hex_colour: str) -> tuple[float, float, float, float]:
    """Black or white text, whichever reads better on that background."""
    return DARK_INK if brightness(hex_colour) > 0.55 else INK


def edge(hex_colour: str) -> tuple[float, float, float, float]:
    """A seat's colour where it edges a panel on the dark table: its own, or white for a
    near-black seat (whose own edge would vanish)."""
    return rgba(hex_colour) if brightness(hex_colour) > 0.2 else INK


BG = rgba("#101318")
SURFACE = rgba("#1C2128")
SURFACE_HI = rgba("#262D36")
LINE = rgba("#3A4350")
INK = rgba("#F4F6F8")
DARK_INK = rgba("#101318")
MUTED = rgba("#A9B3BF")
ACCENT = rgba("#FFC24B")
GOOD = rgba("#3BB58A")
BAD = rgba("#E5533D")
CALM = rgba("#5B8DEF")
GREY_BTN = rgba("#48515D")

# -- what each colour means: one language on every screen ------------------------------------
# The colours above are the paint; a screen picks a role below, so a colour says the same thing
# wherever it is seen. Colour is never the only cue: every control carries its words too.

#: An action you can take now: a move of the game, a tool that does something here (blue).
ACTION = CALM
#: The step that finishes or confirms: End turn, Save, Start, a check that passed (green).
DONE = GOOD
#: Going to another screen and back: Back, Home, Statistics, Settings (grey, white words).
NAVIGATION = GREY_BTN
#: One of several to choose from, not chosen (a filter, a tab, an option), and an action not
#: open now whose tap says why: the same neutral grey, white words.
OPTION = GREY_BTN
#: Amber says "this one". The chosen one of several: filled amber, dark words (a button that
#: shows a thing's own colour, such as a seat's, keeps it and gets an amber ring,
#: ``CHOSEN_RING``). FlatButton draws ``selected`` so by itself.
CHOSEN = ACCENT
CHOSEN_INK = DARK_INK
CHOSEN_RING = ACCENT
#: The seat whose turn it is, and the one step the table waits for now (Apply in a dialog,
#: Resume a game): filled amber, dark words. Amber words head a screen's parts and say what
#: is awaited.
AWAITED = ACCENT
#: A refusal, a fault, something that cannot be undone (red).
DANGER = BAD
#: A control that does nothing now: and only such a control (Kivy ``disabled``) is drawn so.
#: Grey words on a control mean exactly this; a control a tap still answers never has them.
DISABLED = rgba("#20252C")
DISABLED_INK = MUTED
#: Secondary words beside a thing (never on a control that can be tapped).
SECONDARY = MUTED
#: The seats' own colours (companion.core.palette) belong to the seats alone: a seat's panel,
#: its name, its bars in a chart, its colour swatch; never a control's meaning.

#: The fills that carry a meaning rather than a thing's own colour: a button with one of these
#: shows "chosen" filled with ``CHOSEN``; any other fill (a seat's, a drop's) keeps its colour.
ROLE_FILLS = (ACTION, DONE, NAVIGATION, OPTION, SURFACE, SURFACE_HI)


def same_colour(a, b) -> bool:
    """The same colour (alpha aside), whatever the sequence type Kivy holds it in."""
    return a is not None and b is not None and all(abs(x - y) < 0.004 for x, y in zip(a[:3], b[:3]))


def is_role_fill(fill) -> bool:
    """A fill that says what a control does (``ROLE_FILLS``), not a thing's own colour."""
    return any(same_colour(fill, role) for role in ROLE_FILLS)


def button_look(fill, ink, selected: bool, down: bool = False) -> tuple[tuple, tuple]:
    """(fill, ink) an enabled button is drawn with: the chosen one of several is amber with dark
    words, unless its fill is a thing's own colour (then only the ring says chosen); pressed,
    the fill darkens."""
    if selected and is_role_fill(fill):
        fill, ink = CHOSEN, CHOSEN_INK
    if down:
        fill = (fill[0] * 0.7, fill[1] * 0.7, fill[2] * 0.7, fill[3])
    return tuple(fill), tuple(ink)


def looks_disabled(fill, ink) -> bool:
    """Whether a control drawn with ``fill`` and ``ink`` reads as one that does nothing now."""
    return same_colour(ink, DISABLED_INK) or same_colour(fill, DISABLED)


#: The drops and counters, with a word on every chip so colour is never the only cue.
COUNTER_COLOURS = {
    "red": "#D84A3A", "white": "#ECEFF2", "green": "#3FA34D", "gold": "#E8B923", "vials": "#7FB8E6",
}
COUNTER_LABELS = {"red": "Red", "white": "White", "green": "Green", "gold": "Gold", "vials": "Vials"}

#: Role card colours as printed (roles.Role.colour), for the card stripes.
CARD_COLOURS = {
    "green": "#3FA34D", "gold": "#E8B923", "light blue": "#7FB8E6", "purple": "#9B6AD6",
    "red": "#D84A3A",
}

STACK_LABELS = {"copper": "Copper", "silver": "Silver", "iron": "Iron",
                "ingredient_shelf": "Drop shelf", "gold_shelf": "Gold shelf"}

#: Each game's own colour (Home's new-game tiles, drawn emblem on top), named by the rules'
#: game name: white ink reads on all three.
GAME_COLOURS = {"witchs_brew": "#8247B8", "cauldron": "#23865A", "quest": "#2F64A8"}

#: The drawn pictures' own colours (ui/widgets/icons.py): a potion's liquid wherever potions
#: are counted (Witch's Brew's brewed cards, Cauldron's Potions); a Spell's star in white ink.
POTION = rgba("#B57EDC")
SPELL = INK
