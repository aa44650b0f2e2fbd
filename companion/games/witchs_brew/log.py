"""Witch's Brew steps in the table's words, for the log the table reads and for undo to say what
it took back: "Carl claimed the Witch", "Round over: Dora is the Alchemist". Seats by name, roles
by their card titles, drops by colour; never an id or a command's name."""

from __future__ import annotations

from typing import Any, Sequence

from companion.core.model import Command, Event
from companion.games.witchs_brew.roles import ROLES, amount

ANSWERS = {"claim": "claimed", "so_be_it": 'said "So be it!" to', "pass": "passed on"}


def _role(key: Any) -> str:
    role = ROLES.get(key) if isinstance(key, str) else None
    return f"the {role.title}" if role else "the role"


def _who(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "A player"


def _counts(deltas: dict[str, Any]) -> str:
    """``{"green": -1, "gold": 2}`` -> "-1 green drop, +2 gold"."""
    return ", ".join(("+" if n > 0 else "") + amount(n, counter)
                     for counter, n in deltas.items() if n)


def _part(kind: Any) -> str:
    return "full action" if kind == "action" else "favor"


def short_words(short: Any) -> str:
    """What the supply cut short, as the log and the screen say it: "the supply was short:
    1 of the 2 vials on the card"."""
    if not isinstance(short, list):
        return ""
    said = [f"{s.get('got')} of the {amount(s.get('printed', 0), s.get('counter', ''))}"
            for s in short if isinstance(s, dict)]
    return f"the supply was short: {' and '.join(said)} on the card" if said else ""


def _potion(potion: Any) -> str:
    if not isinstance(potion, dict):
        return ""
    raven = " with a raven" if potion.get("raven") else ""
    stack = str(potion.get("stack", "")).replace("_", " ")
    return f"a {potion.get('points')}-point potion{raven} from the {stack}"


def _changes(names: Sequence[str], changes: dict[str, Any], actor: Any) -> str:
    """Counters that changed, by seat; the acting seat's own without its name again."""
    parts = []
    for seat, deltas in changes.items():
        said = _counts(deltas) if isinstance(deltas, dict) else ""
        if said:
            parts.append(said if str(seat) == str(actor) else f"{_who(names, int(seat))} {said}")
    return "; ".join(parts)


def event_words(event: Event, names: Sequence[str], role: Any = None) -> str:
    d = event.data
    who = _who(names, d.get("seat"))
    kind = event.type
    if kind == "role_played":
        return f"{who} played {_role(d.get('role'))}"
    if kind == "card_forfeited":
        # short enough for the game bar's two lines: the prompt says who plays another
        line = (f"{who} laid {_role(d.get('role'))} face down: a forgotten card, played "
                "earlier this set")
        then = d.get("then", d.get("seat"))
        return line if then == d.get("seat") else f"{line}; {_who(names, then)} begins"
    if kind == "hand_chosen":   # never which cards: the log is the table's, the hand is not
        return f"{who} chose a hand for this set"
    if kind == "answered":
        answer = d.get("answer")
        if answer == "pass" and d.get("hand"):
            return f"{who}: pass"   # as the table would have heard it, said by the companion
        if answer == "pass":
            return f"{who} passed"
        return f"{who} {ANSWERS.get(answer, 'answered')} {_role(role)}"
    if kind == "effect_applied":
        what = "" if d.get("kind") == "action" else " favor"
        said = ", ".join(p for p in (_potion(d.get("potion")),
                                     _changes(names, d.get("changes") or {}, d.get("seat"))) if p)
        short = short_words(d.get("short"))
        short = f" ({short})" if short else ""
        return f"{who}'s {_role(d.get('role'))[4:]}{what}: {said or 'nothing changed'}{short}"
    if kind == "effect_skipped":
        what = "" if d.get("kind") == "action" else " favor"
        return (f"{who}'s {_role(d.get('role'))[4:]}{what} comes to nothing: "
                f"{d.get('reason', '')}")
    if kind == "effect_abstained":
        return f"{who} declined the {_part(d.get('kind'))} of {_role(d.get('role'))}"
    if kind == "gain_declined":
        mine = (d.get("changes") or {}).get(str(d.get("seat")), {})
        back = ", ".join(amount(-n, c) for c, n in mine.items() if n) if isinstance(
            mine, dict) else ""
        return (f"{who} declined the {_part(d.get('kind'))} of {_role(d.get('role'))}"
                + (f": {back} back to the supply" if back else ""))
    if kind == "adjusted":
        said = _counts(d.get("changes") or {})
        if "remove_potion" in d:
            said = ", ".join(p for p in (said, "a potion card put back") if p)
        if d.get("potion"):
            said = ", ".join(p for p in (said, _potion(d["potion"])) if p)
        return f"Corrected for {who}: {said}"
    if kind == "roles_excluded":
        roles = ", ".join(_role(r)[4:] for r in d.get("roles", []))
        return f"Set aside this set: {roles}"
    if kind == "round_resolved":
        holder = d.get("holder")
        if holder is None:
            return f"Round over: nobody is {_role(d.get('role'))}"
        return f"Round over: {_who(names, holder)} is {_role(d.get('role'))}"
    if kind == "set_ended":
        return f"Set {d.get('set')} over"
    if kind == "game_over":
        winners = " and ".join(d.get("winners", [])) or "nobody"
        return f"Game over: {winners} {'win' if len(d.get('winners', [])) > 1 else 'wins'}"
    return kind.replace("_", " ").capitalize()


def describe(command: Command, events: Sequence[Event], names: Sequence[str],
             memo: dict[str, Any]) -> list[str]:
    """One line per event, the command's first. ``memo`` keeps the role in play across the
    game's steps, so an answer names it ("Carl claimed the Witch")."""
    out = []
    for event in events:
        if event.type == "role_played":
            memo["role"] = event.data.get("role")
        out.append(event_words(event, names, memo.get("role")))
    return out or [f"{command.player or 'The table'} played"]


#: The events a round opens with: the set's roles set aside, a role played or laid face down.
OPENS = {"roles_excluded", "role_played", "card_forfeited"}


def chapter(events: Sequence[Event], names: Sequence[str], memo: dict[str, Any]) -> str | None:
    """The log's heading a step opens ("Set 1, round 2: Anna leads"), or None when it goes on
    under the one before. A round's heading waits for the step that opens it, so the actions
    and favors that follow "Round over" stay under the round they resolve."""
    at = memo.setdefault("at", (1, 1))
    heading = None
    if memo.get("shown") != at and ("shown" not in memo or any(e.type in OPENS for e in events)):
        lead = next((e.data.get("seat") for e in events if e.type == "role_played"), None)
        heading = f"Set {at[0]}, round {at[1]}" + (
            f": {_who(names, lead)} leads" if lead is not None else "")
        memo["shown"] = at
    for event in events:
        if event.type == "round_resolved":
            memo["at"] = (memo["at"][0], memo["at"][1] + 1)
        elif event.type == "set_ended":
            memo["at"] = (memo["at"][0] + 1, 1)
    return heading
