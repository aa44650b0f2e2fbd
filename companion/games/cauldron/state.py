"""Cauldron state: its setup, and the questions every other module asks of it.

The state is plain JSON data (no int dict keys: seats are list positions or strings). What can
be derived (phase, whose turn, who starts, LSP/HSP, costs) is derived and never stored.
"""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleViolation, SetupError
from companion.games.cauldron import contest
from companion.games.cauldron import data as d

State = dict[str, Any]
SEAT_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00")


def _fail(message: str) -> SetupError:
    return SetupError(message)


def _player(entry: Any, i: int, variants: list[str], start: int) -> dict[str, Any]:
    if isinstance(entry, str):
        entry = {"name": entry}
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        raise _fail("players: give names, or {\"name\": ..., \"character\": ..., \"ability\": ...}")
    name = entry["name"].strip()
    if not name:
        raise _fail("players: every seat needs a name")
    character = None
    if entry.get("character") not in (None, ""):
        try:
            character = d.character(entry["character"], f"players[{i}].character")
        except RuleViolation as problem:
            raise _fail(str(problem)) from None
    if character == "wizard" and d.SIMPLE in variants:
        raise _fail("players: the Simple Game does not use the Wizard")
    ability = entry.get("ability", d.ABILITIES.get(character or "", ""))
    once = entry.get("once_per_season", False)
    cellars_max = entry.get("max_cellars", d.MAX_CELLARS)
    if not isinstance(ability, str) or not isinstance(once, bool):
        raise _fail(f"players[{i}]: ability is text, once_per_season true or false")
    if isinstance(cellars_max, bool) or not isinstance(cellars_max, int) or not 0 <= cellars_max <= 6:
        raise _fail(f"players[{i}].max_cellars: a whole number from 0 to 6")
    quick = d.QUICK in variants
    spells = [] if d.SIMPLE in variants else ["basic", "basic"] + (["advanced"] if quick else [])
    return {
        "name": name, "colour": SEAT_COLOURS[i], "character": character,
        "ability": ability.strip(), "once_per_season": once, "ability_used": False,
        "magik": start, "potions": [], "owed": ["easy", "basic"] + (["advanced"] if quick else []),
        "spells": spells, "cellars": [None] if quick else [], "max_cellars": cellars_max,
        "pool": {}, "brews": 0,
    }


def _settings(raw: Any) -> dict[str, Any]:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise _fail("settings: give a mapping of setting names to values")
    unknown = sorted(set(raw) - set(d.DEFAULT_SETTINGS))
    if unknown:
        raise _fail(f"settings: unknown {unknown}; Cauldron knows {sorted(d.DEFAULT_SETTINGS)}")
    out = {**d.DEFAULT_SETTINGS, **raw}
    if out["market_start"] not in ("left", "right"):
        raise _fail("settings.market_start: \"left\" (full rules) or \"right\" (quick reference)")
    if not isinstance(out["quick_passes_milestones"], bool):
        raise _fail("settings.quick_passes_milestones: true or false")
    supply = out["field_supply"]
    if supply is not None:
        try:
            if not isinstance(supply, dict):
                raise RuleViolation("settings.field_supply: fields per type, e.g. {\"dragon_egg\": 5}")
            out["field_supply"] = {d.ingredient(k, "settings.field_supply"):
                                   d.whole(v, f"settings.field_supply.{k}", 0, 60)
                                   for k, v in supply.items()}
        except RuleViolation as problem:
            raise _fail(str(problem)) from None
    return out


def milestone_positions(raw: Any, field: str = "milestones") -> dict[str, int]:
    """Validate positions the table read from its board: {"Rituals of Power": 20, ...}."""
    if not isinstance(raw, dict) or not raw:
        raise RuleViolation(f"{field}: give positions from your board, e.g. "
                            "{\"magik_overflow\": 12, \"rituals_of_power\": 20, \"the_breaking\": 28}")
    out = {}
    for key, value in raw.items():
        k = d.milestone(key)
        out[k] = d.whole(value, f"{field}.{k}", d.MILESTONE_MIN, d.MILESTONE_MAX)
    return out


def setup(config: dict[str, Any]) -> State:
    """The state before the first command, from a setup such as a table script's first line."""
    entries = config.get("players")
    if not isinstance(entries, list):
        raise _fail("players: give a list of player names in clockwise seat order")
    if not 2 <= len(entries) <= 6:
        raise _fail(f"players: Cauldron is for 2-5 players (6 allowed), not {len(entries)}")
    try:
        variants = sorted({d.variant(v) for v in config.get("variants", []) or []},
                          key=d.VARIANTS.index)
    except RuleViolation as problem:
        raise _fail(str(problem)) from None
    start = d.QUICK_START_MAGIK if d.QUICK in variants else d.START_MAGIK
    players = [_player(e, i, variants, start) for i, e in enumerate(entries)]
    if len({p["name"].casefold() for p in players}) != len(players):
        raise _fail("players: two seats have the same name")
    chosen = [p["character"] for p in players if p["character"]]
    if len(set(chosen)) != len(chosen):
        raise _fail("players: each character can be chosen by one player only")
    settings = _settings(config.get("settings"))
    n = len(players)
    fields = {i: 0 for i in d.INGREDIENTS}
    for i in d.STARTING_FIELDS:
        fields[i] = n + 1
    if d.QUICK in variants:
        for i in d.QUICK_FIELDS:
            fields[i] += 1
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
        "fields": fields,
        "fields_exhausted": [],
        "ingredients_left": {i: 0 for i in d.INGREDIENTS},
        "harvest": new_harvest(),
        "market": None,
        "rolloff": None,
        "last_die": None,
        "over": False,
        "winner": None,
    }
    if config.get("milestones") is not None:
        try:
            positions = milestone_positions(config["milestones"])
        except RuleViolation as problem:
            raise _fail(str(problem)) from None
        place_milestones(state, positions)
    return state


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
def seat_of(state: State, who: Any) -> int:
    for i, player in enumerate(state["players"]):
        if isinstance(who, str) and player["name"].casefold() == who.strip().casefold():
            return i
    raise RuleViolation(f"There is no player named {who!r} at this table")


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
    roll = state["rolloff"]
    return [] if roll is None else contest.settle(roll)[1]


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
    """The LSP or HSP: the only seat with the fewest/most Magik, or the winner of a roll-off
    held among exactly the seats tied now; None while a tie is undecided."""
    tied = lowest(state) if kind == "lsp" else highest(state)
    if len(tied) == 1:
        return tied[0]
    roll = state["rolloff"]
    if roll and roll["rule"] == kind and sorted(roll["contenders"]) == tied:
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


def field_left(state: State, kind: str) -> bool:
    if kind in state["fields_exhausted"]:
        return False
    supply = state["settings"]["field_supply"]
    return supply is None or kind not in supply or state["fields"][kind] < supply[kind]


def find_potion(player: dict[str, Any], potion_name: Any) -> dict[str, Any] | None:
    if not isinstance(potion_name, str):
        return None
    wanted = potion_name.strip().casefold()
    return next((p for p in player["potions"] if p["name"].casefold() == wanted), None)


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
