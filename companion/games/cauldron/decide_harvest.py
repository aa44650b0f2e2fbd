"""Harvest Season commands: the Omen, filling the board, and each turn's one Action (gather,
steal, brew) and its Quick Actions (quick brew, cast a Spell, move ingredients to and from
Cellars), then end_turn. Steal dice are inputs: their events cannot be undone."""

from __future__ import annotations

from companion.core.errors import RuleViolation
from companion.core.model import Command, Event
from companion.games.cauldron import checks as ck
from companion.games.cauldron import data as d
from companion.games.cauldron import potions as pt
from companion.games.cauldron import state as st
from companion.games.cauldron.state import State


def omen(state: State, cmd: Command) -> list[Event]:
    """Phase 1: the Omen's text as read aloud, and what it changes (Magik, produce, who starts)."""
    ck.need_phase(state, ("omen",), "enter an Omen")
    args = cmd.args
    magik = []
    for who, delta in args.get("magik", {}).items():
        seat = st.seat_of(state, who)
        have = state["players"][seat]["magik"]
        magik.append({"seat": seat, "delta": delta, "applied": ck.magik_after(have, delta) - have})
    produce = args.get("produce", {})
    first = args.get("first")
    if first is not None and first not in ("lsp", "hsp"):
        first = st.seat_of(state, first)
    board = sum(max(0, n + produce.get(k, 0)) for k, n in state["fields"].items())
    ck.need_board(state, board, "filling the board as this Omen says")
    return [Event("omen_drawn", {"text": args.get("text", ""), "magik": magik,
                                 "produce": produce, "first": first})]


def expected_board(state: State) -> dict[str, int]:
    """Phase 2: one token per field, changed by the Omen (never below none)."""
    produce = (state["harvest"]["omen"] or {}).get("produce", {})
    return {k: max(0, state["fields"][k] + produce.get(k, 0)) for k in d.INGREDIENTS}


def fill_board(state: State, cmd: Command) -> list[Event]:
    ck.need_phase(state, ("fill",), "fill the board")
    counts = expected_board(state)
    given = cmd.args.get("ingredients")
    if given is not None:
        counts = {k: given.get(k, 0) for k in d.INGREDIENTS}
    if not any(counts.values()):
        raise RuleViolation("The board needs at least one Ingredient: a Harvest Season lasts "
                            "until the last one is gathered")
    ck.need_board(state, sum(counts.values()), "filling the board")
    return [Event("board_filled", {"ingredients": counts})]


def gather(state: State, cmd: Command, seat: int) -> list[Event]:
    ck.need_harvest_turn(state, seat, "gather")
    ck.need_action_free(state, seat, "gathering")
    player = state["players"][seat]
    args = cmd.args
    if ("ingredient" in args) == ("ingredients" in args):
        raise RuleViolation("Name the Ingredient taken from the board: one (or two for the "
                            "Witch's Little Helpers)")
    kinds = args["ingredients"] if "ingredients" in args else [args["ingredient"]]
    helpers = len(kinds) == 2
    if helpers and player["character"] != "witch":
        raise RuleViolation("Gather takes one Ingredient; only the Witch's Little Helpers gathers two")
    if helpers and player["once_per_season"] and player["ability_used"]:
        raise RuleViolation(f"{player['name']}'s Little Helpers is once per season and already used "
                            "this season (Used token): gather one Ingredient")
    for kind in set(kinds):
        left = state["ingredients_left"][kind]
        if kinds.count(kind) > left:
            where = f"only {left}" if left else "no"
            raise RuleViolation(f"The board has {where} {d.label(kind)} left to gather "
                                f"(left: {d.counts_text(state['ingredients_left'])})")
    return [Event("gathered", {"seat": seat, "ingredients": kinds, "helpers": helpers})]


def steal(state: State, cmd: Command, seat: int) -> list[Event]:
    """Declare a steal (target, ingredient) and roll; the roll may come in the same command or
    as the next die. 4 or more succeeds; Cellar ingredients cannot be stolen."""
    args = cmd.args
    pending = state["harvest"]["steal"]
    if pending is not None and pending["roll"] is None and st.turn(state) == seat:
        given = {"target": st.seat_of(state, args["target"]) if "target" in args else None,
                 "ingredient": args.get("ingredient")}
        if any(v is not None and v != pending[k] for k, v in given.items()):
            raise RuleViolation(f"{st.name(state, seat)} is already stealing "
                                f"{d.label(pending['ingredient'])} from "
                                f"{st.name(state, pending['target'])}: roll for that steal")
        if args.get("roll") is None:
            raise RuleViolation("The steal waits for its die: roll it (4 or more succeeds)")
        return [_stole(state, seat, pending["target"], pending["ingredient"], args["roll"])]
    ck.need_harvest_turn(state, seat, "steal")
    ck.need_action_free(state, seat, "stealing")
    if args.get("target") is None or args.get("ingredient") is None:
        raise RuleViolation("Name the player to steal from and the Ingredient to steal")
    target = st.seat_of(state, args["target"])
    if target == seat:
        raise RuleViolation("Steal takes an Ingredient from another player's pool, not your own")
    kind = args["ingredient"]
    victim = state["players"][target]
    if not victim["pool"].get(kind):
        cellar = (" Unless a card says otherwise, an Ingredient stored in a Cellar cannot be "
                  "stolen." if st.in_cellars(victim, kind) else "")
        raise RuleViolation(f"{victim['name']} has no {d.label(kind)} in the pool to steal.{cellar}")
    if args.get("roll") is None:
        return [Event("steal_declared", {"seat": seat, "target": target, "ingredient": kind})]
    return [_stole(state, seat, target, kind, args["roll"])]


def _stole(state: State, seat: int, target: int, kind: str, roll: int) -> Event:
    success = roll >= d.STEAL_SUCCESS
    # An Instant Spell may have emptied the pool meanwhile: the steal then takes nothing.
    taken = success and bool(state["players"][target]["pool"].get(kind))
    return Event("stole", {"seat": seat, "target": target, "ingredient": kind, "roll": roll,
                           "success": success, "taken": taken}, undoable=False)


def brew(state: State, cmd: Command, seat: int) -> list[Event]:
    current = ck.need_harvest_turn(state, seat, "brew")
    player = state["players"][seat]
    potion = st.find_potion(player, cmd.args["potion"])
    if potion is None:
        owned = ", ".join(p["name"] for p in player["potions"]) or "none entered yet"
        raise RuleViolation(f"{player['name']} has no potion named {cmd.args['potion']!r} "
                            f"(potions: {owned}); enter a new card first (Enter a potion card)")
    if not potion["quick"]:
        if current == "closing":
            ck.need_action_free(state, seat, f"brewing {potion['name']}")
        if state["harvest"]["action"] == "gather":
            raise RuleViolation(
                f"Brewing {potion['name']} (not a Quick Potion) is an Action and "
                f"{player['name']} already gathered this turn: a non-Quick Potion cannot be "
                "brewed in the turn its last Ingredient was gathered; brew it next turn")
        ck.need_action_free(state, seat, f"brewing {potion['name']}")
    problem = pt.zone_problem(player, potion)
    if problem:
        raise RuleViolation(problem)
    used = pt.pay(player, potion, cmd.args.get("any"))
    gain, enthusiasm = pt.gain(player, potion)
    spell = potion["spell"] and st.spells_allowed(state)
    return [Event("brewed", {"seat": seat, "potion": potion["name"], "used": used, "gain": gain,
                             "enthusiasm": enthusiasm, "quick": potion["quick"], "spell": spell})]


def cast_spell(state: State, cmd: Command, seat: int) -> list[Event]:
    """A Quick Action on your own turn; an Instant Spell at any moment of the Harvest Season."""
    if not st.spells_allowed(state):
        raise RuleViolation("Simple Game: no Spells are used")
    if state["season"] != "harvest" or st.phase(state) in ("milestones", "setup", "over"):
        if st.phase(state) == "over":
            raise RuleViolation(ck.over_text(state))
        raise RuleViolation("Spells can only be cast during the Harvest Season")
    if state["harvest"]["spells_blocked"]:
        raise RuleViolation("Magik Dome was cast: no further Spells this season")
    instant = cmd.args.get("instant", False)
    dome = cmd.args.get("dome", False)
    if not instant and st.phase(state) == "closing" and st.turn(state) != seat:
        raise RuleViolation(ck.closed_text(state, seat))
    if not instant and (st.phase(state) not in ck.HARVEST_TURN or st.turn(state) != seat):
        raise RuleViolation("Only an Instant Spell can be cast outside your own turn "
                            "(casting a Spell is a Quick Action of your turn)")
    kind = ck.hand_kind(state, seat, cmd.args.get("kind"), "cast")
    return [Event("spell_cast", {"seat": seat, "kind": kind, "instant": instant, "dome": dome,
                                 "name": cmd.args.get("name", ""),
                                 "text": cmd.args.get("text", "")})]


def move_ingredient(state: State, cmd: Command, seat: int) -> list[Event]:
    if st.phase(state) not in ck.HARVEST_TURN or st.turn(state) != seat:
        if st.phase(state) == "over":
            raise RuleViolation(ck.over_text(state))
        if st.phase(state) == "closing":
            raise RuleViolation(ck.closed_text(state, seat))
        raise RuleViolation("Ingredients move in and out of Cellars only on your own turn in the "
                            "Harvest Season (a Quick Action)")
    ck.need_harvest_turn(state, seat, "move ingredients")
    player = state["players"][seat]
    kind, to = cmd.args["ingredient"], cmd.args["to"]
    if to == "cellar":
        if not player["cellars"]:
            raise RuleViolation(f"{player['name']} has no Cellar (buy one in the Market Season)")
        if not player["pool"].get(kind):
            raise RuleViolation(f"{player['name']} has no {d.label(kind)} in the pool to store")
        if None not in player["cellars"]:
            raise RuleViolation(f"Each Cellar holds a single Ingredient and all of "
                                f"{player['name']}'s Cellars are full")
    elif not st.in_cellars(player, kind):
        raise RuleViolation(f"{player['name']} has no {d.label(kind)} in a Cellar")
    return [Event("ingredient_moved", {"seat": seat, "ingredient": kind, "to": to})]


def end_turn(state: State, cmd: Command, seat: int) -> list[Event]:
    current = ck.need_harvest_turn(state, seat, "end the turn")
    player = state["players"][seat]
    skip = cmd.args.get("skip", False)
    if current == "turns" and state["harvest"]["action"] is None and not skip:
        raise RuleViolation(f"{player['name']} must take one Action (gather, steal or brew) while "
                            "able to; if a Spell or Omen forbids it, tap the seat and press "
                            "End the turn without an Action")
    if len(player["spells"]) > d.MAX_SPELLS:
        raise RuleViolation(f"You can hold at most three Spells: {player['name']} holds "
                            f"{len(player['spells'])}; discard down to three before ending the turn")
    skipped = skip and state["harvest"]["action"] is None
    return [Event("turn_ended", {"seat": seat, "skipped": skipped})]
