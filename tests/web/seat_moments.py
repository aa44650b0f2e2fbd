"""Moments of real games where a seat's phone has a choice or an entry to make
(test_view_options*.py, test_view_forms_cauldron.py, test_browser_choices.py), and what the
server and the Pi make of what the phone sends."""

from __future__ import annotations

import random

from companion.core import Command, Session
from companion.view.snapshot import audience_view, seat_choices
from companion.view.forms import form_command
from tests.companion import quest_autoplay
from tests.support import autoplay
from tests.web import tables
from ui.web.clients import Client, seat_input
from ui.web.passes import SeatPass


def seat_pass(session: Session, seat: int) -> SeatPass:
    name = session.names[seat]
    return SeatPass("t" * 32, name.lower(), name)


def fresh(session: Session) -> Session:
    again = Session(session.rules, session.setup)
    for step in session.done_steps():
        again.execute(step.command, source=step.source)
    return again


def brew_until(test, seed: int = 2, limit: int = 3000) -> tuple[Session, int]:
    """A Witch's Brew game played by the autoplay until ``test(session)`` finds its seat."""
    session, rng = Session(autoplay.get_rules("witchs_brew"), dict(tables.WB_SETUP)), \
        random.Random(seed)
    for _ in range(limit):
        seat = test(session)
        if seat is not None:
            return session, seat
        session.execute(autoplay.next_command(session, rng))
    raise AssertionError("the autoplay never reached that moment")


def waiting(kind: str):
    from companion.games.witchs_brew import state as st
    from companion.games.witchs_brew.flow import effect_of

    def test(session):
        state = session.state
        if st.phase(state) == "resolve" and effect_of(state["pending"][0]).kind == kind:
            return st.turn(state)
        return None
    return test


def quest_until(phase: str, seed: int = 3, spell: str | None = None,
                 blocked: bool = False) -> Session:
    session, rng = quest_autoplay.new(), random.Random(seed)
    for _ in range(4000):
        if session.over:
            session, rng = quest_autoplay.new(), random.Random(rng.random())
        prompt = session.prompt()
        if prompt["phase"] == phase and (spell is None or session.state["spell"]["name"] == spell) \
                and (phase != "magic" or session.state["spell"]["rolls"]) \
                and (session.state["obstacles"] or not blocked):
            return session
        if prompt["phase"] == "announce" and spell is not None:
            session.execute(Command("announce_spell", args={"spell": spell}))
            continue
        item = quest_autoplay.random_command(session.state, rng)
        session.execute(item) if isinstance(item, Command) else session.handle_input(item)
    raise AssertionError(f"the autoplay never reached {phase}")


def phone_plays(session: Session, seat: int, key: str):
    """What the server and the app do with a seat's choice: checked against the seat's part
    of the snapshot, then the command found again on the table (ui/table/phones.py)."""
    snap = tables.snapshot(session, 7)
    client = Client(ws=None, seat=seat_pass(session, seat))
    event = seat_input(snap, client, seat, {"type": "choose", "choice": key, "seen": 7, "id": 1})
    assert (event.kind, event.id, event.source, event.seat, event.seen) == \
        ("choice", f"seat{seat + 1}.{key}", f"{session.names[seat]}'s phone", seat, 7)
    found = [c for k, _, c in seat_choices(session, seat) if k == key]
    if found:
        (command,) = found
        return command
    command, why = form_command(session, seat, key)
    assert command is not None, why
    return command


def same_after(session: Session, phone: Command, pi: Command) -> None:
    a, b = fresh(session), fresh(session)
    a.execute(phone, source="Barb's phone")
    b.execute(pi, source="touch")
    assert a.state == b.state


def only_seat(session: Session, seat: int, prefix: str) -> list[dict]:
    snap = tables.snapshot(session)
    mine = [c for c in snap["controls"][seat]["choices"] if c["choice"].startswith(prefix)]
    for other, part in enumerate(snap["controls"]):
        if other != seat:
            assert not [c for c in part["choices"] if c["choice"].startswith(prefix)]
            assert not part["forms"]
    assert audience_view(snap, None)["you"] is None       # a watching page: no buttons at all
    return mine

