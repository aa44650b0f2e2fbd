"""What a phone's input becomes on the table's main thread: a command of the phone's own seat,
made against one version of the table, or nothing.

The phones' server checks a press against the snapshot it holds when the press arrives, but
the table plays it later, on the main thread, after whatever the inbox held before it. Read
there as a bare input, a phone's die was "the die the game asks for", whoever it was asked of:
a double tap on Anna's die at Cauldron's turn-order roll played Anna's roll, then Dora's, "from
Anna's phone"; a pass that reached the rules after the table had moved on was judged against a
table its phone never saw. So a phone's input (:class:`PhoneInput`) carries its seat and the
number of the snapshot its page showed (``seen``), and :func:`phone_command` is the one place
that turns it into a command:

- only while the table is still at that snapshot (``version``: the newest the app published);
  otherwise it is refused in words ("the table moved on"), and nothing is played;
- only what that seat's own controls offer now (``companion.view.snapshot.seat_controls``, the same
  that drew its buttons), rebuilt from the table as it is, never a press for the seat the game
  happens to await;
- and only a command the table counts as that seat's (:func:`seat_of_command`).

Pure (no Kivy, no aiohttp): the app's drain and the tests call the same function.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.engine import Session
from companion.core.errors import RuleViolation
from companion.core.model import Command, InputEvent


@dataclass(frozen=True)
class PhoneInput(InputEvent):
    """A seat's phone's die, press, choice or form: ``seat`` (0-based, where its player sat
    when the server checked it), ``player`` (the pass's player as the table names them),
    ``seen`` (the snapshot the page showed) and ``press`` (the press's own key: the page's id
    under its link's token, so a resend is known for what it is)."""

    seat: int = -1
    player: str = ""
    seen: int = -1
    press: str = ""


class MovedOn(RuleViolation):
    """The table is no longer at the snapshot the phone pressed on: nothing was played."""


def moved_on_words(event: PhoneInput, label: str = "") -> str:
    what = label or "that press"
    return (f"The table moved on before {what} was played: it was not played. Look at the "
            f"table as it is now, then press again if you still want to")


def seat_of_command(session: Session, command: Command) -> int | None:
    """The seat a command is played for: its player's, or for a command that names no player
    (Cauldron Quest's team) the seat whose turn it is now; None for the table's own."""
    names = session.names
    if command.player is not None:
        from companion.core.values import seat_of

        return seat_of(names, command.player)
    if session.rules.cooperative:
        seat = session.prompt().get("seat")
        return seat if isinstance(seat, int) else None
    return None


def phone_command(session: Session | None, event: PhoneInput, version: int) -> Command:
    """The command ``event`` stands for, for its own seat, on the table now; RuleViolation
    (MovedOn when the table is no longer at ``event.seen``) names why nothing is played.
    Forms and hands are found by the callers' own helpers (``found``), then judged here too."""
    from companion.core.values import seat_of
    from companion.view.snapshot import seat_controls

    if session is None:
        raise RuleViolation("No game at the table now")
    if event.seen != version:
        raise MovedOn(moved_on_words(event))
    seat = seat_of(session.names, event.player) if event.player else None
    if seat is None or seat != event.seat:
        raise MovedOn(f"{event.player or 'That player'} is not in that seat now: nothing was "
                      "played")
    if session.over:
        raise RuleViolation("The game is over: nothing to press")
    controls = seat_controls(session, seat)
    name = session.names[seat]
    if event.kind == "button":
        button = event.id.partition(".")[2]
        if event.id != f"seat{seat + 1}.{button}" or \
                button not in [b["button"] for b in controls["buttons"]]:
            raise RuleViolation(f"{name}'s buttons cannot do that now")
        command = session.rules.map_input(session.state, InputEvent("button", event.id))
    elif event.kind == "die":
        faces = {d["die"]: d["faces"] for d in controls["dice"]}
        if event.value not in faces.get(event.id, ()):
            raise RuleViolation(f"The game asks {name} for no such die now")
        command = session.rules.map_input(session.state, InputEvent("die", event.id,
                                                                    event.value))
    elif event.kind == "choice":
        command = choice_command(session, seat, event.id.partition(".")[2])
    else:
        raise RuleViolation("A phone sends a press, a die or a choice")
    if command is None or seat_of_command(session, command) != seat:
        raise RuleViolation(f"That is not {name}'s to press now: nothing was played")
    return command


def choice_command(session: Session, seat: int, key: str) -> Command:
    """A choice the Pi's screen offers ``seat`` now, an entry it filled in, or its own hand."""
    from companion.view.snapshot import seat_choices
    from companion.view.forms import form_command, is_form
    from companion.view.hands import HAND_KEYS, hand_command

    found = next((c for k, _, c in seat_choices(session, seat) if k == key), None)
    if found is None and is_form(session.rules.name, key):   # an entry the phone filled in
        found, why = form_command(session, seat, key)
        if found is None:
            raise RuleViolation(why)
    if found is None and key.startswith(tuple(HAND_KEYS.values())):
        found = hand_command(session, seat, key)
        if found is None:
            raise RuleViolation("That hand is not one the table can read")
    if found is None:
        raise RuleViolation(f"That choice is not offered now: {session.prompt().get('text', '')}")
    return found
