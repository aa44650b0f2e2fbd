"""Plays whole games of Cauldron with a seeded, rule-abiding table, for scenario, replay and
crash tests. The choices are random, the commands legal, so every one becomes a step."""

from __future__ import annotations

import random
from typing import Any

from companion.core import Command, RuleViolation, Session
from companion.games.cauldron import RULES
from companion.games.cauldron import data as d
from companion.games.cauldron import market as mk
from companion.games.cauldron import potions as pt
from companion.games.cauldron import state as st
from tests.support.commands import do, refused  # noqa: F401 (the cauldron tests import them from here)

MILESTONES = {"magik_overflow": 12, "rituals_of_power": 18, "the_breaking": 27}
COMMON = list(d.STARTING_FIELDS)


def setup_for(n: int, variants: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    names = ["Anna", "Barb", "Carl", "Dora", "Emil", "Fynn"][:n]
    characters = ["witch", "druid", "trickster", "shaman", "alchemist", "occultist"]
    players = [{"name": who, "character": c} for who, c in zip(names, characters)]
    return {"players": players, "variants": list(variants or []),
            "milestones": dict(MILESTONES), **extra}


def potion_card(rng: random.Random, kind: str, name: str, fields: dict[str, int]) -> dict[str, Any]:
    size = {"easy": rng.choice([2, 3]), "basic": rng.choice([2, 3, 3, 4]),
            "advanced": rng.choice([3, 4, 5])}[kind]
    grown = [k for k in d.INGREDIENTS if fields[k]] or COMMON
    parts = [rng.choice(grown if rng.random() < 0.85 else list(d.INGREDIENTS))
             for _ in range(size)]
    if rng.random() < 0.15:
        parts[-1] = "any"
    base = {"easy": 1, "basic": 2, "advanced": 4}[kind]
    return {"name": name, "kind": kind, "yield": base + size + rng.randint(0, 2),
            "ingredients": parts, "quick": rng.random() < 0.2, "spell": rng.random() < 0.25}


def _new_name(state: dict[str, Any], seat: int, kind: str) -> str:
    taken = {p["name"] for p in state["players"][seat]["potions"]}
    k = 1
    while f"{kind.title()} {seat}-{k}" in taken:
        k += 1
    return f"{kind.title()} {seat}-{k}"


def _any_pay(player: dict[str, Any], potion: dict[str, Any]) -> list[str] | None:
    try:
        pt.pay(player, potion)
        return None
    except RuleViolation:
        pool = dict(player["pool"])
        for part in potion["ingredients"]:
            if part != "any":
                pool[part] -= 1
        rest = [k for k, v in pool.items() for _ in range(v)]
        return rest[: potion["ingredients"].count("any")]


def _brewable(state: dict[str, Any], seat: int, quick: bool) -> list[dict[str, Any]]:
    player = state["players"][seat]
    return [p for p in player["potions"] if p["quick"] == quick
            and not pt.zone_problem(player, p) and not pt.lacks(player, p)]


def _brew(state: dict[str, Any], who: str, seat: int, potion: dict[str, Any]) -> Command:
    args: dict[str, Any] = {"potion": potion["name"]}
    pay = _any_pay(state["players"][seat], potion)
    if pay is not None:
        args["any"] = pay
    return Command("brew", who, args)


def _wanted(state: dict[str, Any], seat: int) -> list[str]:
    player = state["players"][seat]
    want = []
    for p in player["potions"]:
        if pt.zone_problem(player, p):
            continue
        for part in p["ingredients"]:
            if part != "any" and player["pool"].get(part, 0) < p["ingredients"].count(part):
                want.append(part)
    return want


def _harvest_turn(session: Session, rng: random.Random, seat: int) -> Command:
    state = session.state
    player = state["players"][seat]
    who = player["name"]
    harvest = state["harvest"]
    quick = _brewable(state, seat, True)
    if quick:
        return _brew(state, who, seat, quick[0])
    if player["spells"] and rng.random() < 0.15 and not harvest["spells_blocked"]:
        return Command("cast_spell", who, {"kind": player["spells"][0], "name": "Some spell",
                                           "dome": rng.random() < 0.05})
    if None in player["cellars"] and player["pool"] and rng.random() < 0.2:
        return Command("move_ingredient", who, {"ingredient": next(iter(player["pool"])),
                                                "to": "cellar"})
    stored = [c for c in player["cellars"] if c]
    if stored and rng.random() < 0.3:
        return Command("move_ingredient", who, {"ingredient": stored[0], "to": "pool"})
    if harvest["action"] is None and st.phase(state) == "turns":
        slow = _brewable(state, seat, False)
        if slow:
            return _brew(state, who, seat, max(slow, key=lambda p: p["yield"]))
        victims = [i for i, p in enumerate(state["players"]) if i != seat and p["pool"]]
        if victims and rng.random() < 0.12:
            target = rng.choice(victims)
            kind = rng.choice(sorted(state["players"][target]["pool"]))
            args: dict[str, Any] = {"target": state["players"][target]["name"], "ingredient": kind}
            if rng.random() < 0.5:
                args["roll"] = rng.randint(1, 6)
            return Command("steal", who, args)
        board = [k for k, v in state["ingredients_left"].items() for _ in range(v)]
        wanted = [k for k in _wanted(state, seat) if k in board]
        first = rng.choice(wanted) if wanted and rng.random() < 0.8 else rng.choice(board)
        if player["character"] == "witch" and len(board) >= 2:
            board.remove(first)
            return Command("gather", who, {"ingredients": [first, rng.choice(board)]})
        return Command("gather", who, {"ingredient": first})
    if len(player["spells"]) > d.MAX_SPELLS:
        return Command("discard_spell", who, {"kind": player["spells"][0]})
    return Command("end_turn", who)


def _market_turn(session: Session, rng: random.Random, seat: int) -> Command:
    state = session.state
    player = state["players"][seat]
    who = player["name"]
    two = [p for p in player["potions"] if len(p["ingredients"]) == 2]
    if player["magik"] >= 23 and two:
        return Command("discard_potion", who, {"potion": two[0]["name"]})
    offers = [o for o in mk.offers(state, seat) if o["reason"] is None]
    if not offers or rng.random() < 0.2:
        return Command("pass", who)
    weights = {"basic_potion": 4, "advanced_potion": 4, "field": 2, "cellar": 1,
               "basic_spell": 1, "advanced_spell": 1}
    offer = rng.choices(offers, [weights[o["item"]] for o in offers])[0]
    args: dict[str, Any] = {"item": offer["item"]}
    if offer["item"] == "field":
        free = [k for k, why in offer["fields"].items() if why is None]
        args["field"] = rng.choice(free)
    if offer.get("discard_first"):
        args["discard"] = player["spells"][0]
    if offer["item"].endswith("_potion") and rng.random() < 0.5:
        kind = offer["item"][: -len("_potion")]
        args["potion"] = potion_card(rng, kind, _new_name(state, seat, kind), state["fields"])
    return Command("buy", who, args)


def next_command(session: Session, rng: random.Random) -> Command:
    state = session.state
    prompt = session.prompt()
    phase = prompt["phase"]
    for seat, player in enumerate(state["players"]):
        if player["owed"] and (phase == "setup" or rng.random() < 0.5):
            kind = player["owed"][0]
            card = potion_card(rng, kind, _new_name(state, seat, kind), state["fields"])
            return Command("add_potion", player["name"], {"potion": card})
    if "die" in prompt["inputs"]:
        return Command("roll", None, {"value": rng.randint(1, 6)})
    if phase == "milestones":
        return Command("set_milestones", args={"milestones": dict(MILESTONES)})
    if phase == "setup":
        return Command("begin")
    if phase == "omen":
        args: dict[str, Any] = {"text": f"Omen {state['season_number']}"}
        names = [p["name"] for p in state["players"]]
        if rng.random() < 0.3:
            args["magik"] = {rng.choice(names): rng.choice([-2, -1, 1, 2])}
        if rng.random() < 0.2:
            args["produce"] = {rng.choice(COMMON): rng.choice([-1, 1])}
        if rng.random() < 0.1:
            args["first"] = rng.choice(names + ["lsp", "hsp"])
        return Command("omen", args=args)
    if phase == "fill":
        return Command("fill_board")
    if phase in ("turns", "closing"):
        return _harvest_turn(session, rng, prompt["seat"])
    if phase == "market":
        return _market_turn(session, rng, prompt["seat"])
    raise AssertionError(f"autoplay has no move for phase {phase!r}")


def play(setup: dict[str, Any], seed: int = 1, limit: int = 4000) -> tuple[Session, list[Command]]:
    """A whole game from ``setup``; returns the finished session and the commands played."""
    rng = random.Random(seed)
    session = Session(RULES, setup)
    commands: list[Command] = []
    while not session.over:
        if len(commands) >= limit:
            raise AssertionError(f"autoplay: the game did not end: {session.prompt()['text']}")
        command = next_command(session, rng)
        session.execute(command)
        commands.append(command)
    return session, commands


# -- helpers for the rule tests -------------------------------------------------------------
NAMES = ["Anna", "Barb", "Carl", "Dora", "Emil", "Fynn"]


def new(n: int = 3, variants: list[str] | None = None, *, witch: str | None = None,
        milestones: dict[str, int] | None = MILESTONES, **extra: Any) -> Session:
    """A fresh session; ``witch`` names the seat playing the Witch."""
    players: list[Any] = [
        {"name": who, "character": "witch"} if who == witch else who for who in NAMES[:n]]
    config: dict[str, Any] = {"players": players, "variants": list(variants or []), **extra}
    if milestones is not None:
        config["milestones"] = dict(milestones)
    return Session(RULES, config)




def potion(name: str, ingredients: list[str], gain: int = 4, kind: str = "basic",
           quick: bool = False, spell: bool = False) -> dict[str, Any]:
    return {"name": name, "kind": kind, "yield": gain, "ingredients": ingredients,
            "quick": quick, "spell": spell}


def give(s: Session, who: str, name: str, ingredients: list[str], gain: int = 4,
         kind: str = "basic", quick: bool = False, spell: bool = False) -> None:
    """Enter a potion card for ``who`` (as a correction when no card of that kind is waiting)."""
    args: dict[str, Any] = {"potion": potion(name, ingredients, gain, kind, quick, spell)}
    if kind not in s.state["players"][NAMES.index(who)]["owed"]:
        args["source"] = "correction"
    do(s, "add_potion", who, **args)


def pool(s: Session, who: str, **counts: int) -> None:
    do(s, "adjust", who, pool=counts)


def start(s: Session, first: str = "Anna", omen: dict[str, Any] | None = None) -> Session:
    """Begin (if needed), enter an Omen, fill the board and roll so ``first`` starts."""
    if s.prompt()["phase"] == "setup":
        do(s, "begin")
    do(s, "omen", **(omen or {"text": "A quiet night"}))
    do(s, "fill_board")
    if s.prompt()["phase"] == "turn_order":
        seats = [p["name"] for p in s.state["players"]]
        values = iter([1, 2, 3, 4, 5, 2, 3])
        for who in seats:
            if who in [st.name(s.state, x) for x in st.awaited_rolls(s.state)]:
                do(s, "turn_order_roll", who, value=6 if who == first else next(values))
    return s


def magik(s: Session, who: str) -> int:
    return s.state["players"][NAMES.index(who)]["magik"]


def player(s: Session, who: str) -> dict[str, Any]:
    return s.state["players"][NAMES.index(who)]


def set_magik(s: Session, who: str, value: int) -> None:
    """Move a seat's token with corrections (never past 34)."""
    delta = value - magik(s, who)
    if delta:
        do(s, "adjust_magik", who, delta=delta, source="correction")


def empty_board_but(s: Session, **left: int) -> None:
    """Correct the board so only ``left`` remains (to reach the season's end quickly)."""
    change = {k: left.get(k, 0) - v for k, v in s.state["ingredients_left"].items()
              if left.get(k, 0) != v}
    do(s, "adjust", board=change)


def to_market(s: Session, gatherer: str = "Anna", omen: dict[str, Any] | None = None) -> Session:
    """Play a Harvest where ``gatherer`` takes the last Ingredient at once: the Market opens."""
    start(s, first=gatherer, omen=omen)
    empty_board_but(s, spider_web=1)
    do(s, "gather", gatherer, ingredient="spider_web")
    do(s, "end_turn", gatherer)
    assert s.prompt()["phase"] == "market"
    return s


def brew_the_win(s: Session, others: tuple[str, ...] = ("Barb", "Carl")) -> None:
    """Anna, given 32 Magik and the pool for her Elixir 0 (two spider webs and its "any"), brews
    it past 35: the game ends, the seats in ``others`` 10 Magik up for the podium."""
    s.execute(Command("adjust_magik", "Anna", {"delta": 32}))
    for who in others:
        s.execute(Command("adjust_magik", who, {"delta": 10}))
    s.execute(Command("adjust", "Anna", {"pool": {"spider_web": 2, "frog_legs": 1}}))
    s.execute(Command("brew", "Anna", {"potion": "Elixir 0", "any": ["frog_legs"]}))
