"""The cauldron potion cards brewed in earlier Witch's Brew games of this database: the same box
holds the same printed cards, so the brew entry offers them as a picker (one tap fills the
points, the raven and the drops paid) before anything is entered by hand."""

from __future__ import annotations

from companion.core.model import Command
from companion.games.witchs_brew.roles import CAULDRONS, DROPS
from companion.history.entered import entered, newest_once

#: at most this many cards of one stack on the picker (one row of buttons)
SHOWN = 3


def card_of(command: Command) -> dict | None:
    """The cauldron card a brewer's ``resolve`` entered (its stack, points, raven and the drops
    paid for it), or None for any other resolve or a malformed one."""
    potion, pay = command.args.get("potion"), command.args.get("pay")
    if command.do != "resolve" or not isinstance(potion, dict) or not isinstance(pay, dict):
        return None
    points = potion.get("points")
    if potion.get("stack") not in CAULDRONS or not isinstance(points, int) or points < 0:
        return None
    drops = {d: n for d, n in pay.items() if d in DROPS and isinstance(n, int) and n > 0}
    return {"stack": potion["stack"], "points": points, "raven": bool(potion.get("raven")),
            "pay": drops}


def card_key(card: dict) -> tuple:
    """Two entries are the same printed card when stack, points, raven and cost agree."""
    return card["stack"], card["points"], card["raven"], tuple(sorted(card["pay"].items()))


def earlier_cards(app) -> list[dict]:
    """The cards brewed in the latest other games, newest first, once each."""
    if getattr(app, "store", None) is None:
        return []
    current = getattr(app.session, "game_id", None)
    return newest_once(entered(app.store.conn, "witchs_brew", ("resolve",), exclude=current),
                       card_of, card_key)


def cards_for(catalogue: list[dict], stack: str, least: int, raven: bool | None) -> list[dict]:
    """The catalogue's cards the stack can still give: worth at least ``least`` (a stack is
    sorted lowest on top), with a raven or without where only one kind is left (``raven``
    True / False; None: either), the lowest first."""
    fits = [c for c in catalogue if c["stack"] == stack and c["points"] >= least
            and (raven is None or c["raven"] == raven)]
    return sorted(fits, key=lambda c: (c["points"], c["raven"]))[:SHOWN]


def cost_words(pay: dict[str, int]) -> str:
    """"2 red, 1 green" (the drops printed on the card), or "no drops"."""
    return ", ".join(f"{n} {d}" for d, n in pay.items()) or "no drops"
