"""The dice of Cauldron Quest as commands: the action dice, the magic dice (announced spell, up
to three rolls, the dice kept in between), a die read one at a time from the tray or a touch,
and fixing the latest roll when a die was misread (``fixable`` says it of a log entry's roll,
with the same rule as ``correct_roll``).

Dice kept between magic rolls keep their values: the rulebook's example rolls 2, 5, 4 and then
"leave[s] the dice showing 2 and 4 where they are and roll[s] only the die that shows 5". The
dice kept are those the team said (the ``keep`` command, the KEEP tiles); until it says, every
die is rolled again. A roll read die by die is complete when every die not kept has been read
(or the tray sent the roll as one line, ``magic_roll``); a die read before then is part of that
roll. The advice binds nothing: it never completes a roll nor refuses a die. A roll that changes
a kept die is refused and uses no roll. Fixing a misread roll (``correct_roll``, the Fix dice
button) may change any die: it says what the dice really show, and the misread may have been
the kept die's.
"""

from __future__ import annotations

from typing import Any, Iterable

from companion.core.errors import RuleViolation
from companion.core.model import Command, Event
from companion.games.quest import state as st
from companion.games.quest.commands import ACTION_DICE, faces_of
from companion.games.quest.odds import MAGIC_DICE
from companion.games.quest.state import SPELL_TITLES, State

DIE_WORDS = {"action_a": "Action die A", "action_b": "Action die B",
             **{d: f"Magic die {n}" for n, d in enumerate(MAGIC_DICE, start=1)}}
#: What the table is asked now, in its words and with the on-screen button to press.
WHAT_NOW = {
    "roll": "roll the two action dice first",
    "move": "the action dice say: move a potion bottle (tap it, then a gold ring)",
    "return": "first put the knocked bottles back on the nearest space (tap a gold ring)",
    "block": "the wizard blocks a path: tap the path the obstacle shows",
    "announce": "choose a spell before the first roll of the magic dice",
    "magic": "roll the magic dice (or press \"End the turn\")",
    "cast": "the spell works: use it, or press \"End the turn\"",
    "over": "the game is over",
}


def now(state: State) -> str:
    return WHAT_NOW.get(st.phase(state), "wait")


def need(state: State, *phases: str, doing: str) -> None:
    if st.phase(state) not in phases:
        raise RuleViolation(f"Not the time to {doing}: {now(state)}")


def _faces(die: str, state: State) -> str:
    return ", ".join(str(f) for f in faces_of(die, state))


def kept(spell: dict[str, Any]) -> list[str]:
    """The dice staying for the next roll: those the team said, else none."""
    return list(spell["keep"]) if spell["chosen"] else []


def _complete(spell: dict[str, Any], keep: list[str], reading: dict[str, int]) -> list[Event]:
    """The roll itself once every die not kept has been read; else nothing yet."""
    if not all(d in reading or d in keep for d in MAGIC_DICE):
        return []
    dice = [reading[d] if d in reading else spell["dice"][i] for i, d in enumerate(MAGIC_DICE)]
    return [Event("magic_rolled", {"dice": dice}, undoable=False)]


def _kept_unchanged(spell: dict[str, Any], dice: dict[str, int]) -> None:
    """Refuse a roll that changes a die the team kept (``dice``: die id -> face)."""
    if not spell["chosen"]:
        return
    for die, value in dice.items():
        if die in spell["keep"]:
            shows = spell["dice"][MAGIC_DICE.index(die)]
            if value != shows:
                raise RuleViolation(
                    f"{DIE_WORDS[die]} was kept, so it still shows {shows}, not {value}: leave "
                    "the kept dice where they are and roll only the others. This roll is not "
                    "counted. If that die was rolled again after all, tap it so it says "
                    "\"roll again\", then enter the roll")


def action_roll(state: State, cmd: Command) -> list[Event]:
    if st.phase(state) != "roll" and state["action"] is not None:
        a, b = state["action"]["a"], state["action"]["b"]
        raise RuleViolation(f"The action dice were already rolled this turn ({a} + {b}): "
                            "a misread die is put right with the Fix dice button")
    need(state, "roll", doing="roll the action dice")
    if cmd.player is not None and st.player(state) != cmd.player:
        raise RuleViolation(f"It is {st.player(state)}'s turn to roll the action dice")
    return [Event("action_rolled", {"a": cmd.args["a"], "b": cmd.args["b"]}, undoable=False)]


def read_die(state: State, cmd: Command) -> list[Event]:
    """One die from the reader or a touch; completing the roll turns into the roll itself."""
    die, value = cmd.args["die"], cmd.args["value"]
    if value not in faces_of(die, state):
        raise RuleViolation(f"{DIE_WORDS[die]} has no face {value}; its faces are "
                            f"{_faces(die, state)}")
    if die in ACTION_DICE:
        if st.phase(state) != "roll":
            raise RuleViolation(f"Nobody asked for the action dice now: {now(state)}")
        reading = {**state["reading"], die: value}
        if all(d in reading for d in ACTION_DICE):
            return [Event("action_rolled", {"a": reading["action_a"], "b": reading["action_b"]},
                          undoable=False)]
        return [Event("die_read", {"die": die, "value": value}, undoable=False)]
    if st.phase(state) != "magic":
        raise RuleViolation("Nobody asked for the magic dice: they are rolled after bottle + spell "
                            f"on the action dice and a chosen spell; now {now(state)}")
    spell = state["spell"]
    _kept_unchanged(spell, {die: value})
    keep = kept(spell)
    reading = {**state["reading"], die: value}
    return (_complete(spell, keep, reading)
            or [Event("die_read", {"die": die, "value": value, "keep": keep}, undoable=False)])


#: The events that are a whole roll of the dice (read from the tray or entered) or its fix.
ROLL_EVENTS = ("action_rolled", "magic_rolled", "roll_corrected")
#: A step with one of these is a die step in the log (a single die read alone included).
DIE_EVENTS = (*ROLL_EVENTS, "die_read")


def die_step(events: Iterable[Event]) -> bool:
    return any(e.type in DIE_EVENTS for e in events)


def latest_roll_fixable(state: State) -> str | None:
    """None when the latest roll can still be fixed, else why not (the rule of correct_roll)."""
    if state["correctable"] is None:
        return ("Only the latest roll can be fixed, before the team acts on it (press Undo on "
                "what was done since, then fix it)")
    return None


def fixable(state: State, events: Iterable[Event], later: Iterable[Event]) -> str | None:
    """Whether the roll a log entry holds can be fixed now: None, or why not in the table's
    words. ``events``: that step's events; ``later``: the events of the done steps after it
    (in any order). Only the latest roll can be fixed, before the team acts on it."""
    events = list(events)
    if not die_step(events):
        return "This entry is not a roll of the dice: nothing here to fix"
    if not any(e.type in ROLL_EVENTS for e in events):
        return ("This is one die of a roll read die by die: fix the roll from the entry where "
                "its last die came in")
    if any(e.type in ROLL_EVENTS for e in later):
        return ("Only the latest roll can be fixed, before the team acts on it: the dice have "
                "been rolled again since")
    return latest_roll_fixable(state)


def correct_roll(state: State, cmd: Command) -> list[Event]:
    reason = latest_roll_fixable(state)
    if reason is not None:
        raise RuleViolation(f"No roll to fix: {reason[0].lower()}{reason[1:]}")
    last, args = state["correctable"], cmd.args
    if last["kind"] == "action":
        if "dice" in args:
            raise RuleViolation("dice: the latest roll was the action dice; give a and/or b")
        if "a" not in args and "b" not in args:
            raise RuleViolation("Give the true faces of the action dice (a and/or b)")
        true = {"a": args.get("a", last["roll"]["a"]), "b": args.get("b", last["roll"]["b"])}
        return [Event("roll_corrected", {"kind": "action", **true}, undoable=False)]
    if "dice" not in args or "a" in args or "b" in args:
        raise RuleViolation("dice: the latest roll was the magic dice; give all three as they "
                            "really show")
    return [Event("roll_corrected", {"kind": "magic", "dice": list(args["dice"])},
                  undoable=False)]


def announce_spell(state: State, cmd: Command) -> list[Event]:
    """The spell is said before the first roll ("you must choose the desired spell before the
    first roll of the dice"); the team may change its mind until that roll, never after."""
    spell = state["spell"]
    if spell is not None and spell["rolls"] and st.phase(state) in ("magic", "cast"):
        raise RuleViolation(f"The {SPELL_TITLES[spell['name']]} is fixed once the magic dice "
                            "are rolled: \"you must choose the desired spell before the first "
                            "roll of the dice\"")
    if spell is None or st.phase(state) != "magic":
        need(state, "announce", doing="choose a spell (bottle + spell on the action dice)")
    return [Event("spell_announced", {"spell": cmd.args["spell"]})]


def keep(state: State, cmd: Command) -> list[Event]:
    need(state, "magic", doing="keep magic dice")
    if not state["spell"]["rolls"]:
        raise RuleViolation("Nothing to keep before the first magic roll: roll all three dice")
    dice = sorted(cmd.args["dice"])
    if len(dice) == len(MAGIC_DICE):
        raise RuleViolation("Re-roll one, two or all three dice: keeping all three is not a roll")
    spell, reading = state["spell"], state["reading"]
    for die in dice:
        shows = spell["dice"][MAGIC_DICE.index(die)]
        if die in reading and reading[die] != shows:
            raise RuleViolation(f"{DIE_WORDS[die]} was already read in this roll as "
                                f"{reading[die]} (it showed {shows}): it was rolled again, so it "
                                "cannot be kept now")
    rest = {d: v for d, v in reading.items() if d not in dice}
    return [Event("dice_kept", {"keep": dice}), *_complete(spell, dice, rest)]


def magic_roll(state: State, cmd: Command) -> list[Event]:
    if st.phase(state) == "announce":
        raise RuleViolation("Always say in advance what result you want: choose a spell before "
                            "the first roll of the magic dice")
    need(state, "magic", doing="roll the magic dice (bottle + spell on the action dice)")
    dice = list(cmd.args["dice"])
    _kept_unchanged(state["spell"], dict(zip(MAGIC_DICE, dice)))
    return [Event("magic_rolled", {"dice": dice}, undoable=False)]


#: Why a turn cannot be ended now, by phase: the action dice say what must be done.
MUST_DO = {
    "roll": "roll the two action dice first",
    "move": "move a potion bottle {n} spaces",
    "return": "put the knocked bottles back on the nearest space (tap a gold ring)",
    "block": "turn an obstacle face up and block the path it shows",
    "announce": "choose a spell and roll the magic dice at least once",
}


def end_turn(state: State, cmd: Command) -> list[Event]:
    current = st.phase(state)
    if current == "magic" and not state["spell"]["rolls"]:
        raise RuleViolation(f"The {SPELL_TITLES[state['spell']['name']]} is chosen: roll the "
                            "magic dice at least once")
    if current in MUST_DO:
        n = state["action"]["b"] if state["action"] else ""
        raise RuleViolation(f"The turn cannot end yet: {MUST_DO[current].format(n=n)} (\"these "
                            "dice show you what you must do this turn\"); the turn then passes "
                            "by itself")
    if current not in ("magic", "cast"):
        raise RuleViolation(f"The turn cannot end now: {now(state)}")
    n = len(state["players"])
    return [Event("turn_ended", {"player": st.player(state),
                                 "next": state["players"][(st.seat(state) + 1) % n],
                                 "reason": "the team passed"})]


COMMANDS = {"action_roll": action_roll, "read_die": read_die, "correct_roll": correct_roll,
            "announce_spell": announce_spell, "keep": keep, "magic_roll": magic_roll,
            "end_turn": end_turn}
