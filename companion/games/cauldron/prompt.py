"""What the table sees and presses: the prompt, the state summary, results, the input map."""

from __future__ import annotations

from typing import Any

from companion.core.model import Command, InputEvent
from companion.games.cauldron import contest
from companion.games.cauldron import data as d
from companion.games.cauldron import market as mk
from companion.games.cauldron import potions as pt
from companion.games.cauldron import state as st
from companion.games.cauldron.state import State

END_BUTTONS = ("pass", "end", "next", "done")
ACTION_WORDS = {"gather": "gathered", "steal": "stole", "brew": "brewed"}


_names = st.names_text


def _setup_text(state: State) -> str:
    n = len(state["players"])
    fields = ", ".join(f"{state['fields'][k]} {d.label(k)}" for k in d.INGREDIENTS
                       if state["fields"][k])
    quick = d.QUICK in state["variants"]
    deal = "2 Basic Potions (one of them Easy)"   # each thing said once
    if d.SIMPLE not in state["variants"]:
        deal += ", 2 Basic Spells"
    if quick:
        deal += ", 1 Advanced Potion" + ("" if d.SIMPLE in state["variants"] else
                                         ", 1 Advanced Spell") + ", 1 Cellar"
    return (f"Setup for {n}: lay out the starting Fields ({fields}); set the 6 Basic Potions "
            f"(Easy) aside; deal each player {deal}; Character tokens on "
            f"{state['start_magik']} Magik. Enter each potion card, then begin")


def _harvest_turn_text(state: State, seat: int) -> str:
    who = st.name(state, seat)
    harvest = state["harvest"]
    steal = harvest["steal"]
    if st.phase(state) == "closing":
        return (f"The last Ingredient is gathered: {who} may take Quick Actions (quick brew, "
                "Spells, Cellars), then end the turn to close the Harvest Season")
    if steal is not None and steal["roll"] is None:
        # the die decides: until it is rolled the steal is only tried (the log's own words)
        return (f"{who} tries to steal {d.label(steal['ingredient'])} from "
                f"{st.name(state, steal['target'])}: roll a die (4 or more succeeds)")
    if harvest["action"] is None:
        return (f"{who}'s turn: one Action (gather, steal or brew) and any Quick Actions; "
                f"on the board: {d.counts_text(state['ingredients_left'])}")
    done = ACTION_WORDS[harvest["action"]]
    if steal is not None:    # what the die said, never "stole" for a steal that failed
        victim = st.name(state, steal["target"])
        done = (f"stole {d.label(steal['ingredient'])} from {victim}" if steal["success"]
                else f"failed to steal from {victim} (caught)")
    return f"{who} {done}: Quick Actions if any, then end the turn"


def _order_text(state: State) -> str:
    order = state["harvest"]["order"]
    winner, waiting, index = contest.settle(order)
    by_omen = (state["harvest"]["omen"] or {}).get("first") in ("lsp", "hsp")
    said = "The Omen: " if by_omen else "Less Luck: "      # who named the lowest score
    rule = (f"{said}{d.SCORING_TEXT['lsp']} starts; tied seats roll, lowest roll starts"
            if order["rule"] == "lsp" else
            f"{said}{d.SCORING_TEXT['hsp']} starts; tied seats roll, highest starts"
            if order["rule"] == "hsp" else "every player rolls a die, the highest starts")
    if index > 0:
        tied, value = contest.tied_at(order, index - 1)
        return (f"Turn order: tie at {value} between {_names(state, tied)}: only they roll "
                f"again; waiting for {_names(state, waiting)}")
    return f"Turn order ({rule}): waiting for {_names(state, waiting)}"


def _market_text(state: State, seat: int) -> str:
    market = state["market"]
    left = st.purchase_limit(state) - market["purchases"]
    who = st.name(state, seat)
    simple = d.SIMPLE in state["variants"]          # "do not use Spells"
    items = "Field, Cellar, Potion" if simple else "Field, Cellar, Spell, Potion"
    text = (f"Market Season {state['season_number']}: {who} may make {left} purchase"
            f"{'s' if left > 1 else ''} ({items}) or pass; "
            f"{who} has {state['players'][seat]['magik']} Magik")
    if d.LESS_LUCK in state["variants"]:
        text += (f"; Less Luck: a new {'Potion' if simple else 'Spell or Potion'} draws two "
                 "cards, keep one")
    return text


def prompt(state: State) -> dict[str, Any]:
    """What happens now, whose turn it is, and which inputs count."""
    current = st.phase(state)
    seat = st.turn(state)
    inputs: list[str] = []
    notes = notes_of(state)
    if current == "over":
        winner = state["players"][state["winner"]]
        text = f"{winner['name']} is the Grand Infuser with {winner['magik']} Magik!"
    elif current == "milestones":
        missing = [d.MILESTONE_TEXT[m] for m, v in state["milestones"].items() if v["position"] is None]
        text = ("Enter where your Magik Track prints " + ", ".join(missing) +
                "; the companion keeps them for later games")
    elif current == "setup":
        text = _setup_text(state)
        inputs = ["next"]
    elif current == "omen":
        text = (f"Harvest Season {state['season_number']}: draw an Omen, read it aloud and enter "
                "it (its text and what it changes)")
    elif current == "fill":
        from companion.games.cauldron.decide_harvest import expected_board
        text = f"Fill the board: {d.counts_text(expected_board(state))}"
        inputs = ["next"]
    elif current == "turn_order":
        text = _order_text(state)
        inputs = ["die"]
    elif current in ("turns", "closing"):
        text = _harvest_turn_text(state, seat)
        steal = state["harvest"]["steal"]
        inputs = ["die"] if steal and steal["roll"] is None else [f"seat{seat + 1}.pass", "next"]
    else:
        text = _market_text(state, seat)
        inputs = [f"seat{seat + 1}.pass", "next"]
    waiting = st.rolloff_waiting(state)
    if waiting and current != "over":
        kind = d.ROLLOFF_TEXT[state["rolloff"]["rule"]]
        how = "lowest" if state["rolloff"]["want"] == "low" else "highest"
        text = (f"{kind[:1].upper()}{kind[1:]} ({how} roll): waiting for "
                f"{_names(state, waiting)}. Then: {text}")
        inputs = ["die"]
    return {"phase": current, "turn": st.name(state, seat), "seat": seat, "text": text,
            "inputs": inputs, "notes": notes}


def notes_of(state: State) -> list[str]:
    """Reminders beside the prompt: the Omen in force, milestones reached this season, variants."""
    notes = []
    omen = state["harvest"]["omen"]
    if state["season"] == "harvest" and omen and omen["text"]:
        notes.append(f"Omen: {omen['text']}")
    for key, mark in state["milestones"].items():
        if mark["reached"] and mark["by"] is not None and mark["season"] == state["season_number"]:
            note = (f"{d.MILESTONE_TEXT[key]} triggered by {st.name(state, mark['by'])}: follow the "
                    "Magik Track (enter the Magik it gives or takes as a milestone change)")
            if key == "rituals_of_power":
                note += ("; Advanced Potions are now for sale" if d.SIMPLE in state["variants"]
                         else "; Advanced Potions and Spells are now for sale")
            if d.SIMPLE in state["variants"]:
                note += "; Simple Game: ignore what refers to Spells"
            notes.append(note)
    roll = state["rolloff"]
    if roll and roll.get("void") and not state["over"]:
        tied, _ = st.tie(state, roll["rule"])
        if len(tied) > 1:
            notes.append(f"The {d.ROLLOFF_TEXT[roll['rule']]} no longer counts (the tie it was "
                         f"for has changed): {_names(state, tied)} are tied now; if a card asks "
                         f"for {d.SCORING_TEXT[roll['rule']]}, start a new roll-off from the "
                         "Track")
    owed = [f"{p['name']}: {', '.join(d.KIND_TEXT[k] for k in p['owed'])}"
            for p in state["players"] if p["owed"]]
    if owed and state["begun"]:
        notes.append("Potion cards to enter: " + "; ".join(owed))
    if state["season"] == "harvest" and st.phase(state) == "omen":
        if d.SIMPLE in state["variants"]:
            notes.append("Simple Game: an Omen that refers to Spells is replaced by a new one")
        if d.LESS_LUCK in state["variants"]:
            notes.append("Less Luck: an Omen that refers to turn order rolls is replaced")
    return notes


def map_input(state: State, event: InputEvent) -> Command | None:
    """A die goes to the roll the game expects now (refused with a reason if none); "next" and
    seatN.pass end a Harvest turn or pass in the Market, begin setup, confirm the board."""
    from companion.games.cauldron.dice import expected_roll

    if event.kind == "die":
        expected = expected_roll(state)
        if expected is None:  # refused by the rules, with the reason
            return Command("roll", None, {"value": event.value})
        kind, seats = expected
        who = st.name(state, seats[0])
        if kind == "steal":
            return Command("steal", who, {"roll": event.value})
        return Command(f"{kind}_roll", who, {"value": event.value})
    if event.kind != "button" or not isinstance(event.id, str):
        return None
    current = st.phase(state)
    if event.id == "next":
        seat = st.turn(state)
        if current == "setup":
            return Command("begin")
        if current == "fill":
            return Command("fill_board")
    elif event.id.startswith("seat") and "." in event.id:
        seat_part, action = event.id.split(".", 1)
        try:
            seat = int(seat_part[4:]) - 1
        except ValueError:
            return None
        if action not in END_BUTTONS or not 0 <= seat < len(state["players"]):
            return None
    else:
        return None
    if seat is None:
        return None
    who = st.name(state, seat)
    if current in ("turns", "closing"):
        return Command("end_turn", who)
    if current == "market":
        return Command("pass", who)
    return None


def results(state: State) -> list[dict[str, Any]]:
    """Final standings for history: seat, name, score (Magik), place, winner."""
    places = {p["seat"]: p for p in st.podium(state)}
    return [{"seat": i, "name": p["name"], "score": p["magik"], "place": places[i]["place"],
             "character": p["character"], "brews": p["brews"], "winner": state["winner"] == i}
            for i, p in enumerate(state["players"])]


def turn_options(state: State) -> dict[str, Any] | None:
    """What the seat whose Harvest turn it is may still do, each answer from the rules
    themselves: potions it can brew now, seats it can steal from, why it cannot end the turn."""
    from companion.core.errors import RuleViolation
    from companion.games.cauldron.decide import decide

    if st.phase(state) not in ("turns", "closing"):
        return None
    seat = st.turn(state)
    who = st.name(state, seat)

    def allowed(do: str, **args: Any) -> str | None:
        try:
            decide(state, Command(do, who, args))
        except RuleViolation as refusal:
            return str(refusal)
        return None

    player = state["players"][seat]
    why_not = {p["name"]: allowed("brew", potion=p["name"]) for p in player["potions"]}
    # A brew refused only because the seat must say what pays an Any space is possible.
    brew = [n for n, why in why_not.items() if why is None or pt.asks_for_any(why)]
    steal_from = [q["name"] for i, q in enumerate(state["players"])
                  if i != seat and q["pool"] and state["harvest"]["action"] is None
                  and st.phase(state) == "turns"]
    return {"player": who, "action_free": state["harvest"]["action"] is None
            and st.phase(state) == "turns", "brew": brew, "steal_from": steal_from,
            "end_turn": allowed("end_turn")}


def _player_summary(state: State, seat: int) -> dict[str, Any]:
    p = state["players"][seat]
    potions = [{**q, "blocked": pt.zone_problem(p, q) or pt.lacks(p, q)} for q in p["potions"]]
    return {
        "name": p["name"], "character": p["character"], "ability": p["ability"],
        "once_per_season": p["once_per_season"], "ability_used": p["ability_used"],
        "magik": p["magik"], "zone": d.zone(p["magik"]), "potions": potions,
        "owed": list(p["owed"]), "spells": len(p["spells"]),
        "spell_hand": {k: p["spells"].count(k) for k in d.SPELL_KINDS},
        "cellars": list(p["cellars"]), "pool": dict(p["pool"]), "brews": p["brews"],
    }


def summary(state: State) -> dict[str, Any]:
    """The state as a table script's result: stable keys, names instead of seat numbers."""
    current = prompt(state)
    harvest = state["harvest"]
    start = st.starter(state) if state["season"] == "harvest" else None
    n = len(state["players"])
    seat = current["seat"]
    roll = state["rolloff"]
    return {
        "game": "cauldron",
        "variants": list(state["variants"]),
        "players": [_player_summary(state, i) for i in range(n)],
        "phase": current["phase"], "turn": current["turn"], "prompt": current["text"],
        "notes": current["notes"], "over": state["over"],
        "winner": st.name(state, state["winner"]),
        "season": state["season"], "season_number": state["season_number"],
        "ingredients_left": dict(state["ingredients_left"]), "fields": dict(state["fields"]),
        "fields_exhausted": list(state["fields_exhausted"]),
        "milestones": {k: {"position": m["position"], "reached": m["reached"],
                           "by": st.name(state, m["by"])} for k, m in state["milestones"].items()},
        "omen": harvest["omen"]["text"] if harvest["omen"] and state["season"] == "harvest" else None,
        "turn_order": None if start is None else [st.name(state, (start + k) % n) for k in range(n)],
        "action": harvest["action"] if current["phase"] in ("turns", "closing") else None,
        "options": turn_options(state),
        "steal": None if harvest["steal"] is None else {
            **harvest["steal"], "target": st.name(state, harvest["steal"]["target"])},
        "lsp": st.name(state, st.scoring_player(state, "lsp")),
        "hsp": st.name(state, st.scoring_player(state, "hsp")),
        "rolloff": None if roll is None else {
            "kind": roll["rule"], "players": [st.name(state, s) for s in roll["contenders"]],
            "waiting": [st.name(state, s) for s in st.rolloff_waiting(state)],
            "result": None if roll.get("void") else st.name(state, contest.settle(roll)[0]),
            "void": bool(roll.get("void"))},
        "market": None if current["phase"] != "market" else {
            "purchases_left": st.purchase_limit(state) - state["market"]["purchases"],
            "offers": mk.offers(state, seat)},
        "podium": st.podium(state) if state["over"] else [],
        "catalogue": pt.catalogue(state),
    }
