"""Each seat's hand, for its own phone only (companion.view.snapshot keeps it in the snapshot's private
part and :func:`companion.view.snapshot.audience_view` hands a seat its own, nobody else's): Witch's
Brew's chosen role cards (companion.games.witchs_brew.hands.seat_hand), Cauldron's potion
cards in hand with what each needs (companion.games.cauldron.hand.seat_cards). A game with no
hands gives None for every seat. Pure."""

from __future__ import annotations

from typing import Any, Callable

from companion.core.engine import Session


def _brew_hand(session: Session, seat: int, offered: bool) -> dict[str, Any] | None:
    """The seat's Witch's Brew hand; without the table setting, only one chosen on the Pi."""
    from companion.games.witchs_brew.hands import hand, seat_hand

    if not offered and hand(session.state, seat) is None:
        return None
    return seat_hand(session.state, seat)


def _cauldron_hand(session: Session, seat: int, offered: bool) -> dict[str, Any]:
    from companion.games.cauldron.hand import seat_cards

    return seat_cards(session.state, seat)


HANDS: dict[str, Callable[[Session, int, bool], dict[str, Any] | None]] = {
    "witchs_brew": _brew_hand, "cauldron": _cauldron_hand}


def seat_hands(session: Session, offered: bool = True) -> list[dict[str, Any] | None]:
    """Every seat's own hand, in seat order (None where the game has none). ``offered``: the
    table setting Hands on phones."""
    part = HANDS.get(session.rules.name)
    return [None if part is None else part(session, seat, offered)
            for seat in range(len(session.names))]


#: A seat's phone sends its hand as a choice with one of these prefixes: ``hand:`` and the 5
#: role ids, comma-separated (Witch's Brew), ``card:`` and a potion card as JSON (Cauldron).
HAND_KEYS = {"witchs_brew": "hand:", "cauldron": "card:"}
#: The longest hand key a phone may send (a card's JSON with a long name and 10 Ingredients).
MAX_KEY = 2000


def enters_hand(snapshot: dict[str, Any], seat: int, key: str) -> str | None:
    """Why ``seat``'s phone may not send hand ``key`` on ``snapshot`` now, or None when it
    may (the phones' server asks; the rules judge the command itself afterwards)."""
    prefix = HAND_KEYS.get(snapshot.get("game", ""))
    if prefix is None or not key.startswith(prefix):
        return "choice: this game has no hand to enter"
    if len(key) > MAX_KEY:
        return f"choice: a hand is at most {MAX_KEY} characters"
    hand = (snapshot.get("hands") or [None] * (seat + 1))[seat]
    if hand is None or (prefix == "hand:" and not hand.get("may_choose")):
        return "choice: " + ((hand or {}).get("why_not") or "no hand to choose now")
    return None


def hand_command(session: Session, seat: int, key: str):
    """The Command a seat's hand key stands for (the rules judge it), or None."""
    import json

    from companion.core import Command

    prefix = HAND_KEYS.get(session.rules.name)
    if prefix is None or not key.startswith(prefix) or not 0 <= seat < len(session.names):
        return None
    name, body = session.names[seat], key[len(prefix):]
    if prefix == "hand:":
        return Command("choose_hand", name, {"roles": [r for r in body.split(",") if r]})
    try:
        card = json.loads(body)
    except ValueError:
        return None
    if not isinstance(card, dict):
        return None
    args: dict[str, Any] = {"potion": card}
    if card.get("kind") not in session.state["players"][seat]["owed"]:
        args["source"] = "correction"
    return Command("add_potion", name, args)


def refused_privately(session: Session, command) -> str:
    """Why the rules refuse a hand command (its words may quote the cards, so they go to the
    seat's phone alone, never to the Pi's screen), or "" when they take it."""
    from companion.core.errors import CompanionError

    if command is None:
        return "That hand is not one the table can read"
    try:
        session.rules.accept(session.state, command)
    except CompanionError as refusal:
        return str(refusal)
    return ""
