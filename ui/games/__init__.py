"""The games the app can play, and the screens each one brings.

The rules come from ``companion.games``; this table adds only what the app needs to show a game:
its setup and table screens, its kv files, the home button's words, and how a resume card says
where an unfinished game stands; and what its UI lends the table's parts (the dice fix dialog a
log entry opens, the earlier cards a phone's page offers). A game is on the home screen only once
it is listed here. The app hands this table to its parts and widgets (``app.games``): they never
import it, so each is read without the games above it. A game's screens, widgets and kv files live together in ``ui/games/<name>/``, as its rules do in
``companion/games/<name>/``; widgets every game uses stay in ``ui/widgets/``.
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
    kv: tuple[str, ...]             # its kv files in ui/games/<name>/, in loading order
    where: Callable[[dict[str, Any]], str]  # "Set 2, round 3" from a summary
    screens: dict[str, str]         # screen name -> its class (registered by ``modules``)
    modules: tuple[str, ...]        # its modules whose import registers its widget classes
    result_screen: str = "result"
    #: the table wins or loses together (the rules' own flag: tests/ui/test_ui_home.py holds
    #: the two alike); Home reads it here, so its first frame imports no game's rules
    cooperative: bool = False
    #: its dice fix dialog for a roll's events (the log's Fix button), or None without dice
    open_fix: Callable[[Any], None] | None = None
    #: what its UI adds to a snapshot for the phones (``(app, snapshot)``, the store open)
    phone_extras: Callable[[Any, dict[str, Any]], None] | None = None

    def kv_files(self) -> list[str]:
        """Its kv files, relative to ui/."""
        return [f"games/{self.name}/{stem}.kv" for stem in self.kv]

    def module_names(self) -> list[str]:
        return [f"ui.games.{self.name}.{stem}" for stem in self.modules]


def _witchs_brew_where(summary: dict[str, Any]) -> str:
    return f"Set {summary['set']}, round {summary['round']}"


def _cauldron_where(summary: dict[str, Any]) -> str:
    season = "Market Season" if summary["season"] == "market" else "Harvest Season"
    return f"{season} {summary['season_number']}"


def _quest_where(summary: dict[str, Any]) -> str:
    inside, blocked = len(summary["in_cauldron"]), len(summary["obstacles"])
    paths = "path" if blocked == 1 else "paths"      # "1 path blocked", never "1 paths"
    return f"Turn {summary['turn_no']}, {inside} of 3 in the cauldron, {blocked} {paths} blocked"


# The hooks import their game's modules when first called: Home's first frame imports none.
def _quest_fix(events: Any) -> None:
    from ui.games.quest.dialogs import open_fix

    open_fix(events)


def _cauldron_fix(events: Any) -> None:
    from ui.games.cauldron.dice import open_fix

    open_fix(events)


def _brews_seen(app: Any, snapshot: dict[str, Any]) -> None:
    """Witch's Brew: the cauldron cards brewed in earlier games of this database, on a seat's
    brew form, those it can take as they are (one tap fills the form)."""
    forms = [f for part in snapshot.get("controls") or [] for f in part.get("forms", [])
             if f["form"] == "brew"]
    if not forms:
        return
    from companion.view.forms import brew_cards
    from ui.games.witchs_brew.brew import earlier_cards

    seen = earlier_cards(app)
    for form in forms:
        form["cards"] = brew_cards(form, seen)


def _cards_seen(app: Any, snapshot: dict[str, Any]) -> None:
    """Cauldron: the potion cards of earlier games of this database, for a seat's phone to
    enter one of them with a tap (the cards of this game in hand are nobody else's)."""
    from ui.games.cauldron.potion import earlier_catalogue

    seen = earlier_catalogue(app)[:30]
    for hand in snapshot.get("hands") or []:
        if hand is not None:
            hand["catalogue"] = seen


GAMES: dict[str, GameUI] = {
    ui.name: ui
    for ui in (
        GameUI("witchs_brew", "Witch's Brew", "3 to 6 players  -  roles, favors, potions",
               setup_screen="setup", table_screen="witchs_brew",
               kv=("seat_panel", "role_picker", "action_panels", "effect_dialog", "setup",
                   "table", "result"),
               where=_witchs_brew_where,
               screens={"setup": "SetupScreen", "witchs_brew": "WitchsBrewScreen",
                        "result": "ResultScreen"},
               modules=("setup", "table", "result", "action_panels", "effect_dialog",
                        "role_picker", "seat_panel"),
               phone_extras=_brews_seen),
        GameUI("cauldron", "Cauldron", "2 to 6 players  -  Magik track, harvest, market",
               setup_screen="cauldron_setup", table_screen="cauldron",
               kv=("seats", "turn", "entry", "dice", "market", "potion", "entries", "adjust",
                   "setup", "table", "result"),
               where=_cauldron_where, result_screen="cauldron_result",
               screens={"cauldron_setup": "CauldronSetupScreen", "cauldron": "CauldronScreen",
                        "cauldron_result": "CauldronResultScreen"},
               modules=("table", "result", "setup"), open_fix=_cauldron_fix,
               phone_extras=_cards_seen),
        GameUI("quest", "Cauldron Quest", "play together, ages 6+",
               setup_screen="quest_setup", table_screen="quest",
               kv=("icons", "panels", "magic", "dialogs", "setup", "table", "result"),
               where=_quest_where, result_screen="quest_result", cooperative=True,
               screens={"quest_setup": "QuestSetupScreen", "quest": "QuestScreen",
                        "quest_result": "QuestResultScreen"},
               modules=("table", "result", "setup"), open_fix=_quest_fix),
    )
}


def table_screens() -> set[str]:
    """Screens on which seat keys and buttons mean something."""
    return {g.table_screen for g in GAMES.values()} | {g.result_screen for g in GAMES.values()}
