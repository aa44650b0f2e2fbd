"""Cauldron under generated play: a Hypothesis state machine mixes legal moves (which must all be
accepted), malformed commands, well-formed commands the rules may refuse (corrections of any
size, Magik changes that make and break ties, roll-offs, misread dice), odd dice and device
inputs, undo and redo. After every step only RuleViolation may have been raised, a refusal
changed nothing, the state is JSON, Magik stays on the track, the box holds (Ingredient tokens,
Fields and Cellar cards within its counts; no pool, board or Field count below none), a roll-off
belongs to the tie it was opened for, undo then redo is the identity, and the exported script
replays to the identical state. Then a table of the malformed inputs the review found.
``COMPANION_FUZZ=long`` searches deeper (tests/conftest.py)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import event
from hypothesis import strategies as hs
from hypothesis.stateful import initialize, rule

from companion.core import Command, InputEvent, RuleViolation, Session, SetupError
from companion.games.cauldron import RULES
from companion.games.cauldron import data as d
from companion.games.cauldron import state as st
from tests.companion.cauldron_autoplay import MILESTONES, next_command
from tests.support.fuzz import (
    ODD_SCALARS, before_any_command, garbage, malformed_command, TableMachine,
    try_step,
)

#: A head start that plays the whole game: autoplay's games end well within it.
END = 4000
NAMES = ["Anna", "Barb", "Zoë", "Émile", "Carl", "Fay"]
ARG_KEYS = sorted({k for c in RULES.commands.values() for k in c.args}
                  | {"magic", "variant", "field", "positions", "Ingredient", "value "})
ODD_DICE = [0, 7, -1, 2.0, "²", "٣", "3", True, None, 10**4000, [3], {"value": 3}]
ODD_VALUES = hs.one_of(
    hs.sampled_from([*ODD_DICE, "Spider Web", "SPIDER_WEB", ["spider_web"], "spider_web",
                     {"spider_web": 1.0}, {"Nobody": 1}, "\ud800", 2**63, "witch", [],
                     {"name": "X", "yield": 3, "ingredients": ["any"], "magic": 1}]),
    ODD_SCALARS, garbage(3))


def setups() -> hs.SearchStrategy[dict[str, Any]]:
    """Every kind of table: 2 to 6 seats, any variants, characters by name or in the seats'
    records, the box's counts or a short box (so Fields and Cellars run out within a game)."""
    def build(n: int, variants: list[str], witch: int, short: bool, right: bool,
              milestones: bool) -> dict[str, Any]:
        names = NAMES[:n]
        setup: dict[str, Any] = {"game": "cauldron", "players": list(names),
                                 "variants": variants,
                                 "characters": {names[witch % n].upper(): "witch"}}
        if witch % 2 and witch % n != 1:
            setup["players"][1] = {"name": names[1], "character": "druid",
                                   "once_per_season": True}
        if milestones:
            setup["milestones"] = dict(MILESTONES)
        settings: dict[str, Any] = {"market_start": "right" if right else "left"}
        if short:
            fields = 3 * (n + 1) + (4 if "quick" in variants else 0) + 3
            # Enough tokens for every Field, the Omens' extra and the Market's bonus tokens.
            settings.update(box_fields=fields, box_cellars=n + 1,
                            box_ingredients=fields + 2 * n + n + 1 + 4)
        setup["settings"] = settings
        return setup
    return hs.builds(build, hs.integers(2, 6),
                     hs.lists(hs.sampled_from(d.VARIANTS), unique=True, max_size=4),
                     hs.integers(0, 5), hs.booleans(), hs.booleans(), hs.booleans())


def check_the_box(state: dict[str, Any]) -> None:
    """What the box and the track hold, whatever was played."""
    players, settings = state["players"], state["settings"]
    over, winner = state["over"], state["winner"]
    for i, p in enumerate(players):
        assert type(p["magik"]) is int and p["magik"] >= 0, (p["name"], p["magik"])
        if over and i == winner:
            assert d.WIN <= p["magik"] <= d.NOT_BY_BREWING_MAX + d.WIN + 1
        else:  # 35 is reached only by brewing, and that ends the game
            assert p["magik"] <= d.NOT_BY_BREWING_MAX, (p["name"], p["magik"])
        assert all(type(n) is int and n > 0 for n in p["pool"].values()), p["pool"]
        assert set(p["pool"]) <= set(d.INGREDIENTS)
        assert all(c is None or c in d.INGREDIENTS for c in p["cellars"])
        assert len(p["cellars"]) <= p["max_cellars"]
        assert set(p["spells"]) <= set(d.SPELL_KINDS) and set(p["owed"]) <= set(d.POTION_KINDS)
        if d.SIMPLE in state["variants"]:
            assert p["spells"] == []
    assert st.tokens_in_play(state) <= settings["box_ingredients"]
    assert all(type(n) is int and n >= 0 for n in state["ingredients_left"].values())
    assert all(type(n) is int and n >= 0 for n in state["fields"].values())
    assert sum(state["fields"].values()) <= settings["box_fields"]
    for kind, most in (settings["field_supply"] or {}).items():
        assert state["fields"][kind] <= most
    assert st.cellars_taken(state) <= settings["box_cellars"]
    if state["market"] is not None:
        assert 0 <= state["market"]["purchases"] <= st.purchase_limit(state)
    # A roll-off belongs to its tie: a live one is always for the seats tied now.
    assert not st.outlived(state, state["rolloff"])
    if st.phase(state) == "turn_order":
        assert not st.outlived(state, state["harvest"]["order"])


class CauldronTable(TableMachine):
    check_box = staticmethod(check_the_box)
    legal_command = staticmethod(next_command)
    odd_values = ODD_VALUES

    @initialize(setup=setups(), head_start=hs.sampled_from([0, 0, 30, 150, 400, END]),
                rng=hs.randoms(use_true_random=False))
    def sit_down(self, setup: dict[str, Any], head_start: int, rng: random.Random) -> None:
        """A table from its first command, one some seasons in, or one whose game is over."""
        self.sit(RULES, setup, head_start, rng)
        self.names = [p["name"] for p in self.session.state["players"]]
        event(f"head start: {head_start}")

    def play(self, item: Command | InputEvent) -> bool:
        accepted = try_step(self.session, item)
        event(f"{getattr(item, 'do', 'input')}: {'accepted' if accepted else 'refused'}")
        return accepted

    @rule(rng=hs.randoms(use_true_random=False), turns=hs.integers(1, 30))
    def play_on(self, rng: random.Random, turns: int) -> None:
        """Legal moves as a table makes them (cauldron_autoplay): each must be accepted."""
        for _ in range(turns):
            if self.session.over:
                break
            command = next_command(self.session, rng)
            if not try_step(self.session, command):
                # The table's move is legal unless corrections filled pools and board so far
                # that the box lacks the Ingredient tokens to fill the board.
                with pytest.raises(RuleViolation, match="Ingredient tokens") as refusal:
                    RULES.accept(self.session.state, command)
                event(f"a legal move the box cannot hold: {str(refusal.value)[:20]}")
                break
        event(f"phase after play_on: {self.session.prompt()['phase']}")

    @rule(command=malformed_command(sorted(RULES.commands), ARG_KEYS, NAMES))
    def malformed(self, command: Command) -> None:
        self.play(command)

    @rule(data=hs.data())
    def correction(self, data: hs.DataObject) -> None:
        """A well-formed correction by hand the rules may refuse: any pool, board, Fields."""
        changes = hs.dictionaries(hs.sampled_from(d.INGREDIENTS), hs.integers(-3, 12),
                                  max_size=3)
        args = {k: data.draw(changes) for k in ("pool", "board", "fields")
                if data.draw(hs.booleans())}
        if data.draw(hs.booleans()):
            args["spells"] = data.draw(hs.dictionaries(hs.sampled_from(d.SPELL_KINDS),
                                                       hs.integers(-2, 2), max_size=2))
        who = data.draw(hs.sampled_from([None, *self.names]))
        event(f"correction accepted: {self.play(Command('adjust', who, args))}")

    @rule(who=hs.integers(0, 5), delta=hs.sampled_from([-35, -5, -2, -1, 1, 2, 3, 7, 35]))
    def magik_change(self, who: int, delta: int) -> None:
        """Magik moved by a Spell or an Omen: it makes and breaks ties."""
        name = self.names[who % len(self.names)]
        self.play(Command("adjust_magik", name, {"delta": delta, "source": "spell"}))

    @rule(kind=hs.sampled_from(["lsp", "hsp"]), who=hs.integers(0, 5),
          rolls=hs.lists(hs.integers(1, 6), max_size=4))
    def rolloff(self, kind: str, who: int, rolls: list[int]) -> None:
        """A seat joins the fewest or most Magik (by a Spell), a roll-off for that tie opens,
        and some of its dice are rolled."""
        players = self.session.state["players"]
        seat = who % len(players)
        target = st.tie(self.session.state, kind)[1] - players[seat]["magik"]
        if target:
            self.play(Command("adjust_magik", self.names[seat], {"delta": target}))
        accepted = self.play(Command("rolloff", None, {"kind": kind}))
        event(f"roll-off opened: {accepted}")
        for value in rolls:
            self.play(Command("roll", None, {"value": value}))

    @rule(data=hs.data())
    def a_die(self, data: hs.DataObject) -> None:
        """A die from the tray, the screen or a script: a face, an odd value, any seat."""
        value = data.draw(hs.one_of(hs.integers(1, 6), hs.sampled_from(ODD_DICE)))
        how = data.draw(hs.sampled_from(["tray", "roll", "rolloff_roll", "turn_order_roll",
                                         "steal", "correct_roll"]))
        who = data.draw(hs.sampled_from(self.names))
        if how == "tray":
            self.play(InputEvent("die", "d1", value, "serial"))
        elif how == "roll":
            self.play(Command("roll", data.draw(hs.sampled_from([None, who])), {"value": value}))
        elif how == "steal":
            self.play(Command("steal", who, {"roll": value}))
        else:
            self.play(Command(how, who, {"value": value}))

    def teardown(self) -> None:
        if hasattr(self, "session"):
            event(f"commands: {len(self.session.done_steps()) // 100 * 100}+")
        super().teardown()


TestCauldronTable = CauldronTable.TestCase


(test_a_garbled_setup_is_a_setup_error_or_a_game,
 test_a_device_input_before_anything_is_a_refusal_or_a_step) = before_any_command(
    RULES, setups, ["players", "variants", "milestones", "characters", "settings", "game",
                     "variant", "character"], check_the_box)


# -- the malformed inputs the review found, each refused naming its field ----------------------
BASE = {"game": "cauldron", "players": ["Anna", "Barb"], "milestones": MILESTONES}


@pytest.mark.parametrize(("change", "match"), [
    ({"variants": 5}, "variants: a list of 0 to 4"),
    ({"variants": "quick"}, "variants: a list of 0 to 4"),
    ({"variants": ["quick", "Quick"]}, "variants[1]: 'quick' is listed twice"),
    ({"variant": ["quick"]}, "variant: not a key of the Cauldron setup; it knows players, "
                             "variants, milestones, characters, settings"),
    ({"players": [["Anna"], "Barb"]}, "players[0]:"),
    ({"players": ["\ud800", "Barb"]}, "players[0]: the text holds a broken character"),
    ({"players": ["Anna", "ANNA"]}, "players[1]: two seats have the same name"),
    ({"players": [{"name": "Anna", "role": "witch"}, "Barb"]},
     "players[0].role: not a key of a seat; it knows name, character"),
    ({"players": [{"name": "Anna", "max_cellars": 2.0}, "Barb"]},
     "players[0].max_cellars: a whole number from 0 to 6, not 2.0"),
    ({"characters": {"Anna": ["witch"]}}, "characters.Anna: one of alchemist"),
    ({"characters": {"Dora": "witch"}}, "there is no player named 'Dora'"),
    ({"milestones": {"magik_overflow": 10**4000}}, "milestones.magik_overflow: a whole number "
                                                  "from 3 to 34, not a 13288-bit number"),
    ({"milestones": {"magik_overflow": 12.0}}, "milestones.magik_overflow: a whole number"),
    ({"milestones": {"Magik Overflow": 12}}, "milestones.Magik Overflow: not a key of the "
                                             "milestones; it knows magik_overflow"),
    ({"settings": {"market_start": ["left"]}}, "settings.market_start: one of left, right"),
    ({"settings": {"field_supply": {"dragon_egg": "5"}}},
     "settings.field_supply.dragon_egg: a whole number"),
    ({"settings": {"magik": 1}}, "settings.magik: not a key of the settings"),
])
def test_a_malformed_setup_is_refused_naming_the_field(change: dict[str, Any], match: str) -> None:
    with pytest.raises(SetupError) as problem:
        Session(RULES, {**BASE, **change})
    assert match in str(problem.value)


POTION = {"name": "Tea", "kind": "easy", "yield": 2, "ingredients": ["spider_web"]}


@pytest.mark.parametrize(("command", "match"), [
    (Command("omen", None, {"text": "Storm", "magic": {"Anna": 1}}),
     "magic: not a key of omen; it knows text, magik, produce, first"),
    (Command("omen", None, {"magik": {"Anna": 1.0}}), "magik.Anna: a whole number"),
    (Command("omen", None, {"magik": {"Dora": 1}}), "there is no player named 'Dora'"),
    (Command("omen", None, {"first": ["Anna"]}), "first: one of lsp, hsp or a player"),
    (Command("omen", None, {"produce": {"newt": 1}}), "produce key: one of spider_web"),
    (Command("roll", None, {"value": 2.0}), "value: a whole number from 1 to 6, not 2.0"),
    (Command("roll", None, {"value": "²"}), "value: a whole number from 1 to 6, not '²'"),
    (Command("roll", None, {"value": True}), "value: a whole number from 1 to 6, not True"),
    (Command("roll", None, {"value": 7}), "value: a whole number from 1 to 6, not 7"),
    (Command("roll", None, {"value": 10**4000}), "not a 13288-bit number"),
    (Command("roll", None, {}), "value: missing; give a whole number from 1 to 6"),
    (Command("add_potion", "Anna", {"potion": {**POTION, "magic": 1}}),
     "potion.magic: not a key of a potion card; it knows name, kind, yield, ingredients"),
    (Command("add_potion", "Anna", {"potion": {**POTION, "yield": "2"}}),
     "potion.yield: a whole number from 0 to 35, not '2'"),
    (Command("add_potion", "Anna", {"potion": {**POTION, "ingredients": "spider_web"}}),
     "potion.ingredients: a list of 1 to 10"),
    (Command("add_potion", "Anna", {"potion": {**POTION, "quick": "yes"}}),
     "potion.quick: true or false"),
    (Command("add_potion", "Anna", {"potion": POTION, "source": "luck"}), "source: one of omen"),
    (Command("gather", "Anna", {"ingredient": ["spider_web"]}), "ingredient: one of spider_web"),
    (Command("gather", "Anna", {"ingredient": "spider_web", "field": "x"}),
     "field: not a key of gather; it knows ingredient, ingredients"),
    (Command("gather", "Anna", {"ingredients": ["spider_web"] * 3}), "ingredients: a list of 1 to 2"),
    (Command("set_milestones", None, {"magik_overflow": 12}),
     "magik_overflow: not a key of set_milestones; it knows milestones"),
    (Command("fields_exhausted", None, {"field": "dragon_egg"}),
     "field: not a key of fields_exhausted; it knows ingredient"),
    (Command("steal", "Anna", {"target": "Nobody", "ingredient": "frog_legs"}),
     "target: there is no player named 'Nobody'"),
    (Command("buy", "Anna", {"item": "spell"}), "item: one of field, cellar"),
    (Command("end_turn", "Anna", {"skip": "yes"}), "skip: true or false, not 'yes'"),
    (Command("brew", "Anna", {"potion": "Tea", "any": "frog_legs"}), "any: a list of 1 to 10"),
    (Command("adjust", "Anna", {"pool": {"spider_web": 1.5}}), "pool.spider_web: a whole number"),
    (Command("adjust_magik", "Anna", {"delta": 2**63}), "delta: a whole number from -35 to 35"),
    (Command("set_character", "\ud800", {"character": "witch"}), "player: the text holds a broken"),
    (Command("begin", "Anna", {}), "begin: the whole table does this"),
    (Command("pass", None, {}), "pass: say which player"),
    (Command(123, None, {}), "do: the command's name"),
    (Command("skip", "Anna", {}), "Cauldron has no command 'skip'; it knows add_potion"),
])
def test_a_malformed_command_is_refused_naming_the_field(command: Command, match: str) -> None:
    session = Session(RULES, BASE)
    before = copy.deepcopy(session.state)
    with pytest.raises(RuleViolation) as problem:
        session.execute(command)
    assert match in str(problem.value)
    assert session.state == before and session.steps == []
