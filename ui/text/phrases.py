"""Runs of three words: what "said twice" means on a screen (issue 33).

A screen that says a thing twice ("Fill the board" in the headline, its detail and the log)
makes a player read it twice; the layout check finds any run of PHRASE words that two texts
of one table screen share, and the game bar leaves out an older line that repeats a newer one.
"""

from __future__ import annotations

import re

PHRASE = 3   # words
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_TAGS = re.compile(r"\[/?[a-z]+(?:=[^\]]*)?\]")


def phrases(text: str) -> list[str]:
    """Every run of PHRASE words in ``text`` (markup tags out), lower case, within a line: the
    lines of a text are read apart (a button's title and its caption, two events of the game
    bar), so the last words of one and the first of the next are no phrase. Runs of numbers
    alone ("1 1 1", a row of counts) are no phrase either."""
    runs = []
    for line in _TAGS.sub("", text).lower().split("\n"):
        words = _WORD.findall(line)
        runs += [" ".join(words[i:i + PHRASE]) for i in range(len(words) - PHRASE + 1)]
    return [r for r in runs if not all(w.isdigit() for w in r.split())]


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
