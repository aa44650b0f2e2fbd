"""A roll-off for the LSP or HSP belongs to the tie it was opened for.

The rulebook (What Are LSP and HSP?): "LSP indicates the Lowest Scoring Player. If there is a tie
for the fewest Magik, all those tied roll dice. The player with the lowest roll is considered the
LSP." and "If there is a tie for the most Magik, all those tied roll dice. The player with the
highest roll is considered the HSP." Those tied roll: once a Magik change ends or changes the tie,
the roll-off is void, takes no more dice (from a command, the tray or the screen), and a new tie
needs a new roll-off.
"""

from __future__ import annotations

from companion.core import InputEvent, RuleViolation
from tests.companion.cauldron_autoplay import do, give, new, pool, refused, set_magik, start


def lsp_rolloff_between_barb_and_carl():
    s = start(new(3))
    set_magik(s, "Anna", 9)                  # Barb and Carl tied on 2: the fewest
    do(s, "rolloff", kind="lsp")
    do(s, "rolloff_roll", "Barb", value=2)
    return s


def test_a_magik_change_that_ends_the_tie_voids_the_rolloff_and_it_takes_no_more_dice():
    s = lsp_rolloff_between_barb_and_carl()
    step = do(s, "adjust_magik", "Carl", delta=3, source="spell")
    void = [e for e in step.events if e.type == "rolloff_voided"]
    assert void and void[0].automatic
    assert s.summary()["rolloff"]["void"] and s.summary()["rolloff"]["waiting"] == []
    assert s.summary()["lsp"] == "Barb"      # alone with the fewest: no dice needed
    assert "roll-off" not in s.prompt()["text"] and s.prompt()["inputs"] != ["die"]
    # No die goes to the void roll-off: not the generic die, not the tray, not by name.
    refused(s, "roll", value=5, match="No die roll is expected now")
    refused(s, "roll", "Carl", value=5, match="No die roll is expected now")
    refused(s, "rolloff_roll", "Carl", value=5,
            match="The fewest-Magik roll-off no longer counts: the tie it was for has changed")
    before = s.state
    try:
        s.handle_input(InputEvent("die", "d1", 5))
    except RuleViolation as refusal:
        assert "No die roll is expected now" in str(refusal)
    assert s.state == before
    refused(s, "correct_roll", "Barb", value=6, roll="rolloff",
            match="that roll-off no longer counts")


def test_a_magik_change_that_changes_the_tie_needs_a_new_rolloff():
    s = lsp_rolloff_between_barb_and_carl()
    set_magik(s, "Anna", 2)                  # now Anna, Barb and Carl are tied on 2
    assert s.summary()["rolloff"]["void"] and s.summary()["lsp"] is None
    notes = " ".join(s.prompt()["notes"])
    assert ("The fewest-Magik roll-off no longer counts (the tie it was for has changed): Anna, "
            "Barb and Carl are tied now; if a card asks for the player with the fewest Magik, "
            "start a new roll-off from the Track") in notes
    refused(s, "roll", value=1, match="No die roll is expected now")
    do(s, "rolloff", kind="lsp")             # a new roll-off, for the new tie
    assert s.summary()["rolloff"]["waiting"] == ["Anna", "Barb", "Carl"]
    step = do(s, "roll", value=1)
    assert [(e.type, e.data["seat"]) for e in step.events] == [("rolloff_rolled", 0)]


def test_the_same_seats_tied_again_at_other_magik_are_a_new_tie():
    s = lsp_rolloff_between_barb_and_carl()
    do(s, "adjust_magik", "Barb", delta=1)   # Carl alone: the roll-off is void
    do(s, "adjust_magik", "Carl", delta=1)   # Barb and Carl tied again, on 3
    assert s.summary()["rolloff"]["void"] and s.summary()["lsp"] is None
    refused(s, "rolloff_roll", "Carl", value=1, match="no longer counts")
    do(s, "rolloff", kind="lsp")
    assert s.summary()["rolloff"]["waiting"] == ["Barb", "Carl"]


def test_a_settled_rolloff_decides_only_its_own_tie():
    s = lsp_rolloff_between_barb_and_carl()
    do(s, "rolloff_roll", "Carl", value=4)
    assert s.summary()["lsp"] == "Barb"
    set_magik(s, "Anna", 2)                  # a three-way tie now: Barb's low roll is stale
    assert s.summary()["lsp"] is None and s.summary()["rolloff"]["result"] is None
    set_magik(s, "Anna", 9)                  # back as it was: still void, a new tie
    assert s.summary()["lsp"] is None
    refused(s, "correct_roll", "Carl", value=1, roll="rolloff", match="roll-off no longer counts")


def test_a_magik_change_elsewhere_leaves_the_rolloff_standing_and_undo_restores_it():
    s = lsp_rolloff_between_barb_and_carl()
    do(s, "adjust_magik", "Anna", delta=3)   # Anna was not tied: the tie is unchanged
    assert not s.summary()["rolloff"]["void"]
    assert s.summary()["rolloff"]["waiting"] == ["Carl"]
    live = s.state
    do(s, "adjust_magik", "Carl", delta=1)
    assert s.summary()["rolloff"]["void"]
    s.undo()                                 # the Magik change and its void go together
    assert s.state == live
    step = do(s, "roll", value=5)
    assert step.events[0].data["seat"] == 2 and s.summary()["lsp"] == "Barb"


def test_hsp_rolloffs_follow_the_same_rule():
    s = start(new(3))
    set_magik(s, "Anna", 9)
    set_magik(s, "Barb", 9)
    do(s, "rolloff", kind="hsp")
    do(s, "adjust_magik", "Carl", delta=7)   # Carl joins the most Magik: the tie changed
    assert s.summary()["rolloff"]["void"]
    refused(s, "roll", value=6, match="No die roll is expected now")
    do(s, "rolloff", kind="hsp")
    assert s.summary()["rolloff"]["waiting"] == ["Anna", "Barb", "Carl"]


def test_turn_order_by_the_lowest_score_follows_the_tie_it_is_rolled_for():
    """Less Luck: "the player with the lowest score goes first" (tied seats roll, the LSP rule);
    when a Magik change moves the tie while its dice are rolled, the seats tied now roll."""
    s = new(3, ["less_luck"])
    do(s, "begin")
    do(s, "omen", text="-", magik={"Anna": 3})
    do(s, "fill_board")
    do(s, "turn_order_roll", "Barb", value=1)
    step = do(s, "adjust_magik", "Barb", delta=1, source="spell")
    assert any(e.type == "turn_order_opened" and e.automatic for e in step.events)
    assert s.prompt()["turn"] == "Carl" and s.prompt()["phase"] == "turns"
    s = new(3, ["less_luck"])
    do(s, "begin")
    do(s, "omen", text="-", magik={"Anna": 3})
    do(s, "fill_board")
    do(s, "turn_order_roll", "Barb", value=1)
    do(s, "adjust_magik", "Anna", delta=-3)  # all three tied: all three roll, afresh
    assert s.state["harvest"]["order"]["rounds"] == []
    assert ("Turn order (Less Luck: the player with the fewest Magik starts; tied seats roll, "
            "lowest roll starts): waiting for Anna, Barb and Carl") in s.prompt()["text"]


def test_the_winning_brew_voids_a_rolloff_too_and_no_die_follows_the_game():
    s = start(new(3))
    give(s, "Anna", "Elixir", ["spider_web"], 2, quick=True)
    pool(s, "Anna", spider_web=1)
    set_magik(s, "Anna", 30)
    set_magik(s, "Barb", 30)
    do(s, "rolloff", kind="hsp")
    set_magik(s, "Anna", 34)
    set_magik(s, "Barb", 34)                 # a new tie: a new roll-off for it
    do(s, "rolloff", kind="hsp")
    do(s, "rolloff_roll", "Barb", value=3)
    step = do(s, "brew", "Anna", potion="Elixir")
    assert [e.type for e in step.events if e.automatic] == ["rolloff_voided", "game_over"]
    assert s.over and s.summary()["rolloff"]["void"]
    refused(s, "roll", value=4, match="No die roll is expected now: Anna is the Grand Infuser")
    refused(s, "rolloff_roll", "Anna", value=4, match="The game is over")
