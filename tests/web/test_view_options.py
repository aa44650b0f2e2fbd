"""The choices and entries a seat makes inside its turn, on its phone (companion/view/options.py,
companion/view/forms.py): Witch's Brew's effect options, Cauldron Quest's kept dice, reveals,
swaps and bottle moves. Each appears for the awaited seat only, is the very command the Pi's
screen sends (played through the gate it leaves the same state), and the server lets a seat
send it only while its own part offers it."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from companion.core import Command, Session
from companion.view.snapshot import audience_view, seat_choices
from companion.view.forms import form_command, seat_forms
from tests.companion import quest_autoplay
from tests.support import autoplay
from tests.web import tables
from ui.web.clients import Client, seat_input
from ui.web.messages import Refused
from ui.web.passes import SeatPass


def _pass(session: Session, seat: int) -> SeatPass:
    name = session.names[seat]
    return SeatPass("t" * 32, name.lower(), name)


def _fresh(session: Session) -> Session:
    again = Session(session.rules, session.setup)
    for step in session.done_steps():
        again.execute(step.command, source=step.source)
    return again


def _brew_until(test, seed: int = 2, limit: int = 3000) -> tuple[Session, int]:
    """A Witch's Brew game played by the autoplay until ``test(session)`` finds its seat."""
    session, rng = Session(autoplay.get_rules("witchs_brew"), dict(tables.WB_SETUP)), \
        random.Random(seed)
    for _ in range(limit):
        seat = test(session)
        if seat is not None:
            return session, seat
        session.execute(autoplay.next_command(session, rng))
    raise AssertionError("the autoplay never reached that moment")


def _waiting(kind: str):
    from companion.games.witchs_brew import state as st
    from companion.games.witchs_brew.flow import effect_of

    def test(session):
        state = session.state
        if st.phase(state) == "resolve" and effect_of(state["pending"][0]).kind == kind:
            return st.turn(state)
        return None
    return test


def _quest_until(phase: str, seed: int = 3, spell: str | None = None,
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


def _phone_plays(session: Session, seat: int, key: str):
    """What the server and the app do with a seat's choice: checked against the seat's part
    of the snapshot, then the command found again on the table (ui/table/phones.py)."""
    snap = tables.snapshot(session, 7)
    client = Client(ws=None, seat=_pass(session, seat))
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


def _same_after(session: Session, phone: Command, pi: Command) -> None:
    a, b = _fresh(session), _fresh(session)
    a.execute(phone, source="Barb's phone")
    b.execute(pi, source="touch")
    assert a.state == b.state


def _only_seat(session: Session, seat: int, prefix: str) -> list[dict]:
    snap = tables.snapshot(session)
    mine = [c for c in snap["controls"][seat]["choices"] if c["choice"].startswith(prefix)]
    for other, part in enumerate(snap["controls"]):
        if other != seat:
            assert not [c for c in part["choices"] if c["choice"].startswith(prefix)]
            assert not part["forms"]
    assert audience_view(snap, None)["you"] is None       # a watching page: no buttons at all
    return mine


def test_the_alchemist_s_drop_is_offered_to_its_seat_and_plays_as_the_pi_s():
    session, seat = _brew_until(_waiting("trade_drop"))
    mine = _only_seat(session, seat, "drop:")
    held = session.state["players"][seat]
    assert [c["choice"] for c in mine] == [f"drop:{d}" for d in ("red", "white", "green") if held[d]]
    assert all(c["group"] == "Return a drop" for c in mine)
    drop = mine[0]["choice"].split(":")[1]
    command = _phone_plays(session, seat, mine[0]["choice"])
    _same_after(session, command, Command("resolve", session.names[seat], {"drop": drop}))


def test_the_assistant_s_drops_are_every_way_to_take_them():
    session, seat = _brew_until(_waiting("choose_drops"))
    mine = _only_seat(session, seat, "drops:")
    assert len(mine) == 10 and mine[0]["label"] == "Take 3 red"      # 3 drops in 3 colours
    command = _phone_plays(session, seat, "drops:1-0-2")
    _same_after(session, command, Command("resolve", session.names[seat],
                                          {"drops": {"red": 1, "white": 0, "green": 2}}))


def test_the_brew_is_an_entry_on_the_seat_s_phone_and_plays_as_the_pi_s():
    session, seat = _brew_until(_waiting("brew"))
    _only_seat(session, seat, "brew")
    (form,) = seat_forms(session, seat)
    assert form["form"] == "brew" and form["submit"] == "Brew it"
    stack = form["fields"][0]["options"][0]
    held = session.state["players"][seat]
    pay = {d: 1 for d in ("red", "white", "green") if held[d]}
    values = {"stack": stack["value"], "points": stack["least"] + 2, "raven": stack["ravens"][0],
              **{f"pay.{d}": n for d, n in pay.items()}}
    command = _phone_plays(session, seat, "brew:" + json.dumps(values))
    pi = Command("resolve", session.names[seat], {
        "potion": {"stack": stack["value"], "points": stack["least"] + 2,
                   "raven": stack["ravens"][0]}, "pay": pay})
    assert command == pi
    _same_after(session, command, pi)


def test_a_card_read_aloud_is_an_entry_for_every_seat_s_counters_and_a_card_won():
    session, seat = _brew_until(_waiting("table"))
    (form,) = seat_forms(session, seat)
    assert form["form"] == "table"
    other = (seat + 1) % len(session.names)
    names = session.names
    values = {f"{seat}.gold": 2, f"{other}.gold": -min(1, session.state["players"][other]["gold"])}
    command = _phone_plays(session, seat, "table:" + json.dumps(values))
    others = {names[other]: {"gold": values[f"{other}.gold"]}} if values[f"{other}.gold"] else {}
    pi = Command("resolve", names[seat], {"changes": {"gold": 2}, "others": others,
                                          "potion": None})
    assert command == pi
    _same_after(session, command, pi)


@pytest.mark.parametrize("values, words", [
    ({"points": -1}, "points: a whole number from"),
    ({"points": True}, "points: a whole number"),
    ({"stack": "gold_shelf"}, "stack: one of"),
    ({"raven": "yes"}, "raven: one of"),
    ({"pay.red": 999}, "pay.red: a whole number from 0 to"),
    ({"gold": 1}, "brew: no field 'gold'"),
])
def test_an_entry_out_of_its_bounds_is_refused_naming_the_field(values, words):
    session, seat = _brew_until(_waiting("brew"))
    command, why = form_command(session, seat, "brew:" + json.dumps(values))
    assert command is None and why.startswith(words)
    assert form_command(session, seat, "brew:[1]") == (None, "brew: the entry must be a JSON object")
    other = (seat + 1) % len(session.names)
    assert form_command(session, other, "brew:{}") == (None, "That entry is not open now")


def test_the_server_lets_a_seat_send_an_entry_only_while_its_part_offers_it():
    session, seat = _brew_until(_waiting("brew"))
    snap = tables.snapshot(session, 3)
    other = (seat + 1) % len(session.names)
    client = Client(ws=None, seat=_pass(session, other))
    with pytest.raises(Refused, match="not 'brew:{}'"):
        seat_input(snap, client, other, {"type": "choose", "choice": "brew:{}", "seen": 3, "id": 1})
    mine = Client(ws=None, seat=_pass(session, seat))
    with pytest.raises(Refused, match="at most 1500"):
        seat_input(snap, mine, seat, {"type": "choose", "choice": "brew:" + "x" * 1500,
                                      "seen": 3, "id": 1})


def test_quest_s_kept_dice_are_the_current_player_s_and_play_as_the_pi_s_tap():
    from companion.games.quest.dice import kept

    session = _quest_until("magic")
    seat = session.prompt()["seat"]
    mine = _only_seat(session, seat, "keep:")
    assert len(mine) == 3 and all(c["group"] == "The magic dice" for c in mine)
    assert mine[0]["label"].startswith(("Keep die 1", "Roll die 1"))
    now = kept(session.state["spell"])
    after = sorted(set(now) ^ {"magic1"})
    command = _phone_plays(session, seat, mine[0]["choice"])
    _same_after(session, command, Command("keep", args={"dice": after}))


@pytest.mark.parametrize("spell, prefix, pi", [
    ("omniscience", "reveal:", lambda key: Command("reveal", args={
        "bottle": int(key.split(":")[1]), "ingredient": key.split(":")[2]})),
    ("exchange", "swap:", lambda key: Command("swap", args={
        "bottles": [int(key.split(":")[1]), int(key.split(":")[2])]})),
    ("great_sorcery", "move:", lambda key: Command("move_bottle", args={
        "bottle": int(key.split(":")[1]), "to": key.split(":", 2)[2]})),
])
def test_quest_s_spells_are_cast_from_the_current_player_s_phone(spell, prefix, pi):
    session = _quest_until("cast", spell=spell)
    seat = session.prompt()["seat"]
    mine = _only_seat(session, seat, prefix)
    assert mine
    key = mine[-1]["choice"]
    _same_after(session, _phone_plays(session, seat, key), pi(key))


def test_quest_s_roll_moves_a_bottle_from_the_phone():
    session = _quest_until("move")
    seat = session.prompt()["seat"]
    mine = _only_seat(session, seat, "move:")
    assert mine and mine[0]["group"].startswith("Move bottle ")
    key = mine[0]["choice"]
    _, bottle, to = key.split(":", 2)
    _same_after(session, _phone_plays(session, seat, key),
                Command("move_bottle", args={"bottle": int(bottle), "to": to}))


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
                client = Client(ws=None, seat=_pass(session, other))
                message = {"type": "choose", "choice": key, "seen": 5, "id": 1}
                theirs = [c["choice"] for c in snap["controls"][other]["choices"]]
                if other == seat or key in theirs:     # its own choice of the same words
                    seat_input(snap, client, other, message)
                else:
                    with pytest.raises(Refused):
                        seat_input(snap, client, other, message)


def test_cauldron_s_market_is_on_the_buyer_s_phone_and_plays_as_the_pi_s():
    session = tables.cauldron_market()
    seat = session.prompt()["seat"]
    mine = _only_seat(session, seat, "buy:")
    assert {c["group"] for c in mine} == {"Buy"} and "buy:cellar" in [c["choice"] for c in mine]
    from companion.games.cauldron.market import offers

    price = next(o["cost"] for o in offers(session.state, seat) if o["item"] == "cellar")
    assert {"choice": "buy:cellar", "label": f"A Cellar ({price} Magik)", "group": "Buy"} in mine
    command = _phone_plays(session, seat, "buy:cellar")
    _same_after(session, command, Command("buy", session.names[seat], {"item": "cellar"}))
    part = tables.snapshot(session)["controls"][seat]        # passing: the seat's pass button
    assert "pass" in [b["button"] for b in part["buttons"]]
    assert "market:pass" not in [c["choice"] for c in part["choices"]]


def test_cauldron_s_spells_are_cast_from_the_phone_in_the_seat_s_turn():
    session = tables.cauldron(15)
    seat = session.prompt()["seat"]
    mine = _only_seat(session, seat, "cast:")
    assert [c["choice"] for c in mine] == ["cast:basic"] and mine[0]["group"] == "Spells"
    _same_after(session, _phone_plays(session, seat, "cast:basic"),
                Command("cast_spell", session.names[seat], {"kind": "basic"}))


def test_a_brew_form_offers_the_earlier_cards_it_can_take_as_they_are():
    from companion.view.forms import brew_cards

    session, seat = _brew_until(_waiting("brew"))
    (form,) = seat_forms(session, seat)
    stacks = {o["value"]: o for o in form["fields"][0]["options"]}
    stack, held = next(iter(stacks)), session.state["players"][seat]
    least = stacks[stack]["least"]
    fits = {"stack": stack, "points": least + 1, "raven": stacks[stack]["ravens"][0], "pay": {}}
    too_dear = dict(fits, pay={"red": held["red"] + 1})
    shelf = dict(fits, stack="gold_shelf")                 # not a cauldron: a brewer's no card
    more = [dict(fits, points=least + n) for n in (5, 4, 3, 2)]
    offered = brew_cards(form, [too_dear, shelf, fits, *more])
    assert offered == [fits, *sorted(more, key=lambda c: c["points"])][:3]
    for card in offered:                                   # each one the rules take as it is
        values = {"stack": card["stack"], "points": card["points"], "raven": card["raven"],
                  **{f"pay.{d}": n for d, n in card["pay"].items()}}
        command, why = form_command(session, seat, "brew:" + json.dumps(values))
        session.rules.accept(session.state, command)


def test_quest_s_spell_breaking_token_frees_a_blocked_path_from_the_phone_once():
    session = _quest_until("roll", blocked=True)
    seat = session.prompt()["seat"]
    path = sorted(session.state["obstacles"])[0]
    mine = _only_seat(session, seat, "break:")
    assert mine[0] == {"choice": f"break:{path}", "label": f"Free path {path}",
                       "group": "The spell-breaking token"}
    command = _phone_plays(session, seat, f"break:{path}")
    _same_after(session, command, Command("break_obstacle", args={"path": path}))
    session.execute(command)
    assert not [c for c in tables.snapshot(session)["controls"][session.prompt()["seat"]]
                ["choices"] if c["choice"].startswith("break:")]       # once a game


def test_the_little_helpers_two_ingredients_are_offered_to_the_witch_only():
    session = tables.cauldron(14)                          # Anna plays the Witch: her turn
    seat = session.prompt()["seat"]
    assert session.summary()["players"][seat]["character"] == "witch"
    mine = _only_seat(session, seat, "two:")
    assert mine and {c["group"] for c in mine} == {"Little Helpers: two Ingredients"}
    a, b = mine[1]["choice"][4:].split(",")
    _same_after(session, _phone_plays(session, seat, mine[1]["choice"]),
                Command("gather", session.names[seat], {"ingredients": [a, b]}))


def test_a_potion_s_any_spaces_are_paid_as_the_phone_says():
    from tests.companion import cauldron_autoplay as ca

    session = ca.start(ca.new())
    ca.give(session, "Anna", "Moon Tea", ["spider_web", "any"])
    ca.pool(session, "Anna", spider_web=1, frog_legs=2, blood_crystal=1)
    seat = session.prompt()["seat"]
    assert session.names[seat] == "Anna"
    mine = _only_seat(session, seat, "any:")
    assert [c["choice"] for c in mine] == ["any:frog_legs:Moon Tea", "any:blood_crystal:Moon Tea"]
    assert mine[0] == {"choice": "any:frog_legs:Moon Tea", "label": "Any paid with Frog legs",
                       "group": "Brew Moon Tea"}
    _same_after(session, _phone_plays(session, seat, "any:blood_crystal:Moon Tea"),
                Command("brew", "Anna", {"potion": "Moon Tea", "any": ["blood_crystal"]}))


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
        session, seat = _brew_until(_waiting(form))
    command, why = form_command(session, seat, f"{form}:{body}")
    if command is None:
        assert why.startswith((form, "stack", "points", "raven", "pay.", "potion.", "item")) \
            or why[0].isdigit(), why
        return
    try:
        session.rules.accept(session.state, command)
    except CompanionError as refusal:
        assert str(refusal)
