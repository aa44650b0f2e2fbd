"""The seat colours a table picks from at setup, to match the pieces on the board.

Okabe and Ito's palette (2008): seven colours that people with the common colour-vision
deficiencies still tell apart, plus black and white, which every box has among its pieces.
A colour is never the only cue: each has a name, and the screens show the name beside it.
The first six, in this order, are the seat colours every game used before a table could
choose, so a game stored without a choice shows exactly as it did.

Pure data and a few look-ups (no Kivy): the gate checks a setup's ``colours`` against it
(:class:`companion.core.gate.SeatColours`), and the screens draw it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Sequence


@dataclass(frozen=True)
class Colour:
    """One colour of the palette: its name as the screens show it, and its RGB hex."""

    name: str
    hex: str


PALETTE: tuple[Colour, ...] = (
    Colour("Orange", "#E69F00"),
    Colour("Sky blue", "#56B4E9"),
    Colour("Bluish green", "#009E73"),
    Colour("Yellow", "#F0E442"),
    Colour("Blue", "#0072B2"),
    Colour("Vermilion", "#D55E00"),
    Colour("Reddish purple", "#CC79A7"),
    Colour("White", "#FFFFFF"),
    Colour("Black", "#000000"),
)
NAMES: tuple[str, ...] = tuple(c.name for c in PALETTE)

#: Other words a table or an older setup uses for a palette colour (Witch's Brew's first
#: seat colours were called "green", "purple" is what most people say for reddish purple).
ALIASES: dict[str, str] = {
    "green": "Bluish green", "purple": "Reddish purple", "pink": "Reddish purple",
    "red": "Vermilion", "light blue": "Sky blue",
}


def _key(text: str) -> str:
    return unicodedata.normalize("NFC", text).strip().casefold()


_BY_KEY: dict[str, Colour] = {
    **{_key(alias): next(c for c in PALETTE if c.name == name) for alias, name in ALIASES.items()},
    **{_key(c.name): c for c in PALETTE},
    **{_key(c.hex): c for c in PALETTE},
}


def find(value: Any) -> Colour | None:
    """The palette colour a name, an alias or a hex code means (case does not matter), or
    None for anything else."""
    return _BY_KEY.get(_key(value)) if isinstance(value, str) else None


def defaults(seats: int) -> tuple[Colour, ...]:
    """The colours seats get when nobody chooses: the palette in order."""
    return PALETTE[: max(0, min(seats, len(PALETTE)))]


def seat_colours(chosen: Sequence[Any] | None, seats: int) -> tuple[Colour, ...]:
    """One colour per seat for the screens: each chosen one that the palette knows and no
    earlier seat has, the first free default for any other (an old game chose none)."""
    chosen = list(chosen or [])
    picked: list[Colour | None] = []
    for i in range(seats):
        colour = find(chosen[i]) if i < len(chosen) else None
        picked.append(colour if colour is not None and colour not in picked else None)
    spare = [c for c in PALETTE if c not in picked]
    return tuple(c if c is not None else spare.pop(0) for c in picked)
