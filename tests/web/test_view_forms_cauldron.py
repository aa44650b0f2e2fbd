"""Cauldron's purchase with a discount from a card, on the buyer's phone (companion/view/forms.py:
the Pi's Market has a "Magik off the price" stepper, and the rulebook says
"Some characters may have discounts on certain purchases: check your Character card"). The
form is offered on the buyer's Market turn only; it lists every purchase the rules sell the
seat money aside, each with its full price; every item and discount it offers is the Pi's
``buy`` command, taken by the rules or refused in their words; a forged value is refused
naming the field; the server lets only the buyer send it; a Potion bought this way is then
owed to the seat's hand, as a plain purchase is."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from companion.core import Command, CompanionError, Session
from companion.games.cauldron import RULES
from companion.games.cauldron.market import cost, rule_against
from companion.view.snapshot import audience_view, seat_choices
from companion.view.forms import form_command, seat_forms
from tests.companion import cauldron_autoplay
from tests.web import tables
from tests.web.seat_moments import phone_plays, same_after, seat_pass
from ui.web.clients import Client, seat_input
from ui.web.messages import Refused


def _market() -> tuple[Session, int]:
    """The second Market turn of the seeded game below: Barb buys with 2 Magik (a Cellar and
    a Field cost 3, a basic Spell 1, a basic Potion 2)."""
    session = next(s for n, s in enumerate(_markets()) if n == 1)
    seat = session.prompt()["seat"]
    assert session.state["players"][seat]["magik"] == 2
    return session, seat


def _form(session: Session, seat: int) -> dict:
    (form,) = seat_forms(session, seat)
    assert form["form"] == "discount"
    return form


def _entry(item: str, discount: int) -> str:
    return "discount:" + json.dumps({"item": item, "discount": discount})


def _pi_buy(session: Session, seat: int, item_key: str, discount: int) -> Command:
    """What the Pi's Market sends (ui/games/cauldron/market.py ``_buy``): the offer's args,
    the Field's type or the Spell discarded, and the stepper's Magik when not 0."""
    item, _, kind = item_key.partition(":")
    args: dict = {"item": item}
    if kind:
        args["field" if item == "field" else "discard"] = kind
    if discount:
        args["discount"] = discount
    return Command("buy", session.names[seat], args)


def _markets(seed: int = 0, limit: int = 4000):
    """Every Market turn of a seeded autoplayed game (a fresh copy each, to try things on)."""
    rng = random.Random(seed)
    session = Session(RULES, cauldron_autoplay.setup_for(3))
    played: list[Command] = []
    for _ in range(limit):
        if session.over:
            return
        if session.prompt()["phase"] == "market":
            copy = Session(RULES, cauldron_autoplay.setup_for(3))
            for command in played:
                copy.execute(command)
            yield copy
        command = cauldron_autoplay.next_command(session, rng)
        session.execute(command)
        played.append(command)


def test_the_form_is_offered_to_the_buyer_on_its_market_turn_only():
    """All through a seeded game: the buyer's phone has the form exactly on its Market turns;
    no other seat, no harvest turn, no finished game ever has it (nor its server part)."""
    rng = random.Random(1)
    session = Session(RULES, cauldron_autoplay.setup_for(3))
    markets = 0
    while not session.over:
        prompt = session.prompt()
        for seat in range(len(session.names)):
            forms = [f["form"] for f in seat_forms(session, seat)]
            buyer = prompt["phase"] == "market" and prompt.get("seat") == seat
            assert forms == (["discount"] if buyer else []), (prompt, seat)
            markets += buyer
        session.execute(cauldron_autoplay.next_command(session, rng))
    assert markets > 3
    assert all(seat_forms(session, s) == [] for s in range(3))             # the game is over
    snap = tables.snapshot(session)
    assert all(part["forms"] == [] for part in snap["controls"])


def test_the_form_lists_every_purchase_sold_money_aside_with_its_full_price():
    session, seat = _market()
    form = _form(session, seat)
    assert form["title"] == "Buy with a discount from a card" and form["submit"] == "Buy"
    item, discount = form["fields"]
    options = {o["value"]: o for o in item["options"]}
    state = session.state
    for key, option in options.items():
        name = key.partition(":")[0]
        assert rule_against(state, seat, name) is None
        assert option["price"] == cost(state, seat, name)
        assert option["note"] == f"{option['price']} Magik"          # its full price
    choices = tables.snapshot(session)["controls"][seat]["choices"]
    plain = {c["choice"][4:]: c["label"] for c in choices if c["choice"].startswith("buy:")}
    assert set(plain) <= set(options)                     # every plain purchase, and more:
    for key, words in plain.items():                      # in the same words
        assert words == f"{options[key]['label']} ({options[key]['price']} Magik)"
    magik = state["players"][seat]["magik"]
    dear = set(options) - set(plain)
    assert dear and all(options[k]["price"] > magik for k in dear)    # what Magik alone lacks
    assert {k for k in options if k.startswith("field:")} == {
        f"field:{k}" for k in ("spider_web", "frog_legs", "poisonous_mushroom", "blood_crystal",
                               "snake_skin", "dragon_egg", "mandrake_root")}
    assert "advanced_potion" not in options               # not before Rituals of Power
    assert (discount["min"], discount["max"], discount["value"]) == (
        0, max(o["price"] for o in options.values()), 0)


def test_every_item_and_discount_offered_is_the_pi_s_buy_taken_or_refused_in_words():
    """At every Market turn of a seeded game, each item with each discount the form allows:
    the very command the Pi's Market sends; taken by the rules (Magik paid = price - discount,
    the same state as the Pi's) or refused naming the price or the Magik."""
    turns = 0
    for session in _markets():
        seat = session.prompt()["seat"]
        form = _form(session, seat)
        magik = session.state["players"][seat]["magik"]
        for option in form["fields"][0]["options"]:
            price = option["price"]
            for off in range(form["fields"][1]["max"] + 1):
                command, why = form_command(session, seat, _entry(option["value"], off))
                assert why == "" and command == _pi_buy(session, seat, option["value"], off)
                try:
                    events, _state = session.rules.play(session.state, command)
                except CompanionError as refusal:
                    words = str(refusal)
                    if off > price:
                        assert words.startswith(f"A discount of {off} is more than the price")
                    else:
                        assert price - off > magik and f"has {magik} Magik" in words, words
                    continue
                assert off <= price and price - off <= magik
                (bought,) = [e for e in events if e.type == "bought"]
                assert (bought.data["cost"], bought.data["discount"]) == (price - off, off)
        turns += 1
    assert turns > 3


def test_a_purchase_beyond_the_seat_s_magik_is_bought_with_a_discount_as_on_the_pi():
    session, seat = _market()
    magik = session.state["players"][seat]["magik"]
    options = _form(session, seat)["fields"][0]["options"]
    dear = next(o for o in options if o["price"] > magik)
    off = dear["price"] - magik
    command = phone_plays(session, seat, _entry(dear["value"], off))    # through the server
    pi = _pi_buy(session, seat, dear["value"], off)
    assert command == pi
    same_after(session, command, pi)
    session.execute(command, source=f"{session.names[seat]}'s phone")
    assert session.state["players"][seat]["magik"] == 0


@pytest.mark.parametrize("values, words", [
    ({"item": "field:gold"}, "item: one of field:spider_web"),
    ({"item": "field"}, "item: one of"),                  # a Field without its type
    ({"item": "advanced_potion"}, "item: one of"),        # not for sale before Rituals
    ({"item": ["cellar"]}, "item: one of"),
    ({"item": "cellar", "discount": -1}, "discount: a whole number from 0 to"),
    ({"item": "cellar", "discount": 99}, "discount: a whole number from 0 to"),
    ({"item": "cellar", "discount": True}, "discount: a whole number"),
    ({"item": "cellar", "discount": 1.0}, "discount: a whole number"),
    ({"item": "cellar", "discount": "2"}, "discount: a whole number"),
    ({"field": "spider_web"}, "discount: no field 'field'"),
    ({"discount": 1}, "item: pick one (What is bought)"),  # nothing picked: nothing bought
])
def test_a_forged_entry_is_refused_naming_the_field_and_changes_nothing(values, words):
    session, seat = _market()
    before = session.state
    command, why = form_command(session, seat, "discount:" + json.dumps(values))
    assert command is None and why.startswith(words), why
    assert session.state == before
    assert form_command(session, seat, "discount:[1]") == (
        None, "discount: the entry must be a JSON object")
    other = (seat + 1) % len(session.names)
    assert form_command(session, other, "discount:{}") == (None, "That entry is not open now")


def test_a_discount_over_the_item_s_price_is_refused_in_the_rules_words():
    session, seat = _market()
    options = _form(session, seat)["fields"][0]["options"]
    cheap = min(options, key=lambda o: o["price"])
    command, why = form_command(session, seat, _entry(cheap["value"], cheap["price"] + 1))
    with pytest.raises(CompanionError, match=f"A discount of {cheap['price'] + 1} is more "
                                             f"than the price of"):
        session.rules.accept(session.state, command)


def test_the_server_lets_only_the_buyer_send_the_entry():
    session, seat = _market()
    snap = tables.snapshot(session, 3)
    message = {"type": "choose", "choice": _entry("cellar", 1), "seen": 3, "id": 1}
    seat_input(snap, Client(ws=None, seat=seat_pass(session, seat)), seat, message)
    for other in range(len(session.names)):
        if other != seat:
            with pytest.raises(Refused, match="not 'discount:"):
                seat_input(snap, Client(ws=None, seat=seat_pass(session, other)), other, message)
    assert audience_view(snap, None)["you"] is None       # a watching page: no entry at all


def test_with_three_spells_held_a_spell_is_offered_discarding_each_kind_held():
    session, seat = _market()
    session.execute(Command("adjust", session.names[seat], {"spells": {"basic": 3}}))
    options = [o["value"] for o in _form(session, seat)["fields"][0]["options"]]
    assert "basic_spell:basic" in options and "basic_spell" not in options
    assert "basic_spell:advanced" not in options          # none held: the rules refuse it
    command, _ = form_command(session, seat, _entry("basic_spell:basic", 1))
    assert command == Command("buy", session.names[seat],
                              {"item": "basic_spell", "discard": "basic", "discount": 1})
    session.rules.accept(session.state, command)


def test_the_advanced_game_s_second_purchase_is_a_new_entry():
    """Two purchases a Market turn: the form's title says which, so the page starts the
    second from nothing (forms.js keeps what is entered only while the same form is open:
    a discount entered for the first purchase is not carried to the second)."""
    rng = random.Random(4)
    session = Session(RULES, cauldron_autoplay.setup_for(3, ["advanced"]))
    while session.prompt()["phase"] != "market":
        session.execute(cauldron_autoplay.next_command(session, rng))
    seat = session.prompt()["seat"]
    assert _form(session, seat)["title"] == "Buy with a discount from a card: purchase 1 of 2"
    cheap = min(_form(session, seat)["fields"][0]["options"], key=lambda o: o["price"])
    command, _ = form_command(session, seat, _entry(cheap["value"], cheap["price"]))
    session.execute(command)
    assert session.prompt()["seat"] == seat
    assert _form(session, seat)["title"] == "Buy with a discount from a card: purchase 2 of 2"


def test_a_potion_bought_with_a_discount_is_then_entered_on_the_seat_s_hand():
    """As the plain ``buy:basic_potion`` choice: the card drawn is owed to the seat's hand,
    which its phone then asks for (companion/view/hands.py); the same state as that choice's
    with the Pi's discount."""
    session, seat = _market()
    plain = next(c for k, _, c in seat_choices(session, seat) if k == "buy:basic_potion")
    command, _ = form_command(session, seat, _entry("basic_potion", 1))
    assert command == Command("buy", plain.player, dict(plain.args, discount=1))
    held = session.state["players"][seat]["owed"]
    session.execute(command, source=f"{session.names[seat]}'s phone")
    you = audience_view(tables.snapshot(session), seat)["you"]
    assert you["hand"]["owed"] == [*held, "basic"]


@settings(max_examples=60, deadline=None)
@given(seed=hs.integers(0, 10_000), nth=hs.integers(0, 12), pick=hs.randoms())
def test_in_random_markets_an_entry_is_the_pi_s_buy_and_judged_by_the_rules(seed, nth, pick):
    """A random Market turn of a random game, a random item and discount within the form:
    the Pi's buy, which the rules take or refuse in words, never an exception; within the
    price and the Magik it is always taken."""
    session = None
    for n, session in enumerate(_markets(seed)):
        if n == nth:
            break
    if session is None:
        return
    seat = session.prompt()["seat"]
    form = _form(session, seat)
    option = pick.choice(form["fields"][0]["options"])
    off = pick.randint(0, form["fields"][1]["max"])
    command, why = form_command(session, seat, _entry(option["value"], off))
    assert command == _pi_buy(session, seat, option["value"], off), why
    fits = off <= option["price"] and option["price"] - off <= \
        session.state["players"][seat]["magik"]
    try:
        session.rules.accept(session.state, command)
    except CompanionError as refusal:
        assert not fits and str(refusal)
    else:
        assert fits
