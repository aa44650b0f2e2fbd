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
#: what ends a run of words read together: a line, or punctuation before a space (not "0.5")
_CLAUSE = re.compile(r"\n|[,;:.!?]+(?:\s|$)|[()]")


def phrases(text: str) -> list[str]:
    """Every run of PHRASE words in ``text`` (markup tags out), lower case, within a clause:
    the lines of a text are read apart (a button's title and its caption, two events of the
    game bar), and so are the parts of a list or a sentence that a comma, a colon, a
    semicolon, a full stop or a bracket ends ("2 Spider Web, 2 Frog Legs" is no "web 2
    frog"). Runs of numbers alone ("1 1 1", a row of counts) are no phrase either."""
    runs = []
    for line in _CLAUSE.split(_unescaped(_TAGS.sub("", text)).lower()):
        words = _WORD.findall(line)
        runs += [" ".join(words[i:i + PHRASE]) for i in range(len(words) - PHRASE + 1)]
    return [r for r in runs if not all(w.isdigit() for w in r.split())]


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
