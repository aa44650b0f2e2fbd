"""The choices a seat makes inside its turn, for its phone (companion.view.snapshot.seat_choices keeps
those the rules accept now): Witch's Brew's effect options (the drop an Alchemist returns, the
drops an Assistant takes), Cauldron Quest's kept dice, its spells' reveal and swap, the
bottle moves (a roll, Great Sorcery, a bottle knocked away) and the spell-breaking token;
Cauldron's Market purchases, Spells and Cellars. Each is (key, words, Command),
the very command the Pi's screen sends; the options come from the rules' own state and
helpers (``drops_to_take``, ``kept``, ``moves.targets``), never from the Pi's widgets.
:func:`group_of` gives the heading a phone shows a run of them under. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from companion.core.engine import Session
from companion.core.model import Command

Option = tuple[str, str, Any]


def brew_effect_options(session: Session, seat: int) -> list[Option]:
    """The effect waiting for ``seat`` (its turn in the resolve phase): an Alchemist's drop
    returned, each of them; an Assistant's drops taken, every way of taking exactly as many as
    the rules ask. A paid effect is the seat's claim button; abstaining is its pass button; a
    brew and a card read aloud are entered on a form (companion.view.forms)."""
    from companion.games.witchs_brew import state as st
    from companion.games.witchs_brew.flow import drops_to_take, effect_of
    from companion.games.witchs_brew.roles import CHOOSE_DROPS, DROPS, TRADE_DROP, amount

    state = session.state
    if st.phase(state) != "resolve" or st.turn(state) != seat:
        return []
    player, effect = session.names[seat], effect_of(state["pending"][0])
    if effect.kind == TRADE_DROP:
        return [(f"drop:{d}", f"Return {amount(1, d)}", Command("resolve", player, {"drop": d}))
                for d in DROPS]
    if effect.kind != CHOOSE_DROPS:
        return []
    count, out = drops_to_take(state, effect), []
    for red in range(count, -1, -1):
        for white in range(count - red, -1, -1):
            taken = {"red": red, "white": white, "green": count - red - white}
            words = ", ".join(f"{n} {d}" for d, n in taken.items() if n) or "no drops"
            out.append((f"drops:{red}-{white}-{count - red - white}", f"Take {words}",
                        Command("resolve", player, {"drops": taken})))
    return out


def quest_options(session: Session) -> list[Option]:
    """The team's moves inside the current player's turn (the caller checks it is that seat's):
    which magic dice to keep (each die's tap on the Pi: the kept set with it or without it),
    the spell cast (Omniscience's bottle and ingredient, Exchange's two bottles, Great
    Sorcery's move), the bottle a roll moves and where, a bottle knocked away put back, the
    spell-breaking token (once a game: the obstacle it removes)."""
    from companion.games.quest import board, moves
    from companion.games.quest import state as st
    from companion.games.quest.dice import kept
    from companion.games.quest.odds import MAGIC_DICE
    from companion.games.quest.state import BOTTLES, INGREDIENTS, SORCERY_SPACES

    state, phase = session.state, st.phase(session.state)
    settings, out = state["settings"], []
    if phase == "magic" and state["spell"]["rolls"]:
        now = kept(state["spell"])
        for n, die in enumerate(MAGIC_DICE, start=1):
            shows = state["spell"]["dice"][n - 1]
            after = sorted(set(now) ^ {die})
            words = (f"Roll die {n} ({shows}) again" if die in now
                     else f"Keep die {n} ({shows})")
            out.append((f"keep:{','.join(after) or '-'}", words,
                        Command("keep", args={"dice": after})))
    elif phase == "cast" and state["spell"]["name"] == "omniscience":
        out += [(f"reveal:{b}:{i}", st.words(i).capitalize(),
                 Command("reveal", args={"bottle": b, "ingredient": i}))
                for b in BOTTLES for i in INGREDIENTS]
    elif phase == "cast" and state["spell"]["name"] == "exchange":
        out += [(f"swap:{i}:{j}", f"Swap bottles {i} and {j}",
                 Command("swap", args={"bottles": [i, j]})) for i, j in combinations(BOTTLES, 2)]
    if phase in ("move", "return") or (phase == "cast"
                                       and state["spell"]["name"] == "great_sorcery"):
        for b in BOTTLES:
            if phase == "return":
                ends = moves.return_targets(state, b) if b in state["returns"] else []
            elif phase == "move":
                ends = moves.targets(state, b, state["action"]["b"])
            else:
                ends = moves.targets(state, b, SORCERY_SPACES, sorcery=True)
            out += [(f"move:{b}:{to}", f"To {board.describe(to, settings)}",
                     Command("move_bottle", args={"bottle": b, "to": to})) for to in ends]
    if not state["spell_breaker_used"]:           # the token, once a game, at any time
        out += [(f"break:{n}", f"Free path {n}", Command("break_obstacle", args={"path": n}))
                for n in sorted(state["obstacles"])]
    return out


_A = {"basic": "a basic", "advanced": "an advanced"}
_ITEM_WORDS = {"cellar": "A Cellar", "basic_spell": "A basic Spell",
               "advanced_spell": "An advanced Spell", "basic_potion": "A basic Potion",
               "advanced_potion": "An advanced Potion"}


@dataclass(frozen=True)
class Purchase:
    """One purchase the Market sells a seat: ``key`` (``field:spider_web``, ``cellar``,
    ``basic_spell:advanced`` for a Spell bought discarding an advanced one), what it is in
    words, the ``buy`` command's args the Pi's Market sends, the full price."""

    key: str
    name: str
    args: dict[str, str]
    cost: int

    @property
    def words(self) -> str:
        """The name with the full price, as a phone's choice says it (the Pi's offer card
        says the price beside the name)."""
        name, comma, rest = self.name.partition(",")
        return f"{name} ({self.cost} Magik){comma}{rest}"


def market_buys(state: dict[str, Any], seat: int, money_aside: bool = False) -> list[Purchase]:
    """Each purchase the rules would sell ``seat`` in its Market turn (``market.offers``: its
    price, and whether it may be bought): a Field of each type left, a Cellar, a Spell (with
    the kind discarded when three are held), a Potion. ``money_aside``: also those its Magik
    does not reach, judged by ``market.rule_against`` alone (a card's discount may bring one
    within reach: the rules judge that with the discount)."""
    from companion.games.cauldron import data as d
    from companion.games.cauldron.market import offers, rule_against

    label = lambda key: key.replace("_", " ")                          # noqa: E731
    out = []
    for offer in offers(state, seat):
        item, cost = offer["item"], offer["cost"]
        if rule_against(state, seat, item) if money_aside else offer["reason"]:
            continue
        if item == "field":
            out += [Purchase(f"field:{k}", f"A {label(k)} Field", {"item": "field", "field": k},
                             cost) for k, why in offer["fields"].items() if not why]
        elif offer.get("discard_first"):      # three held: one goes, named
            out += [Purchase(f"{item}:{k}", f"{_ITEM_WORDS[item]}, discarding {_A[k]} one",
                             {"item": item, "discard": k}, cost) for k in d.SPELL_KINDS]
        else:
            out.append(Purchase(item, _ITEM_WORDS[item], {"item": item}, cost))
    return out


def cauldron_options(session: Session, seat: int) -> list[Option]:
    """The seat whose turn it is (the prompt's): in the Market Season each purchase (a Field of
    each Ingredient, a Cellar, a Spell, with the kind discarded when three are held, a Potion,
    whose card is then entered on the phone's hand) and passing; in its harvest turn casting a
    Spell, the Magik Dome, discarding one, an Ingredient into a Cellar or out to the pool."""
    from companion.games.cauldron import data as d

    prompt = session.prompt()
    if prompt.get("seat") != seat or prompt.get("phase") not in ("market", "turns"):
        return []
    player, out = session.names[seat], []
    label = lambda key: key.replace("_", " ")                          # noqa: E731
    if prompt["phase"] == "market":         # the rules' own offers, each with its price
        out = [(f"buy:{b.key}", b.words, Command("buy", player, dict(b.args)))
               for b in market_buys(session.state, seat)]
        return out + [("market:pass", "Pass (buy nothing more)", Command("pass", player))]
    mine = session.summary()["players"][seat]      # what it holds: the few worth trying
    held = [k for k in d.SPELL_KINDS if mine["spell_hand"][k]]
    out += [(f"cast:{k}", f"Cast {_A[k]} Spell", Command("cast_spell", player, {"kind": k}))
            for k in held]
    out += [(f"dome:{k}", f"Magik Dome ({_A[k]} Spell)", Command(
        "cast_spell", player, {"kind": k, "dome": True, "name": "Magik Dome"})) for k in held]
    out += [(f"discard:{k}", f"Discard {_A[k]} Spell", Command("discard_spell", player,
                                                                {"kind": k})) for k in held]
    free = None in mine["cellars"]
    out += [(f"cellar:cellar:{k}", f"{label(k).capitalize()} into a Cellar", Command(
        "move_ingredient", player, {"ingredient": k, "to": "cellar"}))
        for k in d.INGREDIENTS if free and mine["pool"].get(k)]
    out += [(f"cellar:pool:{k}", f"{label(k).capitalize()} out to the pool", Command(
        "move_ingredient", player, {"ingredient": k, "to": "pool"}))
        for k in d.INGREDIENTS if k in mine["cellars"]]
    return out


def harvest_extras(session: Session, seat: int, summary: dict[str, Any]) -> list[Option]:
    """The seat's harvest turn, beyond one Ingredient and a plain brew: the Witch's Little
    Helpers' two Ingredients (every pair the board still holds), and a Potion with Any spaces
    brewed with each way the pool's spare Ingredients can pay them (the Pi asks which)."""
    from itertools import combinations_with_replacement

    from companion.games.cauldron import data as d

    player, mine = session.names[seat], summary["players"][seat]
    left = summary.get("ingredients_left") or {}
    out: list[Option] = []
    if mine.get("character") == "witch":
        for a, b in combinations_with_replacement([k for k in d.INGREDIENTS if left.get(k)], 2):
            if a != b or left[a] >= 2:
                out.append((f"two:{a},{b}", f"{_label(a)} and {_label(b)}", Command(
                    "gather", player, {"ingredients": [a, b]})))
    for potion in mine["potions"]:
        need = potion["ingredients"].count(d.ANY)
        if not need:
            continue
        spare = dict(mine["pool"])
        for part in potion["ingredients"]:
            if part != d.ANY and spare.get(part):
                spare[part] -= 1
        kinds = [k for k in d.INGREDIENTS if spare.get(k)]
        for paid in combinations_with_replacement(kinds, need):
            if all(paid.count(k) <= spare[k] for k in paid):
                out.append((f"any:{','.join(paid)}:{potion['name']}",
                            "Any paid with " + ", ".join(map(_label, paid)),
                            Command("brew", player, {"potion": potion["name"],
                                                     "any": list(paid)})))
    return out


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def group_of(key: str) -> str:
    """The heading a phone shows a run of choices under ("" for none): the choices of one
    question stay together ("Return a drop", "Bottle 3: what it holds", "Move bottle 3")."""
    kind, _, rest = key.partition(":")
    bottle = rest.partition(":")[0]
    if kind == "any":
        return f"Brew {rest.partition(':')[2]}"
    return {"drop": "Return a drop", "drops": "Take the drops", "keep": "The magic dice",
            "swap": "Swap two bottles", "break": "The spell-breaking token", "buy": "Buy", "market": "Buy",
            "cast": "Spells", "dome": "Spells", "discard": "Spells",
            "cellar": "Cellars", "two": "Little Helpers: two Ingredients"}.get(kind) or {
        "reveal": f"Bottle {bottle}: what it holds", "move": f"Move bottle {bottle}"}.get(kind, "")
