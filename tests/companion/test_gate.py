"""The gate (companion.core.gate): each spec refuses what does not belong, naming the field,
and hands ``decide`` clean values; a tiny game shows the engine puts it in front of every
command and setup."""

from __future__ import annotations

import copy
import unicodedata
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from companion.core import Command, Event, GameRules, RuleViolation, Session
from companion.core import gate as g
from companion.core.errors import SetupError
from tests.support.fuzz import garbage

STATE: dict[str, Any] = {"names": ["Zoë", "Anna"], "supply": 5}
NAMES = g.Player(lambda s: s["names"])


def refuse(spec: g.Spec, value: Any, *, match: str, at: str = "field") -> str:
    with pytest.raises(RuleViolation) as info:
        spec.check(value, at, STATE)
    message = str(info.value)
    assert message.startswith(at), message
    assert match in message, message
    return message


# -- whole numbers -----------------------------------------------------------------------------
@pytest.mark.parametrize("value", [True, False, 2.0, "2", "²", "٣", None, [2], {"n": 2}, 10**5000],
                         ids=g.shown)
def test_whole_numbers_are_int_only(value: Any) -> None:
    refuse(g.Whole(0, 6), value, match="a whole number from 0 to 6")


def test_whole_number_ranges_may_come_from_the_state() -> None:
    spec = g.Whole(0, lambda s: s["supply"])
    assert spec.check(5, "gold", STATE) == 5
    refuse(spec, 6, at="gold", match="from 0 to 5, not 6")
    refuse(g.Whole(), 2**63, match="a whole number")
    assert g.Whole().check(2**63 - 1, "x", STATE) == 2**63 - 1


def test_a_huge_number_is_quoted_without_printing_it() -> None:
    message = refuse(g.Whole(1, 6), 10**5000, match="-bit number")
    assert len(message) < 120


# -- text and choices --------------------------------------------------------------------------
def test_text_refuses_lone_surrogates_control_characters_and_length() -> None:
    refuse(g.Text(), "ab\ud800", match="lone surrogate U+D800")
    refuse(g.Text(), "ab\x00", match="control character")
    refuse(g.Text(limit=5), "abcdef", match="at most 5 characters, not 6")
    refuse(g.Text(blank=False), "   ", match="not an empty text")
    refuse(g.Text(), 5, match="text of at most")


def test_text_comes_back_stripped_and_in_nfc() -> None:
    decomposed = unicodedata.normalize("NFD", " Zoë ")
    assert g.Text().check(decomposed, "name", STATE) == "Zoë"


def test_a_choice_ignores_case_and_returns_the_game_spelling() -> None:
    spec = g.Choice(("witch", "druid"), aliases={"the witch": "witch"})
    assert spec.check("WITCH", "role", STATE) == "witch"
    assert spec.check("The Witch", "role", STATE) == "witch"
    refuse(spec, ["witch"], at="role", match="one of witch, druid, not a list of 1")
    refuse(spec, "warlock", at="role", match="one of witch, druid")


def test_a_choice_of_faces_tells_numbers_from_booleans_and_floats() -> None:
    spec = g.Choice(lambda s: [1, 2, "spell"])
    assert spec.check(1, "b", STATE) == 1
    assert spec.check("Spell", "b", STATE) == "spell"
    for bad in (True, 1.0, "1", "²"):
        refuse(spec, bad, at="b", match="one of 1, 2, spell")


# -- players -----------------------------------------------------------------------------------
def test_players_match_after_nfc_and_case_and_come_back_as_typed() -> None:
    assert NAMES.check("ZOË", "player", STATE) == "Zoë"
    assert NAMES.check(unicodedata.normalize("NFD", "zoë"), "player", STATE) == "Zoë"
    refuse(NAMES, "Nobody", at="player", match="no player named 'Nobody' at this table (Zoë, Anna)")
    refuse(NAMES, ["Anna"], at="player", match="a player at this table")


def test_setup_names_that_differ_only_by_case_or_normal_form_are_duplicates() -> None:
    spec = g.player_names(2, 6)
    assert spec.check([" Anna ", "Zoë"], "players", STATE) == ["Anna", "Zoë"]
    refuse(spec, ["Zoë", unicodedata.normalize("NFD", "ZOË")], at="players",
           match="players[1]: ")
    refuse(spec, "Anna", at="players", match="a list of 2 to 6")
    refuse(spec, ["Anna"], at="players", match="a list of 2 to 6")


# -- lists, mappings, records ------------------------------------------------------------------
def test_a_string_where_a_list_belongs_is_refused_not_read_letter_by_letter() -> None:
    refuse(g.ListOf(g.Choice(("a", "b"))), "ab", at="roles", match="a list of")
    assert g.ListOf(g.Whole(1, 6), least=3, most=3).check([1, 2, 3], "dice", STATE) == [1, 2, 3]
    refuse(g.ListOf(g.Whole(1, 6), least=3, most=3), [1, 2], at="dice", match="a list of 3")
    refuse(g.ListOf(g.Whole(1, 6)), [1, 2.0], at="dice", match="dice[1]: a whole number")
    refuse(g.ListOf(g.Choice(("a", "b")), unique=True), ["a", "A"], at="x", match="listed twice")


def test_mappings_check_keys_and_values_and_refuse_two_spellings_of_one_key() -> None:
    spec = g.MapOf(g.Choice(("red", "gold")), g.Whole(-9, 9))
    assert spec.check({"RED": 1}, "changes", STATE) == {"red": 1}
    refuse(spec, {"red": 1, "Red": 2}, at="changes", match="'red' is given twice")
    refuse(spec, {"blue": 1}, at="changes", match="changes key: one of red, gold")
    refuse(spec, {"gold": 1.5}, at="changes", match="changes.gold: a whole number")
    refuse(spec, [["red", 1]], at="changes", match="a mapping of")


def test_records_refuse_unknown_keys_naming_the_known_ones() -> None:
    spec = g.Record({"stack": g.Arg(g.Choice(("copper",)), required=True),
                     "raven": g.Arg(g.Flag())}, what="a potion card")
    assert spec.check({"stack": "Copper"}, "potion", STATE) == {"stack": "copper"}
    refuse(spec, {"stack": "copper", "magic": 2}, at="potion",
           match="potion.magic: not a key of a potion card; it knows stack, raven")
    refuse(spec, {"raven": True}, at="potion", match="potion.stack: missing")
    refuse(spec, {"stack": "copper", "raven": 1}, at="potion", match="potion.raven: true or false")


def test_either_takes_the_first_shape_that_fits() -> None:
    spec = g.Either((g.Text(limit=10, blank=False),
                     g.Record({"name": g.Arg(g.Text(), required=True)}, what="a seat")))
    assert spec.check("Anna", "players[0]", STATE) == "Anna"
    assert spec.check({"name": "Anna"}, "players[0]", STATE) == {"name": "Anna"}
    refuse(spec, 7, at="players[0]", match="text of at most 10 characters or a seat")


@given(garbage())
def test_any_garbage_is_a_refusal_or_a_clean_value(value: Any) -> None:
    specs = [g.Whole(0, 9), g.Flag(), g.Text(), g.Choice(("a", 1)), NAMES,
             g.ListOf(g.Whole()), g.MapOf(g.Text(), g.Whole()),
             g.Record({"a": g.Arg(g.Whole())})]
    for spec in specs:
        try:
            spec.check(value, "field", STATE)
        except RuleViolation as refusal:
            assert str(refusal).startswith("field")
            str(refusal).encode("utf-8")  # printable: no lone surrogate leaks into a message


# -- the engine puts the gate in front of every command and setup -------------------------------
def _decide(state: dict[str, Any], cmd: Command) -> list[Event]:
    assert isinstance(cmd.args["n"], int) and not isinstance(cmd.args["n"], bool)
    return [Event("added", {"who": cmd.player, "n": cmd.args["n"]})]


def _evolve(state: dict[str, Any], event: Event) -> dict[str, Any]:
    s = copy.deepcopy(state)
    s["total"] += event.data["n"]
    s["by"].append(event.data["who"])
    return s


TINY = GameRules(
    name="tiny", title="Tiny", setup=lambda c: {"players": c["players"], "total": 0, "by": []},
    decide=_decide, evolve=_evolve, flow=lambda s: [], prompt=lambda s: {"text": "add"},
    summary=lambda s: s, map_input=lambda s, e: None, results=lambda s: [],
    commands={"add": g.Declared({"n": g.Arg(g.Whole(1, 9), required=True)},
                                player=g.PLAYER_REQUIRED)},
    setup_keys={"players": g.Arg(g.player_names(1, 4), required=True)},
    seat_names=lambda s: s["players"])


def test_decide_sees_only_clean_commands_and_the_log_keeps_the_clean_one() -> None:
    s = Session(TINY, {"game": "tiny", "players": ["Zoë", "Anna"]})
    step = s.execute(Command("add", "ZOË", {"n": 3}))
    assert step.command == Command("add", "Zoë", {"n": 3})
    for cmd, match in [
        (Command("add", "Zoë", {"n": 3.0}), "n: a whole number from 1 to 9, not 3.0"),
        (Command("add", "Zoë", {"n": 3, "m": 1}), "m: not a key of add; it knows n"),
        (Command("add", None, {"n": 3}), "add: say which player"),
        (Command("ad", "Zoë", {"n": 3}), "Tiny has no command 'ad'; it knows add, redo, undo"),
        (Command("undo", None, {"steps": 2}), "steps: not a key of undo"),
    ]:
        before = copy.deepcopy(s.state)
        with pytest.raises(RuleViolation, match=match.replace("(", r"\(").replace(")", r"\)")):
            s.execute(cmd)
        assert s.state == before and len(s.steps) == 1


def test_setups_pass_the_gate_too() -> None:
    for setup, match in [
        ({"players": ["Anna"], "variant": ["x"]}, "variant: not a key of the Tiny setup"),
        ({"players": "Anna"}, "players: a list of 1 to 4"),
        ({"players": ["Anna", "ANNA"]}, "players[1]: 'ANNA' is listed twice"),
        ({"players": ["Anna\ud800"]}, "lone surrogate"),
        (["Anna"], "the setup is a mapping"),
    ]:
        with pytest.raises(SetupError, match=match.replace("[", r"\[").replace("]", r"\]")):
            Session(TINY, setup)  # type: ignore[arg-type]
    assert Session(TINY, {"players": [" Anna "]}).setup == {"players": ["Anna"]}
