"""Errors the hardware layer raises on purpose.

Each also subclasses the matching built-in, so the app can catch ``OSError`` for a device that
cannot be opened and ``ValueError`` for a config that cannot be used, without knowing ours.
"""

from companion.core.errors import CompanionError


class HardwareError(CompanionError, OSError):
    """A device cannot be opened or driven (pin in use, no GPIO on this machine)."""


#: The longest run of characters without a space a config's message quotes whole.
MAX_WORD = 256   # a path the person gave stays whole; a pasted giant does not


class ConfigError(CompanionError, ValueError):
    """The hardware config cannot be used. The message names the key it is about; whatever the
    file holds, it is one line whose every word is at most MAX_WORD characters (a pasted
    4,000-digit number or key is cut, never printed whole)."""

    def __init__(self, message: str = "") -> None:
        words = " ".join(message.split()).split(" ")
        super().__init__(" ".join(w if len(w) <= MAX_WORD else w[: MAX_WORD - 1] + "…"
                                  for w in words))
