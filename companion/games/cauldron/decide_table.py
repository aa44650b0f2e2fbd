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

SOURCES = ("omen", "spell", "milestone", "ability", "potion", "correction")


def _not_over(state: State) -> None:
    if state["over"]:
        raise RuleViolation(ck.over_text(state))


def set_milestones(state: State, cmd: Command) -> list[Event]:
    """Positions of Magik Overflow, Rituals of Power and The Breaking, read from the board."""
    _not_over(state)
    raw = cmd.args.get("milestones", cmd.args.get("positions", cmd.args))
    positions = st.milestone_positions(raw)
    for key, position in positions.items():
        mark = state["milestones"][key]
        if mark["reached"] and mark["season"] != 0 and position != mark["position"]:
            raise RuleViolation(f"{d.MILESTONE_TEXT[key]} has already been triggered: its "
                                "position can no longer change")
    return [Event("milestones_set", {"positions": positions})]


def set_character(state: State, cmd: Command, seat: int) -> list[Event]:
    _not_over(state)
    args = cmd.args
    character = d.character(args.get("character"))
    if character == "wizard" and d.SIMPLE in state["variants"]:
        raise RuleViolation("The Simple Game does not use the Wizard")
    for i, other in enumerate(state["players"]):
        if i != seat and other["character"] == character:
            raise RuleViolation(f"{other['name']} already plays the {d.label(character)}: "
                                "each character is chosen once")
    ability = args.get("ability", d.ABILITIES.get(character, ""))
    once = args.get("once_per_season", False)
    if not isinstance(once, bool):
        raise RuleViolation("once_per_season: true or false (as the card says)")
    return [Event("character_set", {"seat": seat, "character": character,
                                    "ability": ck.text(ability, "ability"),
                                    "once_per_season": once})]


def begin(state: State, cmd: Command) -> list[Event]:
    ck.need_phase(state, ("setup",), "begin the game")
    return [Event("game_begun", {})]


def add_potion(state: State, cmd: Command, seat: int) -> list[Event]:
    """Enter a potion card once; it is then brewed by name for the rest of the game."""
    _not_over(state)
    player = state["players"][seat]
    card = pt.card(cmd.args.get("potion"))
    if st.find_potion(player, card["name"]):
        raise RuleViolation(f"{player['name']} already has a potion named {card['name']!r}; "
                            "potions are entered once and brewed again by name")
    source = cmd.args.get("source")
    owed = card["kind"] in player["owed"]
    if not owed and source is None:
        waiting = ", ".join(d.KIND_TEXT[k] for k in player["owed"]) or "none"
        raise RuleViolation(f"{player['name']} has no {d.KIND_TEXT[card['kind']]} card waiting to "
                            f"be entered (waiting: {waiting}); potions come from setup and the "
                            "Market, else say where from (\"source\": \"omen\", \"spell\" ...)")
    return [Event("potion_added", {"seat": seat, "potion": card, "owed": owed,
                                   "source": ck.text(source, "source", 40)})]


def discard_potion(state: State, cmd: Command, seat: int) -> list[Event]:
    """Discarding potions lowers the price of new ones (and rids a seat of two-ingredient
    potions past 25 Magik)."""
    _not_over(state)
    player = state["players"][seat]
    potion = st.find_potion(player, ck.name_of_potion(cmd.args.get("potion")))
    if potion is None:
        raise RuleViolation(f"{player['name']} has no potion named {cmd.args.get('potion')!r}")
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
    return [Event("ability_used", {"seat": seat, "note": ck.text(cmd.args.get("note"), "note")})]


def adjust_magik(state: State, cmd: Command, seat: int) -> list[Event]:
    """Magik from a Spell, an Omen, a milestone or a correction: never past 34 (35 is reached
    only by brewing) nor below 0."""
    _not_over(state)
    delta = d.whole(cmd.args.get("delta"), "delta", -d.WIN, d.WIN)
    if delta == 0:
        raise RuleViolation("delta: a change of 0 changes nothing")
    source = cmd.args.get("source", "correction")
    if source not in SOURCES:
        raise RuleViolation(f"source: one of {', '.join(SOURCES)}")
    have = state["players"][seat]["magik"]
    applied = ck.magik_after(have, delta) - have
    return [Event("magik_adjusted", {"seat": seat, "delta": delta, "applied": applied,
                                     "source": source})]


def _deltas(raw: Any, field: str, keys: tuple[str, ...], have: dict[str, int]) -> dict[str, int]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise RuleViolation(f"{field}: give amounts by name, e.g. {{\"{keys[0]}\": 1}}")
    out: dict[str, int] = {}
    for key, delta in raw.items():
        k = d.ingredient(key, field) if keys == d.INGREDIENTS else key
        if k not in keys:
            raise RuleViolation(f"{field}: {key!r} is not one of {', '.join(keys)}")
        delta = d.whole(delta, f"{field}.{k}", -60, 60)
        if have.get(k, 0) + delta < 0:
            raise RuleViolation(f"{field}: only {have.get(k, 0)} {k.replace('_', ' ')} to take away")
        if delta:
            out[k] = delta
    return out


def adjust(state: State, cmd: Command) -> list[Event]:
    """A correction by hand: a seat's pool or Spells, the board's ingredients or fields."""
    _not_over(state)
    args = cmd.args
    data: dict[str, Any] = {"note": ck.text(args.get("note"), "note")}
    if cmd.player is not None:
        seat = st.seat_of(state, cmd.player)
        player = state["players"][seat]
        spells = {k: player["spells"].count(k) for k in d.SPELL_KINDS}
        data.update(seat=seat,
                    pool=_deltas(args.get("pool"), "pool", d.INGREDIENTS, player["pool"]),
                    spells=_deltas(args.get("spells"), "spells", d.SPELL_KINDS, spells))
    elif args.get("pool") or args.get("spells"):
        raise RuleViolation("adjust: say whose pool or Spells change (\"player\": name)")
    data["board"] = _deltas(args.get("board"), "board", d.INGREDIENTS, state["ingredients_left"])
    data["fields"] = _deltas(args.get("fields"), "fields", d.INGREDIENTS, state["fields"])
    if not any(data.get(k) for k in ("pool", "spells", "board", "fields")):
        raise RuleViolation("adjust: nothing to change (pool, spells, board or fields)")
    return [Event("adjusted", data)]


def fields_exhausted(state: State, cmd: Command) -> list[Event]:
    """The table says a field type has run out of the box: it can no longer be bought."""
    _not_over(state)
    kind = d.ingredient(cmd.args.get("ingredient", cmd.args.get("field")), "ingredient")
    if kind in state["fields_exhausted"]:
        raise RuleViolation(f"{d.label(kind)} Fields are already marked as run out")
    return [Event("fields_exhausted", {"ingredient": kind})]
