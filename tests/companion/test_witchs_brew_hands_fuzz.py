"""Witch's Brew with hands under generated play (Hypothesis): any table, any seats with hands,
the variant or not. A seat with a hand plays exactly its 5 cards each set and never passes on
one it holds, every seat without the announced role was passed by the companion (automatic),
nobody's hand is in the summary while the game is played, the record holds every hand at the
end, undo then redo is the identity, and the exported script replays to the identical state."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as hs

from companion.games.witchs_brew import hands as hd
from companion.script import export_lines, replay
from tests.support.hands_autoplay import hand_command, play_with_hands

NAMES = ["Anna", "Barb", "Zoë", "Émile", "Carl", "Fay"]


@hs.composite
def tables(draw):
    n = draw(hs.integers(3, 6))
    setup = {"game": "witchs_brew", "players": NAMES[:n]}
    if n <= 4 and draw(hs.booleans()):
        setup["variants"] = ["excluded_roles"]
    seats = draw(hs.sets(hs.integers(0, n - 1), min_size=1))
    return setup, seats, draw(hs.integers(0, 10**6))


@settings(max_examples=25)
@given(tables())
def test_generated_games_with_hands_keep_the_rules(table):
    setup, seats, seed = table
    session, commands = play_with_hands(setup, seats, seed=seed)
    record = session.summary()["hands"]
    assert record and all(set(r["hands"]) == {session.names[s] for s in seats} for r in record)
    # every set: each seat with a hand played exactly its hand
    played_by_set: dict[tuple[int, str], list[str]] = {}
    set_no = 1
    for step in session.done_steps():
        for e in step.events:
            if e.type == "set_ended":
                set_no += 1
            seat = e.data.get("seat")
            if e.type == "role_played" or e.type == "card_forfeited" or (
                    e.type == "answered" and e.data["answer"] in ("claim", "so_be_it")):
                played_by_set.setdefault((set_no, session.names[seat]), []).append(
                    e.data.get("role") or _role_at(session, step, e))
            if e.type == "answered" and e.data.get("hand"):
                assert e.automatic
    for r in record:
        for name, roles in r["hands"].items():
            assert sorted(played_by_set[(r["set"], name)]) == sorted(roles), (r["set"], name)
    # no forgotten card by a seat with a hand
    assert not any(e.type == "card_forfeited" and e.data["seat"] in seats
                   for st in session.done_steps() for e in st.events)
    again = replay(export_lines(session)).session
    assert again.state == session.state


def _role_at(session, step, event):
    """The role in play when ``event`` (an answer) happened: the step's or the round's."""
    for e in step.events:
        if e.type == "role_played":
            return e.data["role"]
    state = session.rules.setup(session.setup)
    for st in session.done_steps():
        if st is step:
            return state["role"]
        state = session.rules.fold(state, st.events)
    raise AssertionError("step not found")


@settings(max_examples=25)
@given(tables())
def test_undo_then_redo_is_the_identity_and_hands_stay_out_of_the_summary(table):
    setup, seats, seed = table
    from companion.core import Session
    from companion.games import get_rules

    rng = random.Random(seed)
    session = Session(get_rules("witchs_brew"), setup)
    for _ in range(60):
        if session.over:
            break
        session.execute(hand_command(session, rng, seats))
        summary = session.summary()
        # the record holds the hands once the game is over (the step that ended it included)
        assert (summary["hands"] is not None) == session.over
        assert set(summary["hands_chosen"]) == {session.names[int(k)]
                                                for k in session.state["hands"]}
        before = session.state
        session.undo()
        session.redo()
        assert session.state == before
        for seat in seats:
            if hd.hand(session.state, seat) is not None and session.state["role"] is not None:
                assert session.prompt()["phase"] != "answer" or session.prompt()["seat"] != seat \
                    or hd.holds(session.state, seat, session.state["role"])
