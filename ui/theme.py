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
    window) scaled to fit, never below 0.6."""
    base_w, base_h = PORTRAIT_BASE_SIZE if is_portrait(width, height) else BASE_SIZE
    return max(0.6, min(width / base_w, height / base_h))


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
ACCENT = rgba("#FFC24B")      # the awaited seat, the main call to action
GOOD = rgba("#3BB58A")
BAD = rgba("#E5533D")
CALM = rgba("#5B8DEF")
GREY_BTN = rgba("#48515D")

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
