"""Values from outside as the whole program treats them: how names are compared, how typed text
is cleaned, how any value is quoted in a refusal, and the integers SQLite can store.

The gate checks commands and setups with these, but they are not the gate's alone: the store, the
club, the history's readers and the hardware's settings compare a name, clean a text or quote a
bad value the same way, so that "Zoë" is one player everywhere and no refusal can be broken by
what it quotes. They live here, beside the gate rather than inside it, so that a reader of a file
need not take in the whole command checker to learn how a name is compared.
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any, Sequence

from companion.core.errors import RuleViolation

#: SQLite stores 64-bit integers; nothing larger may reach a step or a result.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
#: Longest free text a player may type (a potion's name, an omen's text).
MAX_TEXT = 500


def name_key(name: str) -> str:
    """How names are compared everywhere: Unicode NFC, then without regard to case. "Zoë"
    typed with a combining diaeresis and "ZOË" are the same player."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def shown(value: Any, limit: int = 40) -> str:
    """A value as a refusal may quote it: short, and safe for a 5,000-digit number or a lone
    surrogate (``repr`` of such an int raises; a surrogate cannot be printed)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if abs(value) > 10**18:
            return f"a {value.bit_length()}-bit number"
        return repr(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else "a number that is not finite"
    if isinstance(value, str):
        text = value.encode("utf-8", "backslashreplace").decode("utf-8")
        text = text if len(text) <= limit else text[: limit - 1] + "…"
        return repr(text)
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return f"a mapping of {len(value)}"
    return f"a {type(value).__name__}"


def clipped(key: str, limit: int = 40) -> str:
    """A key or name a message quotes as it is written (no quotes added), cut to ``limit``
    characters: a 4,000-character TOML key must not make a 4,000-character line."""
    text = key.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def seat_of(names: Sequence[str], who: str) -> int | None:
    """The seat of a named player among ``names`` (NFC and case do not matter), or None."""
    key = name_key(who)
    return next((i for i, name in enumerate(names) if name_key(name) == key), None)


def clean_text(value: Any, at: str, *, limit: int = MAX_TEXT, blank: bool = True,
               line: bool = False) -> str:
    """Text a person typed: a string that can be stored and shown (no lone surrogates, no
    control characters), at most ``limit`` characters, stripped, in Unicode NFC. A ``line``
    (a name) holds no tab or line break either: it is shown on one line everywhere, and the
    club refuses one that does not."""
    if not isinstance(value, str):
        raise RuleViolation(f"{at}: text of at most {limit} characters, not {shown(value)}")
    if len(value) > limit:
        raise RuleViolation(f"{at}: text of at most {limit} characters, not {len(value)}")
    for ch in value:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            raise RuleViolation(f"{at}: the text holds a broken character (a lone surrogate "
                                f"U+{ord(ch):04X}); type it again")
        if unicodedata.category(ch) == "Cc" and ch not in "\t\n":
            raise RuleViolation(f"{at}: the text holds a control character "
                                f"(U+{ord(ch):04X}); type it again")
        if line and ch in "\t\n":
            raise RuleViolation(f"{at}: a name is one line, without a tab or a line break")
    text = unicodedata.normalize("NFC", value.strip())
    if not blank and not text:
        raise RuleViolation(f"{at}: give a name, not an empty text")
    return text
