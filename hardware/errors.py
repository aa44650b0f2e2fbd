"""Errors the hardware layer raises on purpose.

Each also subclasses the matching built-in, so the app can catch ``OSError`` for a device that
cannot be opened and ``ValueError`` for a config that cannot be used, without knowing ours.
"""

from companion.core.errors import CompanionError


class HardwareError(CompanionError, OSError):
    """A device cannot be opened or driven (pin in use, no GPIO on this machine)."""


class ConfigError(CompanionError, ValueError):
    """The hardware config cannot be used. The message names the key it is about."""
