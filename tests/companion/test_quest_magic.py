"""Cauldron Quest: announcing a spell, the magic dice (keep, judge, three rolls), casting the
three spells, the cauldron, ending a turn, correcting a misread die and the dice inputs."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core import Command, InputEvent, Session
from companion.games.quest import RULES
from tests.support.commands import do, refused

PLAYERS = ["Ann", "Bob", "Cat"]
NEEDED = ["rotten_egg", "newt_eye", "bat_wing"]


def new(**settings: Any) -> Session:
    return Session(RULES, {"game": "quest", "players": list(PLAYERS), "needed": list(NEEDED),
                           **settings})




def cast(s: Session, spell: str, dice: list[int]) -> None:
    do(s, "action_roll", a="bottle", b="spell")
    do(s, "announce_spell", spell=spell)
    do(s, "magic_roll", dice=dice)


def die(s: Session, which: str, value: Any):
    return s.handle_input(InputEvent("die", which, value))


# -- announcing and rolling ---------------------------------------------------------------------
def test_bottle_and_spell_asks_for_an_announced_spell_with_the_odds_of_each():
    s = new()
    do(s, "action_roll", a="bottle", b="spell")
    summary = s.summary()
    assert summary["phase"] == "announce"
    assert summary["spell_odds"]["omniscience"] == {"exact": "343/512", "chance": 0.669922,
                                                    "percent": 67}
    assert summary["spell_odds"]["exchange"]["exact"] == "343/512"
    assert summary["spell_odds"]["great_sorcery"]["percent"] == 89
    assert "Spell of Omniscience 67%" in summary["prompt"]
    refused(s, "magic_roll", dice=[2, 4, 6], match="choose a spell before the first roll")
    refused(s, "announce_spell", spell="fireball", match="spell: one of omniscience, exchange, great_sorcery")
    refused(s, "move_bottle", bottle=1, to="p1.1", match="choose a spell before the first roll of the magic dice")
    refused(s, "end_turn", match="The turn cannot end yet: choose a spell and roll the magic dice "
                                 "at least once")
    do(s, "announce_spell", spell="omniscience")
    assert s.summary()["spell"] == {
        "name": "omniscience", "rolls_used": 0, "rolls_left": 3, "dice": None, "success": None,
        "odds": {"exact": "343/512", "chance": 0.669922, "percent": 67}, "keep": [],
        "chosen": False, "best": None}
    refused(s, "keep", dice=["magic1"], match="Nothing to keep before the first magic roll")
    refused(s, "end_turn", match="roll the magic dice at least once")


def test_each_roll_is_judged_and_the_advice_says_which_dice_to_keep():
    s = new()
    do(s, "action_roll", a="bottle", b="spell")
    do(s, "announce_spell", spell="omniscience")
    step = do(s, "magic_roll", dice=[2, 5, 4])
    judged = [e for e in step.events if e.type == "spell_judged"][0]
    assert judged.automatic and judged.data["success"] is False and not step.undoable
    spell = s.summary()["spell"]
    assert spell["rolls_used"] == 1 and spell["success"] is False
    assert spell["keep"] == ["magic1", "magic3"] and spell["odds"]["exact"] == "3/4"
    assert "best: keep 2 and 4, re-roll the rest (chance 75%)" in s.prompt()["text"]
    assert s.prompt()["inputs"] == ["magic1", "magic2", "magic3"]     # the advice keeps none
    do(s, "magic_roll", dice=[2, 3, 4])
    assert s.summary()["spell"]["odds"]["exact"] == "1/2"
    do(s, "magic_roll", dice=[2, 1, 4])
    assert s.summary()["turn"] == "Bob" and s.summary()["spell"] is None   # failed: turn passes


def test_magic_roll_refusals():
    s = new()
    refused(s, "magic_roll", dice=[1, 2, 3], match="Not the time to roll the magic dice")
    do(s, "action_roll", a="bottle", b="spell")
    do(s, "announce_spell", spell="exchange")
    refused(s, "magic_roll", dice=[1, 2], match="dice: a list of 3 (a whole number from 1 to 6), not a list of 2")
    refused(s, "magic_roll", dice=[1, 2, 7], match="dice[2]: a whole number from 1 to 6, not 7")
    refused(s, "magic_roll", dice="135", match="dice: a list of 3 (a whole number from 1 to 6), not '135'")
    refused(s, "magic_roll", dice=[1, 2.0, 3], match="dice[1]: a whole number from 1 to 6, not 2.0")
    do(s, "magic_roll", dice=[1, 3, 5])
    assert s.summary()["phase"] == "cast"
    refused(s, "magic_roll", dice=[1, 3, 5], match="Not the time to roll the magic dice")


def test_keep_chooses_the_dice_that_stay_and_the_reader_then_waits_for_the_others():
    s = new()
    cast(s, "great_sorcery", [6, 1, 2])
    refused(s, "keep", dice=["magic1", "magic2", "magic3"], match="keeping all three is not a roll")
    refused(s, "keep", dice=["die1"], match="dice[0]: one of magic1, magic2, magic3, not 'die1'")
    refused(s, "keep", dice=["magic1", "MAGIC1"], match="dice[1]: 'magic1' is listed twice")
    refused(s, "keep", dice="magic1", match="dice: a list of 0 to 3")
    do(s, "keep", dice=["magic3", "magic1"])
    assert s.state["spell"]["keep"] == ["magic1", "magic3"]
    assert s.prompt()["inputs"] == ["magic2"]
    assert "keeping 6 and 2, roll the others" in s.prompt()["text"]
    step = die(s, "magic2", 5)
    assert step.command == Command("magic_roll", args={"dice": [6, 5, 2]})
    assert s.summary()["spell"]["rolls_used"] == 2


def test_the_dice_kept_are_those_the_team_said_and_a_roll_waits_for_every_other_die():
    # The review's table: 2, 4, 5 for Omniscience, then all three rolled again and read as
    # 6, 3, 3. The advice (keep the 2 and 4) is not what the team did.
    s = new()
    cast(s, "omniscience", [2, 4, 5])
    assert s.summary()["spell"]["keep"] == ["magic1", "magic2"]          # the advice
    step = die(s, "magic3", 6)
    assert step.command.do == "read_die" and s.summary()["spell"]["rolls_used"] == 1
    assert s.prompt()["inputs"] == ["magic1", "magic2"]
    step = die(s, "magic1", 3)                                             # part of that roll
    assert step.command.do == "read_die"
    step = die(s, "magic2", 3)
    assert step.command == Command("magic_roll", args={"dice": [3, 3, 6]})
    spell = s.summary()["spell"]
    assert spell["rolls_used"] == 2 and spell["dice"] == [3, 3, 6] and spell["success"] is False
    assert s.summary()["phase"] == "magic"                                # not cast


def test_a_die_read_twice_before_the_roll_is_complete_counts_its_last_face():
    s = new()
    cast(s, "exchange", [1, 2, 3])
    die(s, "magic2", 4)
    die(s, "magic2", 5)                                      # it fell off the tray: read again
    die(s, "magic1", 1)
    step = die(s, "magic3", 3)
    assert step.command == Command("magic_roll", args={"dice": [1, 5, 3]})
    assert s.summary()["phase"] == "cast"


def test_keeping_dice_after_the_others_were_read_completes_the_roll():
    # "On the second roll you leave the dice showing 2 and 4 where they are and roll only the
    # die that shows 5": the tray read the 5's die first, then the team said what it kept.
    s = new()
    cast(s, "omniscience", [2, 5, 4])
    die(s, "magic2", 6)
    refused(s, "keep", dice=["magic2"], match="Magic die 2 was already read in this roll as 6 "
                                              "(it showed 5): it was rolled again")
    step = do(s, "keep", dice=["magic1", "magic3"])
    assert [e.type for e in step.events][:2] == ["dice_kept", "magic_rolled"]
    assert not step.undoable
    assert s.summary()["spell"]["dice"] == [2, 6, 4] and s.summary()["phase"] == "cast"


def test_a_kept_die_read_with_its_own_face_is_part_of_the_roll():
    s = new()
    cast(s, "omniscience", [2, 5, 4])
    do(s, "keep", dice=["magic1", "magic3"])
    assert s.prompt()["inputs"] == ["magic2"]
    assert die(s, "magic1", 2).command.do == "read_die"        # a tray reading every die
    refused(s, "read_die", die="magic3", value=5, match="Magic die 3 was kept, so it still shows 4")
    step = die(s, "magic2", 1)
    assert step.command == Command("magic_roll", args={"dice": [2, 1, 4]})


def test_the_chance_shown_is_for_the_dice_the_team_kept_with_the_best_beside_it():
    s = new()
    cast(s, "omniscience", [2, 4, 5])
    assert s.summary()["spell"]["odds"]["exact"] == "3/4"
    do(s, "keep", dice=["magic3"])                           # the team keeps the 5
    spell = s.summary()["spell"]
    assert spell["odds"] == {"exact": "9/32", "chance": 0.28125, "percent": 28}
    assert spell["keep"] == ["magic3"] and spell["chosen"] is True
    assert spell["best"] == {"odds": {"exact": "3/4", "chance": 0.75, "percent": 75},
                             "keep": ["magic1", "magic2"]}
    assert ("Roll 2 of 3: keeping 5, roll the others (chance 28%; best: keep 2 and 4, re-roll "
            "the rest, 75%)") in s.prompt()["text"]
    do(s, "keep", dice=["magic1", "magic2"])                 # now the best: nothing beside it
    spell = s.summary()["spell"]
    assert spell["odds"]["exact"] == "3/4" and spell["best"] is None
    assert "Roll 2 of 3: keeping 2 and 4, roll the others (chance 75%)" in s.prompt()["text"]
    do(s, "keep", dice=[])                                   # all three again, said aloud
    assert s.summary()["spell"]["odds"]["exact"] == "27/64"
    assert "re-rolling all three (chance 42%; best:" in s.prompt()["text"]


def test_the_spell_is_fixed_once_the_magic_dice_are_rolled():
    # "Yes, you must choose the desired spell before the first roll of the dice."
    s = new()
    do(s, "action_roll", a="bottle", b="spell")
    do(s, "announce_spell", spell="omniscience")
    do(s, "announce_spell", spell="exchange")                # a change of mind before rolling
    assert s.summary()["spell"]["name"] == "exchange"
    do(s, "magic_roll", dice=[1, 2, 4])
    refused(s, "announce_spell", spell="omniscience",
            match="The Charm of Exchange is fixed once the magic dice are rolled: \"you must "
                  "choose the desired spell before the first roll of the dice\"")
    do(s, "magic_roll", dice=[1, 3, 5])
    refused(s, "announce_spell", spell="great_sorcery", match="is fixed once the magic dice")


def test_end_turn_gives_up_the_rolls_left_or_a_spell_the_team_will_not_use():
    s = new()
    cast(s, "exchange", [2, 2, 2])
    step = do(s, "end_turn")
    assert step.events[0].data["reason"] == "the team passed"
    assert s.summary()["turn"] == "Bob"
    cast(s, "exchange", [1, 1, 1])
    do(s, "end_turn")
    assert s.summary()["turn"] == "Cat"
    do(s, "action_roll", a="bottle", b=2)
    refused(s, "end_turn", match="The turn cannot end yet: move a potion bottle 2 spaces "
                                 "(\"these dice show you what you must do this turn\")")


# -- the three spells ---------------------------------------------------------------------------
def test_omniscience_reveals_a_bottle_and_the_cauldron_takes_only_a_needed_one():
    s = new()
    cast(s, "omniscience", [2, 4, 6])
    assert s.summary()["phase"] == "cast" and s.summary()["spell"]["success"] is True
    refused(s, "swap", bottles=[1, 2], match="The spell cast is the Spell of Omniscience, not the Charm")
    refused(s, "move_bottle", bottle=1, to="p1.1", match="Not the time to move a bottle")
    refused(s, "reveal", bottle=1, ingredient="frog", match="ingredient: one of rotten egg, poisonous mushroom, horned toad")
    refused(s, "reveal", bottle=0, ingredient="bat_wing", match="bottle: a whole number from 1 to 6, not 0")
    do(s, "reveal", bottle=1, ingredient="Bat wing")                        # as the box names it
    assert s.steps[-1].command.args["ingredient"] == "bat_wing"
    assert s.summary()["revealed"] == {"1": "bat_wing"} and s.summary()["turn"] == "Bob"
    cast(s, "omniscience", [2, 2, 2])
    refused(s, "reveal", bottle=1, ingredient="newt_eye", match="Bottle 1 already shows the bat wing")
    refused(s, "reveal", bottle=2, ingredient="bat_wing", match="Bottle 1 already shows the bat wing: each")
    do(s, "reveal", bottle=2, ingredient="horned_toad")
    do(s, "action_roll", a="bottle", b=3)
    refused(s, "move_bottle", bottle=2, to="cauldron", match="holds the horned toad, a wrong ingredient: the cauldron needs the rotten egg, newt eye, bat wing")
    do(s, "move_bottle", bottle=1, to="p1.3")
    do(s, "action_roll", a="bottle", b=4)
    do(s, "move_bottle", bottle=1, to="cauldron")            # 3 spaces to go: a 4 is enough
    assert s.summary()["in_cauldron"] == ["bat_wing"] and s.summary()["bottles"]["1"] == "cauldron"
    do(s, "action_roll", a="bottle", b=2)
    refused(s, "move_bottle", bottle=1, to="p1.5", match="Bottle 1 is already in the cauldron")


def test_the_charm_of_exchange_swaps_two_bottles_anywhere():
    s = new()
    cast(s, "exchange", [1, 3, 5])
    refused(s, "reveal", bottle=1, ingredient="bat_wing", match="The spell cast is the Charm of Exchange")
    refused(s, "swap", bottles=[1], match="bottles: a list of 2 (a whole number from 1 to 6), not a list of 1")
    refused(s, "swap", bottles=[2, 2], match="bottles[1]: 2 is listed twice")
    refused(s, "swap", bottles=[2, 9], match="bottles[1]: a whole number from 1 to 6, not 9")
    step = do(s, "swap", bottles=[1, 4])
    assert step.events[0].data == {"bottles": [1, 4], "spaces": ["c0", "c12"]}
    assert s.summary()["bottles"]["1"] == "c12" and s.summary()["bottles"]["4"] == "c0"
    assert s.summary()["turn"] == "Bob"


def test_exchange_refuses_a_bottle_in_the_cauldron():
    s = new()
    cast(s, "omniscience", [2, 2, 2])
    do(s, "reveal", bottle=1, ingredient="newt_eye")
    for steps, to in ((3, "p1.3"), (3, "cauldron")):
        do(s, "action_roll", a="bottle", b=steps)
        do(s, "move_bottle", bottle=1, to=to)
    cast(s, "exchange", [1, 1, 1])
    refused(s, "swap", bottles=[1, 2], match="Bottle 1 is in the cauldron: swap bottles on the board")


def test_great_sorcery_moves_up_to_six_past_the_wizard_and_obstacles():
    s = new()
    do(s, "action_roll", a="hat", b="spell")
    do(s, "block_path", path=1)
    cast(s, "great_sorcery", [6, 5, 1])
    assert s.summary()["phase"] == "cast"
    refused(s, "move_bottle", bottle=1, to="p1.2", match="An obstacle blocks the second space of path 1")
    refused(s, "move_bottle", bottle=1, to="c2", match="a potion bottle cannot stop on the wizard")
    refused(s, "move_bottle", bottle=1, to="c7",
            match="cannot reach the wizard's circle, 3 spaces past path 2's entrance in up to 6 spaces")
    refused(s, "move_bottle", bottle=1, to="cauldron", match="has not yet been revealed")
    refused(s, "reveal", bottle=1, ingredient="newt_eye", match="The spell cast is the Great Sorcery")
    do(s, "move_bottle", bottle=1, to="p1.3")                # past the obstacle on p1.2
    cast(s, "great_sorcery", [4, 4, 4])
    do(s, "move_bottle", bottle=2, to="c1")                   # c3, past the wizard on c2, c1
    assert s.summary()["bottles"]["1"] == "p1.3" and s.summary()["bottles"]["2"] == "c1"


def test_great_sorcery_ends_in_the_cauldron_for_a_revealed_needed_bottle():
    s = new()
    cast(s, "omniscience", [2, 2, 2])
    do(s, "reveal", bottle=3, ingredient="rotten_egg")
    cast(s, "great_sorcery", [6, 6, 6])
    do(s, "move_bottle", bottle=3, to="cauldron")            # 6 spaces: c8 and the 5 of path 3
    assert s.summary()["in_cauldron"] == ["rotten_egg"]


def test_a_spell_with_no_use_on_the_board_passes_the_turn():
    s = new()
    for bottle, found in zip(range(1, 7), ["rotten_egg", "poisonous_mushroom", "horned_toad",
                                           "newt_eye", "dandelion_root", "bat_wing"]):
        cast(s, "omniscience", [2, 2, 2])
        do(s, "reveal", bottle=bottle, ingredient=found)
    assert s.summary()["turn"] == "Ann"
    step = do(s, "action_roll", a="bottle", b="spell")
    do(s, "announce_spell", spell="omniscience")
    step = do(s, "magic_roll", dice=[4, 4, 4])
    ended = [e for e in step.events if e.type == "turn_ended"][0]
    assert ended.automatic
    assert "has no use: every bottle on the board already shows its ingredient" in ended.data["reason"]


def test_spell_commands_out_of_their_time_are_refused():
    s = new()
    refused(s, "keep", dice=["magic1"], match="Not the time to keep magic dice: roll the two")
    refused(s, "reveal", bottle=1, ingredient="bat_wing", match="Not the time to reveal an ingredient")
    refused(s, "swap", bottles=[1, 2], match="Not the time to swap bottles")
    refused(s, "announce_spell", spell="exchange", match="Not the time to choose a spell")
    refused(s, "end_turn", match="The turn cannot end yet: roll the two action dice first")


@pytest.mark.parametrize("spell, dice, words", [
    ("omniscience", [2, 2, 2], "Turn a potion bottle ingredient-up"),
    ("exchange", [3, 3, 3], "Swap any two potion bottles"),
    ("great_sorcery", [4, 4, 4], "Move a potion bottle up to 6 spaces"),
])
def test_a_cast_spell_says_what_it_lets_the_team_do(spell, dice, words):
    s = new()
    cast(s, spell, dice)
    assert words in s.prompt()["text"] and s.prompt()["inputs"] == []
