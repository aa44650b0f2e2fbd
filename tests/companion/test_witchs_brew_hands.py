"""Hands on the phones: choose_hand, the refused announcement and pass, the auto-pass
in answer order, the variant, mixed tables, undo across a choice, replay and export, the record."""

from __future__ import annotations

import json

import pytest

from companion.core import Command, InputEvent, RuleViolation, Session
from companion.games import get_rules
from companion.script import export_lines, replay

RULES = get_rules("witchs_brew")
ANNA = ["witch", "druid", "wizard", "warlock", "alchemist"]
BARB = ["witch", "wolf_keeper", "snake_hunter", "herb_collector", "fortune_teller"]
CARL = ["assistant", "cutpurse", "begging_monk", "druid", "wolf_keeper"]
DANIEL = ["witch", "cutpurse", "begging_monk", "druid", "wolf_keeper"]


def hands(wb, s, **chosen):
    for who, roles in chosen.items():
        wb.do(s, "choose_hand", who, roles=roles)


def last_lines(s):
    return s.log()[-1][1]


def test_an_announced_role_passes_every_seat_without_it_in_answer_order_and_asks_the_holder(wb):
    s = wb.new(4)
    hands(wb, s, Anna=ANNA, Barb=BARB, Carl=CARL, Daniel=DANIEL)
    wb.do(s, "play_role", "Anna", role="druid")
    # Barb does not hold the Druid: passed at once; Carl holds it: asked
    assert s.prompt()["turn"] == "Carl" and s.prompt()["phase"] == "answer"
    assert last_lines(s) == ["Anna played the Druid", "Barb: pass"]
    step = s.steps[-1]
    assert [e.type for e in step.events] == ["role_played", "answered"]
    assert step.events[1].automatic and step.events[1].data == {"seat": 1, "answer": "pass",
                                                                 "hand": True}
    wb.do(s, "claim", "Carl")
    assert s.prompt()["turn"] == "Daniel"          # Daniel holds it too
    wb.do(s, "so_be_it", "Daniel")
    assert s.summary()["holder"] == "Carl"
    assert [a["answer"] for a in s.summary()["answers"]] == ["start", "pass", "claim", "so_be_it"]


def test_when_nobody_else_holds_the_role_the_round_ends_with_the_announcement(wb):
    s = wb.new(3)
    hands(wb, s, Anna=ANNA, Barb=BARB, Carl=CARL)
    wb.do(s, "play_role", "Anna", role="warlock")
    assert last_lines(s) == ["Anna played the Warlock", "Barb: pass", "Carl: pass",
                             "Round over: Anna is the Warlock"]
    assert s.summary()["answers"] == []
    assert s.state["lead"] == 0


def test_an_announcement_of_a_role_not_chosen_is_refused(wb):
    s = wb.new(3)
    hands(wb, s, Anna=ANNA)
    wb.refused(s, "play_role", "Anna", role="cutpurse",
               match="Anna did not choose the Cutpurse this set")
    wb.refused(s, "forfeit", "Anna", role="begging_monk",
               match="Anna did not choose the Begging monk this set")


def test_a_holders_pass_is_refused_naming_the_rule_so_no_card_is_forgotten(wb):
    s = wb.new(3)
    hands(wb, s, Barb=BARB)
    wb.do(s, "play_role", "Anna", role="witch")
    wb.refused(s, "pass", "Barb", match="Barb holds the Witch (chosen this set): a player who "
                                        "has the card played in his hand must play it")
    # its pass button (a seat's physical button) is refused the same way
    with pytest.raises(RuleViolation, match="must play it"):
        s.handle_input(InputEvent("button", "seat2.pass"))
    wb.do(s, "so_be_it", "Barb")


def test_a_seat_without_a_hand_answers_for_itself_at_a_mixed_table(wb):
    s = wb.new(4)
    hands(wb, s, Barb=BARB, Daniel=DANIEL)        # Anna and Carl play as today
    wb.do(s, "play_role", "Anna", role="witch")
    assert s.prompt()["turn"] == "Barb"           # holds it: asked
    wb.do(s, "claim", "Barb")
    assert s.prompt()["turn"] == "Carl"           # no hand: asked, may pass
    wb.do(s, "pass", "Carl")
    assert s.prompt()["turn"] == "Daniel"
    wb.do(s, "claim", "Daniel")
    wb.do(s, "abstain", "Daniel")
    wb.do(s, "play_role", "Daniel", role="cutpurse")
    # Anna answers for herself; Barb does not hold the Cutpurse: passed once Anna answered
    wb.do(s, "pass", "Anna")
    assert last_lines(s)[:2] == ["Anna passed", "Barb: pass"]
    assert s.prompt()["turn"] == "Carl"


def test_a_seat_the_companion_passed_cannot_claim_afterwards(wb):
    s = wb.new(3)
    hands(wb, s, Barb=BARB)
    wb.do(s, "play_role", "Anna", role="druid")   # Barb does not hold the Druid: passed
    wb.refused(s, "claim", "Barb", match="It is Carl's turn to answer, not Barb's")
    wb.refused(s, "so_be_it", "Barb", match="It is Carl's turn to answer, not Barb's")


@pytest.mark.parametrize("roles, match", [
    (["witch", "druid", "wizard", "warlock"], "roles: "),
    (["witch", "druid", "wizard", "warlock", "alchemist", "assistant"], "roles: "),
    (["witch", "druid", "wizard", "warlock", "dragon"], "roles[4]: "),
    (["witch", "witch", "wizard", "warlock", "alchemist"], "roles[1]: 'witch' is listed twice"),
    ("witch", "roles: "),
])
def test_a_wrong_hand_is_refused_naming_the_field(wb, roles, match):
    s = wb.new(3)
    wb.refused(s, "choose_hand", "Anna", roles=roles, match=match)


def test_a_second_choice_in_a_set_and_a_late_one_are_refused(wb):
    s = wb.new(3)
    hands(wb, s, Anna=ANNA)
    wb.refused(s, "choose_hand", "Anna", roles=BARB, match="Anna already chose a hand this set: "
                                                          "each seat chooses its 5 cards once")
    wb.do(s, "play_role", "Anna", role="witch")
    wb.refused(s, "choose_hand", "Barb", roles=BARB,
               match="Hands are chosen at the start of a set, before the first role is announced")


def test_the_variants_turned_over_cards_cannot_be_chosen(wb):
    s = wb.new(3, variants=["excluded_roles"])
    wb.refused(s, "choose_hand", "Anna", roles=ANNA, match="turn over the spare role cards first")
    wb.do(s, "reveal_excluded", None, roles=["witch", "cutpurse"])
    wb.refused(s, "choose_hand", "Anna", roles=ANNA,
               match="roles: the Witch lies face up in the middle this set (variant)")
    wb.do(s, "choose_hand", "Anna", roles=["druid", "wizard", "warlock", "alchemist", "assistant"])


def test_a_seat_with_a_hand_chooses_again_each_set_and_the_set_waits_for_it(wb):
    s = wb.new(3)
    hands(wb, s, Anna=ANNA, Carl=CARL)
    table = {"Anna": ANNA, "Barb": BARB, "Carl": CARL}
    wb.play_set(s, table)
    assert s.state["set"] == 2 and s.prompt()["phase"] == "choose"
    assert s.prompt()["text"].startswith("Set 2: ")
    assert "Anna" in s.prompt()["text"] and "Carl" in s.prompt()["text"]
    starter = s.prompt()["turn"]
    wb.refused(s, "play_role", "Barb", role="witch", match="Not the time to announce a role")
    hands(wb, s, Anna=ANNA)
    assert s.prompt()["phase"] == "choose" and s.prompt()["turn"] == "Carl"
    hands(wb, s, Carl=CARL)
    assert s.prompt()["phase"] == "play", starter
    assert s.summary()["hands_chosen"] == ["Anna", "Carl"]
    assert s.summary()["hands_on"] == ["Anna", "Carl"]


def test_undo_and_redo_work_across_a_choice(wb):
    s = wb.new(3)
    hands(wb, s, Barb=BARB)
    wb.do(s, "play_role", "Anna", role="warlock")
    assert s.prompt()["turn"] == "Carl"            # Barb passed by the companion
    s.undo()                                       # the announcement and the pass it brought
    assert s.prompt()["phase"] == "play" and s.state["hands"] == {"1": BARB}
    s.undo()                                       # the choice itself
    assert s.state["hands"] == {} and s.state["hands_on"] == []
    s.redo()
    assert s.state["hands"] == {"1": BARB} and s.state["hands_on"] == [1]
    s.redo()
    assert s.prompt()["turn"] == "Carl"
    s.undo()
    s.undo()
    wb.do(s, "play_role", "Anna", role="warlock")  # the redo branch dropped: no hand now
    assert s.prompt()["turn"] == "Barb"            # Barb answers for herself
    wb.do(s, "pass", "Barb")


def test_the_record_holds_every_sets_hands_once_the_game_is_over(wb):
    s = wb.new(3)
    seen = []
    for _ in range(20):
        if s.over:
            break
        if s.prompt()["phase"] in ("play", "choose") and s.state["round"] == 1 \
                and not s.state["hands"]:
            hands(wb, s, Anna=ANNA, Barb=BARB, Carl=CARL)
            seen.append(s.state["set"])
        assert s.summary()["hands"] is None
        wb.play_set(s, {"Anna": ANNA, "Barb": BARB, "Carl": CARL},
                    resolve=_brew_or_abstain(wb))
    assert s.over
    record = s.summary()["hands"]
    assert [r["set"] for r in record] == seen
    assert record[0]["hands"] == {"Anna": ANNA, "Barb": BARB, "Carl": CARL}


def _brew_or_abstain(wb):
    """Brewers take a raven potion each time (the game ends after 4), the rest abstain."""
    from companion.games.witchs_brew.state import ravens_taken

    def resolve(s, who, pending):
        if pending["kind"] == "action" and pending["role"] in ("witch", "druid", "wizard"):
            drop = max(("red", "white", "green"), key=lambda d: wb.counters(s, who)[d])
            stack = next(k for k in ("copper", "silver", "iron") if ravens_taken(s.state, k) < 2)
            wb.do(s, "resolve", who, potion={"stack": stack, "points": 9, "raven": True},
                  pay={drop: 1} if wb.counters(s, who)[drop] else {})
        else:
            wb.do(s, "abstain", who)
    return resolve


SCRIPT = [
    '{"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}',
    json.dumps({"do": "choose_hand", "player": "Anna", "roles": ANNA}),
    json.dumps({"do": "choose_hand", "player": "Barb", "roles": ["Witch"] + BARB[1:]}),
    '{"do": "play_role", "player": "Anna", "role": "witch"}',
    '{"do": "claim", "player": "Barb"}',
    '{"do": "pass", "player": "Carl"}',
    '{"do": "abstain", "player": "Barb"}',
    '{"do": "play_role", "player": "Barb", "role": "cutpurse"}',
    '{"do": "play_role", "player": "Barb", "role": "wolf_keeper"}',
    '{"do": "pass", "player": "Carl"}',
    '{"do": "choose_hand", "player": "Carl", "roles": ["witch"]}',
    '{"do": "pass", "player": "Anna"}',
]


def test_a_table_script_turns_hands_on_per_seat_and_replays_and_exports_identically():
    run = replay(SCRIPT)
    out = run.result()
    rejected = {r["line"]: r["reason"] for r in out["rejected"]}
    assert sorted(rejected) == [8, 11, 12]
    assert rejected[8] == "Barb did not choose the Cutpurse this set"
    assert rejected[11].startswith("roles: ")
    assert out["hands_on"] == ["Anna", "Barb"] and out["hands"] is None
    assert out["hands_chosen"] == ["Anna", "Barb"]
    assert out["last_round"]["role"] == "wolf_keeper" and out["turn"] == "Barb"
    # Anna, who does not hold the Wolf keeper, was passed by the companion, after Carl
    assert run.session.log()[-1][1][:3] == ["Carl passed", "Anna: pass",
                                            "Round over: Barb is the Wolf keeper"]
    lines = export_lines(run.session)
    assert sum('"choose_hand"' in line for line in lines) == 2
    assert replay(lines).session.state == run.session.state


def test_hands_change_no_game_without_them():
    """A game nobody chose a hand in plays exactly as before: no phase, event or word added."""
    from tests.support.autoplay import play

    session, commands = play({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}, seed=3)
    assert all(e.type != "hand_chosen" for st in session.steps for e in st.events)
    assert session.summary()["hands"] == [] and session.summary()["hands_on"] == []


def test_the_log_never_says_which_cards(wb):
    s = wb.new(3)
    hands(wb, s, Anna=ANNA)
    line = last_lines(s)
    assert line == ["Anna chose a hand for this set"]
    s2 = Session(RULES, {"players": ["Anna", "Barb", "Carl"]})
    s2.execute(Command("choose_hand", "Anna", {"roles": BARB}))
    assert s2.log()[-1][1] == line
