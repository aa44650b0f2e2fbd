"""Machinery shared by every game: commands, events, the engine that folds them, errors."""

from companion.core.errors import CompanionError, RuleViolation, SetupError, StoreError, ScriptError
from companion.core.model import Command, Event, InputEvent
from companion.core.engine import GameRules, Session, Step

__all__ = [
    "CompanionError", "RuleViolation", "SetupError", "StoreError", "ScriptError",
    "Command", "Event", "InputEvent", "GameRules", "Session", "Step",
]
