"""The games the app can play, and the screens each one brings.

The rules come from ``companion.games``; this table adds only what the app needs to show a game:
its setup and table screens, its kv files, the home button's words, and how a resume card says
where an unfinished game stands. A game is on the home screen only once it is listed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class GameUI:
    name: str                       # the rules' name (companion.games)
    title: str
    caption: str                    # the home button's second line
    setup_screen: str
    table_screen: str
    kv: tuple[str, ...]             # kv files, relative to ui/
    where: Callable[[dict[str, Any]], str]  # "Set 2, round 3" from a summary
    result_screen: str = "result"


def _witchs_brew_where(summary: dict[str, Any]) -> str:
    return f"Set {summary['set']}, round {summary['round']}"


GAMES: dict[str, GameUI] = {
    ui.name: ui
    for ui in (
        GameUI("witchs_brew", "Witch's Brew", "3 to 6 players  -  roles, favors, potions",
               setup_screen="setup", table_screen="witchs_brew",
               kv=("screens/setup.kv", "screens/witchs_brew.kv"), where=_witchs_brew_where),
    )
}


def table_screens() -> set[str]:
    """Screens on which seat keys and buttons mean something."""
    return {g.table_screen for g in GAMES.values()} | {g.result_screen for g in GAMES.values()}
