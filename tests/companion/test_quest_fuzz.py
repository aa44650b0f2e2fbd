"""Cauldron Quest under generated play: a Hypothesis state machine mixes legal moves (which must
all be accepted), malformed commands, odd dice from a tray or a script, kept dice changed, undo
and redo; after every step only RuleViolation may have been raised, a refusal changed nothing,
the state is JSON, the box holds (6 bottles on real spaces, at most 6 distinct obstacles, at
most 3 magic rolls), undo then redo is the identity, and the exported script replays to the
identical state, and a game that is not over can always go on. A table of the malformed inputs
the review found ends each in a refusal that names the field. ``COMPANION_FUZZ=long`` searches deeper (tests/conftest.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import event
from hypothesis import strategies as hs
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from companion.core import Command, InputEvent, RuleViolation, Session
from companion.games.quest import RULES, board
from companion.games.quest import state as st
from companion.games.quest.odds import MAGIC_DICE, ROLLS
from companion.games.quest.state import BOTTLES, INGREDIENTS
from tests.companion.quest_autoplay import keepable, legal_commands, new, random_command
from tests.support.commands import refused
from tests.support.fuzz import (
    ODD_SCALARS, assert_export_replays, assert_step_holds, before_any_command,
    garbage, malformed_command, odd_input, try_step,
)

NAMES = ["Ann", "Bob", "Cat", "Zoë", "Émile", "Fay"]
#: Boards a table may set up (each a valid setup; the fuzz plays on all of them).
BOARDS = [
    {},
    {"circle_spaces": 18, "share_spaces": True},
    {"circle_spaces": 12, "path_spaces": 2, "obstacle_space": 1},
    {"circle_spaces": 6, "path_spaces": 1, "obstacle_space": 1, "start_space": 1,
     "wizard_start": 0, "die_b": [2, 3, 4, 6, "spell", "spell"]},
    {"die_a": ["hat", "hat", "hat", "bottle", "bottle", "bottle"],
     "die_b": [1, "spell", "spell", "spell", 5, 6]},
    {"path_spaces": 3, "start_space": 2, "obstacle_space": 3},
]
DICE_IDS = ("action_a", "action_b", *MAGIC_DICE)
#: What a tray, a touch or a script may send as a die's face.
ODD_FACES = hs.one_of(
    hs.sampled_from([2.0, "²", "٣", "3", " 3 ", "03", "Spell", "HAT", "bottle", 7, 0, -1, True,
                     None, 10**4000, "9" * 5000, "\ud800", "six", [], {}, [3], 6, 1, "spell"]),
    ODD_SCALARS, garbage(3))
ARG_KEYS = sorted({k for d in RULES.commands.values() for k in d.args} | {"Bottle", "path ", "die_c"})


def setups() -> hs.SearchStrategy[dict[str, Any]]:
    return hs.builds(
        lambda board, n, needed: {"game": "quest", "players": NAMES[:n], "needed": needed, **board},
        hs.sampled_from(BOARDS), hs.integers(1, 6),
        hs.lists(hs.sampled_from(INGREDIENTS), min_size=3, max_size=3, unique=True))


def check_the_box(state: dict[str, Any]) -> None:
    """What the box holds and the board allows, whatever was played."""
    settings_ = state["settings"]
    spaces = set(board.all_spaces(settings_)) | {board.CAULDRON}
    assert len(state["bottles"]) == len(BOTTLES) and set(state["bottles"]) <= spaces
    on_board = [st.where(state, b) for b in st.on_board(state)]
    if not settings_["share_spaces"]:
        assert len(on_board) == len(set(on_board)), f"two bottles on one space: {on_board}"
    barriers = set(st.barriers(state))
    for b in st.on_board(state):
        assert b in state["returns"] or st.where(state, b) not in barriers, (b, state["bottles"])
    obstacles = state["obstacles"]
    assert len(obstacles) <= 6 and len(set(obstacles)) == len(obstacles)
    assert all(type(p) is int and 1 <= p <= 6 for p in obstacles)
    assert 0 <= state["wizard"] < settings_["circle_spaces"] and state["turn_no"] >= 1
    revealed = state["revealed"]
    assert len(set(revealed.values())) == len(revealed) and set(revealed.values()) <= set(INGREDIENTS)
    assert all(revealed.get(str(b)) in state["needed"] for b in BOTTLES
               if st.where(state, b) == board.CAULDRON)
    spell = state["spell"]
    if spell is not None:
        assert 0 <= spell["rolls"] <= ROLLS
        assert spell["keep"] is None or set(spell["keep"]) <= set(MAGIC_DICE)
    assert set(state["reading"]) <= set(DICE_IDS)
    assert RULES.prompt(state)["phase"] != "busy"


class QuestTable(RuleBasedStateMachine):
    @initialize(setup=setups())
    def sit_down(self, setup: dict[str, Any]) -> None:
        self.session = Session(RULES, setup)
        self.steps = 0

    @rule(data=hs.data())
    def legal(self, data: hs.DataObject) -> None:
        """Any legal thing, single dice, fixes and the token included: each must be accepted."""
        rng = data.draw(hs.randoms(use_true_random=False))
        options = legal_commands(self.session.state, rng)
        if options:
            item = data.draw(hs.sampled_from(options))
            assert try_step(self.session, item), f"a legal {item} was refused"
            event(f"legal: {item.do if isinstance(item, Command) else 'die input'}")

    @rule(rng=hs.randoms(use_true_random=False), turns=hs.integers(1, 60))
    def play_on(self, rng: random.Random, turns: int) -> None:
        """Legal steps that move the game on, so the machine reaches late games (six
        obstacles, bottles in the cauldron) within its few dozen rules."""
        for _ in range(turns):
            if self.session.over:
                break
            item = random_command(self.session.state, rng)
            assert try_step(self.session, item), f"a legal {item} was refused"
        event(f"phase after play_on: {self.session.prompt()['phase']}")
        event(f"obstacles: {len(self.session.state['obstacles'])}, "
              f"in the cauldron: {len(st.in_cauldron(self.session.state))}")

    @rule(command=malformed_command(sorted(RULES.commands), ARG_KEYS, NAMES))
    def malformed(self, command: Command) -> None:
        try_step(self.session, command)

    @rule(data=hs.data())
    def one_wrong_argument(self, data: hs.DataObject) -> None:
        """A legal command with one argument replaced by a wrong value or type."""
        rng = data.draw(hs.randoms(use_true_random=False))
        options = [o for o in legal_commands(self.session.state, rng)
                   if isinstance(o, Command) and o.args]
        if options:
            command = data.draw(hs.sampled_from(options))
            key = data.draw(hs.sampled_from(sorted(command.args)))
            wrong = data.draw(ODD_FACES)
            try_step(self.session, Command(command.do, command.player, {**command.args, key: wrong}))

    @rule(event=odd_input())
    def odd_device_input(self, event: InputEvent) -> None:
        try_step(self.session, event)

    @rule(die=hs.sampled_from(DICE_IDS), value=ODD_FACES, as_command=hs.booleans())
    def odd_die(self, die: str, value: Any, as_command: bool) -> None:
        item: Command | InputEvent = (Command("read_die", args={"die": die, "value": value})
                                      if as_command else InputEvent("die", die, value, "serial"))
        try_step(self.session, item)

    @rule(data=hs.data())
    def kept_die_changed(self, data: hs.DataObject) -> None:
        """After a magic roll: keep one or two dice (if the team has not), then try to change
        one of them by a whole roll and by a tray reading: both refused, no roll used."""
        self.to_a_magic_roll(data.draw(hs.randoms(use_true_random=False)))
        state = self.session.state
        if st.phase(state) != "magic" or not state["spell"]["rolls"]:
            return
        if not state["spell"]["chosen"] or not state["spell"]["keep"]:
            free = keepable(state)
            if not free:
                return
            kept = data.draw(hs.lists(hs.sampled_from(free), min_size=1, max_size=min(2, len(free)),
                                      unique=True))
            assert try_step(self.session, Command("keep", args={"dice": kept}))
        spell = self.session.state["spell"]
        if st.phase(self.session.state) != "magic" or not spell["chosen"]:
            return                   # the keep completed a roll read die by die
        die = data.draw(hs.sampled_from(spell["keep"]))
        i = MAGIC_DICE.index(die)
        dice = [data.draw(hs.integers(1, 6)) for _ in MAGIC_DICE]
        dice[i] = spell["dice"][i] % 6 + 1
        assert not try_step(self.session, Command("magic_roll", args={"dice": dice}))
        assert not try_step(self.session, InputEvent("die", die, dice[i], "serial"))

    def to_a_magic_roll(self, rng: random.Random) -> None:
        """Legal steps until the team has rolled the magic dice once and may roll again (bottle
        + spell whenever the dice of this table show them)."""
        settings_ = self.session.state["settings"]
        for _ in range(30):
            state = self.session.state
            phase = st.phase(state)
            if self.session.over or (phase == "magic" and state["spell"]["rolls"]):
                return
            if phase == "roll" and "bottle" in settings_["die_a"] and "spell" in settings_["die_b"]:
                item: Command = Command("action_roll", args={"a": "bottle", "b": "spell"})
            elif phase == "magic":
                item = Command("magic_roll", args={"dice": [rng.randint(1, 6) for _ in MAGIC_DICE]})
            else:
                item = random_command(state, rng)
            assert try_step(self.session, item), f"a legal {item} was refused"

    @rule(which=hs.sampled_from(["undo", "redo"]))
    def undo_redo(self, which: str) -> None:
        try_step(self.session, Command(which))

    @invariant()
    def holds(self) -> None:
        session = self.session
        self.steps += 1
        assert_step_holds(session, self.steps, check_the_box, undo_every=1, replay_every=10)
        onward = [o for o in legal_commands(session.state, random.Random(0))
                  if not (isinstance(o, Command) and o.do in ("break_obstacle", "correct_roll"))]
        assert session.over or onward, f"the game cannot go on: {session.prompt()['text']}"

    def teardown(self) -> None:
        if hasattr(self, "session"):
            assert_export_replays(self.session)


TestQuestTable = QuestTable.TestCase


# -- the malformed inputs the review found ----------------------------------------------------------
def at(phase: str) -> Session:
    """A table waiting for ``phase``: block (hat + spell), move (bottle + 3), magic, cast."""
    s = new()
    rolls = {"block": ("hat", "spell"), "move": ("bottle", 3), "magic": ("bottle", "spell"),
             "roll": None}
    if rolls.get(phase):
        a, b = rolls[phase]
        s.execute(Command("action_roll", args={"a": a, "b": b}))
    if phase == "magic":
        s.execute(Command("announce_spell", args={"spell": "omniscience"}))
    return s


MALFORMED = [
    ("block", "block_path", {"path": 1.0}, "path: a whole number from 1 to 6, not 1.0"),
    ("block", "block_path", {"path": "1"}, "path: a whole number from 1 to 6, not '1'"),
    ("block", "block_path", {"path": True}, "path: a whole number from 1 to 6, not True"),
    ("block", "block_path", {"path": 10**5000}, "path: a whole number from 1 to 6, not a "),
    ("block", "block_path", {"path": [1]}, "path: a whole number from 1 to 6, not a list of 1"),
    ("block", "block_path", {"paths": 1}, "paths: not a key of block_path; it knows path"),
    ("block", "block_path", {}, "path: missing"),
    ("roll", "action_roll", {"a": "bottle", "b": 2.0}, "b: one of 2, 3, 4, spell, not 2.0"),
    ("roll", "action_roll", {"a": "bottle", "b": "²"}, "b: one of 2, 3, 4, spell, not '²'"),
    ("roll", "action_roll", {"a": "bottle", "b": "2"}, "b: one of 2, 3, 4, spell, not '2'"),
    ("roll", "action_roll", {"a": ["bottle"], "b": 2}, "a: one of bottle, hat, not a list of 1"),
    ("roll", "action_roll", {"a": "bottle", "b": 2, "c": 1}, "c: not a key of action_roll"),
    ("roll", "read_die", {"die": "action_b", "value": 2.0}, "value: one of 1, 2, 3, 4, 5, 6, bottle"),
    ("roll", "read_die", {"die": "action_b", "value": "\ud800"}, "value: the text holds a broken"),
    ("roll", "read_die", {"die": ["action_b"], "value": 2}, "die: one of action_a, action_b"),
    ("magic", "magic_roll", {"dice": "123"}, "dice: a list of 3 (a whole number from 1 to 6), not '123'"),
    ("magic", "magic_roll", {"dice": [1, 2, 3.0]}, "dice[2]: a whole number from 1 to 6, not 3.0"),
    ("magic", "magic_roll", {"dice": [1, 2, "²"]}, "dice[2]: a whole number from 1 to 6, not '²'"),
    ("magic", "magic_roll", {"dice": {"1": 2}}, "dice: a list of 3"),
    ("magic", "magic_roll", {"dice": [1, 2, 3], "magic": True}, "magic: not a key of magic_roll"),
    ("magic", "keep", {"dice": "magic1"}, "dice: a list of 0 to 3"),
    ("move", "move_bottle", {"bottle": 1.0, "to": "p1.3"}, "bottle: a whole number from 1 to 6"),
    ("move", "move_bottle", {"bottle": 1, "to": 13}, "to: a space of the board"),
    ("move", "move_bottle", {"bottle": 1, "to": "p1.3\x00"}, "to: the text holds a control"),
    ("move", "move_bottle", {"bottle": 1, "to": "p1.3", "variant": "x"}, "variant: not a key"),
    ("move", "swap", {"bottles": "12"}, "bottles: a list of 2"),
    ("move", "reveal", {"bottle": 1, "ingredient": ["bat_wing"]}, "ingredient: one of rotten egg, poisonous mushroom"),
    ("move", "announce_spell", {"spell": 5}, "spell: one of omniscience, exchange, great_sorcery"),
    ("move", "end_turn", {"now": True}, "now: not a key of end_turn; it knows none"),
]


@pytest.mark.parametrize("phase, what, args, match", MALFORMED,
                         ids=[f"{w}-{i}" for i, (_, w, _, _) in enumerate(MALFORMED)])
def test_each_malformed_input_is_refused_naming_the_field(phase, what, args, match):
    refused(at(phase), what, match=match, **args)


TRAY = [
    ("action_b", "²", "value: one of 1, 2, 3, 4, 5, 6, bottle, hat, spell, not '²'"),
    ("action_b", "٣", "value: one of 1, 2, 3, 4, 5, 6, bottle, hat, spell, not '٣'"),
    ("action_b", 2.0, "not 2.0"),
    ("action_b", "9" * 5000, "value: text of at most 80 characters, not 5000"),
    ("action_b", 10**5000, "not a 16610-bit number"),
    ("action_b", True, "not True"),
    ("action_b", 5, "Action die B has no face 5; its faces are 2, 3, 4, spell"),
    ("action_a", 3, "Action die A has no face 3; its faces are bottle, hat"),
    ("magic1", 4, "Nobody asked for the magic dice"),
]


@pytest.mark.parametrize("die, value, match", TRAY,
                         ids=[f"{d}-{i}" for i, (d, _, _) in enumerate(TRAY)])
def test_a_die_from_the_tray_with_an_odd_face_is_refused_naming_it(die, value, match):
    s = new()
    with pytest.raises(RuleViolation) as info:
        s.handle_input(InputEvent("die", die, value, source="serial"))
    assert match in str(info.value) and s.steps == []


def test_a_die_from_the_tray_as_ascii_digits_is_a_number():
    s = new()
    s.handle_input(InputEvent("die", "action_b", " 3 ", source="serial"))
    assert s.state["reading"] == {"action_b": 3}


@pytest.mark.parametrize("player, match", [
    (["Ann"], "player: a player at this table"),
    ("Zed", "player: there is no player named 'Zed'"),
    ("\ud800", "player: the text holds a broken character"),
    (7, "player: a player at this table"),
])
def test_a_malformed_player_is_refused_naming_the_field(player, match):
    refused(new(), "action_roll", player, match=match, a="bottle", b=2)


def test_a_phantom_obstacle_cannot_count_toward_the_six():
    """``"path": 1.0`` once became an obstacle that was not a path: the wizard won early."""
    s = at("block")
    refused(s, "block_path", match="path: a whole number", path=1.0)
    s.execute(Command("block_path", args={"path": 1}))
    assert s.state["obstacles"] == [1] and type(s.state["obstacles"][0]) is int


(test_a_garbled_setup_is_a_setup_error_or_a_game,
 test_a_device_input_before_anything_is_a_refusal_or_a_step) = before_any_command(
    RULES, setups, ["players", "needed", *st.DEFAULTS, "game", "variant", "colour"],
    check_the_box, most=5)
