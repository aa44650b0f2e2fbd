"""Entries a seat's phone fills in where the answer is not one of a few choices: Witch's Brew's
brew (the potion card taken and the drops paid) and a card read aloud (what changed for each
seat, a potion card won); Cauldron's purchase with a discount from a card (what is bought,
the Magik off its price). Each form is plain data (:func:`seat_forms`): its fields, each a pick
among options or a whole number within bounds, taken from the rules' state (the stacks with
cards left, the least value the next card of each may have, whether only ravens or no ravens
are left, what each seat holds, what the supply has, what the Market sells the buyer). The
phone sends ``FORM:{json}`` as a choice; :func:`form_command` checks every value against the
form as the table stands now, naming the field, and gives the very command the Pi's entry
sends. Pure."""

from __future__ import annotations

import json
from typing import Any

from companion.core.engine import Session
from companion.core.model import Command
from companion.view.options import Purchase

#: The longest form a phone may send (``table:`` with every counter of 5 seats changed).
MAX_FORM = 1500


def _stacks(state: dict, stacks: tuple[str, ...]) -> list[dict[str, Any]]:
    """Each stack a card can still come from: how many are left, the least the next card is
    worth (a stack is sorted lowest on top) and the ravens it may show (two per stack)."""
    from companion.games.witchs_brew import state as st
    from companion.games.witchs_brew.roles import RAVENS_PER_STACK, STACK_SIZES, plain_per_stack

    out = []
    for stack in stacks:
        taken = st.potions_taken(state, stack)
        left, ravens = STACK_SIZES[stack] - len(taken), st.ravens_taken(state, stack)
        may = [r for r, fits in ((False, len(taken) - ravens < plain_per_stack(stack)),
                                 (True, ravens < RAVENS_PER_STACK)) if fits]
        if left > 0 and may:
            least = st.top_value(state, stack) or 0
            out.append({"value": stack, "label": stack.replace("_", " ").capitalize(),
                        "note": f"{left} left, worth {least} or more", "least": least,
                        "ravens": may})
    return out


def _card_fields(options: list[dict[str, Any]], prefix: str, group: str) -> list[dict]:
    from companion.games.witchs_brew.roles import MAX_POINTS

    least = min((o.get("least", 0) for o in options if o["value"]), default=0)
    return [{"name": f"{prefix}stack", "label": "The stack it came from", "group": group,
             "options": options, "value": options[0]["value"] if options else ""},
            {"name": f"{prefix}points", "label": "Points in its glass bulb", "group": group,
             "min": least, "max": MAX_POINTS, "value": least},
            {"name": f"{prefix}raven", "label": "A raven on the card", "group": group,
             "options": [{"value": False, "label": "No"}, {"value": True, "label": "Yes"}],
             "value": False}]


def _brew_form(session: Session, seat: int) -> list[dict[str, Any]]:
    from companion.games.witchs_brew import state as st
    from companion.games.witchs_brew.flow import cannot_pay, effect_of
    from companion.games.witchs_brew.roles import (
        BREW, CAULDRONS, COUNTERS, DROPS, MOST_AT_ONCE, ROLES, STACKS, TABLE,
    )

    state = session.state
    if st.phase(state) != "resolve" or st.turn(state) != seat:
        return []
    front = state["pending"][0]
    effect = effect_of(front)
    if effect.kind not in (BREW, TABLE) or cannot_pay(state, seat, effect):
        return []
    part = "full action" if front["kind"] == "action" else "favor"
    title = f"{ROLES[front['role']].title} {part}: {effect.text}"
    player = state["players"][seat]
    if effect.kind == BREW:
        stacks = _stacks(state, CAULDRONS)
        if not stacks:
            return []
        fields = _card_fields(stacks, "", "The potion card")
        fields += [{"name": f"pay.{d}", "label": f"{d.capitalize()} drops", "min": 0,
                    "max": player[d], "value": 0, "group": "The drops printed on it"}
                   for d in DROPS]
        return [{"form": "brew", "title": title, "submit": "Brew it", "fields": fields}]
    left = st.left_in_supply(state)
    fields = []
    order = [seat] + [i for i in range(len(state["players"])) if i != seat]   # its own first
    for i in order:
        p = state["players"][i]
        group = f"{p['name']} (you)" if i == seat else p["name"]
        fields += [{"name": f"{i}.{c}", "label": f"{c.capitalize()} (has {p[c]})",
                    "group": group, "min": -p[c], "value": 0,
                    "max": MOST_AT_ONCE if left[c] is None else left[c]} for c in COUNTERS]
    none = {"value": "", "label": "No card", "note": "", "least": 0, "ravens": [False, True]}
    fields += _card_fields([none] + _stacks(state, STACKS), "potion.", "A potion card won")
    hint = f" (reported: {effect.reported}; your card decides)" if effect.reported else ""
    return [{"form": "table", "title": title + hint, "submit": "Apply", "fields": fields}]


#: At most this many earlier cards of one stack on a brew form (the Pi's picker shows as many).
CARDS_SHOWN = 3


def brew_cards(form: dict[str, Any], catalogue: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The printed cards of earlier games (each ``{"stack", "points", "raven", "pay"}``, newest
    first) that the brew ``form`` can take as they are: a stack it offers, worth at least that
    stack's least, a raven it may show, drops the seat holds; the lowest first, a few a stack.
    One tap on the phone fills the form with one (the Pi's brew entry offers the same)."""
    fields = {f["name"]: f for f in form["fields"]}
    stacks = {o["value"]: o for o in fields["stack"]["options"]}
    out: list[dict[str, Any]] = []
    for stack, option in stacks.items():
        fits = [c for c in catalogue if c["stack"] == stack and c["points"] >= option["least"]
                and c["raven"] in option["ravens"]
                and all(f"pay.{d}" in fields and n <= fields[f"pay.{d}"]["max"]
                        for d, n in c["pay"].items())]
        out += sorted(fits, key=lambda c: (c["points"], c["raven"]))[:CARDS_SHOWN]
    return out


def _for_sale(session: Session, seat: int) -> list[Purchase]:
    """The purchases the rules sell ``seat`` money aside: each that ``market.rule_against``
    allows and the rules decide to sell with its whole price off (so a Spell discarding a kind
    not held is not offered, as the Pi's Market greys it). Decided only, not played through
    the flow: this runs for every snapshot of the buyer's turn, and a purchase's refusal is
    all in ``decide`` (about a third of the time of trying each whole)."""
    from companion.core.errors import CompanionError
    from companion.view.options import market_buys

    rules, state, player = session.rules, session.state, session.names[seat]
    out = []
    for buy in market_buys(state, seat, money_aside=True):
        try:
            list(rules.decide(state, rules.check(state, Command(
                "buy", player, dict(buy.args, discount=buy.cost)))))
        except CompanionError:
            continue
        out.append(buy)
    return out


def _discount_form(session: Session, seat: int) -> list[dict[str, Any]]:
    """Cauldron's Market, the buyer's turn: a purchase with Magik off its price from a card
    ("Some characters may have discounts on certain purchases: check your Character card"),
    as the Pi's Market's stepper gives. Every purchase the rules would sell the seat money
    aside (a discount may bring one within reach), each with its full price; the Magik off
    at most the highest of them. The rules judge the rest: a discount over the item's price,
    not enough Magik after it."""
    from companion.games.cauldron import state as st
    from companion.games.cauldron.data import WIN

    if st.phase(session.state) != "market" or st.turn(session.state) != seat:
        return []
    buys = _for_sale(session, seat)
    most = min(max((b.cost for b in buys), default=0), WIN)
    if not most:                             # nothing for sale with a price to take off
        return []
    group, title = "From your Character card", "Buy with a discount from a card"
    limit = st.purchase_limit(session.state)
    if limit > 1:        # the Advanced Game's second purchase is a new entry, not the first's
        title += f": purchase {session.state['market']['purchases'] + 1} of {limit}"
    return [{"form": "discount", "title": title, "submit": "Buy",
             "fields": [
                 {"name": "item", "label": "What is bought", "group": group,
                  "options": [{"value": b.key, "label": b.name, "price": b.cost,
                               "note": f"{b.cost} Magik"}
                              for b in buys], "value": ""},      # none picked: a tap
                 {"name": "discount", "label": "Magik off the price", "group": group,
                  "min": 0, "max": most, "value": 0}]}]


FORMS = {"witchs_brew": _brew_form, "cauldron": _discount_form}


def seat_forms(session: Session, seat: int) -> list[dict[str, Any]]:
    """The entries ``seat``'s phone offers now (none once the game is over)."""
    if session.over:
        return []
    return FORMS.get(session.rules.name, lambda s, seat: [])(session, seat)


def _values(form: dict[str, Any], body: str) -> dict[str, Any]:
    """The form's values from what a phone sent, each checked against its field (ValueError
    naming the field otherwise); a field not sent keeps its starting value."""
    try:
        sent = json.loads(body)
    except ValueError:
        raise ValueError(f"{form['form']}: the entry must be JSON") from None
    if not isinstance(sent, dict):
        raise ValueError(f"{form['form']}: the entry must be a JSON object")
    fields = {f["name"]: f for f in form["fields"]}
    for name in sent:
        if name not in fields:
            raise ValueError(f"{form['form']}: no field {name!r}")
    out = {}
    for name, field in fields.items():
        value = sent.get(name, field["value"])
        if "options" in field:
            if name not in sent and not any(value == o["value"] for o in field["options"]):
                raise ValueError(f"{name}: pick one ({field['label']})")   # none picked yet
            if not any(value == o["value"] and type(value) is type(o["value"])
                       for o in field["options"]):
                shown = ", ".join(str(o["value"]) or "none" for o in field["options"])
                raise ValueError(f"{name}: one of {shown}, not {value!r}"[:200])
        elif isinstance(value, bool) or not isinstance(value, int) or not (
                field["min"] <= value <= field["max"]):
            raise ValueError(f"{name}: a whole number from {field['min']} to {field['max']}, "
                             f"not {value!r}"[:200])
        out[name] = value
    return out


def form_command(session: Session, seat: int, key: str) -> tuple[Command | None, str]:
    """The Command a form key stands for on the table now and "", or None and why not (the
    field named). The rules judge the command itself afterwards."""
    name, _, body = key.partition(":")
    form = next((f for f in seat_forms(session, seat) if f["form"] == name), None)
    if form is None or not 0 <= seat < len(session.names):
        return None, "That entry is not open now"
    if len(key) > MAX_FORM:
        return None, f"{name}: an entry is at most {MAX_FORM} characters"
    try:
        values = _values(form, body)
    except ValueError as wrong:
        return None, str(wrong)
    player = session.names[seat]
    if name == "discount":                   # the Pi's Market's buy, with its stepper's Magik
        buy = next(b for b in _for_sale(session, seat) if b.key == values["item"])
        args = dict(buy.args, **({"discount": values["discount"]} if values["discount"] else {}))
        return Command("buy", player, args), ""
    if name == "brew":
        pay = {d.split(".")[1]: v for d, v in values.items() if d.startswith("pay.") and v}
        card = {"stack": values["stack"], "points": values["points"], "raven": values["raven"]}
        return Command("resolve", player, {"potion": card, "pay": pay}), ""
    changes: dict[int, dict[str, int]] = {}
    for field, v in values.items():
        who, _, counter = field.partition(".")
        if who.isdigit() and v:
            changes.setdefault(int(who), {})[counter] = v
    potion = None if not values["potion.stack"] else {
        "stack": values["potion.stack"], "points": values["potion.points"],
        "raven": values["potion.raven"]}
    others = {session.names[i]: c for i, c in changes.items() if i != seat}
    return Command("resolve", player, {"changes": changes.get(seat, {}), "others": others,
                                       "potion": potion}), ""


def is_form(game: str, key: str) -> bool:
    """Whether a choice key is an entry of ``game``'s forms (``brew:{...}``)."""
    name, colon, _ = key.partition(":")
    return bool(colon) and name in FORM_NAMES.get(game, ())


FORM_NAMES = {"witchs_brew": ("brew", "table"), "cauldron": ("discount",)}
