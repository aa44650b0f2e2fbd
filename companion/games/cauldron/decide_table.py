"""Commands of the whole table rather than of a turn: setup (milestones, characters, begin),
potion cards entered from the cardboard, discards, abilities, and corrections by hand
(adjust_magik, adjust, a field type run out). The companion never takes the game away."""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleViolation
from companion.core.model import Command, Event
from companion.games.cauldron import checks as ck
from companion.games.cauldron import data as d
from companion.games.cauldron import potions as pt
from companion.games.cauldron import state as st
from companion.games.cauldron.state import State



def _not_over(state: State) -> None:
    if state["over"]:
        raise RuleViolation(ck.over_text(state))


def set_milestones(state: State, cmd: Command) -> list[Event]:
    """Positions of Magik Overflow, Rituals of Power and The Breaking, read from the board."""
    _not_over(state)
    positions = cmd.args["milestones"]
    if not positions:
        raise RuleViolation("Enter at least one milestone's position from your Magik Track")
    for key, position in positions.items():
        mark = state["milestones"][key]
        if mark["reached"] and mark["season"] != 0 and position != mark["position"]:
            raise RuleViolation(f"{d.MILESTONE_TEXT[key]} has already been triggered: its "
                                "position can no longer change")
    clash = st.milestones_clash(state, positions)
    if clash:
        raise RuleViolation(clash)
    return [Event("milestones_set", {"positions": positions})]


def set_character(state: State, cmd: Command, seat: int) -> list[Event]:
    _not_over(state)
    args = cmd.args
    character = args["character"]
    if character == "wizard" and d.SIMPLE in state["variants"]:
        raise RuleViolation("The Simple Game does not use the Wizard")
    for i, other in enumerate(state["players"]):
        if i != seat and other["character"] == character:
            raise RuleViolation(f"{other['name']} already plays the {d.label(character)}: "
                                "each character is chosen once")
    return [Event("character_set", {"seat": seat, "character": character,
                                    "ability": args.get("ability", d.ABILITIES.get(character, "")),
                                    "once_per_season": args.get("once_per_season", False)})]


def begin(state: State, cmd: Command) -> list[Event]:
    ck.need_phase(state, ("setup",), "begin the game")
    # Beginning before every dealt card is entered is allowed (the cards may come later, as
    # the notes remind), but it is said: the step names each seat's cards still to enter.
    owed = {str(i): list(p["owed"]) for i, p in enumerate(state["players"]) if p["owed"]}
    return [Event("game_begun", {"owed": owed} if owed else {})]


def add_potion(state: State, cmd: Command, seat: int) -> list[Event]:
    """Enter a potion card once; it is then brewed by name for the rest of the game."""
    _not_over(state)
    player = state["players"][seat]
    card = pt.card(cmd.args["potion"])
    if st.find_potion(player, card["name"]):
        raise RuleViolation(f"{player['name']} already has a potion named {card['name']!r}; "
                            "potions are entered once and brewed again by name")
    source = cmd.args.get("source")
    owed = card["kind"] in player["owed"]
    if not owed and source is None:
        waiting = ", ".join(d.KIND_TEXT[k] for k in player["owed"]) or "none"
        raise RuleViolation(f"{player['name']} has no {d.KIND_TEXT[card['kind']]} card waiting to "
                            f"be entered (waiting: {waiting}); potions come from setup and the "
                            "Market, else say where this one comes from (an Omen, a Spell, a "
                            "milestone, an ability, a potion or a correction)")
    return [Event("potion_added", {"seat": seat, "potion": card, "owed": owed,
                                   "source": source or ""})]


def discard_potion(state: State, cmd: Command, seat: int) -> list[Event]:
    """Discarding potions lowers the price of new ones (and rids a seat of two-ingredient
    potions past 25 Magik)."""
    _not_over(state)
    player = state["players"][seat]
    potion = st.find_potion(player, cmd.args["potion"])
    if potion is None:
        raise RuleViolation(f"{player['name']} has no potion named {cmd.args['potion']!r}")
    return [Event("potion_discarded", {"seat": seat, "potion": potion["name"]})]


def discard_spell(state: State, cmd: Command, seat: int) -> list[Event]:
    _not_over(state)
    kind = ck.hand_kind(state, seat, cmd.args.get("kind"), "discard")
    return [Event("spell_discarded", {"seat": seat, "kind": kind})]


def use_ability(state: State, cmd: Command, seat: int) -> list[Event]:
    """A character ability used as its card says; once-per-season ones take a Used token."""
    _not_over(state)
    if not state["begun"]:
        raise RuleViolation("Abilities are used during play, after setup")
    player = state["players"][seat]
    if player["once_per_season"] and player["ability_used"]:
        raise RuleViolation(f"{player['name']}'s ability is once per season and already used this "
                            "season (Used token)")
    return [Event("ability_used", {"seat": seat, "note": cmd.args.get("note", "")})]


def adjust_magik(state: State, cmd: Command, seat: int) -> list[Event]:
    """Magik from a Spell, an Omen, a milestone or a correction: never past 34 (35 is reached
    only by brewing) nor below 0."""
    _not_over(state)
    delta = cmd.args["delta"]
    if delta == 0:
        raise RuleViolation("A Magik change of 0 changes nothing")
    have = state["players"][seat]["magik"]
    applied = ck.magik_after(have, delta) - have
    return [Event("magik_adjusted", {"seat": seat, "delta": delta, "applied": applied,
                                     "source": cmd.args.get("source", "correction")})]


def _deltas(given: dict[str, int], have: dict[str, int], where: str, word: str) -> dict[str, int]:
    """The non-zero changes; none may take away more than there is."""
    for key, delta in given.items():
        if have.get(key, 0) + delta < 0:
            raise RuleViolation(f"{where} holds only {have.get(key, 0)} {word(key)}: "
                                f"{-delta} cannot be taken away")
    return {k: v for k, v in given.items() if v}


def _ingredient(kind: str) -> str:
    return d.label(kind)


def _box(state: State, data: dict[str, Any]) -> None:
    """A correction still fits the box: its Ingredient tokens and Fields."""
    more = sum(data.get("pool", {}).values()) + sum(data.get("board", {}).values())
    if more > 0:
        ck.need_tokens(state, more, "this correction")
    fields = data.get("fields", {})
    box = state["settings"]["box_fields"]
    total = sum(state["fields"].values()) + sum(fields.values())
    if fields and total > box:
        raise RuleViolation(f"The box holds {box} Fields: the board would have {total}")
    supply = state["settings"]["field_supply"] or {}
    for kind, delta in fields.items():
        if kind in supply and state["fields"][kind] + delta > supply[kind]:
            raise RuleViolation(f"The box holds {supply[kind]} {d.label(kind)} Fields: the board "
                                f"would have {state['fields'][kind] + delta}")


def adjust(state: State, cmd: Command) -> list[Event]:
    """A correction by hand: a seat's pool or Spells, the board's ingredients or fields."""
    _not_over(state)
    args = cmd.args
    data: dict[str, Any] = {"note": args.get("note", "")}
    if cmd.player is not None:
        seat = st.seat_of(state, cmd.player)
        player = state["players"][seat]
        spells = {k: player["spells"].count(k) for k in d.SPELL_KINDS}
        data.update(seat=seat,
                    pool=_deltas(args.get("pool", {}), player["pool"],
                                 f"{player['name']}'s pool", _ingredient),
                    spells=_deltas(args.get("spells", {}), spells, f"{player['name']}'s hand",
                                   lambda k: f"{k.title()} Spells"))
        if d.SIMPLE in state["variants"] and any(n > 0 for n in data["spells"].values()):
            raise RuleViolation("Simple Game: no Spells are used")
    elif args.get("pool") or args.get("spells"):
        raise RuleViolation("Say whose pool or Spells change: correct them from that player's seat")
    data["board"] = _deltas(args.get("board", {}), state["ingredients_left"], "The board",
                            _ingredient)
    data["fields"] = _deltas(args.get("fields", {}), state["fields"], "The board",
                             lambda k: f"{d.label(k)} Fields")
    if not any(data.get(k) for k in ("pool", "spells", "board", "fields")):
        raise RuleViolation("Nothing to correct: change a count of the pool, the Spells, the "
                            "board or the Fields first")
    _box(state, data)
    return [Event("adjusted", data)]


def fields_exhausted(state: State, cmd: Command) -> list[Event]:
    """The table says a field type has run out of the box: it can no longer be bought."""
    _not_over(state)
    kind = cmd.args["ingredient"]
    if kind in state["fields_exhausted"]:
        raise RuleViolation(f"{d.label(kind)} Fields are already marked as run out")
    return [Event("fields_exhausted", {"ingredient": kind})]
