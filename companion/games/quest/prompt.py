"""What the table sees and presses: the prompt, the state summary, results, the input map.

The prompt speaks to players: spaces as they look on the board (``board.describe``), never a
script's ids; the summary is for scripts and keeps the ids."""

from __future__ import annotations

from typing import Any

import re

from companion.core.errors import RuleViolation
from companion.core.gate import check_command
from companion.core.model import Command, InputEvent
from companion.games.quest import board, moves
from companion.games.quest import state as st
from companion.games.quest.commands import ACTION_DICE, COMMANDS, seat_names
from companion.games.quest.dice import kept, read_die
from companion.games.quest.odds import (
    MAGIC_DICE, announce_odds, as_json, best_keep, chance, kept_chance,
)
from companion.games.quest.state import SPELL_TITLES, State


def _percent(p: Any) -> str:
    return f"{round(float(p) * 100)}%"


def advice(state: State) -> dict[str, Any] | None:
    """The chance the announced spell still works and the dice it keeps (``keep``): the dice
    the team kept once it said which (``chosen``), with the best choice beside it (``best``)
    when that gives a better chance; before the team says, the best choice itself."""
    spell = state["spell"]
    if spell is None:
        return None
    left = st.rolls_left(state)
    if spell["rolls"] == 0:
        return {"odds": as_json(chance(spell["name"], None, left)), "keep": [], "chosen": False,
                "best": None}
    p, keep = best_keep(spell["name"], spell["dice"], left)
    if spell["success"] or left == 0:
        keep = []
    advised = [MAGIC_DICE[i] for i in keep]
    if not spell["chosen"] or spell["success"] or left == 0:
        return {"odds": as_json(p), "keep": advised, "chosen": False, "best": None}
    mine = kept(spell)
    p_mine = kept_chance(spell["name"], spell["dice"], [MAGIC_DICE.index(k) for k in mine], left)
    best = None if p_mine == p else {"odds": as_json(p), "keep": advised}
    return {"odds": as_json(p_mine), "keep": mine, "chosen": True, "best": best}


def expected_dice(state: State) -> list[str]:
    """The dice inputs that count now (those not read yet, and not kept by the team)."""
    current = st.phase(state)
    if current == "roll":
        return [d for d in ACTION_DICE if d not in state["reading"]]
    if current == "magic":
        keep = kept(state["spell"]) if state["spell"]["rolls"] else []
        return [d for d in MAGIC_DICE if d not in keep and d not in state["reading"]]
    return []


def _keep_words(dice: list[int], keep: list[str], chosen: bool) -> str:
    shown = [str(dice[MAGIC_DICE.index(k)]) for k in keep]
    if chosen:
        return (f"keeping {' and '.join(shown)}, roll the others" if shown
                else "re-rolling all three")
    return f"keep {' and '.join(shown)}, re-roll the rest" if shown else "re-roll all three"


def _magic_text(state: State, who: str) -> str:
    spell = state["spell"]
    title = SPELL_TITLES[spell["name"]]
    tip = advice(state)
    odds = tip["odds"]["percent"]
    if spell["rolls"] == 0:
        return f"{who}: {title}: roll all three magic dice (roll 1 of 3, chance {odds}%)"
    dice = spell["dice"]
    if not tip["chosen"]:
        hint = f"best: {_keep_words(dice, tip['keep'], False)} (chance {odds}%)"
    elif tip["best"] is None:
        hint = f"{_keep_words(dice, tip['keep'], True)} (chance {odds}%)"
    else:
        best = tip["best"]
        hint = (f"{_keep_words(dice, tip['keep'], True)} (chance {odds}%; best: "
                f"{_keep_words(dice, best['keep'], False)}, {best['odds']['percent']}%)")
    return (f"{who}: {title}: the dice show {', '.join(map(str, dice))}. Roll {spell['rolls'] + 1} "
            f"of 3: {hint}")


def prompt(state: State) -> dict[str, Any]:
    """What happens now, whose turn it is, and which inputs count."""
    current = st.phase(state)
    who = st.player(state)
    if current == "over":
        if state["outcome"] == "won":
            found = ", ".join(st.words(i) for i in st.in_cauldron(state))
            text = f"The team wins! {found} are in the cauldron: the wizard's spell is broken"
        else:
            text = "The wizard has blocked all 6 paths: the wizard wins"
        return {"phase": current, "turn": None, "seat": None, "text": text, "inputs": []}
    if current == "return":
        settings = state["settings"]
        parts = [f"bottle {b} (on {board.describe(st.where(state, b), settings)}) goes to "
                 f"{board.describe_all(moves.return_targets(state, b), settings)}"
                 for b in state["returns"]]
        text = f"Knocked away! Put each bottle on the nearest space: {'; '.join(parts)}"
    elif current == "roll":
        text = f"{who}: roll the two action dice"
    elif current == "move":
        n = state["action"]["b"]
        text = f"{who}: bottle + {n}: move any potion bottle {n} spaces"
    elif current == "block":
        open_paths = [str(p) for p in (1, 2, 3, 4, 5, 6) if p not in state["obstacles"]]
        text = (f"{who}: hat + spell: the wizard blocks a path! Turn an obstacle face up: "
                f"which path? (open: {', '.join(open_paths)})")
    elif current == "announce":
        odds = ", ".join(f"{SPELL_TITLES[s]} {_percent(p)}" for s, p in announce_odds().items())
        text = f"{who}: bottle + spell: announce your spell before rolling the magic dice ({odds})"
    elif current == "magic":
        text = _magic_text(state, who)
    elif current == "cast":
        text = {
            "omniscience": "The Spell of Omniscience works! Turn a potion bottle ingredient-up "
                           "and say its ingredient",
            "exchange": "The Charm of Exchange works! Swap any two potion bottles on the board",
            "great_sorcery": "Great Sorcery works! Move a potion bottle up to 6 spaces, past the "
                             "wizard or an obstacle",
        }[state["spell"]["name"]]
    else:
        text = "The companion is settling the turn"
    return {"phase": current, "turn": who, "seat": st.seat(state), "text": text,
            "inputs": expected_dice(state)}


#: A face a dice tray or a script sends as text: a few ASCII digits become a number ("3" is 3;
#: "²", "٣" or a 5,000-digit string stay text, which the gate refuses naming the value).
_DIGITS = re.compile(r"[0-9]{1,3}")


def map_input(state: State, event: InputEvent) -> Command | None:
    """A die from the reader or the screen: ``action_a``/``action_b`` (faces as in the die's data
    table) and ``magic1``-``magic3`` (1-6). The die that completes a roll becomes the roll; a die
    nobody asked for becomes a ``read_die`` that the rules refuse with the reason."""
    if event.kind == "button" and event.id == "end_turn":
        return Command("end_turn")
    if event.kind != "die" or event.id not in ACTION_DICE + MAGIC_DICE:
        return None
    value = event.value
    if isinstance(value, str) and _DIGITS.fullmatch(value.strip()):
        value = int(value.strip())
    command = Command("read_die", args={"die": event.id, "value": value})
    try:
        clean = check_command(COMMANDS, state, command, seat_names, game="Cauldron Quest")
        events = read_die(state, clean)
    except RuleViolation:
        return command                      # played, it is refused with the reason
    if events[0].type == "action_rolled":
        return Command("action_roll", args=dict(events[0].data))
    if events[0].type == "magic_rolled":
        return Command("magic_roll", args={"dice": list(events[0].data["dice"])})
    return clean


def results(state: State) -> list[dict[str, Any]]:
    """A cooperative game: everyone wins or nobody does; no points."""
    won = state["outcome"] == "won"
    return [{"seat": i, "name": n, "score": 0, "winner": won}
            for i, n in enumerate(state["players"])]


def summary(state: State) -> dict[str, Any]:
    """The state as a table script's result: stable keys, bottles and dice in the game's words."""
    current = prompt(state)
    spell = state["spell"]
    tip = advice(state)
    return {
        "game": "quest",
        "players": [{"name": n, "score": 0} for n in state["players"]],
        "phase": current["phase"],
        "turn": current["turn"],
        "prompt": current["text"],
        "over": state["over"],
        "winners": list(state["players"]) if state["outcome"] == "won" else [],
        "outcome": state["outcome"],
        "needed": list(state["needed"]),
        "in_cauldron": st.in_cauldron(state),
        "revealed": dict(state["revealed"]),
        "bottles": {str(b): st.where(state, b) for b in st.BOTTLES},
        "wizard": state["wizard"],
        "obstacles": sorted(state["obstacles"]),
        "spell_breaker_used": state["spell_breaker_used"],
        "action": None if state["action"] is None else
        {"a": state["action"]["a"], "b": state["action"]["b"]},
        "spell": None if spell is None else {
            "name": spell["name"], "rolls_used": spell["rolls"], "rolls_left": st.rolls_left(state),
            "dice": spell["dice"], "success": spell["success"], **(tip or {}),
        },
        "spell_odds": ({s: as_json(p) for s, p in announce_odds().items()}
                       if current["phase"] == "announce" else None),
        "returns": [{"bottle": b, "from": st.where(state, b),
                     "nearest": moves.return_targets(state, b)} for b in state["returns"]],
        "reading": dict(state["reading"]),
        "correctable": None if state["correctable"] is None else state["correctable"]["kind"],
        "turn_no": state["turn_no"],
        "inputs": current["inputs"],
        "settings": dict(state["settings"]),
    }
