"""The log in words: every step of whole autoplayed games of all three games reads
in the game's own words with who, one line per event, and never shows an id, a command's name,
an argument's key or JSON (the patterns the prompts are held to in test_cauldron_words)."""

from __future__ import annotations

import random

import pytest

from companion.core import Command, InputEvent, Session
from companion.core.engine import GameRules
from tests.companion import cauldron_autoplay as cauldron
from tests.companion import quest_autoplay as quest
from tests.companion.test_cauldron_words import offending
from tests.support import autoplay


def _quest_game(seed: int) -> Session:
    rng = random.Random(seed)
    session = quest.new()
    while not session.over and len(session.steps) < 800:
        session.execute(quest.random_command(session.state, rng))
    return session


GAMES = {
    "witchs_brew": lambda seed: autoplay.play(
        {"game": "witchs_brew", "players": ["Anna", "Ben", "Carl", "Dora"]}, seed=seed)[0],
    "cauldron": lambda seed: cauldron.play(cauldron.setup_for(3), seed=seed)[0],
    "quest": _quest_game,
}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_step_of_a_whole_game_reads_in_words(game: str, seed: int) -> None:
    session = GAMES[game](seed)
    log = session.log()
    assert len(log) == len(session.done_steps()) > 20
    names = session.names
    for step, lines in log:
        assert len(lines) == len(step.events), (step, lines)
        for line in lines:
            assert line.strip() and (line[0].isupper() or line[0].isdigit()), line
            assert not offending(line), (line, offending(line))
            assert len(line) <= 200, line
        if step.command.player and not step.events[0].automatic:
            assert step.command.player in lines[0] or game == "quest", (step.command, lines)
    said = [line for _step, lines in log for line in lines]
    assert any(any(name in line for name in names) for line in said)
    assert any(line.startswith("Game over") or line.startswith("The team wins")
               or line.startswith("The wizard wins") for line in said[-3:])


def test_witchs_brew_answers_name_the_role_in_play() -> None:
    session = Session(GAMES["witchs_brew"](1).rules,
                      {"game": "witchs_brew", "players": ["Anna", "Ben", "Carl"]})
    if session.prompt()["phase"] == "reveal":
        session.execute(Command("reveal_excluded", args={"roles": []}))
    first = session.prompt()["turn"]
    session.execute(Command("play_role", first, {"role": "witch"}))
    answerer = session.prompt()["turn"]
    step = session.execute(Command("claim", answerer))
    assert session.words(session.steps[-2])[0] == f"{first} played the Witch"
    assert session.words(step)[0] == f"{answerer} claimed the Witch"


def test_cauldron_brew_and_fewest_magik_in_the_rulebook_words() -> None:
    session = cauldron.new(3)
    cauldron.give(session, "Anna", "Oil of Earthquakes", ["spider_web"], gain=3)
    cauldron.start(session)
    cauldron.pool(session, "Anna", spider_web=1)
    step = session.execute(Command("brew", "Anna", {"potion": "Oil of Earthquakes"}))
    assert session.words(step)[0].startswith("Anna brewed Oil of Earthquakes, +")
    assert "Magik" in session.words(step)[0]


def test_quest_die_from_the_tray_reads_and_keeps_its_source() -> None:
    session = quest.new()
    step = session.handle_input(InputEvent("die", "action_a", "hat", source="serial"))
    assert session.words(step) == ["Action die A read hat"]
    assert step.source == "serial"
    touched = session.execute(Command("action_roll", "Ann", {"a": "hat", "b": 2}))
    assert touched.source is None  # a command with no input behind it: source unknown


def test_a_toy_game_without_words_of_its_own_says_who_and_what() -> None:
    rules: GameRules = GAMES["quest"](1).rules
    plain = GameRules.__dataclass_fields__["describe"].default
    assert plain(Command("move_bottle", "Ann"), (), ["Ann"], {}) == ["Ann move bottle"]
    assert rules.describe is not plain


def test_quest_says_a_spell_fails_only_when_no_roll_is_left() -> None:
    """"Spell fails" was once said after roll 1 and roll 2 while the team rolled on. The
    words follow the state: a miss with rolls left names the roll, "fails" is the last miss."""
    from companion.games.quest import RULES as QUEST

    session = Session(QUEST, {"game": "quest", "players": ["Ann", "Bob"],
                              "needed": ["rotten_egg", "newt_eye", "bat_wing"]})
    session.execute(Command("action_roll", "Ann", {"a": "bottle", "b": "spell"}))
    session.execute(Command("announce_spell", "Ann", {"spell": "omniscience"}))
    for roll in (1, 2, 3):
        step = session.execute(Command("magic_roll", "Ann", {"dice": [2, 5, 4]}))
        words = session.words(step)
        spell = session.summary()["spell"]
        if spell is not None:                       # rolls left: the team rolls on
            assert spell["rolls_left"] == 3 - roll
            assert f"The Spell of Omniscience: roll {roll} of 3 missed" in words
            assert not any("fails" in line for line in words)
        else:                                       # the last roll missed: the turn passed
            assert roll == 3 and session.summary()["turn"] == "Bob"
            assert "The Spell of Omniscience fails" in words


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_quest_spell_words_match_the_rolls_left_in_whole_games(seed: int) -> None:
    """The class: in whole games, every judged spell that did not work reads "fails" exactly
    when it was the last roll, and names its roll otherwise."""
    session = _quest_game(seed)
    seen = 0
    for step, lines in session.log():
        for event, line in zip(step.events, lines[len(lines) - len(step.events):]):
            if event.type != "spell_judged" or event.data["success"]:
                continue
            seen += 1
            last = event.data["roll"] >= 3
            assert line.endswith(" fails") == last, line
            assert (f"roll {event.data['roll']} of 3 missed" in line) == (not last), line
    assert seen
