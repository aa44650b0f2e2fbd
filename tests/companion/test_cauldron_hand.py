"""Cauldron: a seat's potion cards in hand with what each needs, as its phone shows
them: brewable now, what the pool lacks, what the Cellars hold of it; only in its own view."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as hs

from companion.core import Session
from companion.core.narrator import Narrator
from companion.games.cauldron import RULES
from companion.games.cauldron import potions as pt
from companion.games.cauldron.hand import card_now, missing, seat_cards
from companion.view.snapshot import audience_view, table_view
from tests.companion import cauldron_autoplay as ca


def player(pool, cellars=(), magik=12):
    return {"name": "Anna", "pool": dict(pool), "cellars": list(cellars), "magik": magik}


def potion(parts, name="Frog Broth", kind="basic"):
    return {"name": name, "kind": kind, "yield": 5, "ingredients": list(parts), "quick": False,
            "spell": False}


def test_a_card_the_pool_pays_for_can_be_brewed_now():
    card = card_now(player({"frog_legs": 2, "spider_web": 1}),
                    potion(["frog_legs", "frog_legs", "spider_web"]))
    assert card["can_brew"] and card["missing"] == {} and card["why_not"] == ""
    assert card["recipe"] == "Frog Legs, Frog Legs, Spider Web"


def test_what_is_missing_is_counted_by_kind_and_any():
    gap = missing(player({"frog_legs": 1}), potion(["frog_legs", "frog_legs", "spider_web",
                                                    "any"]))
    assert gap == {"pool": {"frog_legs": 1, "spider_web": 1, "any": 1}, "cellar": {}}
    card = card_now(player({"frog_legs": 1}), potion(["frog_legs", "spider_web"]))
    assert not card["can_brew"] and "lacks 1 Spider Web" in card["why_not"]


def test_a_card_the_cellar_completes_says_so():
    card = card_now(player({"frog_legs": 1}, cellars=["spider_web"]),
                    potion(["frog_legs", "spider_web"]))
    assert not card["can_brew"] and card["after_cellar"]
    assert card["from_cellar"] == {"spider_web": 1}
    assert "move it to the pool first" in card["why_not"]


def test_advanced_alchemy_refuses_a_two_ingredient_card_from_25_magik():
    card = card_now(player({"frog_legs": 2}, magik=25), potion(["frog_legs", "frog_legs"]))
    assert not card["can_brew"] and card["why_not"].startswith("Advanced Alchemy")
    assert not card["after_cellar"]


@settings(max_examples=8)
@given(seed=hs.integers(0, 10**6), n=hs.integers(2, 4))
def test_the_hand_agrees_with_the_rules_at_every_step_and_stays_with_its_seat(seed, n):
    rng = random.Random(seed)
    session = Session(RULES, ca.setup_for(n))
    narrator = Narrator(session)
    for k in range(400):
        if session.over:
            break
        session.execute(ca.next_command(session, rng))
        if k % 5:
            continue
        snap = table_view(session, 1, narrator)
        for seat in range(n):
            mine = seat_cards(session.state, seat)
            p = session.state["players"][seat]
            assert mine["count"] == len(p["potions"]) + len(p["owed"])
            for card, printed in zip(mine["cards"], p["potions"]):
                refused = pt.zone_problem(p, printed) or pt.lacks(p, printed)
                assert card["can_brew"] == (refused is None)
                assert bool(card["missing"]) == (pt.lacks(p, printed) is not None)
            assert audience_view(snap, seat)["you"]["hand"] == mine
            names = {c["name"] for c in p["potions"]}
            for other in [None] + [s for s in range(n) if s != seat]:
                view = audience_view(snap, other)
                hand = (view["you"] or {}).get("hand") or {"cards": []}
                assert not names & {c["name"] for c in hand["cards"]}
                # the public part says how many, never which
                assert all(name not in line for s in view["seats"] for line in s["lines"]
                           for name in names)
