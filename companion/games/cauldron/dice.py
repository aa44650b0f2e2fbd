"""Dice commands: turn order rolls, roll-offs for the fewest or most Magik, the generic ``roll``
(the die the game expects now) and ``correct_roll`` for a misread die. Every die event has
undoable=False: undo never takes back a roll, a correction fixes a misread face explicitly;
``fixable`` says of a log entry's die whether the same rule lets it be fixed now."""

from __future__ import annotations

from typing import Iterable

from companion.core.errors import RuleViolation
from companion.core.model import Command, Event
from companion.games.cauldron import checks as ck
from companion.games.cauldron import contest
from companion.games.cauldron import data as d
from companion.games.cauldron import state as st
from companion.games.cauldron.decide_harvest import steal
from companion.games.cauldron.prompt import prompt
from companion.games.cauldron.state import State


_names = st.names_text


#: The rolls as the table says them.
ROLL_WORDS = {"rolloff": "roll-off", "turn_order": "turn order", "steal": "steal"}


def turn_order_roll(state: State, cmd: Command, seat: int) -> list[Event]:
    ck.need_phase(state, ("turn_order",), "roll for turn order")
    waiting = st.awaited_rolls(state)
    if seat not in waiting:
        raise RuleViolation(f"{st.name(state, seat)} does not roll now: only tied seats re-roll; "
                            f"waiting for {_names(state, waiting)}")
    return [Event("turn_order_rolled", {"seat": seat, "value": cmd.args["value"]},
                  undoable=False)]


def rolloff(state: State, cmd: Command) -> list[Event]:
    """Start a roll-off for the fewest or most Magik when several seats are tied. It belongs to
    that tie: once a Magik change ends or changes it, the roll-off is void (``flow``)."""
    if st.phase(state) == "over":
        raise RuleViolation(ck.over_text(state))
    if not state["begun"]:
        raise RuleViolation("Roll-offs for the fewest or most Magik happen during play, after setup")
    kind = cmd.args["kind"]
    open_roll = state["rolloff"]
    if open_roll is not None and st.rolloff_waiting(state):
        raise RuleViolation(f"Finish the {d.ROLLOFF_TEXT[open_roll['rule']]} first: waiting for "
                            f"{_names(state, st.rolloff_waiting(state))}")
    tied, magik = st.tie(state, kind)
    most = "fewest" if kind == "lsp" else "most"
    if len(tied) == 1:
        raise RuleViolation(f"No roll-off needed: {st.name(state, tied[0])} alone has the {most} "
                            f"Magik ({magik})")
    want = "low" if kind == "lsp" else "high"
    return [Event("rolloff_opened", {"kind": kind, "contenders": tied, "want": want,
                                     "magik": magik})]


def rolloff_roll(state: State, cmd: Command, seat: int) -> list[Event]:
    if state["over"]:
        raise RuleViolation(ck.over_text(state))
    waiting = st.rolloff_waiting(state)
    if not waiting:
        roll = state["rolloff"]
        if roll is not None and roll.get("void"):
            raise RuleViolation(f"The {d.ROLLOFF_TEXT[roll['rule']]} no longer counts: the tie it "
                                "was for has changed; start a new one from the Track (Fewest "
                                "Magik or Most Magik)")
        raise RuleViolation("No roll-off is waiting for dice: start one from the Track (Fewest "
                            "Magik or Most Magik)")
    if seat not in waiting:
        raise RuleViolation(f"{st.name(state, seat)} does not roll in this roll-off: only the tied "
                            f"seats roll; waiting for {_names(state, waiting)}")
    return [Event("rolloff_rolled", {"seat": seat, "value": cmd.args["value"]}, undoable=False)]


def expected_roll(state: State) -> tuple[str, list[int]] | None:
    """Which die the game waits for now, and from whom: a roll-off first (never a void one),
    then turn order, then the current seat's steal; none once the game is over."""
    if state["over"]:
        return None
    waiting = st.rolloff_waiting(state)
    if waiting:
        return "rolloff", waiting
    waiting = st.awaited_rolls(state)
    if waiting:
        return "turn_order", waiting
    pending = state["harvest"]["steal"]
    if (st.phase(state) in ck.HARVEST_TURN and pending is not None and pending["roll"] is None):
        return "steal", [st.turn(state)]
    return None


def roll(state: State, cmd: Command) -> list[Event]:
    """A die with no more meaning than its face: give it to the roll the game expects now."""
    value = cmd.args["value"]
    expected = expected_roll(state)
    if expected is None:
        raise RuleViolation(f"No die roll is expected now: {prompt(state)['text']}")
    kind, seats = expected
    seat = seats[0] if cmd.player is None else st.seat_of(state, cmd.player)
    if seat not in seats:
        raise RuleViolation(f"The die expected now is {_names(state, seats[:1])}'s "
                            f"({ROLL_WORDS[kind]}), not {st.name(state, seat)}'s")
    who = st.name(state, seat)
    if kind == "rolloff":
        return rolloff_roll(state, Command("rolloff_roll", who, {"value": value}), seat)
    if kind == "turn_order":
        return turn_order_roll(state, Command("turn_order_roll", who, {"value": value}), seat)
    return steal(state, Command("steal", who, {"roll": value}), seat)


# -- corrections ----------------------------------------------------------------------------
def _order_correctable(state: State) -> bool:
    harvest = state["harvest"]
    if harvest["order"] is None or st.phase(state) not in ("turn_order", "turns"):
        return False
    return st.phase(state) == "turn_order" or (harvest["turns_taken"] == 0 and not harvest["acted"])


def _steal_correctable(state: State, seat: int) -> bool:
    pending = state["harvest"]["steal"]
    return (st.phase(state) in ck.HARVEST_TURN and st.turn(state) == seat
            and pending is not None and pending["roll"] is not None)


def _candidates(state: State, seat: int) -> list[str]:
    out = []
    roll_off = state["rolloff"]
    if roll_off and roll_off.get("void"):
        roll_off = None  # a void roll-off decides nothing: nothing in it to correct
    if roll_off and st.rolloff_waiting(state) and contest.last_round_of(roll_off, seat) is not None:
        out.append("rolloff")
    order = state["harvest"]["order"]
    if _order_correctable(state) and contest.last_round_of(order, seat) is not None:
        out.append("turn_order")
    if _steal_correctable(state, seat):
        out.append("steal")
    if roll_off and "rolloff" not in out and contest.last_round_of(roll_off, seat) is not None:
        out.append("rolloff")
    return out


def _round(state: State, number: int | None, roll_contest: dict, seat: int) -> int:
    if number is None:
        return contest.last_round_of(roll_contest, seat)
    index = number - 1
    if index >= len(roll_contest["rounds"]) or str(seat) not in roll_contest["rounds"][index]:
        raise RuleViolation(f"There is no roll of {st.name(state, seat)}'s in round {number}")
    return index


def correction_refusal(state: State, kind: str | None, seat: int) -> str | None:
    """Why no die of ``seat``'s (of roll ``kind``, or of any roll) can be corrected now, or
    None when one can: the rule of ``correct_roll`` and of a log entry's Fix (``fixable``)."""
    if st.phase(state) == "over":
        return ck.over_text(state)
    candidates = _candidates(state, seat)
    if candidates and (kind is None or kind in candidates):
        return None
    what = ROLL_WORDS[kind] if kind else "die"
    late = ("; that roll-off no longer counts (the tie it was for has changed)"
            if kind == "rolloff" and (state["rolloff"] or {}).get("void") else "")
    return (f"No {what} roll of {st.name(state, seat)}'s can be corrected now: a turn order "
            "roll until the first turn begins, a steal roll during that turn, a roll-off roll "
            f"until the next roll-off{late}")


def correct_roll(state: State, cmd: Command, seat: int) -> list[Event]:
    """Fix a misread die: a turn order roll (until the first turn has begun), the current
    turn's steal roll, or a roll-off roll (the latest roll-off)."""
    kind = cmd.args.get("roll")
    reason = correction_refusal(state, kind, seat)
    if reason is not None:
        raise RuleViolation(reason)
    value = cmd.args["value"]
    candidates = _candidates(state, seat)
    if kind is None:  # the latest die thrown, if it can still be corrected
        kind = state["last_die"] if state["last_die"] in candidates else candidates[0]
    if kind == "steal":
        return [_steal_correction(state, seat, value)]
    roll_contest = state["rolloff"] if kind == "rolloff" else state["harvest"]["order"]
    index = _round(state, cmd.args.get("round"), roll_contest, seat)
    old = roll_contest["rounds"][index][str(seat)]
    return [Event("roll_corrected", {"kind": kind, "seat": seat, "round": index, "old": old,
                                     "value": value}, undoable=False)]


def _steal_correction(state: State, seat: int, value: int) -> Event:
    pending = state["harvest"]["steal"]
    success = value >= d.STEAL_SUCCESS
    kind, target = pending["ingredient"], pending["target"]
    taken = pending["taken"]
    if pending["taken"] and not success:
        if not state["players"][seat]["pool"].get(kind):
            raise RuleViolation(f"The stolen {d.label(kind)} has already left {st.name(state, seat)}'s "
                                "pool: correct the pools by hand (tap the seat, then Correct "
                                "pool, Spells, board)")
        taken = False
    elif success and not pending["success"]:
        taken = bool(state["players"][target]["pool"].get(kind))
    return Event("roll_corrected", {"kind": "steal", "seat": seat, "old": pending["roll"],
                                    "value": value, "success": success, "taken": taken,
                                    "was_taken": pending["taken"]}, undoable=False)


# -- a log entry's die ----------------------------------------------------------------------
#: The events that are a die thrown, by the roll they belong to.
DIE_EVENTS = {"turn_order_rolled": "turn_order", "rolloff_rolled": "rolloff", "stole": "steal"}
#: Later events that close a roll: a new turn order, a new roll-off, the end of the turn.
CLOSED_BY = {"turn_order": ("turn_order_opened", "That turn order is over: a new one has "
                            "begun since"),
             "rolloff": ("rolloff_opened", "That roll-off is over: a new roll-off began since"),
             "steal": ("turn_ended", "That turn is over: a steal's die can be fixed only during "
                       "the turn")}


def step_die(events: Iterable[Event]) -> tuple[str, int, int] | None:
    """The die a log step holds, (roll, seat, face), a correction's true face included; None
    for a step without a die."""
    found = None
    for e in events:
        if e.type in DIE_EVENTS:
            found = (DIE_EVENTS[e.type], e.data["seat"],
                     e.data["roll"] if e.type == "stole" else e.data["value"])
        elif e.type == "roll_corrected":
            found = (e.data["kind"], e.data["seat"], e.data["value"])
    return found


def die_step(events: Iterable[Event]) -> bool:
    return step_die(events) is not None


def _face_now(state: State, kind: str, seat: int) -> int:
    if kind == "steal":
        return state["harvest"]["steal"]["roll"]
    roll_contest = state["rolloff"] if kind == "rolloff" else state["harvest"]["order"]
    return roll_contest["rounds"][contest.last_round_of(roll_contest, seat)][str(seat)]


def fixable(state: State, events: Iterable[Event], later: Iterable[Event]) -> str | None:
    """Whether the die a log entry holds can be fixed now (what the Fix die dialog does: a
    seat's latest die of a roll): None, or why not in the table's words. ``events``: that
    step's events; ``later``: the events of the done steps after it, in any order."""
    die = step_die(events)
    if die is None:
        return "This entry is not a roll of the dice: nothing here to fix"
    kind, seat, face = die
    who, words = st.name(state, seat), ROLL_WORDS[kind]
    closer, closed = CLOSED_BY[kind]
    for e in later:
        if e.type == closer:
            return closed
        other = step_die((e,))
        if other is not None and other[:2] == (kind, seat):
            return (f"Only the latest {words} die of {who}'s can be fixed: it was rolled again "
                    "or fixed since (fix it from that entry)")
    reason = correction_refusal(state, kind, seat)
    if reason is not None:
        return reason
    if _face_now(state, kind, seat) != face:
        return (f"{who}'s {words} die of this entry no longer counts: a fix of another die "
                "settled the roll before it")
    return None
