"""Fold one Cauldron event into the state. Trusts the event (``decide`` validated it)."""

from __future__ import annotations

from typing import Any, Callable

from companion.core.model import Event, copy_plain
from companion.games.cauldron import contest
from companion.games.cauldron import state as st
from companion.games.cauldron.state import State


def _add(counts: dict[str, int], kind: str, n: int = 1) -> None:
    counts[kind] = counts.get(kind, 0) + n
    if counts[kind] == 0:
        del counts[kind]


def _acted(s: State, seat: int) -> None:
    """The seat whose turn it is did something: its turn order can no longer be re-derived."""
    if st.phase(s) in ("turns", "closing") and st.turn(s) == seat:
        s["harvest"]["acted"] = True


def _board_emptied(s: State, seat: int | None) -> None:
    if s["season"] == "harvest" and st.phase(s) == "turns" and st.board_total(s) == 0:
        s["harvest"]["last_gatherer"] = seat if seat is not None else st.turn(s)


def _player(s: State, d: dict[str, Any]) -> dict[str, Any]:
    return s["players"][d["seat"]]


def _milestones_set(s: State, d: dict) -> None:
    st.place_milestones(s, d["positions"])


def _character_set(s: State, d: dict) -> None:
    _player(s, d).update(character=d["character"], ability=d["ability"],
                         once_per_season=d["once_per_season"])


def _begun(s: State, d: dict) -> None:
    s["begun"] = True


def _omen(s: State, d: dict) -> None:
    s["harvest"]["omen"] = {"text": d["text"], "produce": dict(d["produce"]), "first": d["first"]}
    for change in d["magik"]:
        s["players"][change["seat"]]["magik"] += change["applied"]


def _filled(s: State, d: dict) -> None:
    s["ingredients_left"] = dict(d["ingredients"])
    s["harvest"]["filled"] = True


def _order_opened(s: State, d: dict) -> None:
    s["harvest"]["order"] = contest.new(d["contenders"], d["want"], d["rule"], d.get("first"),
                                        d.get("magik"))


def _order_rolled(s: State, d: dict) -> None:
    s["harvest"]["order"] = contest.record(s["harvest"]["order"], d["seat"], d["value"])
    s["last_die"] = "turn_order"


def _gathered(s: State, d: dict) -> None:
    _acted(s, d["seat"])
    player = _player(s, d)
    for kind in d["ingredients"]:
        s["ingredients_left"][kind] -= 1
        _add(player["pool"], kind)
    harvest = s["harvest"]
    harvest["action"] = "gather"
    harvest["gathered"] += list(d["ingredients"])
    if d["helpers"] and player["once_per_season"]:
        player["ability_used"] = True
    _board_emptied(s, d["seat"])


def _steal_declared(s: State, d: dict) -> None:
    _acted(s, d["seat"])
    s["harvest"]["action"] = "steal"
    s["harvest"]["steal"] = {"target": d["target"], "ingredient": d["ingredient"], "roll": None,
                             "success": None, "taken": False}


def _stole(s: State, d: dict) -> None:
    _acted(s, d["seat"])
    s["harvest"]["action"] = "steal"
    s["harvest"]["steal"] = {"target": d["target"], "ingredient": d["ingredient"],
                             "roll": d["roll"], "success": d["success"], "taken": d["taken"]}
    s["last_die"] = "steal"
    if d["taken"]:
        _add(s["players"][d["target"]]["pool"], d["ingredient"], -1)
        _add(_player(s, d)["pool"], d["ingredient"])


def _brewed(s: State, d: dict) -> None:
    _acted(s, d["seat"])
    player = _player(s, d)
    for kind, n in d["used"].items():
        _add(player["pool"], kind, -n)
    player["magik"] += d["gain"]
    player["brews"] += 1
    if not d["quick"]:
        s["harvest"]["action"] = "brew"
    if d["spell"]:
        player["spells"].append("basic")


def _spell_cast(s: State, d: dict) -> None:
    _acted(s, d["seat"])
    _player(s, d)["spells"].remove(d["kind"])
    if d["dome"]:
        s["harvest"]["spells_blocked"] = True


def _spell_discarded(s: State, d: dict) -> None:
    _player(s, d)["spells"].remove(d["kind"])


def _moved(s: State, d: dict) -> None:
    _acted(s, d["seat"])
    player = _player(s, d)
    cellars = player["cellars"]
    if d["to"] == "cellar":
        _add(player["pool"], d["ingredient"], -1)
        cellars[cellars.index(None)] = d["ingredient"]
    else:
        cellars[cellars.index(d["ingredient"])] = None
        _add(player["pool"], d["ingredient"])


def _ability(s: State, d: dict) -> None:
    _acted(s, d["seat"])
    player = _player(s, d)
    if player["once_per_season"]:
        player["ability_used"] = True


def _turn_ended(s: State, d: dict) -> None:
    harvest = s["harvest"]
    if harvest["last_gatherer"] is not None:
        harvest["gatherer_done"] = True
    else:
        harvest["turns_taken"] += 1
    harvest.update(action=None, acted=False, gathered=[], steal=None)


def _magik(s: State, d: dict) -> None:
    _player(s, d)["magik"] += d["applied"]


def _adjusted(s: State, d: dict) -> None:
    if d.get("seat") is not None:
        player = _player(s, d)
        for kind, n in d.get("pool", {}).items():
            _add(player["pool"], kind, n)
        for kind, n in d.get("spells", {}).items():
            for _ in range(abs(n)):
                (player["spells"].append if n > 0 else player["spells"].remove)(kind)
    for kind, n in d.get("board", {}).items():
        s["ingredients_left"][kind] += n
    for kind, n in d.get("fields", {}).items():
        s["fields"][kind] += n
    if d.get("board"):
        _board_emptied(s, None)


def _potion_added(s: State, d: dict) -> None:
    player = _player(s, d)
    player["potions"].append(dict(d["potion"]))
    if d["owed"]:
        player["owed"].remove(d["potion"]["kind"])


def _potion_discarded(s: State, d: dict) -> None:
    player = _player(s, d)
    player["potions"] = [p for p in player["potions"] if p["name"] != d["potion"]]


def _milestone(s: State, d: dict) -> None:
    s["milestones"][d["milestone"]].update(reached=True, by=d["seat"], season=s["season_number"])


def _harvest_closed(s: State, d: dict) -> None:
    for player in s["players"]:
        player["pool"] = {}
        player["ability_used"] = False
    s["season"] = "market"
    s["market"] = {"starter": d["market_starter"], "done": 0, "purchases": 0}


def _bought(s: State, d: dict) -> None:
    player = _player(s, d)
    player["magik"] -= d["cost"]
    if d.get("discard"):
        player["spells"].remove(d["discard"])
    item = d["item"]
    if item == "field":
        s["fields"][d["field"]] += 1
        if d["bonus"]:
            _add(player["pool"], d["field"])
    elif item == "cellar":
        player["cellars"].append(None)
    elif item.endswith("_spell"):
        player["spells"].append(item[: -len("_spell")])
    elif d.get("potion"):
        player["potions"].append(dict(d["potion"]))
    else:
        player["owed"].append(item[: -len("_potion")])
    s["market"]["purchases"] += 1


def _market_turn_ended(s: State, d: dict) -> None:
    s["market"]["done"] += 1
    s["market"]["purchases"] = 0


def _market_closed(s: State, d: dict) -> None:
    s["season"] = "harvest"
    s["season_number"] += 1
    s["harvest"] = st.new_harvest()
    s["market"] = None


def _rolloff_opened(s: State, d: dict) -> None:
    s["rolloff"] = contest.new(d["contenders"], d["want"], d["kind"], magik=d.get("magik"))


def _rolloff_voided(s: State, d: dict) -> None:
    s["rolloff"]["void"] = True


def _rolloff_rolled(s: State, d: dict) -> None:
    s["rolloff"] = contest.record(s["rolloff"], d["seat"], d["value"])
    s["last_die"] = "rolloff"


def _corrected(s: State, d: dict) -> None:
    s["last_die"] = d["kind"]
    if d["kind"] == "rolloff":
        s["rolloff"] = contest.correct(s["rolloff"], d["seat"], d["round"], d["value"])
    elif d["kind"] == "turn_order":
        harvest = s["harvest"]
        harvest["order"] = contest.correct(harvest["order"], d["seat"], d["round"], d["value"])
    else:
        steal = s["harvest"]["steal"]
        kind, target = steal["ingredient"], steal["target"]
        moved = int(d["taken"]) - int(d["was_taken"])
        if moved:
            _add(s["players"][target]["pool"], kind, -moved)
            _add(_player(s, d)["pool"], kind, moved)
        steal.update(roll=d["value"], success=d["success"], taken=d["taken"])


def _exhausted(s: State, d: dict) -> None:
    s["fields_exhausted"].append(d["ingredient"])


def _over(s: State, d: dict) -> None:
    s["over"] = True
    s["winner"] = d["winner"]


FOLDS: dict[str, Callable[[State, dict], None]] = {
    "milestones_set": _milestones_set, "character_set": _character_set, "game_begun": _begun,
    "omen_drawn": _omen, "board_filled": _filled, "turn_order_opened": _order_opened,
    "turn_order_rolled": _order_rolled, "gathered": _gathered, "steal_declared": _steal_declared,
    "stole": _stole, "brewed": _brewed, "spell_cast": _spell_cast,
    "spell_discarded": _spell_discarded, "ingredient_moved": _moved, "ability_used": _ability,
    "turn_ended": _turn_ended, "magik_adjusted": _magik, "adjusted": _adjusted,
    "potion_added": _potion_added, "potion_discarded": _potion_discarded,
    "milestone_reached": _milestone, "harvest_closed": _harvest_closed, "bought": _bought,
    "market_turn_ended": _market_turn_ended, "market_closed": _market_closed,
    "rolloff_opened": _rolloff_opened, "rolloff_rolled": _rolloff_rolled,
    "rolloff_voided": _rolloff_voided,
    "roll_corrected": _corrected, "fields_exhausted": _exhausted, "game_over": _over,
}


def evolve(state: State, event: Event) -> State:
    fold = FOLDS.get(event.type)
    if fold is None:
        raise ValueError(f"cauldron: unknown event {event.type!r}")
    s = copy_plain(state)
    fold(s, event.data)
    return s
