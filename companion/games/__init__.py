"""The games the companion runs, by the name a setup or table script uses."""

from __future__ import annotations

from companion.core.engine import GameRules
from companion.core.errors import SetupError


def _load() -> dict[str, GameRules]:
    from companion.games.cauldron import RULES as cauldron
    from companion.games.quest import RULES as quest
    from companion.games.witchs_brew import RULES as witchs_brew

    return {rules.name: rules for rules in (witchs_brew, cauldron, quest)}


def all_games() -> dict[str, GameRules]:
    return _load()


def get_rules(name: str) -> GameRules:
    games = _load()
    if name not in games:
        known = ", ".join(sorted(games))
        raise SetupError(f"Unknown game {name!r}: the companion runs {known}")
    return games[name]
