"""Errors a player or a config can cause. Each also subclasses the matching built-in, so callers
that only know Python's exceptions still catch them; the message is meant for the table."""


class CompanionError(Exception):
    """Base of every error the companion raises on purpose."""


class RuleViolation(CompanionError, ValueError):
    """A command the rules refuse. The message names the rule; the state is unchanged.
    ``screen`` is the same refusal in players' words where the message names a script's key
    (the gate's refusals); a screen shows it instead of the message."""

    def __init__(self, message: str = "", screen: str | None = None) -> None:
        super().__init__(message)
        self.screen = screen or message


class SetupError(CompanionError, ValueError):
    """A game setup that cannot be played (player count, names, variant)."""


class ScriptError(CompanionError, ValueError):
    """A table-script line that is not a command at all (bad JSON, unknown keys)."""


class StoreError(CompanionError, OSError):
    """The game database cannot be used (corrupt, foreign, unwritable)."""


class NotSaved(StoreError):
    """A step the card could not save while playing (full, read-only, locked, failing): it was
    not applied, and the very same step may be tried again once the card works."""
