"""Witch's Brew rounds and sets: who announces, who answers, who holds, who starts next."""

from __future__ import annotations


# --------------------------------------------------------------------------------------------
# The rulebook's example, exactly
# --------------------------------------------------------------------------------------------
def test_rulebook_warlock_example(wb):
    s = wb.new(wb.FIVE)
    start = {n: wb.counters(s, n) for n in wb.FIVE}
    assert start["Anna"] == {"red": 1, "white": 1, "green": 1, "gold": 2, "vials": 0}
    assert s.prompt()["turn"] == "Anna" and s.prompt()["phase"] == "play"

    # Anna: "I am the warlock!"
    wb.do(s, "play_role", "Anna", role="warlock")
    sm = s.summary()
    assert (sm["role"], sm["holder"], sm["turn"], sm["phase"]) == ("warlock", "Anna", "Barb", "answer")
    assert s.prompt()["text"] == ('Barb: the Warlock is held by Anna. '
                                  '"I am the Warlock!", "So be it!" or pass?')
    assert s.prompt()["inputs"] == ["seat2.claim", "seat2.so_be_it", "seat2.pass"]

    # Barb: "So be it!" -> takes one gold at once, her card is played
    wb.do(s, "so_be_it", "Barb")
    assert wb.counters(s, "Barb") == {**start["Barb"], "gold": 3}
    assert s.summary()["favors"] == ["Barb"]
    assert s.summary()["pending"] == []
    assert s.summary()["turn"] == "Carl"

    # Carl: "I am the warlock!" -> Anna's card goes face down, she gets nothing
    wb.do(s, "claim", "Carl")
    assert s.summary()["holder"] == "Carl"
    # Daniel: "I am the warlock!" -> Carl loses it
    wb.do(s, "claim", "Daniel")
    assert s.summary()["holder"] == "Daniel"
    assert s.summary()["turn"] == "Emma"
    # Emma has no warlock: pass -> the round is over, Daniel has the full action
    wb.do(s, "pass", "Emma")
    sm = s.summary()
    assert sm["role"] is None and sm["holder"] is None
    assert sm["last_round"] == {"role": "warlock", "holder": "Daniel", "favors": ["Barb"],
                                "set": 1, "round": 1}
    assert sm["pending"] == [{"player": "Daniel", "role": "warlock", "kind": "action"}]
    assert sm["phase"] == "resolve" and sm["turn"] == "Daniel"
    assert s.prompt()["text"] == ("Daniel: Warlock full action: "
                                  "Use the spell on the top spell book (read it aloud)")
    assert sm["round"] == 2

    # only Barb gained anything
    for n in ("Anna", "Carl", "Daniel", "Emma"):
        assert wb.counters(s, n) == start[n]
    cards = {p["name"]: p["cards_left"] for p in sm["players"]}
    assert cards == {"Anna": 4, "Barb": 4, "Carl": 4, "Daniel": 4, "Emma": 5}
    assert {p["name"]: p["roles_played"] for p in sm["players"]} == {
        "Anna": ["warlock"], "Barb": ["warlock"], "Carl": ["warlock"], "Daniel": ["warlock"],
        "Emma": []}

    # Daniel uses the spell, then begins the next round: "I am the Alchemist!"
    wb.do(s, "resolve", "Daniel", changes={})
    assert s.prompt()["phase"] == "play" and s.prompt()["turn"] == "Daniel"
    wb.do(s, "play_role", "Daniel", role="alchemist")
    assert s.summary()["holder"] == "Daniel" and s.summary()["turn"] == "Emma"


def test_the_holder_starts_the_next_round_even_after_abstaining(wb):
    s = wb.new(wb.FIVE)
    wb.do(s, "play_role", "Anna", role="warlock")
    wb.do(s, "so_be_it", "Barb")
    wb.do(s, "claim", "Carl")
    wb.do(s, "claim", "Daniel")
    wb.do(s, "pass", "Emma")
    wb.do(s, "abstain", "Daniel")
    assert s.prompt()["turn"] == "Daniel"
    assert s.prompt()["text"] == 'Daniel: choose a role card and announce "I am the ...!"'
    wb.refused(s, "play_role", "Anna", role="alchemist",
               match="It is Daniel's turn to announce a role, not Anna's")


def test_answers_go_clockwise_from_the_starter_wrapping_around(wb):
    s = wb.new(wb.FIVE)
    wb.do(s, "play_role", "Anna", role="wolf_keeper")
    for n in ("Barb", "Carl", "Daniel"):
        wb.do(s, "pass", n)
    wb.do(s, "claim", "Emma")
    # Emma holds: Anna (who lost it) gets nothing; Emma starts
    assert wb.counters(s, "Emma")["red"] == 4
    assert wb.counters(s, "Anna")["red"] == 1
    wb.do(s, "play_role", "Emma", role="snake_hunter")
    order = []
    while s.prompt()["phase"] == "answer":
        who = s.prompt()["turn"]
        order.append(who)
        wb.do(s, "pass", who)
    assert order == ["Anna", "Barb", "Carl", "Daniel"]
    assert wb.counters(s, "Emma")["white"] == 4


# --------------------------------------------------------------------------------------------
# A set with seats running out of cards at different times
# --------------------------------------------------------------------------------------------
ANNA = ["wolf_keeper", "snake_hunter", "herb_collector", "warlock", "cutpurse"]
BARB = ["witch", "druid", "wizard", "begging_monk", "alchemist"]
CARL = ["witch", "druid", "wizard", "fortune_teller", "assistant"]


def test_a_set_where_seats_run_out_of_cards(wb):
    s = wb.new(["Anna", "Barb", "Carl"])

    # Rounds 1-5: only Anna has her roles; Barb and Carl pass, Anna holds each time.
    for role in ANNA:
        assert s.prompt()["turn"] == "Anna"
        wb.do(s, "play_role", "Anna", role=role)
        wb.do(s, "pass", "Barb")
        wb.do(s, "pass", "Carl")
        if s.prompt()["phase"] == "resolve":
            wb.do(s, "abstain", "Anna")
    assert wb.counters(s, "Anna") == {"red": 4, "white": 4, "green": 4, "gold": 2, "vials": 0}
    assert wb.player(s, "Anna")["cards_left"] == 0
    assert s.summary()["round"] == 6

    # Anna holds the last round but has no cards: Barb, her left neighbour, begins.
    assert s.prompt()["turn"] == "Barb"
    wb.refused(s, "play_role", "Anna", role="alchemist",
               match="Anna has no cards left in hand this set: it is Barb's turn to announce "
                     "a role")
    wb.do(s, "play_role", "Barb", role="witch")
    assert s.prompt()["turn"] == "Carl"
    wb.do(s, "claim", "Carl")
    # Anna has no cards: she is skipped, the round is over, Carl brews
    assert s.summary()["last_round"]["holder"] == "Carl"
    assert s.prompt()["phase"] == "resolve" and s.prompt()["turn"] == "Carl"
    wb.do(s, "abstain", "Carl")
    assert s.prompt()["turn"] == "Carl"

    for role in ("druid", "wizard"):
        wb.do(s, "play_role", "Carl", role=role)
        assert s.prompt()["turn"] == "Barb"
        wb.refused(s, "pass", "Anna",
                   match="Anna has no cards left in hand this set: it is Barb's turn to answer")
        wb.do(s, "so_be_it", "Barb")
        assert s.prompt()["phase"] == "resolve" and s.prompt()["turn"] == "Barb"
        wb.do(s, "abstain", "Barb")
        assert s.prompt()["phase"] == "resolve" and s.prompt()["turn"] == "Carl"
        wb.do(s, "abstain", "Carl")

    wb.do(s, "play_role", "Carl", role="fortune_teller")
    wb.do(s, "pass", "Barb")
    wb.do(s, "resolve", "Carl")
    wb.do(s, "play_role", "Carl", role="assistant")
    wb.do(s, "pass", "Barb")
    wb.do(s, "resolve", "Carl", drops={"red": 3})
    assert wb.counters(s, "Carl") == {"red": 4, "white": 1, "green": 1, "gold": 0, "vials": 2}
    assert {p["name"]: p["cards_left"] for p in s.summary()["players"]} == {
        "Anna": 0, "Barb": 2, "Carl": 0}

    # Carl held last but is out of cards; Anna too: Barb begins and plays alone.
    assert s.prompt()["turn"] == "Barb"
    wb.do(s, "play_role", "Barb", role="begging_monk")
    sm = s.summary()
    assert sm["last_round"] == {"role": "begging_monk", "holder": "Barb", "favors": [],
                                "set": 1, "round": 11}
    assert sm["pending"] == [{"player": "Barb", "role": "begging_monk", "kind": "action"}]
    wb.do(s, "abstain", "Barb")
    wb.do(s, "play_role", "Barb", role="alchemist")
    # alone: the full action (5 gold), never the favor
    assert s.summary()["pending"] == [{"player": "Barb", "role": "alchemist", "kind": "action"}]
    wb.do(s, "resolve", "Barb", drop="red")
    assert wb.counters(s, "Barb") == {"red": 0, "white": 1, "green": 1, "gold": 7, "vials": 0}

    # Everyone has played all 5: the set is over, cards are back, Barb (last holder) begins.
    sm = s.summary()
    assert sm["set"] == 2 and sm["round"] == 1
    assert [p["cards_left"] for p in sm["players"]] == [5, 5, 5]
    assert [p["roles_played"] for p in sm["players"]] == [[], [], []]
    assert sm["phase"] == "play" and sm["turn"] == "Barb"
    # the cards are reset: Anna may announce her Warlock again
    wb.do(s, "play_role", "Barb", role="warlock")
    wb.do(s, "pass", "Carl")
    wb.do(s, "claim", "Anna")
    assert wb.played(s, "Anna") == ["warlock"]


def test_a_seat_playing_alone_cannot_take_the_favor(wb):
    s = wb.new(3)
    hands = {"Anna": ["wolf_keeper", "snake_hunter", "herb_collector", "warlock", "alchemist"],
             "Barb": ["wolf_keeper", "snake_hunter", "herb_collector", "warlock", "alchemist"],
             "Carl": ["witch", "druid", "wizard", "fortune_teller", "assistant"]}
    # Anna starts and holds everything she announces; Barb takes the favors; Carl passes.
    for role in hands["Anna"]:
        wb.do(s, "play_role", "Anna", role=role)
        wb.do(s, "so_be_it", "Barb")
        while s.prompt()["phase"] == "resolve" and s.prompt()["turn"] == "Barb":
            wb.do(s, "abstain", "Barb")
        wb.do(s, "pass", "Carl")
        while s.prompt()["phase"] == "resolve":
            wb.do(s, "abstain", "Anna")
    # Anna: 4 red/white/green (+3 each); Barb: +1 each, +1 gold from the warlock favor
    assert wb.counters(s, "Anna") == {"red": 4, "white": 4, "green": 4, "gold": 2, "vials": 0}
    assert wb.counters(s, "Barb") == {"red": 2, "white": 2, "green": 2, "gold": 3, "vials": 0}
    # Carl now plays alone: each announcement is his full action at once
    assert s.prompt()["turn"] == "Carl"
    wb.do(s, "play_role", "Carl", role="fortune_teller")
    assert s.summary()["pending"] == [{"player": "Carl", "role": "fortune_teller", "kind": "action"}]
    # the round is already over (nobody else to answer): no favor, no claim
    wb.refused(s, "so_be_it", "Carl",
               match='Not the time to say "So be it!": Carl: Fortune teller full action')
    wb.refused(s, "claim", "Carl", match='Not the time to say "I am the ...!"')
    wb.do(s, "resolve", "Carl")
    assert wb.counters(s, "Carl")["vials"] == 2 and wb.counters(s, "Carl")["gold"] == 1
    for role in ("witch", "druid", "wizard", "assistant"):
        wb.do(s, "play_role", "Carl", role=role)
        wb.do(s, "abstain", "Carl")
    assert s.summary()["set"] == 2 and s.prompt()["turn"] == "Carl"


def test_next_starter_skips_several_seats_with_no_cards(wb):
    s = wb.new(wb.FIVE)
    shared = ["wolf_keeper", "snake_hunter", "herb_collector", "warlock", "cutpurse"]
    # Anna and Barb play the same five cards; Barb claims each time, so Barb holds and starts;
    # after five rounds both are out of cards and Barb, the holder, hands the start on to Carl.
    wb.do(s, "play_role", "Anna", role=shared[0])
    wb.do(s, "claim", "Barb")
    for who in ("Carl", "Daniel", "Emma"):
        wb.do(s, "pass", who)
    for role in shared[1:]:
        if s.prompt()["phase"] == "resolve":
            wb.do(s, "abstain", s.prompt()["turn"])
        assert s.prompt()["turn"] == "Barb"
        wb.do(s, "play_role", "Barb", role=role)
        for who in ("Carl", "Daniel", "Emma"):
            wb.do(s, "pass", who)
        wb.do(s, "so_be_it", "Anna")
        while s.prompt()["phase"] == "resolve":
            wb.do(s, "abstain", s.prompt()["turn"])
    assert [p["cards_left"] for p in s.summary()["players"]] == [0, 0, 5, 5, 5]
    assert s.summary()["last_round"]["holder"] == "Barb"
    assert s.prompt()["turn"] == "Carl"
    # Daniel is the answerer after Carl; Anna and Barb are never asked again
    wb.do(s, "play_role", "Carl", role="alchemist")
    wb.do(s, "pass", "Daniel")
    wb.do(s, "claim", "Emma")
    assert s.prompt()["phase"] == "resolve" and s.prompt()["turn"] == "Emma"
    wb.do(s, "abstain", "Emma")
    assert s.prompt()["turn"] == "Emma"
    # Emma holds four more rounds (Carl and Daniel pass) and so plays her last card holding
    for role in ("witch", "druid", "wizard", "fortune_teller"):
        wb.do(s, "play_role", "Emma", role=role)
        wb.do(s, "pass", "Carl")
        wb.do(s, "pass", "Daniel")
        while s.prompt()["phase"] == "resolve":
            wb.do(s, "abstain", "Emma")
    assert [p["cards_left"] for p in s.summary()["players"]] == [0, 0, 4, 5, 0]
    # Emma held last and has no cards: Anna and Barb are empty too, so Carl begins
    assert s.prompt()["turn"] == "Carl"


def test_the_set_ends_only_when_every_seat_has_played_five_cards(wb):
    s = wb.new(4)
    hand = ["wolf_keeper", "snake_hunter", "herb_collector", "warlock", "alchemist"]
    seen_sets = []

    def watch(session):
        seen_sets.append((session.state["set"], sum(p["cards_played"] for p in session.state["players"])))

    wb.play_set(s, wb.same_hands(s, hand), on_round=watch)
    sm = s.summary()
    assert sm["set"] == 2 and sm["round"] == 1
    assert all(p["cards_left"] == 5 for p in sm["players"])
    # before the set ended the table had played 1..20 cards; never more than 20
    assert max(n for st, n in seen_sets if st == 1) == 20
    # everyone said "So be it!", so Anna held all five rounds and begins set 2
    assert sm["turn"] == "Anna"
    assert wb.counters(s, "Anna") == {"red": 4, "white": 4, "green": 4, "gold": 2, "vials": 0}
    for n in ("Barb", "Carl", "Daniel"):
        # +1 of each drop, +1 gold (warlock favor); alchemist favor abstained
        assert wb.counters(s, n) == {"red": 2, "white": 2, "green": 2, "gold": 3, "vials": 0}


def test_the_last_holder_of_a_set_begins_the_next(wb):
    s = wb.new(4)
    hand = ["warlock", "wolf_keeper", "snake_hunter", "herb_collector", "cutpurse"]
    # Each round the seat left of the starter claims and nobody takes it back:
    # holders go Barb, Carl, Daniel, Anna, Barb -> Barb begins set 2.

    def next_claims(session, who, role):
        starter = session.state["round_starter"]
        n = len(session.state["players"])
        return "claim" if session.state["players"][(starter + 1) % n]["name"] == who else "so_be_it"

    holders = []

    def watch(session):
        last = session.summary()["last_round"]
        if last and (not holders or holders[-1][0] != (last["set"], last["round"])):
            holders.append(((last["set"], last["round"]), last["holder"]))

    wb.play_set(s, wb.same_hands(s, hand), answer=next_claims, on_round=watch)
    assert [h for _, h in holders] == ["Barb", "Carl", "Daniel", "Anna", "Barb"]
    assert s.summary()["set"] == 2
    assert s.prompt()["turn"] == "Barb"
