"""Market Season commands: one purchase each (two in the Advanced Game) or pass, in turn order
from the seat left of the last gatherer. Prices and refusals come from ``market.offers``."""

from __future__ import annotations

from companion.core.errors import RuleViolation
from companion.core.model import Command, Event
from companion.games.cauldron import checks as ck
from companion.games.cauldron import data as d
from companion.games.cauldron import market as mk
from companion.games.cauldron import potions as pt
from companion.games.cauldron import state as st
from companion.games.cauldron.state import State

POTION_ITEMS = {"basic_potion": ("basic",), "advanced_potion": ("advanced",)}


def buy(state: State, cmd: Command, seat: int) -> list[Event]:
    if st.phase(state) in ck.HARVEST_TURN + ("omen", "fill", "turn_order"):
        raise RuleViolation("Purchases are made in the Market Season, after the Harvest Season")
    ck.need_phase(state, ("market",), "buy")
    ck.need_turn(state, seat, "buy")
    args = cmd.args
    item = args.get("item")
    if item not in d.ITEMS:
        raise RuleViolation(f"item: one of {', '.join(d.ITEMS)}, not {item!r}")
    reason = mk.rule_against(state, seat, item)
    if reason:
        raise RuleViolation(reason)
    player = state["players"][seat]
    data = {"seat": seat, "item": item}
    if item == "field":
        kind = d.ingredient(args.get("field", args.get("ingredient")), "field")
        problem = mk.field_problem(state, kind)
        if problem:
            raise RuleViolation(problem)
        data["field"] = kind
        # Advanced Alchemy is judged where the buyer stands when buying, before paying.
        data["bonus"] = player["magik"] < d.ADVANCED_ALCHEMY
    price = mk.cost(state, seat, item)
    discount = d.whole(args.get("discount", 0), "discount", 0, price)
    price -= discount
    problem = mk.afford_problem(state, seat, item, price)
    if problem:
        raise RuleViolation(problem)
    if item.endswith("_spell"):
        discard = args.get("discard")
        if discard is None and len(player["spells"]) >= d.MAX_SPELLS:
            raise RuleViolation("You can hold at most three Spells: discard one of your choice "
                                "before buying a new one (\"discard\": \"basic\" or \"advanced\")")
        if discard is not None:
            data["discard"] = ck.hand_kind(state, seat, discard, "discard")
    if item in POTION_ITEMS and args.get("potion") is not None:
        card = pt.card(args["potion"])
        if card["kind"] not in POTION_ITEMS[item]:
            raise RuleViolation(f"potion.kind: the card bought is {d.KIND_TEXT[POTION_ITEMS[item][0]]}")
        if st.find_potion(player, card["name"]):
            raise RuleViolation(f"{player['name']} already has a potion named {card['name']!r}")
        data["potion"] = card
    return [Event("bought", {**data, "cost": price, "discount": discount})]


def pass_(state: State, cmd: Command, seat: int) -> list[Event]:
    if st.phase(state) in ck.HARVEST_TURN:
        raise RuleViolation("In the Harvest Season a turn ends with end_turn, after its one Action")
    ck.need_phase(state, ("market",), "pass")
    ck.need_turn(state, seat, "pass")
    made = state["market"]["purchases"]
    return [Event("market_turn_ended", {"seat": seat, "passed": made == 0})]
