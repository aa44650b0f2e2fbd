"""Cauldron Quest: setup, the action dice, moving bottles, the wizard, obstacles and the
spell-breaking token; every refusal leaves state and log untouched."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core import Session, SetupError
from companion.games.quest import RULES
from tests.support.commands import do, refused

PLAYERS = ["Ann", "Bob", "Cat"]
NEEDED = ["rotten_egg", "newt_eye", "bat_wing"]


def new(**settings: Any) -> Session:
    return Session(RULES, {"game": "quest", "players": list(PLAYERS), "needed": list(NEEDED),
                           **settings})




def bottles(s: Session) -> dict[str, str]:
    return s.summary()["bottles"]


# -- setup ----------------------------------------------------------------------------------
def test_setup_places_bottles_on_the_path_entrances_and_the_wizard_on_his_arrow():
    s = new()
    summary = s.summary()
    assert summary["bottles"] == {"1": "c0", "2": "c4", "3": "c8", "4": "c12", "5": "c16", "6": "c20"}
    assert summary["wizard"] == 2
    assert summary["phase"] == "roll" and summary["turn"] == "Ann"
    assert summary["needed"] == NEEDED and summary["in_cauldron"] == [] and summary["revealed"] == {}
    assert summary["obstacles"] == [] and summary["spell_breaker_used"] is False
    assert summary["outcome"] is None and summary["over"] is False and summary["winners"] == []
    assert summary["spell"] is None
    assert summary["players"] == [{"name": n, "score": 0} for n in PLAYERS]
    assert s.prompt()["inputs"] == ["action_a", "action_b"]


def test_settings_change_the_board():
    s = new(circle_spaces=18, path_spaces=3, start_space=1, wizard_start=0, share_spaces=True,
            die_b=[1, 2, 3, 4, 5, "spell"])
    assert bottles(s) == {str(n): f"p{n}.1" for n in range(1, 7)}
    assert s.summary()["settings"]["circle_spaces"] == 18
    assert s.summary()["wizard"] == 0


@pytest.mark.parametrize("config, match", [
    ({"players": []}, "players: a list of 1 to 6"),
    ({"players": ["A", "B", "C", "D", "E", "F", "G"]}, "players: a list of 1 to 6"),
    ({"players": ["Ann", "ann"]}, "players[1]: 'ann' is listed twice"),
    ({"players": ["Zoe\u0308", "ZO\u00cb"]}, "players[1]: 'ZO\u00cb' is listed twice"),
    ({"players": "Ann"}, "players: a list of 1 to 6"),
    ({"players": ["Ann", " "]}, "players[1]: give a name"),
    ({"needed": ["rotten_egg", "newt_eye"]}, "needed: a list of 3"),
    ({"needed": ["rotten_egg", "newt_eye", "newt_eye"]}, "needed[2]: 'newt_eye' is listed twice"),
    ({"needed": ["rotten_egg", "newt_eye", "frog_leg"]}, "needed[2]: one of rotten egg, poisonous mushroom"),
    ({"needed": "rotten_egg newt_eye bat_wing"}, "needed: a list of 3"),
    ({"colour": "red"}, "colour: not a key of the Cauldron Quest setup; it knows players, needed"),
    ({"circle_spaces": 20}, "circle_spaces: the six paths sit evenly on the circle, so a multiple of 6"),
    ({"circle_spaces": 3}, "circle_spaces: a whole number from 6 to 60, not 3"),
    ({"circle_spaces": 24.0}, "circle_spaces: a whole number from 6 to 60, not 24.0"),
    ({"path_spaces": "5"}, "path_spaces: a whole number from 1 to 12, not '5'"),
    ({"obstacle_space": 6}, "obstacle_space: a whole number from 1 to 5, not 6"),
    ({"path_spaces": 3, "obstacle_space": 4}, "obstacle_space: a whole number from 1 to 3"),
    ({"start_space": -1}, "start_space: a whole number from 0 to 5"),
    ({"wizard_start": 4}, "wizard_start: the wizard's arrow cannot be a bottle's start space"),
    ({"wizard_start": 24}, "wizard_start: a whole number from 0 to 23, not 24"),
    ({"wizard_start": 10**5000}, "wizard_start: a whole number from 0 to 23, not a 16610-bit number"),
    ({"die_a": ["bottle"] * 5}, "die_a: a list of 6 (one of bottle, hat), not a list of 5"),
    ({"die_b": [2, 3, 4, 7, "spell", "spell"]}, "die_b[3]: one of 1, 2, 3, 4, 5, 6, spell, not 7"),
    ({"die_b": [True, 3, 4, 2, "spell", "spell"]}, "die_b[0]: one of 1, 2, 3, 4, 5, 6, spell, not True"),
    ({"die_b": [2.0, 3, 4, 2, "spell", "spell"]}, "die_b[0]: one of 1, 2, 3, 4, 5, 6, spell, not 2.0"),
    ({"share_spaces": "yes"}, "share_spaces: true or false, not 'yes'"),
])
def test_setup_refusals_name_the_key(config, match):
    setup = {"game": "quest", "players": list(PLAYERS), "needed": list(NEEDED), **config}
    with pytest.raises(SetupError) as info:
        Session(RULES, setup)
    assert match in str(info.value)


def test_setup_values_come_back_clean():
    s = Session(RULES, {"game": "quest", "players": [" Zoe\u0308 ", "Bob"],
                        "needed": ["Rotten Egg", "NEWT_EYE", "bat wing"],
                        "die_a": ["Bottle", "bottle", "HAT", "bottle", "hat", "bottle"],
                        "die_b": [2, 3, 3, 4, "Spell", "spell"], "wizard_start": None})
    assert s.state["players"] == ["Zo\u00eb", "Bob"]          # stripped, NFC, as typed
    assert s.state["needed"] == ["rotten_egg", "newt_eye", "bat_wing"]
    assert s.state["settings"]["die_a"] == ["bottle", "bottle", "hat", "bottle", "hat", "bottle"]
    assert s.state["settings"]["die_b"][4] == "spell" and s.state["settings"]["wizard_start"] == 2


def test_every_setting_is_a_declared_setup_key():
    from companion.games.quest.state import DEFAULTS

    assert set(RULES.setup_keys) == {"players", "needed", *DEFAULTS}


def test_one_to_six_players_and_youngest_first():
    assert RULES.players == (1, 6)
    s = Session(RULES, {"players": ["Zoe"], "needed": NEEDED})
    assert s.summary()["turn"] == "Zoe"


# -- the action dice --------------------------------------------------------------------------
def test_action_roll_bottle_number_asks_for_a_move():
    s = new()
    step = do(s, "action_roll", "Ann", a="bottle", b=3)
    assert not step.undoable
    assert s.summary()["phase"] == "move"
    assert s.summary()["action"] == {"a": "bottle", "b": 3}
    assert "move any potion bottle 3 spaces" in s.prompt()["text"]


def test_action_roll_refusals():
    s = new()
    refused(s, "action_roll", a="wand", b=3, match="a: one of bottle, hat, not 'wand'")
    refused(s, "action_roll", a="bottle", b=5, match="b: one of 2, 3, 4, spell, not 5")
    refused(s, "action_roll", a=True, b=3, match="a: one of bottle, hat, not True")
    refused(s, "action_roll", a="bottle", b=2.0, match="b: one of 2, 3, 4, spell, not 2.0")
    refused(s, "action_roll", a="bottle", match="b: missing")
    refused(s, "action_roll", "Bob", a="bottle", b=3, match="It is Ann's turn")
    refused(s, "action_roll", "Zed", a="bottle", b=3, match="no player named 'Zed'")
    refused(s, "fly", match="Cauldron Quest has no command 'fly'")
    do(s, "action_roll", "ANN", a="Bottle", b=3)           # names and faces: case does not matter
    assert s.steps[-1].command.player == "Ann" and s.steps[-1].command.args["a"] == "bottle"
    refused(s, "action_roll", a="bottle", b=4,
            match="already rolled this turn (bottle + 3): a misread die is put right with the Fix dice")


def test_die_faces_are_a_data_table():
    s = new(die_b=[1, 5, 6, 6, 6, "spell"])
    do(s, "action_roll", a="bottle", b=5)
    assert s.summary()["phase"] == "move"


def test_turns_go_clockwise_from_the_first_listed():
    s = new()
    for who, path in (("Ann", 1), ("Bob", 2), ("Cat", 3), ("Ann", 4)):
        assert s.summary()["turn"] == who
        do(s, "action_roll", a="hat", b="spell")
        do(s, "block_path", path=path)
    assert s.summary()["turn_no"] == 5


# -- moving a bottle --------------------------------------------------------------------------
def test_move_a_bottle_exactly_the_number_rolled_then_the_turn_passes():
    s = new()
    do(s, "action_roll", a="bottle", b=3)
    do(s, "move_bottle", bottle=1, to="p1.3")
    assert bottles(s)["1"] == "p1.3"
    assert s.summary()["phase"] == "roll" and s.summary()["turn"] == "Bob"


def test_bottles_move_either_way_round_the_circle_and_turn_onto_paths():
    s = new()
    do(s, "action_roll", a="bottle", b=3)
    do(s, "move_bottle", bottle=1, to="c21")        # counter-clockwise: c23, c22, c21
    do(s, "action_roll", a="bottle", b=3)
    do(s, "move_bottle", bottle=3, to="c5")
    do(s, "action_roll", a="bottle", b=2)
    do(s, "move_bottle", bottle=3, to="p2.1")       # c4 (passing bottle 2), then onto path 2
    do(s, "action_roll", a="bottle", b=2)
    do(s, "move_bottle", bottle=3, to="p2.3")
    assert bottles(s)["1"] == "c21" and bottles(s)["3"] == "p2.3"


def test_move_refusals_name_the_rule():
    s = new()
    refused(s, "move_bottle", bottle=1, to="c3", match="Not the time to move a bottle: roll the two")
    do(s, "action_roll", a="bottle", b=3)
    refused(s, "move_bottle", bottle=7, to="c3", match="bottle: a whole number from 1 to 6, not 7")
    refused(s, "move_bottle", bottle="1", to="c3", match="bottle: a whole number from 1 to 6, not '1'")
    refused(s, "move_bottle", bottle=1.0, to="c3", match="bottle: a whole number from 1 to 6, not 1.0")
    for wrong in ("x9", "c24", "p7.1", "p1.6", "p1.0", "c-1"):
        refused(s, "move_bottle", bottle=1, to=wrong, match='to: a space of the board: "c0" to "c23"')
    refused(s, "move_bottle", bottle=1, match="to: missing")
    refused(s, "move_bottle", bottle=1, to=["c3"], match="to: a space of the board")
    # "A potion bottle cannot be moved past the wizard on the wizard's circle": which is said
    refused(s, "move_bottle", bottle=1, to="c3",
            match="Bottle 1 cannot reach the wizard's circle, 3 spaces past path 1's entrance: "
                  "the wizard (on the wizard's circle, 2 spaces past path 1's entrance) is in "
                  "the way, and a potion bottle cannot be moved past the wizard")
    refused(s, "move_bottle", bottle=1, to="c2",
            match="The wizard stands on the wizard's circle, 2 spaces past path 1's entrance: a "
                  "potion bottle cannot stop on the wizard")
    refused(s, "move_bottle", bottle=1, to="p1.2",
            match="cannot reach the second space of path 1 in exactly 3 spaces")
    refused(s, "move_bottle", bottle=3, to="c10",
            match="Bottle 3 cannot reach the wizard's circle, 2 spaces past path 3's entrance in "
                  "exactly 3 spaces; it can reach the wizard's circle, 1 space past path 2's "
                  "entrance or the wizard's circle, 3 spaces past path 3's entrance or the third "
                  "space of path 3")
    refused(s, "move_bottle", bottle=1, to="cauldron", match="ingredient has not yet been revealed")
    do(s, "move_bottle", bottle=1, to=" P1.3 ")      # spaces are read leniently
    assert bottles(s)["1"] == "p1.3"


def test_a_bottle_cannot_stop_on_another_unless_spaces_are_shared():
    s = new()
    do(s, "action_roll", a="bottle", b=4)
    refused(s, "move_bottle", bottle=3, to="c4",
            match="Bottle 2 already stands on path 2's entrance (one bottle a space")
    shared = new(share_spaces=True)
    do(shared, "action_roll", a="bottle", b=4)
    do(shared, "move_bottle", bottle=3, to="c4")
    assert bottles(shared)["3"] == bottles(shared)["2"] == "c4"


def test_passing_another_bottle_is_allowed():
    s = new()
    do(s, "action_roll", a="bottle", b=3)
    do(s, "move_bottle", bottle=4, to="c9")
    do(s, "action_roll", a="bottle", b=2)
    do(s, "move_bottle", bottle=3, to="c10")         # c9 holds bottle 4: passing is allowed
    assert bottles(s)["3"] == "c10" and bottles(s)["4"] == "c9"


def test_when_no_bottle_can_use_the_roll_the_turn_passes_by_itself():
    s = new(circle_spaces=6, path_spaces=1, obstacle_space=1, start_space=1, wizard_start=0,
            die_b=[2, 3, 4, 6, "spell", "spell"])
    step = do(s, "action_roll", a="bottle", b=6)
    ended = [e for e in step.events if e.type == "turn_ended"]
    assert ended and ended[0].automatic and "no potion bottle can move 6 spaces" in ended[0].data["reason"]
    assert s.summary()["turn"] == "Bob" and s.summary()["phase"] == "roll"


# -- the wizard ---------------------------------------------------------------------------------
def test_the_wizard_moves_clockwise_and_knocks_bottles_to_the_nearest_space():
    s = new()
    step = do(s, "action_roll", a="hat", b=3)
    moved = [e for e in step.events if e.type == "wizard_moved"][0]
    assert moved.automatic and moved.data == {"from": 2, "to": 5, "steps": 3, "hit": [2]}
    summary = s.summary()
    assert summary["wizard"] == 5 and summary["phase"] == "return"
    assert summary["returns"] == [{"bottle": 2, "from": "c4", "nearest": ["c3", "p2.1"]}]
    assert ("bottle 2 (on path 2's entrance) goes to the wizard's circle, 3 spaces past path 1's "
            "entrance or the first space of path 2") in summary["prompt"]
    refused(s, "move_bottle", bottle=1, to="c1", match="Bottle 1 was not knocked away")
    refused(s, "move_bottle", bottle=2, to="p2.2",
            match="nearest space on the board: the wizard's circle, 3 spaces past path 1's "
                  "entrance or the first space of path 2, not the second space of path 2")
    refused(s, "block_path", path=1, match="first put the knocked bottles back on the nearest space (tap a gold ring)")
    do(s, "move_bottle", bottle=2, to="p2.1")
    assert bottles(s)["2"] == "p2.1"
    assert s.summary()["turn"] == "Bob"


def test_the_wizard_knocks_every_bottle_he_passes_or_stops_on():
    s = new(die_b=[2, 3, 4, 6, "spell", "spell"], share_spaces=False)
    do(s, "action_roll", a="hat", b=6)                        # c2 -> c8: passes c4, stops on c8
    assert s.state["returns"] == [2, 3]
    do(s, "move_bottle", bottle=3, to="p3.1")
    assert s.summary()["phase"] == "return"
    do(s, "move_bottle", bottle=2, to="c3")
    assert s.summary()["phase"] == "roll" and s.summary()["wizard"] == 8


def test_a_knocked_bottle_with_only_one_nearest_space_goes_there_by_itself():
    s = new(obstacle_space=5)
    do(s, "action_roll", a="bottle", b=3)
    do(s, "move_bottle", bottle=1, to="p1.3")
    do(s, "action_roll", a="bottle", b=2)
    do(s, "move_bottle", bottle=1, to="p1.5")
    do(s, "action_roll", a="hat", b="spell")
    step = do(s, "block_path", path=1)
    returned = [e for e in step.events if e.type == "bottle_returned"]
    assert returned and returned[0].automatic and returned[0].data["to"] == "p1.4"
    assert s.summary()["phase"] == "roll"


def test_a_passed_bottle_with_no_free_space_left_stays_where_it_is():
    """Found by the fuzz test: on the smallest board, with five paths blocked and every free
    space taken, the wizard's full round left five bottles waiting for a space that did not
    exist, and the game could not go on."""
    s = new(circle_spaces=6, path_spaces=1, obstacle_space=1, start_space=1, wizard_start=0,
            die_b=[2, 3, 4, 6, "spell", "spell"])
    for path in (1, 2, 4, 5, 6):
        do(s, "action_roll", a="hat", b="spell")
        do(s, "block_path", path=path)
        if s.summary()["phase"] == "return":
            do(s, "move_bottle", bottle=path, to="c1")
    assert bottles(s) == {"1": "c1", "2": "c2", "3": "p3.1", "4": "c3", "5": "c4", "6": "c5"}
    step = do(s, "action_roll", a="hat", b=6)                 # a full round: passes five bottles
    returned = [e.data for e in step.events if e.type == "bottle_returned"]
    assert [(r["bottle"], r["from"], r["to"]) for r in returned] == [
        (1, "c1", "c1"), (2, "c2", "c2"), (4, "c3", "c3"), (5, "c4", "c4"), (6, "c5", "c5")]
    assert s.summary()["phase"] == "roll" and s.summary()["wizard"] == 0


# -- obstacles ----------------------------------------------------------------------------------
def test_hat_and_spell_blocks_the_path_the_obstacle_names():
    s = new()
    do(s, "action_roll", a="hat", b="spell")
    assert s.summary()["phase"] == "block" and "which path? (open: 1, 2, 3, 4, 5, 6)" in s.prompt()["text"]
    refused(s, "block_path", path=0, match="path: a whole number from 1 to 6, not 0")
    refused(s, "block_path", path=1.0, match="path: a whole number from 1 to 6, not 1.0")
    refused(s, "block_path", path="1", match="path: a whole number from 1 to 6, not '1'")
    refused(s, "move_bottle", bottle=1, to="p1.1", match="the wizard blocks a path: tap the path the obstacle shows")
    # "These dice show you what you must do this turn": the path is blocked before it ends
    refused(s, "end_turn", match="The turn cannot end yet: turn an obstacle face up and block "
                                 "the path it shows")
    do(s, "block_path", path=3)
    assert s.summary()["obstacles"] == [3] and s.summary()["turn"] == "Bob"
    do(s, "action_roll", a="hat", b="spell")
    refused(s, "block_path", path=3, match="Path 3 is already blocked")
    refused(s, "announce_spell", spell="exchange", match="Not the time to choose a spell")
    do(s, "block_path", path=4)
    refused(s, "block_path", path=5, match="Not the time to block a path")


def test_a_bottle_on_the_blocked_space_goes_to_the_nearest_space_and_cannot_pass():
    s = new()
    do(s, "action_roll", a="bottle", b=3)
    do(s, "move_bottle", bottle=3, to="p3.3")
    do(s, "action_roll", a="bottle", b=4)
    do(s, "move_bottle", bottle=4, to="c8")
    do(s, "action_roll", a="bottle", b=2)
    do(s, "move_bottle", bottle=4, to="p3.2")
    do(s, "action_roll", a="hat", b="spell")
    step = do(s, "block_path", path=3)
    blocked = [e for e in step.events if e.type == "path_blocked"][0]
    assert blocked.data == {"path": 3, "space": "p3.2", "knocked": [4]}
    assert bottles(s)["4"] == "p3.1"                 # p3.3 is taken: p3.1 is the one nearest space
    do(s, "action_roll", a="bottle", b=2)
    do(s, "move_bottle", bottle=3, to="p3.5")       # beyond the obstacle: on toward the cauldron
    do(s, "action_roll", a="bottle", b=2)
    # "A potion bottle cannot be moved past obstacles on the game board": which one is said
    refused(s, "move_bottle", bottle=4, to="p3.3",
            match="cannot reach the third space of path 3: the obstacle on path 3 is in the way")
    refused(s, "move_bottle", bottle=4, to="p3.2",
            match="An obstacle blocks the second space of path 3")
    do(s, "move_bottle", bottle=4, to="c7")          # round the circle to a free path instead


def test_a_knocked_bottle_chooses_among_equally_near_spaces():
    s = new()
    do(s, "action_roll", a="bottle", b=2)
    do(s, "move_bottle", bottle=3, to="p3.2")
    do(s, "action_roll", a="hat", b="spell")
    do(s, "block_path", path=3)
    assert s.summary()["returns"] == [{"bottle": 3, "from": "p3.2", "nearest": ["p3.1", "p3.3"]}]
    do(s, "move_bottle", bottle=3, to="p3.3")
    assert s.summary()["phase"] == "roll"


def test_the_spell_breaking_token_removes_one_obstacle_once():
    s = new()
    refused(s, "break_obstacle", path=2, match="Path 2 has no obstacle to remove (blocked: none)")
    do(s, "action_roll", a="hat", b="spell")
    do(s, "block_path", path=2)
    refused(s, "break_obstacle", path=9, match="path: a whole number from 1 to 6, not 9")
    do(s, "action_roll", a="bottle", b=2)             # any moment, even mid-turn
    step = do(s, "break_obstacle", path=2)
    assert step.undoable
    assert s.summary()["obstacles"] == [] and s.summary()["spell_breaker_used"] is True
    assert s.summary()["phase"] == "move"
    do(s, "move_bottle", bottle=1, to="p1.2")
    do(s, "action_roll", a="hat", b="spell")
    do(s, "block_path", path=2)                       # the removed obstacle may come up again
    refused(s, "break_obstacle", path=2, match="only once per game")


def test_the_token_cannot_be_used_once_all_six_obstacles_are_placed():
    s = new()
    for path in (1, 2, 3, 4, 5, 6):
        do(s, "action_roll", a="hat", b="spell")
        do(s, "block_path", path=path)
    assert s.summary()["outcome"] == "lost"
    refused(s, "break_obstacle", path=1, match="must be used before all 6 obstacles are on the board")
    refused(s, "action_roll", a="hat", b="spell", match="The game is over (the wizard won)")


def test_a_blocked_move_says_whether_the_wizard_or_an_obstacle_is_in_the_way():
    s = new(wizard_start=6)                          # the wizard two spaces past path 2's entrance
    do(s, "action_roll", a="hat", b="spell")
    do(s, "block_path", path=2)                      # obstacle on p2.2
    do(s, "action_roll", a="bottle", b=3)
    refused(s, "move_bottle", bottle=2, to="c7",
            match="the wizard (on the wizard's circle, 2 spaces past path 2's entrance) is in the "
                  "way")
    refused(s, "move_bottle", bottle=2, to="p2.3",
            match="the obstacle on path 2 is in the way")
