"""Cauldron Quest pictures drawn with Kivy canvas shapes: no image files, crisp at any size.

Each function adds its instructions to the canvas that is open (``with widget.canvas:``) and
draws centred on ``(cx, cy)`` inside a square of side ``s``. Every picture has its own shape, so
colour is never the only cue; the screens put a word beside it as well.
"""

from __future__ import annotations

import math

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Mesh, Rectangle, Triangle

from ui import theme
from ui.widgets import icons

INGREDIENT_WORDS = {
    "rotten_egg": "Rotten egg", "poisonous_mushroom": "Mushroom", "horned_toad": "Horned toad",
    "newt_eye": "Newt eye", "dandelion_root": "Dandelion", "bat_wing": "Bat wing",
}
#: A spell by the rulebook's name, as the log and the rules' prompts name it, short of its
#: "Spell of" / "Charm of" where a button has the room of a word or two: one name per spell
#: everywhere ("Big move" offered and "the Great Sorcery" logged was two names for one).
#: Read from the rules when first asked for (``__getattr__``): Home draws these emblems in its
#: first frame, which imports no game's rules.
SPELL_WORDS: dict[str, str]


def __getattr__(name: str):
    if name == "SPELL_WORDS":
        from companion.games.quest.state import SPELL_TITLES

        words = {k: v.removeprefix("Spell of ").removeprefix("Charm of ")
                 for k, v in SPELL_TITLES.items()}
        globals()["SPELL_WORDS"] = words
        return words
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
SPELL_GOALS = {"omniscience": "all even", "exchange": "all odd", "great_sorcery": "12 or more"}
#: The goal on a spell's button beside its name, where the longer name leaves less room
BUTTON_GOALS = dict(SPELL_GOALS, great_sorcery="12+")
SPELL_DICE = {"omniscience": (2, 4, 6), "exchange": (1, 3, 5), "great_sorcery": (6, 5, 1)}

BOARD = theme.rgba("#2A1F44")
RING = theme.rgba("#5B4391")
SPACE = theme.rgba("#E9DDB8")
SPACE_EDGE = theme.rgba("#1A1426")
GLASS = theme.rgba("#37B15A")
GLASS_DARK = theme.rgba("#1F6B36")
CORK = theme.rgba("#B07A45")
HAT = theme.rgba("#23308F")
GOLD = theme.rgba("#FFC24B")
ROCK = theme.rgba("#8A5A2E")
POT = theme.rgba("#2D2D2D")
BREW = theme.rgba("#5CD16B")
WHITE = theme.rgba("#FFFFFF")
BLACK = theme.rgba("#101010")

_TEXTURES: dict[tuple, object] = {}


def text_texture(text: str, size: float, bold: bool = True, colour=(1, 1, 1, 1)):
    """A cached texture of ``text`` (for numbers and letters drawn on the board)."""
    key = (text, int(size), bold, tuple(colour))
    if key not in _TEXTURES:
        label = CoreLabel(text=text, font_size=max(6, int(size)), bold=bold, color=colour)
        label.refresh()
        _TEXTURES[key] = label.texture
        if len(_TEXTURES) > 400:
            _TEXTURES.pop(next(iter(_TEXTURES)))
    return _TEXTURES[key]


def text(cx: float, cy: float, words: str, size: float, colour=(1, 1, 1, 1),
         bold: bool = True) -> None:
    tex = text_texture(words, size, bold, colour)
    Color(1, 1, 1, 1)
    Rectangle(texture=tex, pos=(cx - tex.width / 2, cy - tex.height / 2), size=tex.size)


def disc(cx: float, cy: float, r: float, colour) -> None:
    Color(*colour)
    icons.disc(pos=(cx - r, cy - r), size=(2 * r, 2 * r))


def ring(cx: float, cy: float, r: float, colour, width: float) -> None:
    Color(*colour)
    Line(circle=(cx, cy, r), width=width)


def polygon(points: list[tuple[float, float]], colour) -> None:
    """A convex or star-shaped polygon, filled as a fan from its first point."""
    Color(*colour)
    vertices: list[float] = []
    for x, y in points:
        vertices += [x, y, 0, 0]
    indices: list[int] = []
    for i in range(1, len(points) - 1):
        indices += [0, i, i + 1]
    Mesh(vertices=vertices, indices=indices, mode="triangles")


def star(cx: float, cy: float, r: float, colour, points: int = 5) -> None:
    pts = [(cx, cy)]
    for i in range(points * 2 + 1):
        radius = r if i % 2 == 0 else r * 0.45
        a = math.pi / 2 + i * math.pi / points
        pts.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    polygon(pts, colour)


# -- game pieces ------------------------------------------------------------------------------
def bottle(cx: float, cy: float, s: float, label: str = "", glass=GLASS,
           edge=SPACE_EDGE) -> None:
    """A round potion bottle with a neck and a cork; ``label`` on its belly."""
    r = s * 0.36
    body_y = cy - s * 0.12
    disc(cx, body_y, r + max(1.5, s * 0.05), edge)
    Color(*edge)
    icons.rounded(pos=(cx - s * 0.16, body_y + r * 0.5), size=(s * 0.32, s * 0.42),
                     radius=[s * 0.05])
    disc(cx, body_y, r, glass)
    Color(*glass)
    Rectangle(pos=(cx - s * 0.11, body_y + r * 0.6), size=(s * 0.22, s * 0.32))
    Color(*CORK)
    icons.rounded(pos=(cx - s * 0.13, cy + s * 0.3), size=(s * 0.26, s * 0.16),
                     radius=[s * 0.04])
    Color(1, 1, 1, 0.35)
    icons.disc(pos=(cx - r * 0.7, body_y + r * 0.1), size=(r * 0.45, r * 0.45))
    if label:
        text(cx, body_y, label, r * 1.25, WHITE)


def hat(cx: float, cy: float, s: float, colour=HAT) -> None:
    """The wizard's pointed hat: brim, cone, gold band and a star."""
    edge = WHITE
    w = s * 0.9
    Color(*edge)
    icons.disc(pos=(cx - w / 2 - 2, cy - s * 0.42 - 2), size=(w + 4, s * 0.26 + 4))
    Triangle(points=[cx - s * 0.3 - 2, cy - s * 0.32, cx + s * 0.3 + 2, cy - s * 0.32,
                     cx + s * 0.06, cy + s * 0.5 + 3])
    Color(*colour)
    icons.disc(pos=(cx - w / 2, cy - s * 0.42), size=(w, s * 0.26))
    Triangle(points=[cx - s * 0.3, cy - s * 0.32, cx + s * 0.3, cy - s * 0.32,
                     cx + s * 0.06, cy + s * 0.48])
    Color(*GOLD)
    Rectangle(pos=(cx - s * 0.28, cy - s * 0.3), size=(s * 0.56, s * 0.09))
    star(cx, cy + s * 0.02, s * 0.13, GOLD)


def spell_mark(cx: float, cy: float, s: float) -> None:
    """The spell symbol of action die B: a big star with sparkles."""
    star(cx, cy, s * 0.36, theme.rgba("#7B3FC4"))
    star(cx + s * 0.3, cy + s * 0.28, s * 0.1, theme.rgba("#7B3FC4"), 4)
    star(cx - s * 0.3, cy - s * 0.26, s * 0.08, theme.rgba("#7B3FC4"), 4)


def pips(cx: float, cy: float, s: float, n: int, colour=BLACK) -> None:
    """The pips of a die face showing ``n`` (1-6)."""
    d = s * 0.26
    spots = {
        1: [(0, 0)], 2: [(-1, 1), (1, -1)], 3: [(-1, 1), (0, 0), (1, -1)],
        4: [(-1, 1), (1, 1), (-1, -1), (1, -1)], 5: [(-1, 1), (1, 1), (0, 0), (-1, -1), (1, -1)],
        6: [(-1, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (1, -1)],
    }[n]
    for x, y in spots:
        disc(cx + x * d, cy + y * d, s * 0.085, colour)


def die(cx: float, cy: float, s: float, face, fill=WHITE, edge=None) -> None:
    """A whole die: a rounded white square with its face (1-6 pips, "bottle", "hat", "spell",
    or None for a question mark)."""
    if edge is not None:
        Color(*edge)
        icons.rounded(pos=(cx - s / 2 - s * 0.06, cy - s / 2 - s * 0.06),
                         size=(s * 1.12, s * 1.12), radius=[s * 0.2])
    Color(*fill)
    icons.rounded(pos=(cx - s / 2, cy - s / 2), size=(s, s), radius=[s * 0.16])
    if face == "bottle":
        bottle(cx, cy, s * 0.82)
    elif face == "hat":
        hat(cx, cy, s * 0.8)
    elif face == "spell":
        spell_mark(cx, cy, s)
    elif isinstance(face, int) and 1 <= face <= 6:
        pips(cx, cy, s, face)
    else:
        text(cx, cy, "?", s * 0.6, BLACK)


def obstacle(cx: float, cy: float, s: float) -> None:
    """An obstacle across a path: a boulder with a white cross, outlined in white."""
    Color(*WHITE)
    icons.rounded(pos=(cx - s / 2 - 2, cy - s * 0.4 - 2), size=(s + 4, s * 0.8 + 4),
                     radius=[s * 0.25])
    Color(*ROCK)
    icons.rounded(pos=(cx - s / 2, cy - s * 0.4), size=(s, s * 0.8), radius=[s * 0.24])
    Color(*WHITE)
    k = s * 0.22
    Line(points=[cx - k, cy - k, cx + k, cy + k], width=max(1.2, s * 0.07))
    Line(points=[cx - k, cy + k, cx + k, cy - k], width=max(1.2, s * 0.07))


def cauldron(cx: float, cy: float, s: float, brew=BREW) -> None:
    """The cauldron: a black pot with a rim, green brew and bubbles."""
    disc(cx, cy - s * 0.05, s * 0.42, POT)
    Color(*POT)
    icons.rounded(pos=(cx - s * 0.47, cy + s * 0.12), size=(s * 0.94, s * 0.14),
                     radius=[s * 0.06])
    Color(*brew)
    icons.disc(pos=(cx - s * 0.38, cy + s * 0.16), size=(s * 0.76, s * 0.09))
    for dx, dy, r in ((-0.14, 0.31, 0.07), (0.1, 0.36, 0.05), (0.2, 0.29, 0.04)):
        disc(cx + dx * s, cy + dy * s, r * s, brew)
    Color(*POT)
    for dx in (-0.28, 0.28):
        icons.rounded(pos=(cx + dx * s - s * 0.06, cy - s * 0.5), size=(s * 0.12, s * 0.14),
                         radius=[s * 0.03])


def token(cx: float, cy: float, s: float, used: bool) -> None:
    """The spell-breaking token: a gold coin with a lightning bolt; face down when used."""
    disc(cx, cy, s * 0.48, WHITE)
    disc(cx, cy, s * 0.44, theme.rgba("#5C6470") if used else GOLD)
    colour = theme.rgba("#9AA3AE") if used else BLACK
    if used:
        Color(*colour)
        Line(circle=(cx, cy, s * 0.3), width=max(1, s * 0.04))
        return
    polygon([(cx + s * 0.04, cy + s * 0.02), (cx + s * 0.12, cy + s * 0.34),
             (cx - s * 0.16, cy - s * 0.02), (cx - s * 0.02, cy - s * 0.02),
             (cx - s * 0.1, cy - s * 0.34), (cx + s * 0.18, cy + s * 0.02)], colour)


# -- the six ingredients ----------------------------------------------------------------------
def ingredient(cx: float, cy: float, s: float, name: str, tile: bool = True) -> None:
    """One ingredient's picture on a light round tile (so it reads on the dark screen)."""
    if tile:
        disc(cx, cy, s * 0.5, theme.rgba("#F4EEDC"))
    DRAW[name](cx, cy, s * 0.8)


def _egg(cx, cy, s):
    Color(*theme.rgba("#C9D98A"))
    icons.disc(pos=(cx - s * 0.28, cy - s * 0.4), size=(s * 0.56, s * 0.72))
    Color(*theme.rgba("#4E6B1E"))
    Line(points=[cx - s * 0.2, cy, cx - s * 0.08, cy + s * 0.08, cx, cy - s * 0.04,
                 cx + s * 0.1, cy + s * 0.06, cx + s * 0.22, cy - s * 0.02], width=max(1, s * 0.04))
    for dx in (-0.16, 0.0, 0.16):
        Line(bezier=[cx + dx * s, cy + s * 0.34, cx + dx * s - s * 0.06, cy + s * 0.4,
                     cx + dx * s + s * 0.06, cy + s * 0.46, cx + dx * s, cy + s * 0.52],
             width=max(1, s * 0.03))


def _mushroom(cx, cy, s):
    Color(*theme.rgba("#F1E3C6"))
    icons.rounded(pos=(cx - s * 0.1, cy - s * 0.42), size=(s * 0.2, s * 0.5),
                     radius=[s * 0.05])
    Color(*theme.rgba("#D23A2A"))
    icons.disc(pos=(cx - s * 0.44, cy - s * 0.33), size=(s * 0.88, s * 0.76), angle_start=-90,
            angle_end=90)
    for dx, dy, r in ((-0.2, 0.16, 0.06), (0.05, 0.28, 0.07), (0.23, 0.13, 0.05)):
        disc(cx + dx * s, cy + dy * s, r * s, WHITE)


def _toad(cx, cy, s):
    green = theme.rgba("#6E8B2F")
    Color(*green)
    icons.disc(pos=(cx - s * 0.4, cy - s * 0.36), size=(s * 0.8, s * 0.52))
    for dx in (-0.2, 0.2):
        Triangle(points=[cx + dx * s - s * 0.07, cy + s * 0.22, cx + dx * s + s * 0.07,
                         cy + s * 0.22, cx + dx * s * 1.5, cy + s * 0.46])
        disc(cx + dx * s, cy + s * 0.14, s * 0.12, green)
        disc(cx + dx * s, cy + s * 0.15, s * 0.07, theme.rgba("#F7E04A"))
        disc(cx + dx * s, cy + s * 0.15, s * 0.035, BLACK)
    Color(*BLACK)
    Line(points=[cx - s * 0.16, cy - s * 0.12, cx + s * 0.16, cy - s * 0.12],
         width=max(1, s * 0.03))


def _eye(cx, cy, s):
    Color(*theme.rgba("#1A1A1A"))
    icons.disc(pos=(cx - s * 0.46, cy - s * 0.26), size=(s * 0.92, s * 0.52))
    Color(*WHITE)
    icons.disc(pos=(cx - s * 0.42, cy - s * 0.22), size=(s * 0.84, s * 0.44))
    disc(cx, cy, s * 0.2, theme.rgba("#E08A1E"))
    Color(*BLACK)
    icons.disc(pos=(cx - s * 0.05, cy - s * 0.18), size=(s * 0.1, s * 0.36))


def _dandelion(cx, cy, s):
    Color(*theme.rgba("#7A4B22"))
    Line(points=[cx, cy - s * 0.02, cx, cy - s * 0.3, cx - s * 0.12, cy - s * 0.46],
         width=max(1, s * 0.04))
    Line(points=[cx, cy - s * 0.3, cx + s * 0.12, cy - s * 0.46], width=max(1, s * 0.035))
    for i in range(10):
        a = i * math.pi / 5
        disc(cx + s * 0.2 * math.cos(a), cy + s * 0.16 + s * 0.2 * math.sin(a), s * 0.1,
             theme.rgba("#F2C21B"))
    disc(cx, cy + s * 0.16, s * 0.13, theme.rgba("#E39A0B"))


def _bat(cx, cy, s):
    dark = theme.rgba("#3B2A55")
    for side in (-1, 1):
        pts = [(cx, cy + s * 0.05), (cx + side * s * 0.12, cy + s * 0.2),
               (cx + side * s * 0.46, cy + s * 0.24), (cx + side * s * 0.4, cy - s * 0.06),
               (cx + side * s * 0.28, cy - s * 0.02), (cx + side * s * 0.2, cy - s * 0.18),
               (cx + side * s * 0.08, cy - s * 0.08)]
        polygon(pts, dark)
    disc(cx, cy + s * 0.04, s * 0.11, dark)
    Color(*dark)
    Triangle(points=[cx - s * 0.1, cy + s * 0.08, cx - s * 0.02, cy + s * 0.12,
                     cx - s * 0.08, cy + s * 0.24])
    Triangle(points=[cx + s * 0.1, cy + s * 0.08, cx + s * 0.02, cy + s * 0.12,
                     cx + s * 0.08, cy + s * 0.24])


DRAW = {"rotten_egg": _egg, "poisonous_mushroom": _mushroom, "horned_toad": _toad,
        "newt_eye": _eye, "dandelion_root": _dandelion, "bat_wing": _bat}
