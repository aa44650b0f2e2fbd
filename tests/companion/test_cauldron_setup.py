"""Cauldron setup: seats, characters, variants, milestones entered by the table, dealing."""

from __future__ import annotations

import pytest

from companion.core import Session, SetupError
from companion.games.cauldron import RULES
from tests.companion.cauldron_autoplay import MILESTONES, do, give, new, player, refused


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_two_to_six_seats_start_on_two_magik_with_their_cards(n):
    s = new(n)
    assert s.prompt()["phase"] == "setup"
    for p in s.state["players"]:
        assert p["magik"] == 2 and p["spells"] == ["basic", "basic"]
        assert p["owed"] == ["easy", "basic"] and p["cellars"] == [] and p["pool"] == {}
    assert s.state["fields"]["spider_web"] == n + 1
    assert s.state["fields"]["frog_legs"] == n + 1
    assert s.state["fields"]["poisonous_mushroom"] == n + 1
    assert s.state["fields"]["dragon_egg"] == 0
    text = s.prompt()["text"]
    assert f"{n + 1} Spider Web, {n + 1} Frog Legs, {n + 1} Poisonous Mushroom" in text
    assert "2 Basic Potions (one of them Easy), 2 Basic Spells" in text


@pytest.mark.parametrize("players", [["Anna"], ["A", "B", "C", "D", "E", "F", "G"]])
def test_one_or_seven_seats_are_refused(players):
    with pytest.raises(SetupError, match=r"players: a list of 2 to 6"):
        Session(RULES, {"players": players, "milestones": MILESTONES})


def test_names_and_characters_must_differ():
    with pytest.raises(SetupError, match="same name"):
        Session(RULES, {"players": ["Anna", "anna"]})
    with pytest.raises(SetupError, match="one player only"):
        Session(RULES, {"players": [{"name": "A", "character": "witch"},
                                    {"name": "B", "character": "Witch"}]})
    with pytest.raises(SetupError, match=r"players\[0\]\.character: one of alchemist"):
        Session(RULES, {"players": [{"name": "A", "character": "Necromancer"}, "B"]})


def test_characters_keep_their_ability_text_and_the_witch_has_little_helpers():
    s = Session(RULES, {"players": [
        {"name": "Anna", "character": "The Witch"},
        {"name": "Barb", "character": "druid", "ability": "Green Thumb: as printed",
         "once_per_season": True}], "milestones": MILESTONES})
    anna, barb = s.state["players"]
    assert anna["character"] == "witch" and "Little Helpers" in anna["ability"]
    assert barb["ability"] == "Green Thumb: as printed" and barb["once_per_season"]
    do(s, "set_character", "Barb", character="Shaman", ability="Spirit walk")
    assert player(s, "Barb")["character"] == "shaman"
    refused(s, "set_character", "Barb", character="witch", match="Anna already plays the Witch")


def test_simple_game_has_no_wizard_and_no_spells():
    with pytest.raises(SetupError, match="Wizard"):
        Session(RULES, {"players": [{"name": "A", "character": "wizard"}, "B"],
                        "variants": ["simple"]})
    s = new(2, ["simple"])
    assert all(p["spells"] == [] for p in s.state["players"])
    refused(s, "set_character", "Anna", character="wizard", match="Simple Game does not use the Wizard")
    refused(s, "adjust", "Anna", spells={"basic": 1}, match="Simple Game: no Spells are used")
    assert "Spells" not in s.prompt()["text"]


def test_quick_game_starts_at_15_with_advanced_cards_a_cellar_and_four_more_fields():
    s = new(4, ["quick"])
    for p in s.state["players"]:
        assert p["magik"] == 15 and p["cellars"] == [None]
        assert p["owed"] == ["easy", "basic", "advanced"]
        assert p["spells"] == ["basic", "basic", "advanced"]
    for kind in ("blood_crystal", "snake_skin", "dragon_egg", "mandrake_root"):
        assert s.state["fields"][kind] == 1
    assert s.state["fields"]["spider_web"] == 5
    # Milestones at or below 15 count as passed: Rituals at 18 is not, Overflow at 12 is.
    assert s.state["milestones"]["magik_overflow"]["reached"]
    assert s.state["milestones"]["magik_overflow"]["by"] is None
    assert not s.state["milestones"]["rituals_of_power"]["reached"]


def test_quick_game_can_let_low_milestones_trigger_instead():
    s = new(2, ["quick"], settings={"quick_passes_milestones": False})
    assert not s.state["milestones"]["magik_overflow"]["reached"]
    do(s, "begin")
    assert s.state["milestones"]["magik_overflow"]["by"] == 0


def test_simple_and_quick_combine_without_the_advanced_spell():
    s = new(2, ["simple", "quick", "advanced", "less luck"])
    assert s.state["variants"] == ["simple", "quick", "advanced", "less_luck"]
    assert s.state["players"][0]["spells"] == []
    with pytest.raises(SetupError, match=r"variants\[0\]: one of simple, quick"):
        new(2, ["expert"])


def test_without_milestones_the_table_is_asked_to_enter_them_first():
    s = new(3, milestones=None)
    p = s.prompt()
    assert p["phase"] == "milestones"
    assert "Magik Overflow, Rituals of Power, The Breaking" in p["text"]
    refused(s, "begin", match="Not the time to begin")
    refused(s, "set_milestones", match="bogus: not a key of set_milestones; it knows milestones",
            bogus=3)
    refused(s, "set_milestones", match="milestones.bogus: not a key of the milestones; it knows "
            "magik_overflow, rituals_of_power, the_breaking", milestones={"bogus": 3})
    refused(s, "set_milestones", match="from 3 to 34", milestones={"the_breaking": 40})
    do(s, "set_milestones", milestones={"rituals_of_power": 20})
    assert "Magik Overflow, The Breaking" in s.prompt()["text"]
    do(s, "set_milestones", milestones={"magik_overflow": 11, "the_breaking": 27})
    assert s.prompt()["phase"] == "setup"
    assert s.state["milestones"]["rituals_of_power"]["position"] == 20


def test_bad_milestones_in_the_setup_are_a_setup_error():
    with pytest.raises(SetupError, match="from 3 to 34"):
        Session(RULES, {"players": ["A", "B"], "milestones": {"the_breaking": 1}})


def test_settings_are_checked():
    with pytest.raises(SetupError, match="settings.colour: not a key of the settings; it knows market_start"):
        Session(RULES, {"players": ["A", "B"], "settings": {"colour": 1}})
    with pytest.raises(SetupError, match="market_start"):
        Session(RULES, {"players": ["A", "B"], "settings": {"market_start": "up"}})


def test_dealt_potion_cards_are_entered_once_and_begin_opens_the_first_harvest():
    s = new(2)
    give(s, "Anna", "Easy Draught", ["spider_web", "frog_legs"], 2, kind="easy")
    assert player(s, "Anna")["owed"] == ["basic"]
    refused(s, "add_potion", "Anna", match="already has a potion named",
            potion={"name": "easy draught", "kind": "basic", "yield": 3,
                    "ingredients": ["spider_web"]})
    refused(s, "add_potion", "Anna", match="no Basic Potion (Easy) card waiting",
            potion={"name": "Second", "kind": "easy", "yield": 3, "ingredients": ["spider_web"]})
    refused(s, "add_potion", "Anna", match="potion.ingredients[0]: one of spider_web",
            potion={"name": "X", "kind": "basic", "yield": 3, "ingredients": ["eye of newt"]})
    do(s, "add_potion", "Anna", source="omen",
       potion={"name": "Gift", "kind": "easy", "yield": 3, "ingredients": ["any", "Spider Webs"]})
    assert player(s, "Anna")["potions"][1]["ingredients"] == ["any", "spider_web"]
    assert "Potion cards to enter" not in " ".join(s.prompt()["notes"])
    do(s, "begin")
    assert s.prompt()["phase"] == "omen"
    assert "Potion cards to enter: Anna: Basic Potion; Barb" in " ".join(s.prompt()["notes"])
    refused(s, "begin", match="Not the time to begin")


def test_a_corrected_quick_game_milestone_is_no_longer_passed():
    s = new(2, ["quick"])
    assert s.state["milestones"]["magik_overflow"]["reached"]
    do(s, "set_milestones", milestones={"magik_overflow": 16})
    assert not s.state["milestones"]["magik_overflow"]["reached"]
    do(s, "set_milestones", milestones={"magik_overflow": 14})
    assert s.state["milestones"]["magik_overflow"]["reached"]


def test_entered_potions_form_a_catalogue_for_later_games():
    s = new(2)
    give(s, "Barb", "Zest", ["spider_web"], 2, kind="easy")
    give(s, "Anna", "Aqua", ["frog_legs"], 2, kind="easy")
    assert [p["name"] for p in s.summary()["catalogue"]] == ["Aqua", "Zest"]
