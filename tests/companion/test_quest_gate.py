"""Cauldron Quest behind the one gate: names match after NFC and without regard to case, the
dice the team keeps between magic rolls keep their values, and what players read (refusals and
prompts) names the board as they see it, never a script's ids or command names."""

from __future__ import annotations

import random
import re

import pytest

from companion.core import Command, InputEvent, RuleViolation, Session
from companion.games.quest import RULES
from tests.companion.quest_autoplay import legal_commands, new, random_command
from tests.support.commands import do, refused


def cast(s: Session, spell: str, dice: list[int]) -> None:
    do(s, "action_roll", a="bottle", b="spell")
    do(s, "announce_spell", spell=spell)
    do(s, "magic_roll", dice=dice)


def die(s: Session, which: str, value) -> None:
    s.handle_input(InputEvent("die", which, value, source="serial"))


# -- names ------------------------------------------------------------------------------------
def test_player_names_match_after_nfc_and_without_regard_to_case():
    s = Session(RULES, {"game": "quest", "players": ["Zo\u00eb", "Bob"],
                        "needed": ["rotten_egg", "newt_eye", "bat_wing"]})
    step = do(s, "action_roll", "ZOE\u0308", a="bottle", b=2)      # combining diaeresis, capitals
    assert step.command.player == "Zo\u00eb"                          # stored as typed at setup
    refused(s, "action_roll", "bob", a="bottle", b=2, match="already rolled this turn")
    do(s, "move_bottle", "BOB", bottle=1, to="p1.2")                 # a team game: anyone moves
    assert s.steps[-1].command.player == "Bob"


# -- kept dice keep their values ------------------------------------------------------------------
def test_a_roll_that_changes_a_kept_die_is_refused_and_uses_no_roll():
    """The rulebook: "On the second roll you leave the dice showing 2 and 4 where they are and
    roll only the die that shows 5." """
    s = new()
    cast(s, "omniscience", [2, 5, 4])
    do(s, "keep", dice=["magic1", "magic3"])
    message = refused(s, "magic_roll", dice=[6, 3, 4],
                      match="Magic die 1 was kept, so it still shows 2, not 6: leave the kept dice "
                            "where they are and roll only the others. This roll is not counted")
    assert 'tap it so it says "roll again"' in message
    refused(s, "magic_roll", dice=[2, 3, 1], match="Magic die 3 was kept, so it still shows 4")
    assert s.summary()["spell"]["rolls_used"] == 1 and s.summary()["spell"]["rolls_left"] == 2
    do(s, "magic_roll", dice=[2, 3, 4])
    assert s.summary()["spell"]["rolls_used"] == 2
    do(s, "magic_roll", dice=[6, 1, 2])            # nothing kept this time: any dice may change
    assert s.summary()["turn"] == "Bob"


def test_a_tray_reading_that_changes_a_kept_die_is_refused_the_same_value_is_not():
    s = new()
    cast(s, "great_sorcery", [6, 1, 2])
    do(s, "keep", dice=["magic1"])
    assert s.prompt()["inputs"] == ["magic2", "magic3"]
    with pytest.raises(RuleViolation, match="Magic die 1 was kept, so it still shows 6, not 5"):
        die(s, "magic1", 5)
    die(s, "magic1", 6)                            # the tray sees the kept die where it was
    die(s, "magic2", 5)
    assert s.summary()["spell"]["rolls_used"] == 1
    die(s, "magic3", 3)
    assert s.summary()["spell"]["dice"] == [6, 5, 3] and s.summary()["spell"]["rolls_used"] == 2


def test_taking_a_die_out_of_the_kept_ones_lets_it_change():
    s = new()
    cast(s, "exchange", [1, 2, 2])
    do(s, "keep", dice=["magic1", "magic2"])
    refused(s, "magic_roll", dice=[1, 3, 5], match="Magic die 2 was kept")
    do(s, "keep", dice=["magic1"])                 # the magic panel: tap it to "roll again"
    do(s, "magic_roll", dice=[1, 3, 5])
    assert s.summary()["phase"] == "cast"


def test_the_advice_alone_binds_nothing_and_a_fix_may_change_any_die():
    s = new()
    cast(s, "omniscience", [2, 5, 4])              # advised: keep the 2 and the 4
    do(s, "magic_roll", dice=[6, 5, 1])            # the team rolled all three after all
    assert s.summary()["spell"]["rolls_used"] == 2
    do(s, "keep", dice=["magic1"])
    do(s, "magic_roll", dice=[6, 2, 3])
    do(s, "correct_roll", dice=[4, 2, 2])          # the kept die was misread: Fix dice says so
    assert s.summary()["phase"] == "cast"


# -- what players read ------------------------------------------------------------------------------
COMMAND_NAMES = sorted(RULES.commands)
#: A script's ids: circle and path spaces, dice, and any snake_case word (commands, settings,
#: ingredients as keys). Refusals and prompts say what players see instead.
INTERNAL = re.compile(r"\b(c\d+|p\d+\.\d+|magic\d|[a-z]+_[a-z_]+)\b")


def tries(state: dict, rng: random.Random) -> list[Command | InputEvent]:
    """Well-formed commands of every kind (each passes the gate; most break a rule now)."""
    settings = state["settings"]
    spaces = [f"c{i}" for i in range(settings["circle_spaces"])] + ["cauldron"] + [
        f"p{p}.{k}" for p in range(1, 7) for k in range(1, settings["path_spaces"] + 1)]
    out: list[Command | InputEvent] = [
        Command("action_roll", rng.choice(state["players"]), {"a": "hat", "b": "spell"}),
        Command("block_path", args={"path": rng.randint(1, 6)}),
        Command("break_obstacle", args={"path": rng.randint(1, 6)}),
        Command("announce_spell", args={"spell": rng.choice(["omniscience", "great_sorcery"])}),
        Command("keep", args={"dice": rng.sample(["magic1", "magic2", "magic3"], rng.randint(0, 3))}),
        Command("magic_roll", args={"dice": [rng.randint(1, 6) for _ in range(3)]}),
        Command("reveal", args={"bottle": rng.randint(1, 6), "ingredient": "bat_wing"}),
        Command("swap", args={"bottles": rng.sample(range(1, 7), 2)}),
        Command("end_turn"),
        Command("correct_roll", args={"a": "bottle"}),
        Command("correct_roll", args={"dice": [1, 1, 1]}),
        Command("correct_roll"),
        Command("read_die", args={"die": rng.choice(["action_a", "action_b"]), "value": 6}),
    ]
    out += [Command("move_bottle", args={"bottle": rng.randint(1, 6), "to": rng.choice(spaces)})
            for _ in range(12)]
    out += [InputEvent("die", d, v, source="serial") for d, v in
            (("action_a", "spell"), ("action_b", "bottle"), ("magic1", 4), ("magic2", "hat"),
             ("magic3", rng.randint(1, 6)))]
    return out


def attempt(state: dict, item: Command | InputEvent) -> str | None:
    """The refusal a table would read for this command now, or None if it is accepted."""
    try:
        if isinstance(item, InputEvent):
            item = RULES.map_input(state, item)
        RULES.accept(state, item)
    except RuleViolation as refusal:
        return str(refusal)
    return None


@pytest.mark.parametrize("seed", range(6))
def test_refusals_and_prompts_never_show_internal_ids_or_command_names(seed):
    rng = random.Random(seed)
    s = new(share_spaces=seed % 2 == 1, circle_spaces=(18, 24, 30)[seed % 3])
    read: set[str] = set()
    for _ in range(160):
        state = s.state
        read.add(s.prompt()["text"])
        for item in tries(state, rng) + legal_commands(state, rng):
            said = attempt(state, item)
            if said is not None:
                read.add(said)
        if s.over:
            break
        s.execute(random_command(state, rng))
    assert len(read) > 60, "many situations, many different refusals"
    for text in sorted(read):
        assert not INTERNAL.search(text), f"a script's id in what players read: {text!r}"
        assert not any(name in text for name in COMMAND_NAMES if "_" in name), text


def test_the_scan_would_see_an_id():
    """The check itself can fail: the words of the old refusals."""
    for old in ("Bottle 2 already stands on c4", "nearest space: c3 or p2.1", "use it, or end_turn",
                "a misread die is fixed with correct_roll", "(settings die_a)", "magic1"):
        assert INTERNAL.search(old), old
