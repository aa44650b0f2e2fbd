"""The seats' chosen hands: "Each player selects five of his 12 role cards" (rulebook), entered
on the seat's phone or the Pi's hidden entry, so the companion knows what each seat holds.

"If the player has the card played in his hand, he must play it": a seat whose hand is known
has nothing to decide when it does not hold the announced role (the flow passes it at once,
as the table would have heard "pass"), cannot pass when it does (so a card cannot be
forgotten), and cannot announce a role it did not choose. A seat that chose no hand this set
answers for itself, as before. A seat that chose a hand once chooses again at the start of
each later set (``hands_on``): the set waits for it, so its answers stay known.

The hands are private: ``summary`` (the table's public state, the Pi's screen, the phones'
public snapshot, the club's status) never holds them while they are in play; only
:func:`seat_hand` gives one seat its own, and the finished game's record keeps them all
(:func:`record`), once every card has been played.
"""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleViolation
from companion.core.model import Command, Event
from companion.games.witchs_brew import state as st
from companion.games.witchs_brew.roles import ROLES
from companion.games.witchs_brew.state import CARDS_PER_SET, State, hand, holds, set_started


def cannot_choose(state: State, seat: int) -> str | None:
    """Why the seat may not choose its hand now, or None when it may."""
    who = st.name(state, seat)
    if state["over"]:
        return "The game is over: only corrections and undo are possible now"
    if state["excluded"] is None:
        return (f"Set {state['set']}: turn over the spare role cards first (variant), so "
                "nobody chooses a card that lies face up in the middle")
    if hand(state, seat) is not None:
        return f"{who} already chose a hand this set: each seat chooses its 5 cards once per set"
    if not set_started(state):
        return (f"Hands are chosen at the start of a set, before the first role is announced: "
                f"{who} plays this set without one (answering for itself)")
    return None


def choose_hand(state: State, cmd: Command, seat: int) -> list[Event]:
    """A seat's 5 role cards for this set (the gate checked: 5 different roles of the 12)."""
    reason = cannot_choose(state, seat)
    if reason:
        raise RuleViolation(reason)
    roles = list(cmd.args["roles"])
    for key in roles:
        if key in state["excluded"]:
            raise RuleViolation(f"roles: the {ROLES[key].title} lies face up in the middle this "
                                "set (variant): nobody may choose it")
    return [Event("hand_chosen", {"seat": seat, "roles": roles})]


def refuse_announce(state: State, seat: int, key: str) -> None:
    """An announcement of a role the seat did not choose is refused, naming it."""
    if holds(state, seat, key) is False:
        raise RuleViolation(f"{st.name(state, seat)} did not choose the {ROLES[key].title} "
                            "this set")


def refuse_answer(state: State, seat: int, answer: str) -> None:
    """"If the player has the card played in his hand, he must play it": a holder's pass is
    refused. (A seat whose hand lacks the role never answers: the flow passed it already.)"""
    role = state["role"]
    if answer == "pass" and holds(state, seat, role):
        raise RuleViolation(f"{st.name(state, seat)} holds the {ROLES[role].title} (chosen this "
                            "set): a player who has the card played in his hand must play it; "
                            "claim it or say \"So be it!\"")


def auto_pass(state: State, seat: int) -> list[Event]:
    """The pass of a seat whose known hand lacks the announced role, or nothing."""
    if holds(state, seat, state["role"]) is False:
        return [Event("answered", {"seat": seat, "answer": "pass", "hand": True})]
    return []


def evolve_hand(s: State, event: Event) -> None:
    """Fold ``hand_chosen`` (in place: ``s`` is already the evolving copy)."""
    d = event.data
    s.setdefault("hands", {})[str(d["seat"])] = list(d["roles"])
    on = s.setdefault("hands_on", [])
    if d["seat"] not in on:
        on.append(d["seat"])
        on.sort()


def keep_hands(s: State) -> None:
    """At a set's end (or the game's), its hands go to the record and the next set starts
    without any (in place)."""
    if s.get("hands"):
        s.setdefault("hands_kept", []).append({"set": s["set"], "hands": dict(s["hands"])})
    s["hands"] = {}


def record(state: State) -> list[dict[str, Any]] | None:
    """The hands of every set by player name, for the finished game's record; None while the
    game is in play (a hand is private until its cards are played)."""
    if not state["over"]:
        return None
    return [{"set": k["set"], "hands": {st.name(state, int(seat)): list(roles)
                                        for seat, roles in sorted(k["hands"].items())}}
            for k in state.get("hands_kept", [])]


def chosen(state: State) -> list[str]:
    """Who has chosen a hand this set, by name: all the Pi's table screen shows of them."""
    return [st.name(state, int(seat)) for seat in sorted(state.get("hands", {}), key=int)]


def seat_hand(state: State, seat: int) -> dict[str, Any]:
    """What seat ``seat`` alone is shown of its hand (its phone, the Pi's hidden entry): the 12
    role cards with their full action and favor in the rules' words, which it chose, which it
    has played, which lie face up in the middle (variant), whether it may choose now and
    whether it holds the role just announced (its phone then buzzes)."""
    cards = hand(state, seat)
    played = state["players"][seat]["roles_played"]
    excluded = state["excluded"] or []
    role = state["role"]
    why = cannot_choose(state, seat)
    return {
        "game": "witchs_brew", "set": state["set"], "chosen": cards is not None,
        "may_choose": why is None, "why_not": why or "", "count": CARDS_PER_SET,
        "left": [] if cards is None else [r for r in cards if r not in played],
        "holds_role": bool(role and holds(state, seat, role)),
        "asked": bool(role and holds(state, seat, role) and st.phase(state) == "answer"
                      and st.turn(state) == seat),
        "role": role,
        "cards": [{"role": key, "title": r.title, "full": r.full.text, "favor": r.favor.text,
                   "chosen": cards is not None and key in cards, "played": key in played,
                   "excluded": key in excluded} for key, r in ROLES.items()],
    }
