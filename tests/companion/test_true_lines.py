"""The rules' own lines (the prompt, the log) say what the state holds: a steal the die refused
is not "stole", a steal whose die is not rolled is only tried, a start without the dealt cards
says so. Each test here failed on the code before its fix."""

from __future__ import annotations

from companion.core import InputEvent
from tests.companion.cauldron_autoplay import do, new, player, pool, start


def _told(s) -> list[str]:
    return [line for _step, lines in s.log() for line in lines]


def test_a_failed_steal_is_never_said_to_have_stolen():
    s = start(new(2))
    pool(s, "Barb", frog_legs=1)
    do(s, "steal", "Anna", target="Barb", ingredient="frog_legs", roll=2)
    assert player(s, "Barb")["pool"] == {"frog_legs": 1}        # the state: nothing taken
    text = s.prompt()["text"]
    assert "stole" not in text.lower() and "failed to steal from Barb" in text


def test_a_steal_waiting_for_its_die_is_tried_not_done():
    s = start(new(2))
    pool(s, "Barb", frog_legs=1)
    do(s, "steal", "Anna", target="Barb", ingredient="frog_legs")
    text = s.prompt()["text"]
    assert "steals" not in text and "Anna tries to steal Frog Legs from Barb" in text
    s.handle_input(InputEvent("die", "d1", 6))
    assert "Anna stole Frog Legs from Barb" in s.prompt()["text"]


def test_beginning_without_the_dealt_cards_says_so():
    s = new(3)
    do(s, "begin")                      # the rules allow it: the cards may be entered later
    assert _told(s)[-1] == ("The game begins with dealt potion cards not entered: "
                            "Anna 2 cards, Barb 2 cards, Carl 2 cards")
    assert any(n.startswith("Potion cards to enter") for n in s.prompt()["notes"])
