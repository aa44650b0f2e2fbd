"""Fold one Cauldron Quest event into the state. Trusts the event (``decide`` validated it).

A roll keeps a copy of the state from just before it (``correctable``), so ``correct_roll`` can
put a misread die right: the copy is restored and the roll applied again with the true faces.
Any choice the team makes after a roll ends that chance (undo the choice first).

The announced spell keeps ``keep`` (the dice the team said stay for the next roll) and
``chosen`` (whether the team said so since the last roll: only then does ``keep`` bind, and a
roll that changes a kept die is refused). Games stored before the advice stopped binding may
hold an advised ``keep`` with ``chosen`` false: it binds nothing either.
"""

from __future__ import annotations

from companion.core.model import Event, copy_plain
from companion.games.quest.odds import MAGIC_DICE
from companion.games.quest.state import State

ROLLS = ("action_rolled", "magic_rolled")
#: Events that are dice (or follow from them by themselves) and leave a roll correctable.
KEEPS_CORRECTABLE = {*ROLLS, "roll_corrected"}


def _snapshot(state: State) -> State:
    before = copy_plain(state)
    before["correctable"] = None
    return before


def _roll(s: State, event: Event) -> State:
    d = event.data
    before = _snapshot(s)
    s["reading"] = {}
    if event.type == "action_rolled":
        s["action"] = {"a": d["a"], "b": d["b"], "done": False}
        s["correctable"] = {"kind": "action", "roll": {"a": d["a"], "b": d["b"]}, "before": before}
    else:
        spell = s["spell"]
        spell["rolls"] += 1
        spell["dice"] = list(d["dice"])
        spell["success"] = None
        spell["keep"] = None
        spell["chosen"] = False
        s["correctable"] = {"kind": "magic", "roll": {"dice": list(d["dice"])}, "before": before}
    return s


def evolve(state: State, event: Event) -> State:
    s = copy_plain(state)
    d = event.data
    kind = event.type
    if not event.automatic and kind not in KEEPS_CORRECTABLE:
        s["correctable"] = None
    if kind == "die_read":
        s["reading"][d["die"]] = d["value"]
        if d["die"] in MAGIC_DICE:
            s["spell"]["keep"] = list(d["keep"])
    elif kind in ROLLS:
        s = _roll(s, event)
    elif kind == "roll_corrected":
        again = Event("action_rolled" if d["kind"] == "action" else "magic_rolled",
                      {k: v for k, v in d.items() if k != "kind"})
        s = _roll(copy_plain(s["correctable"]["before"]), again)
    elif kind == "wizard_moved":
        s["wizard"] = d["to"]
        s["returns"] = list(d["hit"])
        s["action"]["done"] = True
    elif kind == "bottle_moved":
        s["bottles"][d["bottle"] - 1] = d["to"]
        s["action"]["done"] = True
    elif kind == "bottle_returned":
        s["bottles"][d["bottle"] - 1] = d["to"]
        s["returns"].remove(d["bottle"])
    elif kind == "path_blocked":
        s["obstacles"].append(d["path"])
        s["returns"] += [b for b in d["knocked"] if b not in s["returns"]]
        s["action"]["done"] = True
    elif kind == "obstacle_removed":
        s["obstacles"].remove(d["path"])
        s["spell_breaker_used"] = True
    elif kind == "spell_announced":
        s["spell"] = {"name": d["spell"], "rolls": 0, "dice": None, "success": None, "keep": None,
                      "chosen": False}
    elif kind == "dice_kept":
        s["spell"]["keep"] = list(d["keep"])
        s["spell"]["chosen"] = True          # the team's choice binds the next roll (dice.py)
        s["reading"] = {k: v for k, v in s["reading"].items() if k not in d["keep"]}
    elif kind == "spell_judged":
        s["spell"]["success"] = d["success"]
    elif kind == "bottle_revealed":
        s["revealed"][str(d["bottle"])] = d["ingredient"]
        s["action"]["done"] = True
    elif kind == "bottles_swapped":
        i, j = d["bottles"]
        s["bottles"][i - 1], s["bottles"][j - 1] = s["bottles"][j - 1], s["bottles"][i - 1]
        s["action"]["done"] = True
    elif kind == "turn_ended":
        s["turn_no"] += 1
        s["action"] = s["spell"] = None
        s["reading"] = {}
    elif kind == "game_won":
        s["over"], s["outcome"] = True, "won"
    elif kind == "game_lost":
        s["over"], s["outcome"] = True, "lost"
    else:
        raise ValueError(f"quest: unknown event {kind!r}")
    return s
