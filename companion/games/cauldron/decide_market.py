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
    item = args["item"]
    if args.get("field") is not None and item != "field":
        raise RuleViolation(f"A Field type is named only when buying a Field, not "
                            f"{d.ITEM_TEXT[item]}")
    reason = mk.rule_against(state, seat, item)
    if reason:
        raise RuleViolation(reason)
    player = state["players"][seat]
    data = {"seat": seat, "item": item}
    if item == "field":
        kind = args.get("field")
        if kind is None:
            raise RuleViolation("Which Field? Name its type (Spider Web, Frog Legs ...)")
        problem = mk.field_problem(state, kind)
        if problem:
            raise RuleViolation(problem)
        data["field"] = kind
        # Advanced Alchemy is judged where the buyer stands when buying, before paying.
        data["bonus"] = mk.bonus_ingredient(state, seat)
    price = mk.cost(state, seat, item)
    discount = args.get("discount", 0)
    if discount > price:
        raise RuleViolation(f"A discount of {discount} is more than the price of "
                            f"{d.ITEM_TEXT[item]} ({price})")
    price -= discount
    problem = mk.afford_problem(state, seat, item, price)
    if problem:
        raise RuleViolation(problem)
    if item.endswith("_spell"):
        discard = args.get("discard")
        if discard is None and len(player["spells"]) >= d.MAX_SPELLS:
            raise RuleViolation("You can hold at most three Spells: discard one of your choice "
                                "before buying a new one (say which: Basic or Advanced)")
        if discard is not None:
            data["discard"] = ck.hand_kind(state, seat, discard, "discard")
    if args.get("potion") is not None and item not in POTION_ITEMS:
        raise RuleViolation(f"A potion card is entered only when buying a Potion, not "
                            f"{d.ITEM_TEXT[item]}")
    if args.get("discard") is not None and not item.endswith("_spell"):
        raise RuleViolation(f"A Spell is discarded to buy a Spell, not {d.ITEM_TEXT[item]}")
    if item in POTION_ITEMS and args.get("potion") is not None:
        card = pt.card(args["potion"])
        if card["kind"] not in POTION_ITEMS[item]:
            raise RuleViolation(f"The card bought is {d.KIND_TEXT[POTION_ITEMS[item][0]]}, "
                                f"not {d.KIND_TEXT[card['kind']]}")
        if st.find_potion(player, card["name"]):
            raise RuleViolation(f"{player['name']} already has a potion named {card['name']!r}")
        data["potion"] = card
    return [Event("bought", {**data, "cost": price, "discount": discount})]


def pass_(state: State, cmd: Command, seat: int) -> list[Event]:
    if st.phase(state) in ck.HARVEST_TURN:
        raise RuleViolation("In the Harvest Season a turn ends with End turn, after its one Action")
    ck.need_phase(state, ("market",), "pass")
    ck.need_turn(state, seat, "pass")
    made = state["market"]["purchases"]
    return [Event("market_turn_ended", {"seat": seat, "passed": made == 0})]
