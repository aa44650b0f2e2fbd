"""A phone's press is its own seat's and played once: whatever seat N's link sends (any seat's
offered button, die or choice, on the table now or an older one, two at once before the table
plays either, the same press again from either of its pages, across a restart), no step is
played for another seat, and no press id is played twice. The pages' messages go through the
server's own ``received`` and the app's own ``phone_command`` (tests/web/phone_table.py)."""

from __future__ import annotations

import tempfile
from functools import lru_cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from companion.games.cauldron.dice import expected_roll
from tests.web import tables
from tests.web.phone_table import PhoneTable

GAMES = {
    "witchs_brew": (tables.brew, lambda: len(tables.brew_commands())),
    "cauldron": (tables.cauldron, lambda: len(tables.cauldron_commands())),
    "quest": (tables.quest, lambda: 250),
}


@lru_cache(maxsize=None)
def dice_asked(game: str) -> tuple[int, ...]:
    """The steps of the seeded game at which the game asks a seat for a die (where a die
    "the game asks for" could be taken for another seat): the draw favours them."""
    from companion.core import Session
    from companion.games.cauldron import RULES
    from tests.companion import cauldron_autoplay

    if game == "cauldron":
        session, out = Session(RULES, cauldron_autoplay.setup_for(3)), []
        for n, command in enumerate(tables.cauldron_commands()):
            if expected_roll(session.state) is not None:
                out.append(n)
            session.execute(command)
        return tuple(out)
    if game == "quest":
        return tuple(range(0, 40, 3))
    return (tables.anna_answers_the_witch(),)


def offered(snapshot: dict) -> list[dict]:
    """Every input any seat's part offers now (a link may send another seat's, as a double
    tap of a die "the game asks for" did)."""
    out = []
    for seat, part in enumerate(snapshot["controls"]):
        out += [(seat, {"type": "press", "button": b["button"]}) for b in part["buttons"]]
        out += [(seat, {"type": "die", "die": d["die"], "value": face}) for d in part["dice"]
                for face in d["faces"][:3]]
        out += [(seat, {"type": "choose", "choice": c["choice"]}) for c in part["choices"][:6]]
    return out


def check(table: PhoneTable) -> None:
    names = table.session.names
    for played in table.played:
        assert played.seat == played.link, (
            f"{names[played.link]}'s link played step {played.step} for seat {played.seat}")
        assert played.source == f"{names[played.link]}'s phone"
    presses = [p.press for p in table.played]
    assert len(presses) == len(set(presses)), f"a press id played twice: {presses}"


@settings(max_examples=45, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=hs.data(), game=hs.sampled_from(sorted(GAMES)))
def test_no_input_from_a_seat_s_link_plays_for_another_seat_or_twice(data, game):
    make, length = GAMES[game]
    steps = data.draw(hs.one_of(hs.integers(0, length()), hs.sampled_from(dice_asked(game))),
                      label="steps")
    session = make(steps)
    with tempfile.TemporaryDirectory() as folder:
        table = PhoneTable(session, Path(folder))
        sent: list[tuple[int, int, dict]] = []
        seats = len(session.names)
        for _ in range(data.draw(hs.integers(1, 12), label="actions")):
            action = data.draw(hs.sampled_from(
                ["press", "press", "double", "resend", "drain", "drain", "restart"]))
            if action in ("press", "double"):
                choices = offered(table.snapshot)
                if not choices:
                    table.drain()
                    continue
                owner, chosen = data.draw(hs.sampled_from(choices), label="input")
                link = data.draw(hs.one_of(hs.just(owner), hs.integers(0, seats - 1)),
                                 label="link")          # mostly the seat it is offered to
                page = data.draw(hs.integers(0, 1), label="page")
                seen = data.draw(hs.sampled_from([table.n, table.n, table.n - 1]), label="seen")
                message = dict(chosen, seen=seen)
                for tap in range(2 if action == "double" else 1):   # a double tap: twice
                    message = dict(message, id=f"page{page}-{len(sent)}")
                    sent.append((link, page, message))
                    table.send(link, page, message)
            elif action == "resend" and sent:
                link, page, message = data.draw(hs.sampled_from(sent), label="again")
                table.send(link, data.draw(hs.integers(0, 1), label="from page"), message)
            elif action == "drain":
                table.drain()
            elif action == "restart":
                table.restart()
        table.drain()
        check(table)


def _turn_order_roll() -> int:
    """How many commands of the seeded Cauldron game come before a turn-order roll that
    several seats still owe (found, not counted by hand)."""
    for n in range(len(tables.cauldron_commands())):
        state = tables.cauldron(n).state
        expected = expected_roll(state)
        if expected is not None and expected[0] == "turn_order" and len(expected[1]) > 1:
            return n
    raise AssertionError("the seeded Cauldron game has no turn-order roll of several seats")


def test_a_double_tap_on_a_die_rolls_once_and_only_for_its_seat():
    """Two taps of the first roller's die before the table plays either: one roll, that
    seat's; the second tap is told the table moved on, and the next seat rolls nothing."""
    session = tables.cauldron(_turn_order_roll())
    table = PhoneTable(session)
    roller = expected_roll(session.state)[1][0]
    die = {"type": "die", "die": "die", "value": 6, "seen": table.n}
    first = table.send(roller, 0, dict(die, id="a-1"))
    second = table.send(roller, 0, dict(die, id="a-2"))
    assert first.get("received") and second.get("received")
    table.drain()
    assert [(p.link, p.seat) for p in table.played] == [(roller, roller)]
    told = {a["id"]: a for a in table.answers}
    assert "moved on" in table.server.fates.get(f"{table.pages[roller][0].seat.token}:a-2")[1]
    assert told["a-1"]["received"]
    check(table)


def test_a_press_sent_again_after_it_was_played_is_answered_not_played():
    """The same press from the page after a reconnect, from the link's other page, and after
    a restart: each time answered played, never played again."""
    session = tables.cauldron(_turn_order_roll())
    with tempfile.TemporaryDirectory() as folder:
        table = PhoneTable(session, Path(folder))
        roller = expected_roll(session.state)[1][0]
        die = {"type": "die", "die": "die", "value": 6, "seen": table.n, "id": "x-1"}
        table.send(roller, 0, die)
        table.drain()
        assert table.send(roller, 0, die)["applied"] is True
        assert table.send(roller, 1, die)["applied"] is True
        table.restart()
        assert table.send(roller, 0, die)["applied"] is True
        table.drain()
        assert len(table.played) == 1
        check(table)


def test_a_page_that_asks_learns_the_fate_and_lost_stays_lost():
    """Asked after: a press played says so; one that never arrived is "lost" (and a late
    copy of it is then not played); one sent to the run before a restart that kept no word
    of it is not known (never "press again")."""
    session = tables.cauldron(_turn_order_roll())
    table = PhoneTable(session)
    roller = expected_roll(session.state)[1][0]
    boot = table.server.fates.boot
    die = {"type": "die", "die": "die", "value": 6, "seen": table.n}
    table.send(roller, 0, dict(die, id="y-1"))
    table.drain()
    assert table.send(roller, 0, {"type": "ask", "id": "y-1", "boot": boot})["applied"] is True
    lost = table.send(roller, 0, {"type": "ask", "id": "y-2", "boot": boot})
    assert lost["applied"] is False and lost["lost"] is True
    late = table.send(roller, 0, dict(die, id="y-2", seen=table.n))
    assert late["applied"] is False and late.get("lost")
    unknown = table.send(roller, 0, {"type": "ask", "id": "y-3", "boot": "an-earlier-run"})
    assert unknown["applied"] is None and unknown["unknown"] is True
    table.drain()
    assert len(table.played) == 1
