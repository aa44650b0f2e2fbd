"""Runs of three words: what "said twice" means on a screen (each thing said once).

A screen that says a thing twice ("Fill the board" in the headline, its detail and the log)
makes a player read it twice; the layout check finds any run of PHRASE words that two texts
of one table screen share, and the game bar leaves out a line the window says already (and an
older line that repeats a newer one).
"""

from __future__ import annotations

import re
from functools import lru_cache

PHRASE = 3   # words
_WORD = re.compile(r"[a-z0-9_]+(?:'[a-z]+)?")
_TAGS = re.compile(r"\[/?[a-z]+(?:=[^\]]*)?\]")


def phrases(text: str) -> list[str]:
    """Every run of PHRASE words in ``text`` (markup tags out), lower case, within a line: the
    lines of a text are read apart (a button's title and its caption, two events of the game
    bar), so the last words of one and the first of the next are no phrase. A thing's name
    in the game's own words (an Ingredient, a role) is one word however many it is printed
    with: "Answer the Wolf keeper" and "Barb declined the favor of the Wolf keeper" name one
    role, they do not say one thing twice. Runs of numbers alone ("1 1 1", a row of counts)
    are no phrase either."""
    runs = []
    for line in _unescaped(_TAGS.sub("", text)).lower().split("\n"):
        words = _WORD.findall(_one_word_names().sub(lambda m: m.group(0).replace(" ", "_"),
                                                    line))
        runs += [" ".join(words[i:i + PHRASE]) for i in range(len(words) - PHRASE + 1)]
    return [r for r in runs if not all(w.isdigit() for w in r.split())]


@lru_cache(maxsize=1)
def _one_word_names() -> re.Pattern:
    """The games' names of things printed in more than one word (Cauldron's Ingredients and
    milestones, Witch's Brew's roles), longest first."""
    from companion.games.cauldron import data as cauldron
    from companion.games.witchs_brew.roles import ROLES

    names = ({cauldron.label(k) for k in cauldron.INGREDIENTS} | {r.title for r in ROLES.values()}
             | set(cauldron.MILESTONE_TEXT.values()))
    many = sorted((n.lower() for n in names if " " in n), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(n) for n in many) + r")\b")


def _unescaped(text: str) -> str:
    """Kivy's markup escapes as the characters they show: a player named "[b]Anna[/b]" is
    drawn so, not as the words "bl b br" (ui/text/markup.py)."""
    return text.replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")


def said_by(texts) -> set[str]:
    """Every phrase that ``texts`` say (what a screen says already)."""
    return {phrase for text in texts for phrase in phrases(text)}


def share_a_phrase(lines: list[str]) -> bool:
    """Whether any two of ``lines`` (or one line with itself) say the same run of words."""
    seen: set[str] = set()
    for line in lines:
        mine = phrases(line)
        if seen & set(mine) or len(set(mine)) < len(mine):
            return True
        seen.update(mine)
    return False
