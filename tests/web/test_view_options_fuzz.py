"""The choices and entries a seat makes on its phone, in random states of each game: every
option a phone offers is the seat's and the rules take it, and whatever a phone enters is
refused naming the field or judged by the rules (companion/view/options.py,
companion/view/forms.py)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from companion.core import Command, Session
from companion.view.snapshot import seat_choices
from companion.view.forms import form_command
from tests.companion import quest_autoplay
from tests.support import autoplay
from tests.web import tables
from tests.web.seat_moments import brew_until, seat_pass, waiting
from ui.web.clients import Client, seat_input
from ui.web.messages import Refused


# -- every option, in random states of each game -------------------------------------------------
def _walk(game: str, seed: int, steps: int) -> Session:
    rng = random.Random(seed)
    if game == "witchs_brew":
        session = Session(autoplay.get_rules("witchs_brew"), dict(tables.WB_SETUP))
        move = lambda: session.execute(autoplay.next_command(session, rng))   # noqa: E731
    elif game == "cauldron":
        from companion.games.cauldron import RULES
        from tests.companion import cauldron_autoplay

        session = Session(RULES, cauldron_autoplay.setup_for(3))
        move = lambda: session.execute(cauldron_autoplay.next_command(session, rng))  # noqa: E731
    else:
        session = quest_autoplay.new()

        def move():
            item = quest_autoplay.random_command(session.state, rng)
            session.execute(item) if isinstance(item, Command) else session.handle_input(item)
    for _ in range(steps):
        if session.over:
            break
        move()
    return session


def _in_bounds(form: dict, rng: random.Random, session: Session, seat: int) -> dict:
    """Random values of a form within what its fields say (a stack's least and ravens kept;
    a discount within the picked purchase's price, and at least what the seat's Magik lacks)."""
    values = {}
    for field in form["fields"]:
        if "options" in field:
            values[field["name"]] = rng.choice(field["options"])["value"]
    for field in form["fields"]:
        if "options" in field:
            continue
        stack = next((o for o in form["fields"] if o["name"] == field["name"].replace(
            "points", "stack")), None)
        picked = next((o for o in stack["options"] if o["value"] == values[stack["name"]]),
                      None) if stack and stack is not field else None
        low = picked["least"] if picked and field["name"].endswith("points") else field["min"]
        values[field["name"]] = rng.randint(low, min(field["max"], low + 4))
        if field["name"].endswith("points") and picked and \
                values[field["name"].replace("points", "raven")] not in picked["ravens"]:
            values[field["name"].replace("points", "raven")] = picked["ravens"][0]
    if form["form"] == "discount":
        price = next(o["price"] for o in form["fields"][0]["options"]
                     if o["value"] == values["item"])
        short = price - session.state["players"][seat]["magik"]
        values["discount"] = rng.randint(max(0, short), price)
    if form["form"] == "table":                 # one seat's change at a time: the supply
        changed = [k for k in values if k[0].isdigit() and values[k]]   # is shared by all
        for k in changed[1:]:
            values[k] = 0
    return values


@settings(max_examples=80, deadline=None)
@given(game=hs.sampled_from(["witchs_brew", "cauldron", "quest"]),
       seed=hs.integers(0, 10_000), steps=hs.integers(0, 160), pick=hs.randoms())
def test_every_option_a_phone_offers_is_the_seat_s_and_the_rules_take_it(game, seed, steps, pick):
    """Every choice and entry offered: keys unique, the seat's own player (a team's move only on
    its turn), accepted by the server for that seat alone, and taken by the rules when played;
    an entry filled in anywhere within its bounds too."""
    session = _walk(game, seed, steps)
    snap = tables.snapshot(session, 5)
    turn = session.prompt().get("seat")
    for seat in range(len(session.names)):
        part = snap["controls"][seat]
        keys = [c["choice"] for c in part["choices"]]
        assert len(keys) == len(set(keys))
        offers = [(k, c) for k, _, c in seat_choices(session, seat) if k in keys]  # no button's
        assert len(offers) == len(keys)
        offers += [(f["form"] + ":" + json.dumps(_in_bounds(f, pick, session, seat)), None)
                   for f in part["forms"]]
        for key, command in offers:
            if command is None:
                command, why = form_command(session, seat, key)
                assert command is not None, why
            assert command.player in (session.names[seat], None)
            if command.player is None:
                assert seat == turn
            session.rules.accept(session.state, command)      # a RuleViolation fails the test
            for other in range(len(session.names)):
                client = Client(ws=None, seat=seat_pass(session, other))
                message = {"type": "choose", "choice": key, "seen": 5, "id": 1}
                theirs = [c["choice"] for c in snap["controls"][other]["choices"]]
                if other == seat or key in theirs:     # its own choice of the same words
                    seat_input(snap, client, other, message)
                else:
                    with pytest.raises(Refused):
                        seat_input(snap, client, other, message)




_JSON = hs.recursive(hs.none() | hs.booleans() | hs.integers(-10**6, 10**6) | hs.text(max_size=8),
                     lambda inner: hs.lists(inner, max_size=3)
                     | hs.dictionaries(hs.text(max_size=8), inner, max_size=3), max_leaves=8)
_FIELDS = hs.sampled_from(["stack", "points", "raven", "pay.red", "pay.green", "0.gold",
                           "1.vials", "potion.stack", "potion.points", "item", "discount",
                           "x", ""])
_ITEMS = hs.sampled_from(["cellar", "field:spider_web", "field:gold", "basic_potion", "field",
                          "advanced_potion", "basic_spell:advanced", ""])


@settings(max_examples=200, deadline=None)
@given(form=hs.sampled_from(["brew", "table", "discount"]),
       body=hs.dictionaries(_FIELDS, _JSON | _ITEMS, max_size=5).map(json.dumps)
       | hs.fixed_dictionaries({"item": _ITEMS, "discount": hs.integers(-2, 40)}).map(json.dumps)
       | hs.text(max_size=40))
def test_whatever_a_phone_enters_is_refused_naming_the_field_or_judged_by_the_rules(form, body):
    """Generated garbage in an entry (Witch's Brew's brew and card read aloud, Cauldron's
    purchase with a discount): never an exception out of the app's side, only a refusal that
    names the form or a field, or a command the rules take or refuse in their words."""
    from companion.core.errors import CompanionError

    if form == "discount":
        session = tables.cauldron_market()
        seat = session.prompt()["seat"]
    else:
        session, seat = brew_until(waiting(form))
    command, why = form_command(session, seat, f"{form}:{body}")
    if command is None:
        assert why.startswith((form, "stack", "points", "raven", "pay.", "potion.", "item")) \
            or why[0].isdigit(), why
        return
    try:
        session.rules.accept(session.state, command)
    except CompanionError as refusal:
        assert str(refusal)
