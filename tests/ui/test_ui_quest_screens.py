"""Cauldron Quest screens render at 800x480 and 1280x720; the screenshots are saved in
screenshots/ (quest_*.png) to be looked at."""

from __future__ import annotations

import re

from companion.core.model import Command
from ui_helpers import both_sizes, close_dialogs, frames, shot, texts

PLAYERS = ["Mia", "Leo", "Dad"]
NEEDED = ["rotten_egg", "newt_eye", "bat_wing"]


def start(app, players=PLAYERS, **extra):
    setup = {"game": "quest", "players": list(players), "needed": list(NEEDED), **extra}
    assert app.start_game(setup) is None
    frames()
    return app.session


def do(s, what, **args):
    return s.execute(Command(what, args=args))


def test_quest_setup_renders(app):
    app.new_game("quest")
    frames()
    assert app.screens.current == "quest_setup"
    both_sizes("quest_setup")
    setup = app.screens.get_screen("quest_setup")
    setup.change_count(+3)
    setup.chosen = NEEDED
    setup.rows[3].ids.name.text = "player 1"             # "Player 1" too: case does not count
    setup.rows[5].ids.name.text = "M" * 41
    setup.start()
    frames()
    assert app.screens.current == "quest_setup"
    assert setup.rows[3].ids.problem.text == ("Player 1 is already called Player 1: add a letter, "
                                              "like player 1 B")
    assert setup.rows[5].problem.startswith("A shorter name")
    both_sizes("quest_setup_error")
    both_sizes("quest_setup_board_facts", before=setup.open_facts)


def test_quest_table_renders(app):
    start(app)
    assert app.screens.current == "quest"
    frames()
    table = app.screens.get_screen("quest")
    assert not [t for t in texts(table) if re.search(r"\d:\d\d", t)]  # the game bar's clocks
    both_sizes("quest_table_roll")


def quest(app):
    return app.screens.get_screen("quest")


def test_quest_table_phases_render(app):
    s = start(app)
    do(s, "action_roll", a="bottle", b=3)
    frames()
    shot("quest_table_move")  # 800x480 only: a lighter variant
    quest(app).pick("c0")                                   # bottle 1 picked: targets ringed
    frames()
    assert quest(app).ids.board.targets
    both_sizes("quest_table_move_highlights")
    do(s, "move_bottle", bottle=1, to="p1.3")
    do(s, "action_roll", a="bottle", b="spell")
    frames()
    assert "Choose a spell!" in texts(app.root)
    both_sizes("quest_table_announce")
    do(s, "announce_spell", spell="omniscience")
    frames()
    shot("quest_table_magic_first")  # 800x480 only: a lighter variant
    do(s, "magic_roll", dice=[2, 5, 4])
    frames()
    assert "Keep the 2 and 4: 75% chance" in texts(app.root)
    both_sizes("quest_table_magic")
    do(s, "keep", dice=["magic2"])                          # the team keeps the 5: 9/32
    frames()
    assert "Kept the 5: 28%, best 75%" in texts(app.root)
    both_sizes("quest_table_magic_kept")
    do(s, "keep", dice=["magic1", "magic3"])
    do(s, "magic_roll", dice=[2, 1, 4])
    do(s, "magic_roll", dice=[2, 6, 4])
    frames()
    shot("quest_table_reveal")  # 800x480 only: a lighter variant
    quest(app).pick("c4")                                   # bottle 2
    frames()
    both_sizes("quest_table_reveal_ingredient")
    do(s, "reveal", bottle=2, ingredient="newt_eye")
    do(s, "action_roll", a="hat", b="spell")
    frames()
    both_sizes("quest_table_block")
    do(s, "block_path", path=3)
    frames()
    assert "Path 3 is blocked." in texts(app.root)          # the next player sees why
    shot("quest_table_roll_recap")  # 800x480 only: a lighter variant
    do(s, "action_roll", a="hat", b=3)                      # the wizard knocks bottle 2 away
    frames()
    assert quest(app).mode == "return"
    both_sizes("quest_table_return")


def test_quest_spells_and_dialogs_render(app):
    s = start(app)
    do(s, "action_roll", a="bottle", b="spell")
    do(s, "announce_spell", spell="exchange")
    do(s, "magic_roll", dice=[1, 3, 5])
    frames()
    quest(app).pick("c0")
    quest(app).pick("c8")
    frames()
    both_sizes("quest_table_swap")
    do(s, "swap", bottles=[1, 3])
    do(s, "action_roll", a="bottle", b="spell")
    do(s, "announce_spell", spell="great_sorcery")
    do(s, "magic_roll", dice=[6, 6, 1])
    frames()
    quest(app).pick("c4")
    frames()
    both_sizes("quest_table_sorcery")
    from ui.games.quest.dialogs import FixDiceDialog, TokenDialog

    FixDiceDialog().open()
    shot("quest_dialog_fix_magic")
    close_dialogs()
    do(s, "move_bottle", bottle=2, to="p2.4")
    do(s, "action_roll", a="hat", b="spell")
    do(s, "block_path", path=5)
    do(s, "action_roll", a="bottle", b=4)
    frames()
    both_sizes("quest_dialog_fix_action", before=lambda: FixDiceDialog().open())
    both_sizes("quest_dialog_token", before=lambda: TokenDialog().open())
    app.refuse("Bottle 1 cannot reach the wizard's circle, 1 space past path 2's entrance in "
               "exactly 4 spaces; it can reach path 4's entrance or the third space of path 3")
    both_sizes("quest_table_refusal")
    app.dismiss_refusal()


def test_quest_win_and_lose_scenes_render(app):
    s = start(app)
    for bottle, name in ((1, "rotten_egg"), (2, "newt_eye"), (3, "bat_wing")):
        do(s, "action_roll", a="bottle", b="spell")
        do(s, "announce_spell", spell="omniscience")
        do(s, "magic_roll", dice=[2, 4, 6])
        do(s, "reveal", bottle=bottle, ingredient=name)
    for bottle in (1, 2, 3):
        do(s, "action_roll", a="bottle", b="spell")
        do(s, "announce_spell", spell="great_sorcery")
        do(s, "magic_roll", dice=[6, 6, 6])
        do(s, "move_bottle", bottle=bottle, to="cauldron")
    frames()
    assert app.screens.current == "quest_result"
    assert "WE WON TOGETHER!" in texts(app.root)
    both_sizes("quest_table_win")
    s = start(app)
    for path in range(1, 7):
        do(s, "action_roll", a="hat", b="spell")
        do(s, "block_path", path=path)
    frames()
    assert app.screens.current == "quest_result"
    assert "The wizard wins this time" in texts(app.root)
    both_sizes("quest_table_lose")


def test_quest_table_fits_above_a_dice_tray_strip(app):
    """With a dice tray the root's dice strip takes 24 more units below the game bar: the
    fullest panels (the spells, the magic dice, the ingredients) still fit whole."""
    s = start(app)
    app.dice_status = "Dice tray: ready"
    do(s, "action_roll", a="bottle", b="spell")
    frames()
    both_sizes("quest_tray_announce")
    do(s, "announce_spell", spell="omniscience")
    do(s, "magic_roll", dice=[2, 5, 4])
    frames()
    both_sizes("quest_tray_magic")
    do(s, "keep", dice=["magic3"])                          # the 4 alone: the best beside it
    frames()
    both_sizes("quest_tray_magic_kept")
    do(s, "keep", dice=[])
    do(s, "magic_roll", dice=[2, 6, 4])
    quest(app).pick("c4")
    frames()
    both_sizes("quest_tray_reveal_ingredient")
    app.dice_status = ""
