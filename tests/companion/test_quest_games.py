"""Cauldron Quest: whole games won and lost, dice that undo refuses, correcting a misread die,
the dice inputs, replay equality and JSON state; a seeded random table plays many games."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from companion.core import Command, Event, InputEvent, RuleViolation, Session
from companion.games.quest import RULES
from tests.companion.quest_autoplay import random_command
from tests.support.commands import do, refused

PLAYERS = ["Ann", "Bob", "Cat"]
NEEDED = ["rotten_egg", "newt_eye", "bat_wing"]
SETUP = {"game": "quest", "players": PLAYERS, "needed": NEEDED}


def new(**settings: Any) -> Session:
    return Session(RULES, {**copy.deepcopy(SETUP), **settings})




def replayed(s: Session) -> Session:
    """A new session from the same setup, fed the commands that stand."""
    again = Session(RULES, copy.deepcopy(s.setup))
    for step in s.done_steps():
        again.execute(Command.from_dict(json.loads(json.dumps(step.command.to_dict()))))
    return again


def assert_json_and_replay(s: Session) -> None:
    assert json.loads(json.dumps(s.state)) == s.state
    assert json.loads(json.dumps(s.summary())) == s.summary()
    for step in s.steps:
        for event in step.events:
            assert Event.from_dict(json.loads(json.dumps(event.to_dict()))) == event
    again = replayed(s)
    assert again.state == s.state and again.summary() == s.summary()


def cast(s: Session, spell: str, *rolls: list[int]) -> None:
    do(s, "action_roll", a="bottle", b="spell")
    do(s, "announce_spell", spell=spell)
    for dice in rolls:
        do(s, "magic_roll", dice=dice)


# -- whole games --------------------------------------------------------------------------------
def test_a_won_game():
    s = new()
    cast(s, "omniscience", [2, 4, 6])                                  # Ann
    do(s, "reveal", bottle=1, ingredient="rotten_egg")
    cast(s, "omniscience", [1, 1, 1])                                  # Bob
    do(s, "keep", dice=[])
    do(s, "magic_roll", dice=[2, 2, 1])
    do(s, "magic_roll", dice=[2, 2, 2])
    do(s, "reveal", bottle=2, ingredient="newt_eye")
    do(s, "action_roll", a="hat", b=3)                                 # Cat: knocks bottle 2
    do(s, "move_bottle", bottle=2, to="p2.1")
    cast(s, "omniscience", [6, 6, 6])                                  # Ann
    do(s, "reveal", bottle=3, ingredient="bat_wing")
    do(s, "action_roll", a="bottle", b=4)                              # Bob
    do(s, "move_bottle", bottle=1, to="p1.4")
    do(s, "action_roll", a="bottle", b=2)                              # Cat
    do(s, "move_bottle", bottle=1, to="cauldron")
    do(s, "action_roll", a="hat", b="spell")                           # Ann
    do(s, "block_path", path=2)
    do(s, "break_obstacle", path=2)
    do(s, "action_roll", a="bottle", b=4)                              # Bob
    do(s, "move_bottle", bottle=2, to="p2.5")
    do(s, "action_roll", a="bottle", b=2)                              # Cat
    do(s, "move_bottle", bottle=2, to="cauldron")
    assert s.summary()["in_cauldron"] == ["rotten_egg", "newt_eye"] and not s.over
    cast(s, "great_sorcery", [6, 6, 2])                                # Ann
    step = do(s, "move_bottle", bottle=3, to="cauldron")
    assert step.events[-1].type == "game_won" and step.events[-1].automatic
    summary = s.summary()
    assert summary["over"] is True and summary["outcome"] == "won" and summary["phase"] == "over"
    assert summary["winners"] == PLAYERS and summary["turn"] is None
    assert sorted(summary["in_cauldron"]) == sorted(NEEDED)
    assert summary["prompt"].startswith("The team wins!")
    assert [r["winner"] for r in RULES.results(s.state)] == [True, True, True]
    refused(s, "action_roll", a="bottle", b=2, match="The game is over (the team won): only Undo")
    refused(s, "break_obstacle", path=1, match="The game is over (the team won)")
    assert_json_and_replay(s)
    s.undo()                                                           # the last move can be undone
    assert not s.over and s.summary()["phase"] == "cast"


def test_a_lost_game():
    s = new()
    for path in (1, 2, 3):
        do(s, "action_roll", a="hat", b="spell")
        do(s, "block_path", path=path)
    do(s, "action_roll", a="hat", b=2)                                 # wizard c2 -> c4: knocks 2
    do(s, "move_bottle", bottle=2, to="c5")
    do(s, "break_obstacle", path=2)
    for path in (2, 4, 5, 6, 6):
        if s.over:
            break
        do(s, "action_roll", a="hat", b="spell")
        do(s, "block_path", path=path)
    summary = s.summary()
    assert summary["outcome"] == "lost" and summary["over"] and summary["winners"] == []
    assert summary["obstacles"] == [1, 2, 3, 4, 5, 6] and summary["spell_breaker_used"]
    assert summary["prompt"] == "The wizard has blocked all 6 paths: the wizard wins"
    assert [r["winner"] for r in RULES.results(s.state)] == [False, False, False]
    assert all(r["score"] == 0 for r in RULES.results(s.state))
    assert_json_and_replay(s)


# -- dice cannot be undone; a misread die is corrected ------------------------------------------
def test_undo_refuses_to_take_back_a_roll_but_takes_back_a_choice():
    s = new()
    do(s, "action_roll", a="bottle", b=3)
    with pytest.raises(RuleViolation, match="Dice results cannot be undone"):
        s.undo()
    do(s, "move_bottle", bottle=1, to="p1.3")
    s.undo()
    assert s.summary()["phase"] == "move" and s.summary()["bottles"]["1"] == "c0"
    s.redo()
    assert s.summary()["bottles"]["1"] == "p1.3"
    cast(s, "exchange", [1, 2, 3])
    with pytest.raises(RuleViolation, match="Dice results cannot be undone"):
        s.undo()


def test_correct_roll_fixes_a_misread_action_die_and_what_followed_from_it():
    s = new()
    refused(s, "correct_roll", a="hat", match="No roll to fix: only the latest roll")
    do(s, "action_roll", a="hat", b=3)
    assert s.summary()["wizard"] == 5 and s.summary()["correctable"] == "action"
    refused(s, "correct_roll", match="Give the true faces of the action dice (a and/or b)")
    refused(s, "correct_roll", b=5, match="b: one of 2, 3, 4, spell, not 5")
    refused(s, "correct_roll", dice=[1, 2, 3], match="dice: the latest roll was the action dice")
    step = do(s, "correct_roll", b=2)
    assert not step.undoable
    assert s.summary()["wizard"] == 4 and s.summary()["action"] == {"a": "hat", "b": 2}
    assert s.summary()["returns"][0]["nearest"] == ["c3", "c5", "p2.1"]   # a script's ids
    do(s, "correct_roll", a="bottle")
    assert s.summary()["wizard"] == 2 and s.summary()["phase"] == "move"
    assert s.summary()["returns"] == [] and s.summary()["action"] == {"a": "bottle", "b": 2}
    do(s, "move_bottle", bottle=1, to="p1.2")
    refused(s, "correct_roll", b=3, match="before the team acts on it")
    s.undo()                                   # undo the choice, then the roll can be corrected
    do(s, "correct_roll", b=3)
    assert s.summary()["action"] == {"a": "bottle", "b": 3} and s.summary()["turn"] == "Ann"
    assert_json_and_replay(s)


def test_correct_roll_after_the_turn_passed_by_itself():
    s = new(circle_spaces=6, path_spaces=1, obstacle_space=1, start_space=1, wizard_start=0,
            die_b=[2, 3, 4, 6, "spell", "spell"])
    do(s, "action_roll", a="bottle", b=6)
    assert s.summary()["turn"] == "Bob"
    do(s, "correct_roll", b=2)
    assert s.summary()["turn"] == "Ann" and s.summary()["phase"] == "move"


def test_correct_roll_fixes_a_misread_magic_roll():
    s = new()
    cast(s, "omniscience", [2, 4, 6])
    assert s.summary()["phase"] == "cast"
    refused(s, "correct_roll", a="hat", match="dice: the latest roll was the magic dice; give all three")
    refused(s, "correct_roll", dice=[2, 4, 9], match="dice[2]: a whole number from 1 to 6, not 9")
    do(s, "correct_roll", dice=[2, 4, 5])
    spell = s.summary()["spell"]
    assert spell["rolls_used"] == 1 and spell["success"] is False and spell["dice"] == [2, 4, 5]
    do(s, "keep", dice=["magic1", "magic2"])
    refused(s, "correct_roll", dice=[2, 4, 4], match="No roll to fix")
    do(s, "magic_roll", dice=[2, 4, 3])
    do(s, "keep", dice=["magic1", "magic2"])
    do(s, "magic_roll", dice=[2, 4, 1])                                # third roll fails: turn passes
    assert s.summary()["turn"] == "Bob"
    do(s, "correct_roll", dice=[2, 4, 2])                              # it was a 2 after all
    assert s.summary()["turn"] == "Ann" and s.summary()["phase"] == "cast"
    assert s.summary()["spell"]["rolls_used"] == 3
    assert_json_and_replay(s)


# -- dice inputs --------------------------------------------------------------------------------
def test_action_dice_inputs_one_at_a_time_make_the_roll():
    s = new()
    step = s.handle_input(InputEvent("die", "action_b", "3"))
    assert step.command == Command("read_die", args={"die": "action_b", "value": 3})
    assert not step.undoable and s.summary()["reading"] == {"action_b": 3}
    assert s.prompt()["inputs"] == ["action_a"]
    step = s.handle_input(InputEvent("die", "action_a", "Bottle"))
    assert step.command == Command("action_roll", args={"a": "bottle", "b": 3})
    assert s.summary()["phase"] == "move" and s.summary()["reading"] == {}
    with pytest.raises(RuleViolation, match="Nobody asked for the action dice now"):
        s.handle_input(InputEvent("die", "action_a", "hat"))


def test_a_roll_nobody_asked_for_is_refused_clearly():
    s = new()
    with pytest.raises(RuleViolation, match="Nobody asked for the magic dice"):
        s.handle_input(InputEvent("die", "magic1", 4))
    with pytest.raises(RuleViolation, match="That die means nothing now: Ann: roll the two action dice"):
        s.handle_input(InputEvent("die", "d20", 4))
    with pytest.raises(RuleViolation, match="That button means nothing now"):
        s.handle_input(InputEvent("button", "seat1.claim"))
    with pytest.raises(RuleViolation, match="Action die B has no face 5; its faces are 2, 3, 4, spell"):
        s.handle_input(InputEvent("die", "action_b", 5))
    refused(s, "read_die", die="magic7", value=3, match="die: one of action_a, action_b, magic1")
    assert s.steps == []


def test_magic_dice_inputs_and_the_end_turn_button():
    s = new()
    s.handle_input(InputEvent("die", "action_a", "bottle"))
    s.handle_input(InputEvent("die", "action_b", "spell"))
    do(s, "announce_spell", spell="exchange")
    assert s.prompt()["inputs"] == ["magic1", "magic2", "magic3"]
    with pytest.raises(RuleViolation, match="value: one of 1, 2, 3, 4, 5, 6, bottle, hat, spell, not 7"):
        s.handle_input(InputEvent("die", "magic1", 7))
    with pytest.raises(RuleViolation, match="Magic die 1 has no face hat; its faces are 1, 2, 3, 4, 5, 6"):
        s.handle_input(InputEvent("die", "magic1", "hat"))
    s.handle_input(InputEvent("die", "magic2", 3))
    s.handle_input(InputEvent("die", "magic1", 4))
    step = s.handle_input(InputEvent("die", "magic3", 5))
    assert step.command == Command("magic_roll", args={"dice": [4, 3, 5]})
    # "the dice kept are those the team said": the advice (keep the 3 and 5) keeps none
    assert s.prompt()["inputs"] == ["magic1", "magic2", "magic3"]
    assert s.summary()["spell"]["keep"] == ["magic2", "magic3"]
    s.handle_input(InputEvent("button", "end_turn"))
    assert s.summary()["turn"] == "Bob"
    assert_json_and_replay(s)


# -- a seeded random table ------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_random_tables_play_legal_games_to_the_end(seed):
    rng = random.Random(seed)
    s = new(share_spaces=seed % 3 == 0, circle_spaces=18 if seed % 2 else 24)
    for _ in range(600):
        if s.over:
            break
        if rng.random() < 0.03 and s.state["obstacles"] and not s.state["spell_breaker_used"]:
            do(s, "break_obstacle", path=s.state["obstacles"][0])
        s.execute(random_command(s.state, rng))
        assert s.prompt()["phase"] != "busy"
    assert s.over, "a game ends: the wizard blocks paths whenever hat + spell comes up"
    assert s.summary()["outcome"] in ("won", "lost")
    assert_json_and_replay(s)
