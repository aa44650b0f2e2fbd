"""Each seat's hand, for its own phone only (companion.view keeps it in the snapshot's private
part and :func:`companion.view.audience_view` hands a seat its own, nobody else's): Witch's
Brew's chosen role cards (companion.games.witchs_brew.hands.seat_hand), Cauldron's potion
cards in hand with what each needs (companion.games.cauldron.hand.seat_cards). A game with no
hands gives None for every seat. Pure."""

from __future__ import annotations

from typing import Any, Callable

from companion.core.engine import Session


def _brew_hand(session: Session, seat: int) -> dict[str, Any]:
    from companion.games.witchs_brew.hands import seat_hand

    return seat_hand(session.state, seat)


def _cauldron_hand(session: Session, seat: int) -> dict[str, Any]:
    from companion.games.cauldron.hand import seat_cards

    return seat_cards(session.state, seat)


HANDS: dict[str, Callable[[Session, int], dict[str, Any]]] = {
    "witchs_brew": _brew_hand, "cauldron": _cauldron_hand}


def seat_hands(session: Session) -> list[dict[str, Any] | None]:
    """Every seat's own hand, in seat order (None where the game has none)."""
    part = HANDS.get(session.rules.name)
    return [None if part is None else part(session, seat) for seat in range(len(session.names))]
