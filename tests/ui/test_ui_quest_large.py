"""Cauldron Quest with Large text, phase by phase: the roll, a bottle's move, the spells, the
magic dice before and after a keep, the ingredient asked for, a path blocked, the swap, Great
Sorcery and both dialogs, each captured at 800x480 and 1280x720, so the layout check holds
every one to Large text's floor (30 units, 37.5 for a button's words, the headline, the
names and the odds): nothing drawn at the normal size because it did not fit, nothing cut.
Screenshots: quest_large_*."""

from __future__ import annotations

from test_ui_quest_screens import do, quest, start
from test_ui_text_size import large  # noqa: F401 (the fixture)
from ui_helpers import both_sizes, frames

from ui.games.quest.dialogs import FixDiceDialog, TokenDialog


def test_every_phase_of_a_turn_at_large_text(app, large):  # noqa: F811 (the fixture)
    s = start(app)
    both_sizes("quest_large_roll")
    do(s, "action_roll", a="bottle", b=3)
    quest(app).pick("c0")
    frames()
    assert quest(app).ids.board.targets
    both_sizes("quest_large_move")
    do(s, "move_bottle", bottle=1, to="p1.3")
    do(s, "action_roll", a="bottle", b="spell")
    frames()
    both_sizes("quest_large_announce")
    do(s, "announce_spell", spell="omniscience")
    frames()
    both_sizes("quest_large_magic_first")
    do(s, "magic_roll", dice=[2, 5, 4])
    frames()
    both_sizes("quest_large_magic")
    do(s, "keep", dice=["magic2"])
    frames()
    both_sizes("quest_large_magic_kept")
    do(s, "keep", dice=["magic1", "magic3"])
    do(s, "magic_roll", dice=[2, 1, 4])
    do(s, "magic_roll", dice=[2, 6, 4])
    quest(app).pick("c4")
    frames()
    assert quest(app).mode == "ingredient"
    both_sizes("quest_large_reveal_ingredient")
    do(s, "reveal", bottle=2, ingredient="newt_eye")
    do(s, "action_roll", a="hat", b="spell")
    frames()
    both_sizes("quest_large_block")
    do(s, "block_path", path=3)
    do(s, "action_roll", a="hat", b=3)
    frames()
    assert quest(app).mode == "return"
    both_sizes("quest_large_return")


def test_the_spells_and_dialogs_at_large_text(app, large):  # noqa: F811 (the fixture)
    s = start(app)
    do(s, "action_roll", a="bottle", b="spell")
    do(s, "announce_spell", spell="exchange")
    do(s, "magic_roll", dice=[1, 3, 5])
    quest(app).pick("c0")
    quest(app).pick("c8")
    frames()
    both_sizes("quest_large_swap")
    do(s, "swap", bottles=[1, 3])
    do(s, "action_roll", a="bottle", b="spell")
    do(s, "announce_spell", spell="great_sorcery")
    do(s, "magic_roll", dice=[6, 6, 1])
    quest(app).pick("c4")
    frames()
    both_sizes("quest_large_sorcery")
    both_sizes("quest_large_fix_magic", before=lambda: FixDiceDialog().open())
    do(s, "move_bottle", bottle=2, to="p2.4")
    do(s, "action_roll", a="hat", b="spell")
    do(s, "block_path", path=5)
    do(s, "action_roll", a="bottle", b=4)
    frames()
    both_sizes("quest_large_fix_action", before=lambda: FixDiceDialog().open())
    both_sizes("quest_large_token", before=lambda: TokenDialog().open())
