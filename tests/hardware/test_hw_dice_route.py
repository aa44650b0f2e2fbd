"""Which game die a physical die's roll is for: one rule for the tray and the smart dice.
Cauldron Quest asks for named dice (its prompt's inputs), Cauldron for the generic "die"."""

from __future__ import annotations

from hardware.dice.route import DiceRouter, Route, asked_dice

MAGIC = ["magic1", "magic2", "magic3"]


def test_buttons_are_not_dice():
    assert asked_dice(["die", "next", "seat2.pass", "magic1", "end_turn"]) == ["die", "magic1"]


def test_a_paired_die_gives_its_die_when_asked_and_nothing_else():
    router = DiceRouter({"magic1"})
    assert router.route("A", "magic1", MAGIC) == Route("magic1")
    assert router.route("B", "action_a", MAGIC) == Route(
        None, "action_a is not asked for now (the game asks for magic1, magic2, magic3)")
    assert router.route("A", "magic1", []).die is None


def test_a_re_roll_before_the_roll_is_complete_goes_to_the_rules():
    router = DiceRouter()
    assert router.route("A", "magic1", MAGIC) == Route("magic1")
    # magic1 has been read; the game asks for the other two, and A rolls again
    assert router.route("A", "magic1", ["magic2", "magic3"]) == Route("magic1")
    assert router.route("X", "any", ["magic2", "magic3"]) == Route("magic2")
    assert router.route("X", "any", ["magic3"]) == Route("magic2")     # replaces, not magic3


def test_two_any_dice_landing_at_once_fill_the_asked_dice_in_order():
    router = DiceRouter()
    asked = list(MAGIC)
    for die in ("P", "Q", "R"):
        route = router.route(die, "any", asked)
        asked.remove(route.die)             # the rules read it: the game asks for the rest
    assert router._gave == {"P": "magic1", "Q": "magic2", "R": "magic3"}


def test_any_dice_leave_the_dice_that_have_a_die_of_their_own():
    router = DiceRouter({"magic1", "action_a", "action_b"})
    assert router.route("P", "any", MAGIC) == Route("magic2")
    assert router.route("A", "magic1", MAGIC) == Route("magic1")
    assert router.route("Q", "any", ["action_a", "action_b"]) == Route(
        None, "action_a, action_b have dice of their own")
    assert router.route("Q", "any", ["action_b"]) == Route(
        None, "action_b has a die of its own")


def test_the_roll_ends_when_the_game_asks_for_no_die():
    router = DiceRouter()
    assert router.route("P", "any", ["action_a", "action_b"]) == Route("action_a")
    assert router.route("P", "any", []).die is None          # the roll is done
    assert router.route("P", "any", ["action_b", "action_a"]) == Route("action_b")


def test_cauldron_asks_for_the_die_whoever_rolls_it():
    router = DiceRouter()
    assert router.route("P", "any", ["die"]) == Route("die")
    assert router.route("Q", "magic1", ["die", "next"]) == Route("magic1")
    assert router.route("P", "any", ["seat1.pass", "next"]) == Route(
        None, "the game asks for no die now")


# -- fuzzed: any dice, any pairing, any order of landings ------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

DICE = ["magic1", "magic2", "magic3", "action_a", "action_b"]
PHYSICAL = ["P", "Q", "R", "S", "T"]


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(PHYSICAL), st.sampled_from(["any", *DICE]), min_size=1),
       st.lists(st.tuples(st.sampled_from(PHYSICAL), st.booleans()), max_size=40))
def test_fuzz_a_roll_only_ever_goes_to_a_die_the_game_asks_for_or_is_rereading(pairing,
                                                                                landings):
    """Whatever lands: a die goes to an asked die or to the die it gave in this roll; an
    "any" die never takes a die that has a die of its own; two dice never share a die in a
    roll unless one of them is paired to it."""
    reserved = {d for d in pairing.values() if d != "any"}
    router = DiceRouter(reserved)
    asked = list(DICE[:3])                       # a magic roll: all three asked
    gave: dict[str, str] = {}
    for physical, new_roll in landings:
        if physical not in pairing:
            continue
        if new_roll or not asked:                # the roll completed: a new one is asked
            router.route(physical, pairing[physical], [])
            asked, gave = list(DICE[:3]), {}
        route = router.route(physical, pairing[physical], asked)
        if route.die is None:
            assert route.why
            continue
        assert route.die in asked or route.die == gave.get(physical) \
            or route.die in gave.values()
        if pairing[physical] == "any":
            assert route.die not in reserved
            others = {d for p, d in gave.items() if p != physical and pairing[p] == "any"}
            assert route.die not in others or not [d for d in asked if d not in reserved
                                                   and d not in others]
        gave[physical] = route.die
        if route.die in asked:
            asked.remove(route.die)              # the rules read it
