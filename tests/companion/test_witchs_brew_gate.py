"""The inputs a probe found crashing or silently misread, each refused at the gate naming its
field, and the clean command the log keeps (canonical role, the name as typed at setup)."""

from __future__ import annotations

import pytest

from companion.core import SetupError
from companion.games import get_rules
from companion.script import export_lines, replay

RULES = get_rules("witchs_brew")
THREE = ["Anna", "Barb", "Carl"]
BIG = 10**5000


@pytest.mark.parametrize("config,field", [
    ({"players": THREE, "variants": 5}, "variants: a list of 0 to 1"),
    ({"players": THREE, "variants": "excluded_roles"}, "variants: a list of 0 to 1"),
    ({"players": THREE, "variant": ["excluded_roles"]},
     "variant: not a key of the Witch's Brew setup; it knows players, starter, variants, "
     "colours, supply"),
    ({"players": ["Anna", "Barb", "Carl\ud800"]}, "players[2]: the text holds a broken character"),
    ({"players": ["Zoë", "Barb", "ZOË"]}, "players[2]: 'ZOË' is listed twice"),
    ({"players": ["Zoe\u0308", "Barb", "zoë"]}, "players[2]: 'zoë' is listed twice"),
    ({"players": "Anna, Barb, Carl"}, "players: a list of 3 to 6"),
    ({"players": [["Anna"], "Barb", "Carl"]}, "players[0]: text of at most 40 characters"),
    ({"players": THREE, "starter": ["Anna"]}, "starter: a player at this table"),
    ({"players": THREE, "starter": 0}, "starter: a player at this table"),
    ({"players": THREE, "colours": "orange"}, "colours: one colour per player from Orange"),
    ({"players": THREE, "colours": ["orange", "orange", "blue"]},
     "colours[1]: Orange for players[1] (Barb) is already the colour of players[0] (Anna)"),
    ({"players": THREE, "colours": ["orange", "mauve", "blue"]},
     "colours[1]: 'mauve' for players[1] (Barb) is not a palette colour"),
    ({"players": THREE, "supply": {"gold": BIG}}, "supply.gold: a whole number from 6 to 200, "
                                                  "not a 16610-bit number"),
    ({"players": THREE, "supply": {"drops": 2.0}}, "supply.drops: a whole number"),
    ({"players": THREE, "supply": {"magic": 1}}, "supply.magic: not a key of the supply"),
    ({"players": THREE, "supply": 20}, "supply: the supply as {drops, gold}, not 20"),
    (["Anna", "Barb", "Carl"], "the setup is a mapping of keys"),
])
def test_a_malformed_setup_is_refused_naming_the_key(config, field):
    with pytest.raises(SetupError) as info:
        RULES.start(config)
    assert str(info.value).startswith(field), str(info.value)


def _full_action(wb, role: str):
    """Anna's full action of ``role`` waits (3 players, the others passed)."""
    s = wb.new(THREE)
    wb.do(s, "play_role", "Anna", role=role)
    wb.do(s, "pass", "Barb")
    wb.do(s, "pass", "Carl")
    return s


def at_brew(wb):
    """Anna's Witch full action waits."""
    return _full_action(wb, "witch")


def at_card(wb):
    """Anna's Warlock full action waits: the table enters what the spell did."""
    return _full_action(wb, "warlock")


def at_play(wb):
    return wb.new(THREE)


POTION = {"stack": "copper", "points": 3}

CASES = [
    # where, command, player, args, the start of the refusal
    (at_play, "play_role", "Anna", {"role": ["witch"]}, "role: one of wolf_keeper"),
    (at_play, "play_role", "Anna", {"role": 2.0}, "role: one of wolf_keeper"),
    (at_play, "play_role", "Anna", {"role": "witch\ud800"}, "role: the text holds a broken"),
    (at_play, "play_role", "Anna", {"role": "witch", "magic": 1},
     "magic: not a key of play_role; it knows role"),
    (at_play, "play_role", ["Anna"], {"role": "witch"}, "player: a player at this table"),
    (at_play, "play_role", "Anna\ud800", {"role": "witch"}, "player: the text holds a broken"),
    (at_play, "play_role", "Zed", {"role": "witch"}, "player: there is no player named 'Zed'"),
    (at_play, "claim", "Barb", {"loud": True}, "loud: not a key of claim; it knows none"),
    (at_play, "reveal_excluded", "Anna", {"roles": ["witch"]},
     "reveal_excluded: the whole table does this"),
    (at_play, "reveal_excluded", None, {"roles": "witch"}, "roles: a list of 1 to 2"),
    (at_play, "skip", "Anna", {}, "Witch's Brew has no command 'skip'; it knows abstain, adjust"),
    (at_play, "adjust", "Anna", {"changes": {"gold": BIG}},
     "changes.gold: a whole number from -200 to 200, not a 16610-bit number"),
    (at_play, "adjust", "Anna", {"changes": {"gold": 2**63}}, "changes.gold: a whole number"),
    (at_play, "adjust", "Anna", {"changes": {"vials": 46}},
     "changes.vials: a whole number from -45 to 45, not 46"),
    (at_play, "adjust", "Anna", {"changes": {"gold": 2.0}}, "changes.gold: a whole number"),
    (at_play, "adjust", "Anna", {"changes": {"gold": "1"}}, "changes.gold: a whole number"),
    (at_play, "adjust", "Anna", {"changes": {"magic": 1}},
     "changes.magic: not a key of the seat's changes; it knows red, white, green, gold, vials"),
    (at_play, "adjust", "Anna", {"changes": {"Gold": 1}}, "changes.Gold: not a key"),
    (at_play, "adjust", "Anna", {"changes": [["gold", 1]]}, "changes: the seat's changes as"),
    (at_play, "adjust", "Anna", {"potion": {**POTION, "magic": True}},
     "potion.magic: not a key of a potion card; it knows stack, points, raven, name"),
    (at_play, "adjust", "Anna", {"potion": {**POTION, "points": 3.0}},
     "potion.points: a whole number from 0 to 99, not 3.0"),
    (at_play, "adjust", "Anna", {"potion": {**POTION, "raven": 1}}, "potion.raven: true or false"),
    (at_play, "adjust", "Anna", {"potion": {"points": 3}}, "potion.stack: missing; give one of"),
    (at_play, "adjust", "Anna", {"potion": {**POTION, "name": "x" * 81}},
     "potion.name: text of at most 80 characters"),
    (at_play, "adjust", "Anna", {"remove_potion": True}, "remove_potion: a whole number"),
    (at_brew, "resolve", "Anna", {"potion": POTION, "pay": {"red": -1}},
     "pay.red: a whole number from 0 to 200, not -1"),
    (at_brew, "resolve", "Anna", {"potion": POTION, "pay": {"gold": 1}},
     "pay.gold: not a key of the drops paid; it knows red, white, green"),
    (at_brew, "resolve", "Anna", {"potion": POTION, "drop": "red"},
     "\"drop\" (the drop returned) is not part of the Witch full action"),
    (at_brew, "resolve", "Anna", {"potion": "copper"}, "potion: a potion card as {stack"),
    (at_card, "resolve", "Anna", {"others": {"Zed": {"gold": 1}}},
     "others key: there is no player named 'Zed'"),
    (at_card, "resolve", "Anna", {"others": {"Barb": {"gold": 1, "magic": 2}}},
     "others.Barb.magic: not a key of that player's changes"),
    (at_card, "resolve", "Anna", {"others": {"Barb": {"gold": 1}, "BARB": {"gold": 1}}},
     "others: 'Barb' is given twice"),
    (at_card, "resolve", "Anna", {"others": ["Barb"]}, "others: a mapping of a player"),
    (at_card, "resolve", "Anna", {"changes": {"gold": BIG}}, "changes.gold: a whole number"),
]


@pytest.mark.parametrize("where,do,player,args,field", CASES,
                         ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_a_malformed_command_is_refused_naming_the_field(wb, where, do, player, args, field):
    s = where(wb)
    message = wb.refused(s, do, player, match=field, **args)
    assert message.startswith(field), message


def test_names_match_after_nfc_and_case_and_are_logged_as_typed_at_setup(wb):
    s = wb.new(["Zoë", "Barb", "Carl"])
    step = wb.do(s, "play_role", "ZOE\u0308", role="WITCH")
    assert (step.command.player, step.command.args) == ("Zoë", {"role": "witch"})
    step = wb.do(s, "claim", " barb ")
    assert step.command.player == "Barb"
    lines = export_lines(s)
    assert '"player": "Zoë"' in lines[1] and '"role": "witch"' in lines[1]
    assert replay(lines, strict=True).session.state == s.state


def test_names_in_others_are_matched_the_same_way(wb):
    s = at_card(wb)
    step = wb.do(s, "resolve", "anna", changes={"gold": 1}, others={"bARB": {"gold": -1}})
    assert step.command.args["others"] == {"Barb": {"gold": -1}}
    assert wb.counters(s, "Barb")["gold"] == 1


def test_a_clean_setup_is_what_the_game_keeps(wb):
    s = wb.new([" Anna ", "Barb", "Carl"], starter="barb", colours=["Sky Blue", "orange", "green"])
    assert s.setup == {"players": ["Anna", "Barb", "Carl"], "starter": "Barb",
                       "colours": ["#56B4E9", "#E69F00", "#009E73"]}
    assert s.prompt()["turn"] == "Barb"
