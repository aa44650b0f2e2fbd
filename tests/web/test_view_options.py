"""The choices and entries a seat makes inside its turn, on its phone (companion/view/options.py,
companion/view/forms.py): Witch's Brew's effect options, Cauldron Quest's kept dice, reveals,
swaps and bottle moves. Each appears for the awaited seat only, is the very command the Pi's
screen sends (played through the gate it leaves the same state), and the server lets a seat
send it only while its own part offers it."""

from __future__ import annotations

import json

import pytest

from companion.core import Command
from companion.view.forms import form_command, seat_forms
from tests.web import tables
from tests.web.seat_moments import (
    brew_until, only_seat, phone_plays, quest_until, same_after, seat_pass, waiting,
)
from ui.web.clients import Client, seat_input
from ui.web.messages import Refused


def test_the_alchemist_s_drop_is_offered_to_its_seat_and_plays_as_the_pi_s():
    session, seat = brew_until(waiting("trade_drop"))
    mine = only_seat(session, seat, "drop:")
    held = session.state["players"][seat]
    assert [c["choice"] for c in mine] == [f"drop:{d}" for d in ("red", "white", "green") if held[d]]
    assert all(c["group"] == "Return a drop" for c in mine)
    drop = mine[0]["choice"].split(":")[1]
    command = phone_plays(session, seat, mine[0]["choice"])
    same_after(session, command, Command("resolve", session.names[seat], {"drop": drop}))


def test_the_assistant_s_drops_are_every_way_to_take_them():
    session, seat = brew_until(waiting("choose_drops"))
    mine = only_seat(session, seat, "drops:")
    assert len(mine) == 10 and mine[0]["label"] == "Take 3 red"      # 3 drops in 3 colours
    command = phone_plays(session, seat, "drops:1-0-2")
    same_after(session, command, Command("resolve", session.names[seat],
                                          {"drops": {"red": 1, "white": 0, "green": 2}}))


def test_the_brew_is_an_entry_on_the_seat_s_phone_and_plays_as_the_pi_s():
    session, seat = brew_until(waiting("brew"))
    only_seat(session, seat, "brew")
    (form,) = seat_forms(session, seat)
    assert form["form"] == "brew" and form["submit"] == "Brew it"
    stack = form["fields"][0]["options"][0]
    held = session.state["players"][seat]
    pay = {d: 1 for d in ("red", "white", "green") if held[d]}
    values = {"stack": stack["value"], "points": stack["least"] + 2, "raven": stack["ravens"][0],
              **{f"pay.{d}": n for d, n in pay.items()}}
    command = phone_plays(session, seat, "brew:" + json.dumps(values))
    pi = Command("resolve", session.names[seat], {
        "potion": {"stack": stack["value"], "points": stack["least"] + 2,
                   "raven": stack["ravens"][0]}, "pay": pay})
    assert command == pi
    same_after(session, command, pi)


def test_a_card_read_aloud_is_an_entry_for_every_seat_s_counters_and_a_card_won():
    session, seat = brew_until(waiting("table"))
    (form,) = seat_forms(session, seat)
    assert form["form"] == "table"
    other = (seat + 1) % len(session.names)
    names = session.names
    values = {f"{seat}.gold": 2, f"{other}.gold": -min(1, session.state["players"][other]["gold"])}
    command = phone_plays(session, seat, "table:" + json.dumps(values))
    others = {names[other]: {"gold": values[f"{other}.gold"]}} if values[f"{other}.gold"] else {}
    pi = Command("resolve", names[seat], {"changes": {"gold": 2}, "others": others,
                                          "potion": None})
    assert command == pi
    same_after(session, command, pi)


@pytest.mark.parametrize("values, words", [
    ({"points": -1}, "points: a whole number from"),
    ({"points": True}, "points: a whole number"),
    ({"stack": "gold_shelf"}, "stack: one of"),
    ({"raven": "yes"}, "raven: one of"),
    ({"pay.red": 999}, "pay.red: a whole number from 0 to"),
    ({"gold": 1}, "brew: no field 'gold'"),
])
def test_an_entry_out_of_its_bounds_is_refused_naming_the_field(values, words):
    session, seat = brew_until(waiting("brew"))
    command, why = form_command(session, seat, "brew:" + json.dumps(values))
    assert command is None and why.startswith(words)
    assert form_command(session, seat, "brew:[1]") == (None, "brew: the entry must be a JSON object")
    other = (seat + 1) % len(session.names)
    assert form_command(session, other, "brew:{}") == (None, "That entry is not open now")


def test_the_server_lets_a_seat_send_an_entry_only_while_its_part_offers_it():
    session, seat = brew_until(waiting("brew"))
    snap = tables.snapshot(session, 3)
    other = (seat + 1) % len(session.names)
    client = Client(ws=None, seat=seat_pass(session, other))
    with pytest.raises(Refused, match="not 'brew:{}'"):
        seat_input(snap, client, other, {"type": "choose", "choice": "brew:{}", "seen": 3, "id": 1})
    mine = Client(ws=None, seat=seat_pass(session, seat))
    with pytest.raises(Refused, match="at most 1500"):
        seat_input(snap, mine, seat, {"type": "choose", "choice": "brew:" + "x" * 1500,
                                      "seen": 3, "id": 1})


def test_quest_s_kept_dice_are_the_current_player_s_and_play_as_the_pi_s_tap():
    from companion.games.quest.dice import kept

    session = quest_until("magic")
    seat = session.prompt()["seat"]
    mine = only_seat(session, seat, "keep:")
    assert len(mine) == 3 and all(c["group"] == "The magic dice" for c in mine)
    assert mine[0]["label"].startswith(("Keep die 1", "Roll die 1"))
    now = kept(session.state["spell"])
    after = sorted(set(now) ^ {"magic1"})
    command = phone_plays(session, seat, mine[0]["choice"])
    same_after(session, command, Command("keep", args={"dice": after}))


@pytest.mark.parametrize("spell, prefix, pi", [
    ("omniscience", "reveal:", lambda key: Command("reveal", args={
        "bottle": int(key.split(":")[1]), "ingredient": key.split(":")[2]})),
    ("exchange", "swap:", lambda key: Command("swap", args={
        "bottles": [int(key.split(":")[1]), int(key.split(":")[2])]})),
    ("great_sorcery", "move:", lambda key: Command("move_bottle", args={
        "bottle": int(key.split(":")[1]), "to": key.split(":", 2)[2]})),
])
def test_quest_s_spells_are_cast_from_the_current_player_s_phone(spell, prefix, pi):
    session = quest_until("cast", spell=spell)
    seat = session.prompt()["seat"]
    mine = only_seat(session, seat, prefix)
    assert mine
    key = mine[-1]["choice"]
    same_after(session, phone_plays(session, seat, key), pi(key))


def test_quest_s_roll_moves_a_bottle_from_the_phone():
    session = quest_until("move")
    seat = session.prompt()["seat"]
    mine = only_seat(session, seat, "move:")
    assert mine and mine[0]["group"].startswith("Move bottle ")
    key = mine[0]["choice"]
    _, bottle, to = key.split(":", 2)
    same_after(session, phone_plays(session, seat, key),
                Command("move_bottle", args={"bottle": int(bottle), "to": to}))




def test_cauldron_s_market_is_on_the_buyer_s_phone_and_plays_as_the_pi_s():
    session = tables.cauldron_market()
    seat = session.prompt()["seat"]
    mine = only_seat(session, seat, "buy:")
    assert {c["group"] for c in mine} == {"Buy"} and "buy:cellar" in [c["choice"] for c in mine]
    from companion.games.cauldron.market import offers

    price = next(o["cost"] for o in offers(session.state, seat) if o["item"] == "cellar")
    assert {"choice": "buy:cellar", "label": f"A Cellar ({price} Magik)", "group": "Buy"} in mine
    command = phone_plays(session, seat, "buy:cellar")
    same_after(session, command, Command("buy", session.names[seat], {"item": "cellar"}))
    part = tables.snapshot(session)["controls"][seat]        # passing: the seat's pass button
    assert "pass" in [b["button"] for b in part["buttons"]]
    assert "market:pass" not in [c["choice"] for c in part["choices"]]


def test_cauldron_s_spells_are_cast_from_the_phone_in_the_seat_s_turn():
    session = tables.cauldron(15)
    seat = session.prompt()["seat"]
    mine = only_seat(session, seat, "cast:")
    assert [c["choice"] for c in mine] == ["cast:basic"] and mine[0]["group"] == "Spells"
    same_after(session, phone_plays(session, seat, "cast:basic"),
                Command("cast_spell", session.names[seat], {"kind": "basic"}))


def test_a_brew_form_offers_the_earlier_cards_it_can_take_as_they_are():
    from companion.view.forms import brew_cards

    session, seat = brew_until(waiting("brew"))
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
    session = quest_until("roll", blocked=True)
    seat = session.prompt()["seat"]
    path = sorted(session.state["obstacles"])[0]
    mine = only_seat(session, seat, "break:")
    assert mine[0] == {"choice": f"break:{path}", "label": f"Free path {path}",
                       "group": "The spell-breaking token"}
    command = phone_plays(session, seat, f"break:{path}")
    same_after(session, command, Command("break_obstacle", args={"path": path}))
    session.execute(command)
    assert not [c for c in tables.snapshot(session)["controls"][session.prompt()["seat"]]
                ["choices"] if c["choice"].startswith("break:")]       # once a game


def test_the_little_helpers_two_ingredients_are_offered_to_the_witch_only():
    session = tables.cauldron(14)                          # Anna plays the Witch: her turn
    seat = session.prompt()["seat"]
    assert session.summary()["players"][seat]["character"] == "witch"
    mine = only_seat(session, seat, "two:")
    assert mine and {c["group"] for c in mine} == {"Little Helpers: two Ingredients"}
    a, b = mine[1]["choice"][4:].split(",")
    same_after(session, phone_plays(session, seat, mine[1]["choice"]),
                Command("gather", session.names[seat], {"ingredients": [a, b]}))


def test_a_potion_s_any_spaces_are_paid_as_the_phone_says():
    from tests.companion import cauldron_autoplay as ca

    session = ca.start(ca.new())
    ca.give(session, "Anna", "Moon Tea", ["spider_web", "any"])
    ca.pool(session, "Anna", spider_web=1, frog_legs=2, blood_crystal=1)
    seat = session.prompt()["seat"]
    assert session.names[seat] == "Anna"
    mine = only_seat(session, seat, "any:")
    assert [c["choice"] for c in mine] == ["any:frog_legs:Moon Tea", "any:blood_crystal:Moon Tea"]
    assert mine[0] == {"choice": "any:frog_legs:Moon Tea", "label": "Any paid with Frog legs",
                       "group": "Brew Moon Tea"}
    same_after(session, phone_plays(session, seat, "any:blood_crystal:Moon Tea"),
                Command("brew", "Anna", {"potion": "Moon Tea", "any": ["blood_crystal"]}))


