"""Privacy is a rule of the data: every audience's snapshot (the watching page, each
seat's phone), the Pi's table screen (the prompt and summary it draws from), the log and the
club's live status are built at every step of generated Witch's Brew games with hands, and
none changes when another seat's unplayed cards are swapped for others: nothing of a hand
reaches anyone but its own seat. A seat's own view does hold its hand (so the check can fail)."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as hs

from companion.club.status import status_of
from companion.core import Session
from companion.core.narrator import Narrator
from companion.games import get_rules
from companion.games.witchs_brew import hands as hd
from companion.games.witchs_brew.roles import ROLES
from companion.view.snapshot import PRIVATE, audience_view, table_view
from tests.support.hands_autoplay import hand_command

NAMES = ["Anna", "Barb", "Carl", "Dora"]


def swapped(state: dict, seat: int, rng: random.Random) -> dict | None:
    """The same state with ``seat``'s unplayed cards swapped for other roles it could hold
    (keeping whether it holds the role in play, so the table's answers stay as they were)."""
    cards = hd.hand(state, seat)
    if cards is None:
        return None
    played = state["players"][seat]["roles_played"]
    role = state["role"]
    keep = [r for r in cards if r in played or r == role]
    pool = [r for r in ROLES if r not in cards and r not in played and r != role
            and r not in (state["excluded"] or [])]
    need = 5 - len(keep)
    if need == 0 or len(pool) < need:
        return None
    other = copy.deepcopy(state)
    other["hands"][str(seat)] = keep + rng.sample(pool, need)
    return other


def seen_by_all_but(session: Session, seat: int, narrator: Narrator) -> list:
    """Everything that must not depend on ``seat``'s hand: each other audience's view, the
    Pi's prompt and summary, the club's live status."""
    snap = table_view(session, 1, narrator)
    out = [session.prompt(), session.summary(), status_of(snap)]
    for audience in [None] + [s for s in range(len(session.names)) if s != seat]:
        out.append(audience_view(snap, audience))
    return json.loads(json.dumps(out))


@settings(max_examples=6)
@given(n=hs.integers(3, 4), variant=hs.booleans(), seed=hs.integers(0, 10**6),
       with_hands=hs.sets(hs.integers(0, 3), min_size=1))
def test_no_audience_but_its_own_seat_depends_on_a_hand(n, variant, seed, with_hands):
    setup = {"game": "witchs_brew", "players": NAMES[:n]}
    if variant:
        setup["variants"] = ["excluded_roles"]
    seats = {s for s in with_hands if s < n} or {0}
    rng = random.Random(seed)
    session = Session(get_rules("witchs_brew"), setup)
    narrator = Narrator(session)
    checked = 0
    for _ in range(400):
        if session.over:
            break
        session.execute(hand_command(session, rng, seats))
        real = session.state
        for seat in seats:
            other = swapped(real, seat, rng)
            if other is None:
                continue
            before = seen_by_all_but(session, seat, narrator)
            own = audience_view(table_view(session, 1, narrator), seat)["you"]["hand"]
            assert own["left"] == [r for r in hd.hand(real, seat)
                                   if r not in real["players"][seat]["roles_played"]]
            session._state = other          # the counterfactual: nothing else changes
            try:
                assert seen_by_all_but(session, seat, narrator) == before, seat
                swapped_own = audience_view(table_view(session, 1, narrator), seat)["you"]["hand"]
                assert swapped_own != own   # its own seat does see the difference
            finally:
                session._state = real
            checked += 1
    assert checked > 0


def test_the_hands_are_private_parts_of_the_snapshot():
    session = Session(get_rules("witchs_brew"), {"players": NAMES[:3]})
    rng = random.Random(1)
    for _ in range(3):
        session.execute(hand_command(session, rng, {0, 1, 2}))
    snap = table_view(session, 1, Narrator(session))
    assert "hands" in PRIVATE
    watcher = audience_view(snap, None)
    assert "hands" not in watcher and watcher["you"] is None
    text = json.dumps(watcher)
    for seat in range(3):
        mine = audience_view(snap, seat)
        assert mine["you"]["hand"]["left"] == hd.hand(session.state, seat)
        for other in range(3):
            if other != seat:
                assert json.dumps(audience_view(snap, other)["you"]["hand"]) != json.dumps(
                    mine["you"]["hand"])
    assert '"left"' not in text and "chose a hand" in text


def _snap(game_rules, setup, offered=True):
    session = Session(get_rules(game_rules), setup)
    return session, table_view(session, 1, Narrator(session), hands_offered=offered)


def test_a_phone_may_send_a_hand_only_when_its_own_part_says_so():
    from companion.view.hands import MAX_KEY, enters_hand

    session, snap = _snap("witchs_brew", {"players": NAMES[:3]})
    assert enters_hand(snap, 0, "hand:witch,druid,wizard,warlock,alchemist") is None
    assert enters_hand(snap, 0, "card:{}") == "choice: this game has no hand to enter"
    assert enters_hand(snap, 0, "hand:" + "x" * MAX_KEY).startswith("choice: a hand is at most")
    _, off = _snap("witchs_brew", {"players": NAMES[:3]}, offered=False)
    assert enters_hand(off, 0, "hand:witch") == "choice: no hand to choose now"
    session.execute(hand_command(session, random.Random(0), {0}))
    snap = table_view(session, 2, Narrator(session))
    assert enters_hand(snap, 0, "hand:witch").startswith("choice: Anna already chose a hand")


@settings(max_examples=200)
@given(game=hs.sampled_from(["witchs_brew", "cauldron"]),
       body=hs.one_of(hs.text(max_size=60), hs.builds(json.dumps, hs.recursive(
           hs.none() | hs.booleans() | hs.integers() | hs.text(max_size=8),
           lambda inner: hs.lists(inner, max_size=4) | hs.dictionaries(
               hs.sampled_from(["name", "kind", "yield", "ingredients", "quick", "spell", "x"]),
               inner, max_size=6), max_leaves=12))))
def test_whatever_a_phone_sends_as_a_hand_is_refused_in_words_or_played(game, body):
    """Generated hand keys (any text, any JSON): the command they stand for is refused with a
    RuleViolation that changes nothing, or taken; nothing else is ever raised."""
    from companion.core.errors import CompanionError
    from companion.view.hands import HAND_KEYS
    from companion.view.hands import hand_command as command_of
    from companion.view.hands import refused_privately
    from tests.companion import cauldron_autoplay as ca

    setup = ca.setup_for(3) if game == "cauldron" else {"players": NAMES[:3]}
    session = Session(get_rules(game), setup)
    before = copy.deepcopy(session.state)
    command = command_of(session, 0, HAND_KEYS[game] + body)
    why = refused_privately(session, command)
    assert session.state == before
    if not why:
        try:
            session.execute(command)
        except CompanionError as refusal:     # accepted on trial: never refused after
            raise AssertionError(refusal)
