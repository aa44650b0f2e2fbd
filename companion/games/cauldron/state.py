"""Cauldron state: its setup, and the questions every other module asks of it.

The state is plain JSON data (no int dict keys: seats are list positions or strings). What can
be derived (phase, whose turn, who starts, who has the fewest and most Magik, costs) is derived
and never stored.
"""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleViolation, SetupError
from companion.core import gate
from companion.core.values import name_key
from companion.games.cauldron import contest
from companion.games.cauldron import data as d

State = dict[str, Any]
SEAT_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00")


def _fail(message: str) -> SetupError:
    return SetupError(message)


def _characters(entries: list[Any], chosen: dict[str, str]) -> list[str | None]:
    """Each seat's character: from its record or from ``characters`` (player name to
    character), never two different ones for a seat, never one character for two seats."""
    by_key = {name_key(n): c for n, c in chosen.items()}
    out: list[str | None] = []
    for i, entry in enumerate(entries):
        record = entry if isinstance(entry, dict) else {"name": entry}
        own, listed = record.get("character"), by_key.get(name_key(record["name"]))
        if own and listed and own != listed:
            raise _fail(f"characters.{record['name']}: {record['name']} plays the "
                        f"{d.label(own)} in players[{i}], not the {d.label(listed)}")
        out.append(own or listed)
    for i, character in enumerate(out):
        if character and character in out[:i]:
            raise _fail(f"players: each character can be chosen by one player only; the "
                        f"{d.label(character)} is chosen twice")
    return out


def _player(entry: Any, i: int, character: str | None, variants: list[str],
            start: int) -> dict[str, Any]:
    record = entry if isinstance(entry, dict) else {"name": entry}
    if character == "wizard" and d.SIMPLE in variants:
        raise _fail("players: the Simple Game does not use the Wizard")
    quick = d.QUICK in variants
    if quick and record.get("max_cellars", d.MAX_CELLARS) < 1:
        raise _fail(f"players[{i}].max_cellars: the Quick Game deals each player a Cellar, so "
                    "at least 1")
    spells = [] if d.SIMPLE in variants else ["basic", "basic"] + (["advanced"] if quick else [])
    return {
        "name": record["name"], "colour": SEAT_COLOURS[i], "character": character,
        "ability": record.get("ability", d.ABILITIES.get(character or "", "")),
        "once_per_season": record.get("once_per_season", False), "ability_used": False,
        "magik": start, "potions": [], "owed": ["easy", "basic"] + (["advanced"] if quick else []),
        "spells": spells, "cellars": [None] if quick else [],
        "max_cellars": record.get("max_cellars", d.MAX_CELLARS), "pool": {}, "brews": 0,
    }


def _starting_fields(n: int, variants: list[str], settings: dict[str, Any]) -> dict[str, int]:
    """The starting board; refused if the box (as the settings say) cannot hold it."""
    fields = {i: 0 for i in d.INGREDIENTS}
    for i in d.STARTING_FIELDS:
        fields[i] = n + 1
    if d.QUICK in variants:
        for i in d.QUICK_FIELDS:
            fields[i] += 1
    supply = settings["field_supply"] or {}
    for kind, have in supply.items():
        if fields[kind] > have:
            raise _fail(f"settings.field_supply.{kind}: the starting board needs {fields[kind]} "
                        f"{d.label(kind)} Fields, the box holds {have}")
    if sum(supply.values()) > settings["box_fields"]:
        raise _fail(f"settings.field_supply: {sum(supply.values())} Fields by type, but the box "
                    f"holds {settings['box_fields']} in all")
    if sum(fields.values()) > settings["box_fields"]:
        raise _fail(f"settings.box_fields: the starting board needs {sum(fields.values())} "
                    f"Fields, not {settings['box_fields']}")
    return fields


def setup(config: dict[str, Any]) -> State:
    """The state before the first command, from a setup the gate has checked (a table script's
    first line, the setup screen)."""
    entries = config["players"]
    variants = sorted(set(config.get("variants") or []), key=d.VARIANTS.index)
    start = d.QUICK_START_MAGIK if d.QUICK in variants else d.START_MAGIK
    names = [e["name"] if isinstance(e, dict) else e for e in entries]
    keys = [name_key(n) for n in names]
    for i, key in enumerate(keys):
        if key in keys[:i]:
            raise _fail(f"players[{i}]: two seats have the same name ({names[keys.index(key)]!r} "
                        f"and {names[i]!r})")
    characters = _characters(entries, config.get("characters") or {})
    players = [_player(e, i, characters[i], variants, start) for i, e in enumerate(entries)]
    given = config.get("settings") or {}
    settings = {**d.DEFAULT_SETTINGS, **given}
    supply = settings["field_supply"]
    if supply and set(supply) == set(d.INGREDIENTS) and "box_fields" not in given:
        settings["box_fields"] = sum(supply.values())  # every type counted: that is the box
    if d.QUICK in variants and len(players) > settings["box_cellars"]:
        raise _fail(f"settings.box_cellars: the Quick Game deals each player a Cellar; the box "
                    f"holds {settings['box_cellars']}")
    state: State = {
        "game": "cauldron",
        "players": players,
        "variants": variants,
        "settings": settings,
        "start_magik": start,
        "milestones": {m: {"position": None, "reached": False, "by": None, "season": None}
                       for m in d.MILESTONES},
        "begun": False,
        "season": "harvest",
        "season_number": 1,
        "fields": _starting_fields(len(players), variants, settings),
        "fields_exhausted": [],
        "ingredients_left": {i: 0 for i in d.INGREDIENTS},
        "harvest": new_harvest(),
        "market": None,
        "rolloff": None,
        "last_die": None,
        "over": False,
        "winner": None,
    }
    if config.get("milestones"):
        clash = milestones_clash(state, config["milestones"])
        if clash:
            raise _fail(f"milestones: {clash}")
        place_milestones(state, config["milestones"])
    return state


def market_starter(state: State, gatherer: int) -> int:
    """Who opens the Market: the seat to the left of the last gatherer (the full rules), or to
    the right with the setting ``market_start: "right"`` (the quick reference)."""
    step = 1 if state["settings"]["market_start"] == "left" else -1
    return (gatherer + step) % len(state["players"])


def milestones_clash(state: State, positions: dict[str, int]) -> str | None:
    """Why these positions cannot stand with those already entered, or None: each of the three
    effects is printed on its own space of the Magik Track ("a variety of mysterious effects
    are triggered by the first player to reach certain points"), so no two share one."""
    placed = {m: mark["position"] for m, mark in state["milestones"].items()}
    placed.update(positions)
    for i, key in enumerate(d.MILESTONES):
        others = [m for m in d.MILESTONES[i + 1:]
                  if placed[m] is not None and placed[m] == placed[key]]
        if others:
            names = " and ".join(d.MILESTONE_TEXT[m] for m in (key, *others))
            return (f"{names} cannot share space {placed[key]}: each milestone is its own "
                    "space on the Magik Track")
    return None


def place_milestones(state: State, positions: dict[str, int]) -> None:
    """Set positions (in place); in the Quick Game those at or below the start count as passed."""
    passes = d.QUICK in state["variants"] and state["settings"]["quick_passes_milestones"]
    for key, position in positions.items():
        mark = state["milestones"][key]
        mark["position"] = position
        if passes and not mark["reached"] and position <= state["start_magik"]:
            mark.update(reached=True, by=None, season=0)
        elif mark["season"] == 0 and position > state["start_magik"]:
            mark.update(reached=False, by=None, season=None)  # a corrected position


def new_harvest() -> dict[str, Any]:
    return {"omen": None, "filled": False, "order": None, "turns_taken": 0, "action": None,
            "acted": False, "gathered": [], "steal": None, "last_gatherer": None,
            "gatherer_done": False, "spells_blocked": False}


# -- questions --------------------------------------------------------------------------------
def seat_of(state: State, who: str) -> int:
    """The seat of a named player (NFC and case do not matter), or a refusal naming them."""
    seat = gate.seat_of([p["name"] for p in state["players"]], who)
    if seat is None:
        raise RuleViolation(f"There is no player named {gate.shown(who)} at this table")
    return seat


def name(state: State, seat: int | None) -> str | None:
    return None if seat is None else state["players"][seat]["name"]


def names_text(state: State, seats: list[int]) -> str:
    """[0, 2] -> 'Anna and Carl'; [0, 1, 2] -> 'Anna, Barb and Carl'."""
    names = [state["players"][s]["name"] for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def board_total(state: State) -> int:
    return sum(state["ingredients_left"].values())


def starter(state: State) -> int | None:
    order = state["harvest"]["order"]
    return None if order is None else contest.settle(order)[0]


def phase(state: State) -> str:
    if state["over"]:
        return "over"
    if any(m["position"] is None for m in state["milestones"].values()):
        return "milestones"
    if not state["begun"]:
        return "setup"
    if state["season"] == "market":
        return "market"
    harvest = state["harvest"]
    if harvest["omen"] is None:
        return "omen"
    if not harvest["filled"]:
        return "fill"
    if starter(state) is None:
        return "turn_order"
    return "closing" if harvest["last_gatherer"] is not None else "turns"


def turn(state: State) -> int | None:
    """The seat whose turn it is (harvest turns, the closing gatherer, the market), else None."""
    current = phase(state)
    n = len(state["players"])
    if current in ("turns", "closing"):
        return (starter(state) + state["harvest"]["turns_taken"]) % n
    if current == "market":
        market = state["market"]
        return (market["starter"] + market["done"]) % n
    return None


def awaited_rolls(state: State) -> list[int]:
    """Seats whose turn order die is awaited now."""
    if phase(state) != "turn_order" or state["harvest"]["order"] is None:
        return []
    return contest.settle(state["harvest"]["order"])[1]


def rolloff_waiting(state: State) -> list[int]:
    """Seats whose roll-off die is awaited: none once the roll-off is void."""
    roll = state["rolloff"]
    return [] if roll is None or roll.get("void") else contest.settle(roll)[1]


def tie(state: State, kind: str) -> tuple[list[int], int]:
    """The seats with the fewest ("lsp") or most ("hsp") Magik, and that Magik."""
    seats = lowest(state) if kind == "lsp" else highest(state)
    return seats, state["players"][seats[0]]["magik"]


def outlived(state: State, roll: dict[str, Any] | None) -> bool:
    """A roll-off for fewest or most Magik belongs to the tie it was opened for: the same seats
    tied at the same Magik. Once a Magik change ends or changes that tie, it is void."""
    if roll is None or roll.get("void") or roll["rule"] not in ("lsp", "hsp"):
        return False
    seats, magik = tie(state, roll["rule"])
    return (sorted(roll["contenders"]) != seats
            or (roll.get("magik") is not None and roll["magik"] != magik))


def unlocked(state: State) -> bool:
    """Rituals of Power has been triggered: Advanced Potions and Spells are for sale."""
    return bool(state["milestones"]["rituals_of_power"]["reached"])


def lowest(state: State) -> list[int]:
    low = min(p["magik"] for p in state["players"])
    return [i for i, p in enumerate(state["players"]) if p["magik"] == low]


def highest(state: State) -> list[int]:
    high = max(p["magik"] for p in state["players"])
    return [i for i, p in enumerate(state["players"]) if p["magik"] == high]


def scoring_player(state: State, kind: str) -> int | None:
    """Who has the fewest ("lsp") or most ("hsp") Magik: the only seat with them, or the winner
    of a roll-off held among exactly the seats tied now; None while a tie is undecided."""
    tied = lowest(state) if kind == "lsp" else highest(state)
    if len(tied) == 1:
        return tied[0]
    roll = state["rolloff"]
    if roll and not roll.get("void") and roll["rule"] == kind and sorted(roll["contenders"]) == tied:
        return contest.settle(roll)[0]
    return None


def potions_owned(player: dict[str, Any], kinds: tuple[str, ...] = d.POTION_KINDS) -> int:
    """Potion cards a seat owns, entered or still waiting to be entered."""
    return (sum(1 for p in player["potions"] if p["kind"] in kinds)
            + sum(1 for k in player["owed"] if k in kinds))


def purchase_limit(state: State) -> int:
    return d.ADVANCED_PURCHASES if d.ADVANCED in state["variants"] else d.PURCHASES


def spells_allowed(state: State) -> bool:
    return d.SIMPLE not in state["variants"]


def tokens_in_play(state: State) -> int:
    """Ingredient tokens out of the supply: on the board, in pools, in Cellars."""
    return (board_total(state) + sum(sum(p["pool"].values()) for p in state["players"])
            + sum(1 for p in state["players"] for c in p["cellars"] if c))


def tokens_left(state: State) -> int:
    """Ingredient tokens still in the box's supply."""
    return state["settings"]["box_ingredients"] - tokens_in_play(state)


def cellars_taken(state: State) -> int:
    return sum(len(p["cellars"]) for p in state["players"])


def field_left(state: State, kind: str) -> bool:
    if kind in state["fields_exhausted"]:
        return False
    if sum(state["fields"].values()) >= state["settings"]["box_fields"]:
        return False
    supply = state["settings"]["field_supply"]
    return supply is None or kind not in supply or state["fields"][kind] < supply[kind]


def find_potion(player: dict[str, Any], potion_name: str) -> dict[str, Any] | None:
    wanted = name_key(potion_name.strip())
    return next((p for p in player["potions"] if name_key(p["name"]) == wanted), None)


def in_cellars(player: dict[str, Any], kind: str) -> int:
    return sum(1 for c in player["cellars"] if c == kind)


def podium(state: State) -> list[dict[str, Any]]:
    """Places by Magik; the Grand Infuser is first whatever the others hold. Ties share a place."""
    players = state["players"]
    winner = state["winner"]
    order = sorted(range(len(players)),
                   key=lambda i: (i != winner, -players[i]["magik"], i))
    out: list[dict[str, Any]] = []
    for rank, seat in enumerate(order):
        magik = players[seat]["magik"]
        same = out and out[-1]["magik"] == magik and seat != winner and out[-1]["seat"] != winner
        place = out[-1]["place"] if same else rank + 1
        out.append({"seat": seat, "name": players[seat]["name"], "magik": magik, "place": place,
                    "winner": seat == winner})
    return out
