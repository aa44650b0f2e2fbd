"""Whole games: sets, ravens, the end, scoring, ties, the 3/4-player variant, setup, input."""

from __future__ import annotations

import pytest

from companion.core import Command, InputEvent, RuleViolation, Session, SetupError
from companion.games import get_rules
from companion.games.witchs_brew.roles import ROLES

RULES = get_rules("witchs_brew")
ALL_ROLES = list(ROLES)
BREWERS = ("witch", "druid", "wizard")
HAND = ["witch", "wizard", "wolf_keeper", "snake_hunter", "herb_collector"]
# The potions the brewers take, in order (stack, points, raven).
POTIONS = [("copper", 3, True), ("silver", 4, True), ("copper", 5, True), ("silver", 6, True),
           ("iron", 7, True), ("iron", 8, True)]


def next_seat_claims(s, who, role):
    """The seat left of the starter claims, every later seat accepts: the start moves round."""
    players = s.state["players"]
    left = players[(s.state["round_starter"] + 1) % len(players)]["name"]
    return "claim" if who == left else "so_be_it"


def brewing(wb, queue, log):
    """Brewers' full actions take the next potion, paying 1 of their most plentiful drop;
    everything else that waits is abstained from."""
    def resolve(s, who, pending):
        if pending["kind"] == "action" and pending["role"] in BREWERS:
            stack, points, raven = queue.pop(0)
            c = wb.counters(s, who)
            drop = max(("red", "white", "green"), key=lambda d: c[d])
            assert c[drop] >= 1
            wb.do(s, "resolve", who, potion={"stack": stack, "points": points, "raven": raven},
                  pay={drop: 1})
            log.append((who, points, s.state["set"]))
        else:
            wb.do(s, "abstain", who)
    return resolve


# expected by hand: the holder of round g (counted over the whole game) is seat g mod N;
# brewing rounds are the first two of each set (g = 1, 2, 6, 7, 11, 12).
GAMES = {
    3: {"brewers": ["Barb", "Carl", "Anna", "Barb"], "set2_starter": "Carl",
        "scores": {"Anna": 5, "Barb": 9, "Carl": 4}, "winners": ["Barb"], "sets": 2},
    4: {"brewers": ["Barb", "Carl", "Carl", "Daniel"], "set2_starter": "Barb",
        "scores": {"Anna": 0, "Barb": 3, "Carl": 9, "Daniel": 6}, "winners": ["Carl"], "sets": 2},
    5: {"brewers": ["Barb", "Carl", "Barb", "Carl"], "set2_starter": "Anna",
        "scores": {"Anna": 0, "Barb": 8, "Carl": 10, "Daniel": 0, "Emma": 0},
        "winners": ["Carl"], "sets": 2},
    6: {"brewers": ["Barb", "Carl", "Anna", "Barb", "Fiona", "Anna"], "set2_starter": "Fiona",
        "scores": {"Anna": 13, "Barb": 9, "Carl": 4, "Daniel": 0, "Emma": 0, "Fiona": 7},
        "winners": ["Anna"], "sets": 3},
}


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_a_whole_game(wb, n):
    expected = GAMES[n]
    s = wb.new(n)
    queue, brewed, trace = list(POTIONS), [], []
    resolve = brewing(wb, queue, brewed)

    def watch(session):
        sm = session.summary()
        trace.append((sm["set"], sm["ravens"], sm["over"],
                      sum(p["cards_left"] for p in sm["players"])))

    starters = []
    while not s.over:
        assert s.prompt()["phase"] == "play"
        starters.append(s.prompt()["turn"])
        wb.play_set(s, wb.same_hands(s, HAND), answer=next_seat_claims, resolve=resolve,
                    on_round=watch)
        assert len(starters) <= 3

    assert [who for who, _, _ in brewed] == expected["brewers"]
    assert starters[1] == expected["set2_starter"]
    sm = s.summary()
    assert sm["over"] is True and sm["phase"] == "over"
    assert sm["set"] == expected["sets"]
    assert sm["ravens"] == 2 * expected["sets"] == sm["ravens_needed"]
    assert {p["name"]: p["score"] for p in sm["players"]} == expected["scores"]
    assert sm["winners"] == expected["winners"]
    best = max(expected["scores"].values())
    assert sm["prompt"] == f"Game over: {expected['winners'][0]} wins with {best} points"
    results = RULES.results(s.state)
    assert [r["name"] for r in results if r["winner"]] == expected["winners"]
    assert [r["score"] for r in results] == list(expected["scores"].values())

    # the needed raven was taken mid-set, but the game only ended when the set was over
    needed = sm["ravens_needed"]
    first = next(i for i, t in enumerate(trace) if t[1] >= needed)
    set_of_last_raven, _, over_then, cards_then = trace[first]
    assert over_then is False and cards_then > 0
    assert all(not t[2] for t in trace[:-1])
    assert trace[-1][2] is True and trace[-1][0] == set_of_last_raven
    # the final set was played out: every card of every seat
    assert all(p["cards_left"] == 0 for p in sm["players"])


def test_ravens_needed_are_four_or_six_with_six_seats(wb):
    assert [wb.new(n).summary()["ravens_needed"] for n in (3, 4, 5, 6)] == [4, 4, 4, 6]


def test_six_seats_play_on_after_the_fourth_raven(wb):
    s = wb.new(6)
    queue, brewed = list(POTIONS), []
    resolve = brewing(wb, queue, brewed)
    for _ in range(2):
        wb.play_set(s, wb.same_hands(s, HAND), answer=next_seat_claims, resolve=resolve)
    sm = s.summary()
    assert sm["ravens"] == 4 and sm["over"] is False
    assert sm["set"] == 3 and sm["phase"] == "play" and sm["turn"] == "Emma"


def test_the_game_ends_at_the_end_of_the_set_not_when_the_raven_is_taken(wb):
    s = wb.new(3)
    wb.do(s, "adjust", "Anna", potion={"stack": "copper", "points": 1, "raven": True})
    wb.do(s, "adjust", "Barb", potion={"stack": "silver", "points": 1, "raven": True})
    wb.do(s, "adjust", "Carl", potion={"stack": "gold_shelf", "points": 1, "raven": True})
    wb.do(s, "play_role", "Anna", role="witch")
    wb.do(s, "pass", "Barb")
    wb.do(s, "pass", "Carl")
    wb.do(s, "resolve", "Anna", potion={"stack": "iron", "points": 4, "raven": True}, pay={"red": 1})
    assert s.summary()["ravens"] == 4
    assert not s.over and s.prompt()["phase"] == "play"
    # the rest of the set is still played
    wb.do(s, "play_role", "Anna", role="warlock")
    wb.do(s, "so_be_it", "Barb")
    assert not s.over
    rest = {"Anna": ["witch", "warlock", "wolf_keeper", "snake_hunter", "herb_collector"],
            "Barb": ["warlock", "wolf_keeper", "snake_hunter", "herb_collector", "alchemist"],
            "Carl": ["wolf_keeper", "snake_hunter", "herb_collector", "alchemist", "druid"]}
    wb.play_set(s, rest)
    assert s.over and s.summary()["set"] == 1
    assert s.summary()["winners"] == ["Anna"]


def test_even_four_ravens_at_the_very_start_end_the_game_only_after_a_set(wb):
    s = wb.new(4)
    for stack in ("copper", "silver", "iron", "ingredient_shelf"):
        wb.do(s, "adjust", "Daniel", potion={"stack": stack, "points": 2, "raven": True})
    assert not s.over
    wb.play_set(s, wb.same_hands(s, HAND))
    assert s.over
    assert s.summary()["winners"] == ["Daniel"]
    assert s.prompt()["text"] == "Game over: Daniel wins with 8 points"


# --------------------------------------------------------------------------------------------
# Scoring and ties
# --------------------------------------------------------------------------------------------
def end_set_one(wb, s):
    wb.play_set(s, wb.same_hands(s, ["warlock", "cutpurse", "begging_monk", "druid", "wizard"]))


def four_ravens(wb, s, who="Carl"):
    for stack in ("copper", "silver", "iron", "gold_shelf"):
        wb.do(s, "adjust", who, potion={"stack": stack, "points": 0, "raven": True})


def test_score_is_potion_points_plus_vials(wb):
    s = wb.new(3)
    four_ravens(wb, s)
    wb.do(s, "adjust", "Anna", potion={"stack": "copper", "points": 6}, changes={"vials": 3})
    wb.do(s, "adjust", "Barb", changes={"vials": 10})
    wb.do(s, "adjust", "Carl", potion={"stack": "iron", "points": 5})
    end_set_one(wb, s)
    assert {p["name"]: p["score"] for p in s.summary()["players"]} == {
        "Anna": 9, "Barb": 10, "Carl": 5}
    assert s.summary()["winners"] == ["Barb"]


def test_tie_broken_by_leftovers_exactly(wb):
    s = wb.new(3)
    four_ravens(wb, s)
    wb.do(s, "adjust", "Anna", changes={"vials": 5, "red": 3})
    wb.do(s, "adjust", "Barb", changes={"vials": 5, "gold": 1})
    # Anna starts and holds every round (everyone says "So be it!"): only Barb and Carl take
    # the warlock favor (+1 gold); Anna's full actions are abstained from.
    end_set_one(wb, s)
    res = {r["name"]: (r["score"], r["tiebreak"], r["winner"]) for r in RULES.results(s.state)}
    # Anna: 4+1+1 drops + 2 gold = 8; Barb: 3 drops + 2+1+1 gold = 7
    assert res == {"Anna": (5, 8, True), "Barb": (5, 7, False), "Carl": (0, 6, False)}
    assert s.summary()["winners"] == ["Anna"]
    assert s.prompt()["text"] == "Game over: Anna wins with 5 points"


def test_shared_victory_when_points_and_leftovers_tie(wb):
    s = wb.new(4)
    four_ravens(wb, s, who="Daniel")
    # Anna holds every round, so only Carl gets the warlock favor (+1 gold): even it out
    wb.do(s, "adjust", "Anna", changes={"vials": 4, "gold": 1})
    wb.do(s, "adjust", "Carl", changes={"vials": 4})
    end_set_one(wb, s)
    assert s.summary()["winners"] == ["Anna", "Carl"]
    assert s.prompt()["text"] == "Game over: Anna and Carl share the victory with 4 points"
    res = [(r["name"], r["score"], r["tiebreak"], r["winner"]) for r in RULES.results(s.state)]
    assert res == [("Anna", 4, 6, True), ("Barb", 0, 6, False), ("Carl", 4, 6, True),
                   ("Daniel", 0, 6, False)]


def test_after_the_game_only_corrections_and_undo(wb):
    s = wb.new(3)
    four_ravens(wb, s)
    end_set_one(wb, s)
    assert s.over
    over_text = "The game is over: only corrections and undo are possible now"
    wb.refused(s, "play_role", "Carl", role="warlock", match=over_text)
    wb.refused(s, "pass", "Anna", match=over_text)
    wb.refused(s, "reveal_excluded", None, roles=["warlock"], match=over_text)
    wb.do(s, "adjust", "Anna", changes={"vials": 1})
    assert s.summary()["winners"] == ["Anna"]
    s.undo()
    s.undo()
    assert not s.over and s.prompt()["phase"] == "resolve"


# --------------------------------------------------------------------------------------------
# The variant for 3 or 4 players
# --------------------------------------------------------------------------------------------
def hand_without(excluded):
    return [r for r in ALL_ROLES if r not in excluded and r not in BREWERS][:5]


def play_variant_set(wb, s, roles):
    wb.do(s, "reveal_excluded", None, roles=list(roles))
    wb.play_set(s, wb.same_hands(s, hand_without(roles)))


def test_variant_three_players_excludes_two_roles_per_set(wb):
    s = wb.new(3, variants=["excluded_roles"])
    p = s.prompt()
    assert p["phase"] == "reveal" and p["turn"] is None
    assert p["text"] == "Set 1: turn over 2 spare role cards; nobody may choose them this set"
    wb.refused(s, "play_role", "Anna", role="witch",
               match="Not the time to announce a role: Set 1: turn over 2 spare role cards")
    wb.refused(s, "reveal_excluded", None, roles=["warlock"],
               match="roles: turn over exactly 2 different role cards this set")
    wb.refused(s, "reveal_excluded", None, roles=["warlock", "warlock"],
               match="roles[1]: 'warlock' is listed twice")
    wb.refused(s, "reveal_excluded", None, roles="warlock",
               match="roles: a list of 1 to 2 (one of wolf_keeper")
    wb.refused(s, "reveal_excluded", None, roles=["warlock", "dragon"],
               match="roles[1]: one of wolf_keeper")
    step = wb.do(s, "reveal_excluded", None, roles=["warlock", "witch"])
    assert [e.type for e in step.events] == ["roles_excluded"]
    assert s.summary()["excluded"] == ["warlock", "witch"]
    wb.refused(s, "play_role", "Anna", role="warlock",
               match="The Warlock lies face up in the middle this set (variant): nobody may play it")
    wb.refused(s, "play_role", "Anna", role="witch", match="The Witch lies face up in the middle")
    wb.refused(s, "reveal_excluded", None, roles=["druid", "wizard"],
               match="Not the time to turn over spare role cards: Anna: choose a role card")
    wb.play_set(s, wb.same_hands(s, hand_without(["warlock", "witch"])))
    assert s.summary()["set"] == 2 and s.prompt()["phase"] == "reveal"
    assert s.summary()["excluded"] == []
    wb.refused(s, "reveal_excluded", None, roles=["druid", "warlock"],
               match="The Warlock was already turned over since the last reshuffle")
    wb.do(s, "reveal_excluded", None, roles=["druid", "wizard"])
    # the Warlock is back in play in set 2
    wb.do(s, "play_role", "Anna", role="warlock")
    assert s.summary()["role"] == "warlock"


def test_variant_three_players_reshuffles_after_all_twelve(wb):
    s = wb.new(3, variants=["excluded_roles"])
    pairs = [ALL_ROLES[i:i + 2] for i in range(0, 12, 2)]
    for k, pair in enumerate(pairs):
        if k == 5:  # only the last two are left unturned
            leftover = [r for r in ALL_ROLES if r not in sum(pairs[:5], [])]
            assert leftover == pair
            wb.refused(s, "reveal_excluded", None, roles=[pair[0], ALL_ROLES[0]],
                       match="already turned over since the last reshuffle")
        play_variant_set(wb, s, pair)
    assert s.summary()["set"] == 7 and not s.over
    # all 12 have been shown: shuffle and continue; anything may come up again
    wb.do(s, "reveal_excluded", None, roles=pairs[0])
    assert s.summary()["excluded"] == pairs[0]
    assert s.state["shown"] == pairs[0]


def test_variant_four_players_excludes_one_role_and_reshuffles_after_twelve_sets(wb):
    s = wb.new(4, variants=["excluded_roles"])
    assert s.prompt()["text"] == "Set 1: turn over 1 spare role card; nobody may choose it this set"
    wb.refused(s, "reveal_excluded", None, roles=["warlock", "witch"],
               match="roles: turn over exactly 1 role card this set")
    for k, key in enumerate(ALL_ROLES):
        if k:
            wb.refused(s, "reveal_excluded", None, roles=[ALL_ROLES[k - 1]],
                       match="already turned over since the last reshuffle")
        play_variant_set(wb, s, [key])
        if k == 0:
            assert s.summary()["set"] == 2
    assert s.summary()["set"] == 13
    wb.do(s, "reveal_excluded", None, roles=[ALL_ROLES[-1]])
    assert s.summary()["excluded"] == [ALL_ROLES[-1]]
    assert s.state["shown"] == [ALL_ROLES[-1]]


def test_without_the_variant_nothing_is_turned_over(wb):
    s = wb.new(3)
    assert s.prompt()["phase"] == "play"
    wb.refused(s, "reveal_excluded", None, roles=["warlock", "witch"],
               match="This game is played without the variant: there are no spare role cards "
                     "to turn over")


@pytest.mark.parametrize("n", [5, 6])
def test_variant_refused_for_five_or_six_players(wb, n):
    with pytest.raises(SetupError,
                       match="variants: the excluded-roles variant is for 3 or 4 players"):
        wb.new(n, variants=["excluded_roles"])


# --------------------------------------------------------------------------------------------
# Setup
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("config,message", [
    ({"players": ["Anna", "Barb"]}, "players: a list of 3 to 6 (text of at most 40 characters), "
                                    "not a list of 2"),
    ({"players": ["A", "B", "C", "D", "E", "F", "G"]}, "players: a list of 3 to 6"),
    ({"players": ["Anna", "Barb", "Anna"]}, "players[2]: 'Anna' is listed twice"),
    ({"players": ["Anna", "Barb", "ANNA "]}, "players[2]: 'ANNA' is listed twice"),
    ({"players": ["Anna", "Barb", "Carl"], "starter": "Zed"},
     "starter: there is no player named 'Zed' at this table (Anna, Barb, Carl)"),
    ({"players": ["Anna", "Barb", " "]}, "players[2]: give a name, not an empty text"),
    ({"players": "Anna, Barb, Carl"}, "players: a list of 3 to 6"),
    ({}, "players: missing; give a list of 3 to 6"),
    ({"players": ["Anna", "Barb", 3]}, "players[2]: text of at most 40 characters, not 3"),
    ({"players": ["Anna", "Barb", "Carl"], "variants": ["expansion"]},
     "variants[0]: one of excluded_roles, not 'expansion'"),
    ({"players": ["Anna", "Barb", "Carl"], "colours": ["#E69F00"]},
     "colours: give one colour per player (3), not 1"),
    ({"players": ["Anna", "Barb", "Carl"], "colours": ["orange", "blue", "green", "yellow"]},
     "colours: give one colour per player (3), not 4"),
])
def test_setup_errors(config, message):
    with pytest.raises(SetupError) as info:
        RULES.start(config)
    assert message in str(info.value)
    with pytest.raises(SetupError):
        Session(RULES, config)


def test_setup_gives_each_seat_its_starting_supplies_and_a_starter(wb):
    s = wb.new(["Anna", "Barb", "Carl", "Daniel"], starter="Carl")
    for p in s.summary()["players"]:
        assert {k: p[k] for k in ("red", "white", "green", "gold", "vials")} == {
            "red": 1, "white": 1, "green": 1, "gold": 2, "vials": 0}
        assert p["potions"] == [] and p["cards_left"] == 5 and p["score"] == 0
    assert s.prompt()["turn"] == "Carl"
    wb.do(s, "play_role", "Carl", role="warlock")
    assert s.prompt()["turn"] == "Daniel"
    wb.do(s, "pass", "Daniel")
    assert s.prompt()["turn"] == "Anna"
    assert s.summary()["stacks_left"] == {"copper": 7, "silver": 7, "iron": 7,
                                          "ingredient_shelf": 5, "gold_shelf": 5}
    assert [p["colour"] for p in s.state["players"]] == ["#E69F00", "#56B4E9", "#009E73", "#F0E442"]


# --------------------------------------------------------------------------------------------
# Input map and prompt
# --------------------------------------------------------------------------------------------
def test_seat_button_maps_to_that_seats_answer(wb):
    s = wb.new(wb.FIVE)
    wb.do(s, "play_role", "Anna", role="warlock")
    assert RULES.map_input(s.state, InputEvent("button", "seat2.claim")) == Command("claim", "Barb")
    assert RULES.map_input(s.state, InputEvent("button", "seat5.pass")) == Command("pass", "Emma")
    with pytest.raises(RuleViolation, match="There is no seat 6 at this table: it has 5 seats"):
        RULES.map_input(s.state, InputEvent("button", "seat6.pass"))
    with pytest.raises(RuleViolation, match="There is no seat 0 at this table"):
        RULES.map_input(s.state, InputEvent("button", "seat0.pass"))
    assert RULES.map_input(s.state, InputEvent("button", "undo")) is None
    assert RULES.map_input(s.state, InputEvent("die", "seat2.claim", 3)) is None
    step = s.handle_input(InputEvent("button", "seat2.claim"))
    assert step.command == Command("claim", "Barb")
    assert s.summary()["holder"] == "Barb"


def test_out_of_turn_button_is_refused_naming_whose_turn_it_is(wb):
    s = wb.new(wb.FIVE)
    wb.do(s, "play_role", "Anna", role="warlock")
    steps = list(s.steps)
    with pytest.raises(RuleViolation, match="^It is Barb's turn to answer, not Daniel's$"):
        s.handle_input(InputEvent("button", "seat4.claim", source="gpio"))
    with pytest.raises(RuleViolation, match="^It is Barb's turn to answer, not Carl's$"):
        s.handle_input(InputEvent("button", "seat3.pass"))
    assert s.steps == steps and s.summary()["holder"] == "Anna"


def test_during_a_pay_resolve_claim_confirms_and_pass_abstains(wb):
    s = wb.new(wb.FIVE)
    wb.do(s, "play_role", "Anna", role="fortune_teller")
    wb.do(s, "so_be_it", "Barb")
    assert s.prompt()["inputs"] == ["seat2.claim", "seat2.pass"]
    assert RULES.map_input(s.state, InputEvent("button", "seat2.claim")) == Command("resolve", "Barb")
    assert RULES.map_input(s.state, InputEvent("button", "seat2.pass")) == Command("abstain", "Barb")
    # another seat's button still means its own answer, which is refused now
    with pytest.raises(RuleViolation, match='Not the time to say "I am the ...!": Barb: '
                                            'Fortune teller favor: Pay 1 gold, take 1 vial'):
        s.handle_input(InputEvent("button", "seat3.claim"))
    s.handle_input(InputEvent("button", "seat2.claim"))
    assert wb.counters(s, "Barb")["vials"] == 1 and wb.counters(s, "Barb")["gold"] == 1
    wb.do(s, "so_be_it", "Carl")
    step = s.handle_input(InputEvent("button", "seat3.pass"))
    assert step.command == Command("abstain", "Carl")
    assert wb.counters(s, "Carl") == {"red": 1, "white": 1, "green": 1, "gold": 2, "vials": 0}
    assert s.prompt()["turn"] == "Daniel"


def test_prompt_names_whose_turn_it_is_in_every_phase(wb):
    s = wb.new(wb.FIVE, starter="Emma")
    p = s.prompt()
    assert (p["phase"], p["turn"], p["seat"]) == ("play", "Emma", 4)
    assert p["text"].startswith("Emma: ")
    wb.do(s, "play_role", "Emma", role="alchemist")
    p = s.prompt()
    assert (p["phase"], p["turn"], p["seat"]) == ("answer", "Anna", 0)
    assert p["text"] == ('Anna: the Alchemist is held by Emma. '
                         '"I am the Alchemist!", "So be it!" or pass?')
    wb.do(s, "so_be_it", "Anna")
    p = s.prompt()
    assert (p["phase"], p["turn"]) == ("resolve", "Anna")
    assert p["text"] == "Anna: Alchemist favor: Return any 1 drop, take 2 gold"
    assert s.summary()["turn"] == "Anna" and s.summary()["prompt"] == p["text"]
