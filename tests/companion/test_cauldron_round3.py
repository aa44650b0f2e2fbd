"""Cauldron, the third review's table: who an Omen names first, the Simple Game's Market, one
space per milestone, the close of a Harvest Season, and refusals in a script's keys and in
players' words."""

from __future__ import annotations

import pytest

from companion.core import Command, RuleViolation, SetupError
from tests.companion.cauldron_autoplay import (
    do, empty_board_but, new, pool, refused, start,
)


def test_an_omen_naming_the_fewest_magik_says_so_not_less_luck():
    # "Omens and Spells sometimes refer to the LSP or the HSP": without Less Luck, the Omen
    # names who starts, and the prompt says so.
    s = new(3)
    do(s, "begin")
    do(s, "omen", text="The weakest leads", first="lsp")
    do(s, "fill_board")
    text = s.prompt()["text"]
    assert "Less Luck" not in text
    assert ("Turn order (The Omen: the player with the fewest Magik starts; tied seats roll, "
            "lowest roll starts)") in text
    s = new(3)
    do(s, "begin")
    do(s, "omen", text="The strongest leads", first="hsp")
    do(s, "fill_board")
    assert "(The Omen: the player with the most Magik starts;" in s.prompt()["text"]


def test_less_luck_still_says_less_luck():
    # "Instead of rolling dice for turn order ... the player with the lowest score goes first."
    s = new(3, ["less_luck"])
    do(s, "begin")
    do(s, "omen", text="-")
    do(s, "fill_board")
    assert "Turn order (Less Luck: the player with the fewest Magik starts" in s.prompt()["text"]


def market(variants: list[str]):
    s = start(new(3, variants))
    who = s.prompt()["turn"]                     # Less Luck: the lowest roll starts
    empty_board_but(s, spider_web=1)
    do(s, "gather", who, ingredient="spider_web")
    do(s, "end_turn", who)
    assert s.prompt()["phase"] == "market"
    return s


def test_the_simple_games_market_lists_no_spell():
    # Simple Game: "For a simpler, less complicated game, do not use Spells."
    s = market(["simple"])
    assert "(Field, Cellar, Potion) or pass" in s.prompt()["text"]
    assert "Spell" not in s.prompt()["text"]
    s = market(["simple", "less_luck"])
    assert "Less Luck: a new Potion draws two cards, keep one" in s.prompt()["text"]
    s = market([])
    assert "(Field, Cellar, Spell, Potion) or pass" in s.prompt()["text"]


def test_two_milestones_cannot_share_a_space_of_the_track():
    # "a variety of mysterious effects are triggered by the first player to reach certain
    # points": each effect is printed on its own space.
    s = new(3, milestones=None)
    refused(s, "set_milestones", milestones={"magik_overflow": 12, "rituals_of_power": 12,
                                             "the_breaking": 12},
            match="Magik Overflow and Rituals of Power and The Breaking cannot share space 12: "
                  "each milestone is its own space on the Magik Track")
    do(s, "set_milestones", milestones={"magik_overflow": 12})
    refused(s, "set_milestones", milestones={"the_breaking": 12},
            match="Magik Overflow and The Breaking cannot share space 12")
    do(s, "set_milestones", milestones={"rituals_of_power": 20, "the_breaking": 28})
    do(s, "set_milestones", milestones={"magik_overflow": 28, "the_breaking": 12})  # a swap
    with pytest.raises(SetupError, match="milestones: Magik Overflow and Rituals of Power cannot "
                                         "share space 9"):
        new(3, milestones={"magik_overflow": 9, "rituals_of_power": 9, "the_breaking": 30})


def test_after_the_last_ingredient_another_seat_hears_the_harvest_is_over():
    # "As soon as the last Ingredients are gathered, the Harvest Season ends. No other Action
    # can be performed in this season, with one exception. The player who gathered the last
    # Ingredient may choose to perform as many Quick Actions as they wish"
    s = new(3)
    start(s, first="Barb")
    pool(s, "Anna", frog_legs=1)
    empty_board_but(s, frog_legs=1)
    do(s, "gather", "Barb", ingredient="frog_legs")
    assert s.prompt()["phase"] == "closing"
    said = ("The last Ingredient is gathered: the Harvest Season is over, so Anna can do nothing "
            "more in it. Only Barb, who gathered it, may still take Quick Actions; when Barb ends "
            "the turn, the Market Season opens with Carl")
    refused(s, "move_ingredient", "Anna", ingredient="frog_legs", to="cellar", match=said)
    refused(s, "end_turn", "Anna", match=said)
    refused(s, "gather", "Carl", ingredient="frog_legs", match="the Harvest Season is over, so "
                                                               "Carl can do nothing more")
    s = new(3, settings={"market_start": "right"})
    start(s, first="Barb")
    empty_board_but(s, frog_legs=1)
    do(s, "gather", "Barb", ingredient="frog_legs")
    refused(s, "end_turn", "Carl", match="the Market Season opens with Anna")


def test_a_scripts_refusal_names_the_key_as_a_key_and_says_what_it_means():
    s = new(3)
    do(s, "begin")
    with pytest.raises(RuleViolation) as info:
        s.execute(Command("omen", None, {"text": "-", "magik": {"Anna": 40}}))
    assert str(info.value) == ('magik.Anna: a whole number from -35 to 35, not 40 (the key '
                               '"magik": the Magik the Omen gives or takes, by player)')
    # on the screen, players' words only
    assert info.value.screen == ("The Magik the Omen gives or takes, by player (Anna): a whole "
                                 "number from -35 to 35, not 40")
    with pytest.raises(RuleViolation) as info:
        s.execute(Command("gather", "Anna", {"field": "frog_legs"}))
    assert str(info.value) == ('field: not a key of gather; it knows ingredient, ingredients '
                               '("ingredient" is the Ingredient gathered; "ingredients" is the '
                               "two Ingredients of the Witch's Little Helpers)")
    assert "field" not in info.value.screen.replace("'field'", "")
    assert "not a key" not in info.value.screen


def test_every_cauldron_key_says_what_it_means():
    from companion.games.cauldron.commands import COMMANDS
    undocumented = [f"{name}.{key}" for name, declared in COMMANDS.items()
                    for key, arg in declared.args.items() if not arg.doc]
    assert undocumented == []
