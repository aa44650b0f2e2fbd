"""Seat colours: the palette (companion.core.palette) and its check at the gate. A setup's
``colours`` is one palette colour per seat, by name, alias or hex; an unknown colour, a colour
two seats share or a count that is not the table's is a SetupError naming the field and the
seat; a game stored before colours could be chosen shows the colours it always had."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from companion.core import palette
from companion.core import gate as g
from companion.core.errors import RuleViolation, SetupError
from companion.games.cauldron import RULES as CAULDRON
from companion.games.witchs_brew import RULES as BREW
from tests.support.fuzz import garbage

BREW_PLAYERS = ["Anna", "Barb", "Carl"]
CAULDRON_PLAYERS = ["Anna", {"name": "Barb", "character": "witch"}, "Carl"]


def test_the_palette_is_named_distinct_and_starts_with_the_old_defaults() -> None:
    assert len(set(palette.NAMES)) == len(palette.NAMES) == len(palette.PALETTE) >= 7
    assert len({c.hex.upper() for c in palette.PALETTE}) == len(palette.PALETTE)
    from companion.games.cauldron.state import SEAT_COLOURS as CAULDRON_OLD
    from companion.games.witchs_brew.state import SEAT_COLOURS as BREW_OLD

    assert [c.hex for c in palette.defaults(6)] == list(BREW_OLD) == list(CAULDRON_OLD)
    assert palette.defaults(0) == () and len(palette.defaults(99)) == len(palette.PALETTE)


@pytest.mark.parametrize("given_as, name", [
    ("Sky blue", "Sky blue"), ("SKY BLUE", "Sky blue"), (" vermilion ", "Vermilion"),
    ("#cc79a7", "Reddish purple"), ("green", "Bluish green"), ("purple", "Reddish purple"),
])
def test_a_colour_is_found_by_name_alias_or_hex(given_as: str, name: str) -> None:
    assert palette.find(given_as).name == name


@pytest.mark.parametrize("value", ["Pink-ish", "", "#123456", None, 3, ["Orange"]])
def test_anything_else_is_no_colour(value: Any) -> None:
    assert palette.find(value) is None


def test_seats_without_a_choice_get_free_defaults_in_order() -> None:
    assert [c.name for c in palette.seat_colours(None, 3)] == ["Orange", "Sky blue",
                                                                 "Bluish green"]
    shown = palette.seat_colours(["Sky blue", "Nonsense", "Sky blue", "black"], 5)
    assert [c.name for c in shown] == ["Sky blue", "Orange", "Bluish green", "Black", "Yellow"]


def test_cauldron_keeps_the_chosen_names() -> None:
    clean, _ = CAULDRON.start({"players": CAULDRON_PLAYERS,
                               "colours": ["black", "#E69F00", "Reddish Purple"]})
    assert clean["colours"] == ["Black", "Orange", "Reddish purple"]


def test_witchs_brew_keeps_the_hex_its_state_always_kept() -> None:
    clean, state = BREW.start({"players": BREW_PLAYERS, "colours": ["White", "blue", "#E69F00"]})
    assert clean["colours"] == ["#FFFFFF", "#0072B2", "#E69F00"]
    assert [p["colour"] for p in state["players"]] == clean["colours"]
    old, state = BREW.start({"players": BREW_PLAYERS, "colours": ["#E69F00", "#56B4E9",
                                                                   "#009E73"]})
    assert old["colours"] == ["#E69F00", "#56B4E9", "#009E73"]       # a stored game as it was


@pytest.mark.parametrize("rules, players", [(CAULDRON, CAULDRON_PLAYERS),
                                            (BREW, BREW_PLAYERS)], ids=["cauldron", "brew"])
def test_a_colour_is_optional(rules, players) -> None:
    clean, _ = rules.start({"players": players})
    assert "colours" not in clean


@pytest.mark.parametrize("rules, players", [(CAULDRON, CAULDRON_PLAYERS),
                                            (BREW, BREW_PLAYERS)], ids=["cauldron", "brew"])
@pytest.mark.parametrize("colours, said", [
    (["Orange", "Pink-ish", "Blue"], "colours[1]: 'Pink-ish' for players[1] (Barb) is not a "
                                     "palette colour; choose one of Orange, Sky blue"),
    (["Orange", "Blue", "orange"], "colours[2]: Orange for players[2] (Carl) is already the "
                                   "colour of players[0] (Anna); each seat needs its own"),
    (["Orange", "Blue"], "colours: give one colour per player (3), not 2"),
    ("Orange", "colours: one colour per player from Orange"),
    ([None, "Blue", "Yellow"], "colours[0]: None for players[0] (Anna) is not a palette colour"),
])
def test_a_bad_colour_is_refused_naming_the_field_and_the_seat(rules, players, colours,
                                                                 said) -> None:
    with pytest.raises(SetupError) as info:
        rules.start({"players": players, "colours": colours})
    assert str(info.value).startswith(said), str(info.value)


def test_the_setup_screen_names_the_seat_as_the_table_sees_it() -> None:
    from ui.app import in_seat_words

    with pytest.raises(SetupError) as info:
        BREW.start({"players": BREW_PLAYERS, "colours": ["Blue", "Yellow", "blue"]})
    assert in_seat_words(str(info.value)).startswith(
        "colours[2]: Blue for Seat 3 (Carl) is already the colour of Seat 1 (Anna)")


@given(garbage())
def test_any_garbage_is_a_refusal_or_a_list_of_palette_names(value: Any) -> None:
    state = {"players": ["Anna", "Barb"]}
    try:
        out = g.SeatColours().check(value, "colours", state)
    except RuleViolation as problem:
        assert str(problem).startswith("colours")
    else:
        assert len(out) == 2 and len(set(out)) == 2 and set(out) <= set(palette.NAMES)
