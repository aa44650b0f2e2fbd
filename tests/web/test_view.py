"""The table's snapshot (companion.view.snapshot): built from real sessions of the three games, plain
JSON, each seat's buttons exactly what its physical buttons can do now, and a cost and size
that do not grow with the game's length."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from benchmarks import logs
from companion.core import Command, InputEvent, RuleViolation, Session
from companion.core.narrator import Narrator
from companion.games import get_rules
from companion.view.snapshot import LOG_LINES, PRIVATE, SEAT_BUTTONS, audience_view, table_view
from tests.web import tables


def _fresh(session: Session) -> Session:
    """The same game again, to try a press on without changing ``session``."""
    again = Session(session.rules, session.setup)
    for step in session.done_steps():
        again.execute(step.command, source=step.source)
    return again


def _check_controls(session: Session) -> None:
    """Every button offered is accepted by the game as that seat's; none offered is."""
    view = tables.snapshot(session)
    assert json.loads(json.dumps(view)) == view
    for seat, controls in enumerate(view["controls"]):
        offered = {b["button"] for b in controls["buttons"]}
        for button in SEAT_BUTTONS:
            trial = _fresh(session)
            event = InputEvent("button", f"seat{seat + 1}.{button}", source="Anna's phone")
            try:
                step = trial.handle_input(event)
            except RuleViolation:
                assert button not in offered, (seat, button, view["asks"])
                continue
            if button in offered:
                assert step.command.player == session.names[seat]
            else:      # a second button that did the same as one offered (Cauldron's ends)
                assert controls["buttons"], (seat, button, view["asks"])
        for die in controls["dice"]:
            trial = _fresh(session)
            trial.handle_input(InputEvent("die", die["die"], die["faces"][0]))


def test_witchs_brew_snapshot_says_what_the_pi_shows():
    session = tables.brew_answering()
    view = tables.snapshot(session, 5, clock={"turn": 12.5, "game": 600, "seats": [1, 2, 3, 4],
                                               "seat": 0, "paused": False}, turn_limit=90)
    assert view["n"] == 5 and view["v"] == 1 and view["title"] == "Witch's Brew"
    assert view["asks"] == session.prompt()["text"]
    assert view["turn"] == "Anna" and view["seats"][0]["awaited"]
    assert view["stands"][0].startswith("Set 1, round")
    assert [s["name"] for s in view["seats"]] == ["Anna", "Barb", "Carl", "Dora"]
    assert view["seats"][0]["colour"] == "#E69F00"
    assert ["Gold", session.state["players"][0]["gold"]] in view["seats"][0]["figures"]
    assert [b["button"] for b in view["controls"][0]["buttons"]] == ["claim", "so_be_it", "pass"]
    assert view["controls"][0]["buttons"][0]["label"] == "\u201cI am the Witch!\u201d"
    assert view["controls"][0]["waits"] and not view["controls"][1]["waits"]
    assert all(not c["buttons"] for c in view["controls"][1:])
    assert view["clock"] == {"turn": 12.5, "game": 600.0, "seats": [1.0, 2.0, 3.0, 4.0],
                             "running": 0, "paused": False, "limit": 90}
    assert len(view["log"]) == LOG_LINES
    assert view["log"][-1]["text"] == Narrator(session).words(session.done_steps()[-1])[-1]
    assert view["result"] is None and view["bgstats"] is None


def test_a_finished_game_has_its_result_and_bgstats_link():
    session = tables.brew(len(tables.brew_commands()))
    assert session.over
    view = tables.snapshot(session, bgstats="bgstats://x")
    assert view["result"]["text"].startswith("Game over")
    winners = [s["name"] for s in view["result"]["seats"] if s["winner"]]
    assert winners == [r["name"] for r in session.rules.results(session.state) if r["winner"]]
    assert all(s["details"] for s in view["result"]["seats"])
    assert view["bgstats"] == "bgstats://x"
    assert all(not c["buttons"] and not c["dice"] and not c["waits"] for c in view["controls"])


@pytest.mark.parametrize("steps", range(0, 150, 7))
def test_witchs_brew_buttons_offered_are_the_ones_the_game_takes(steps):
    _check_controls(tables.brew(steps))


@pytest.mark.parametrize("steps", [0, 1, 2, 3, 4, 5, 6, 8, 12, 20, 40, 80])
def test_cauldron_buttons_and_die_offered_are_the_ones_the_game_takes(steps):
    session = tables.cauldron(steps)
    _check_controls(session)
    view = tables.snapshot(session)
    assert view["stands"][0].endswith(f"Season {session.state['season_number']}")
    assert view["seats"][0]["figures"][0] == ["Magik", session.state["players"][0]["magik"]]


def test_cauldron_offers_the_die_to_the_seat_it_counts_for():
    for steps in range(0, 40):
        session = tables.cauldron(steps)
        view = tables.snapshot(session)
        with_die = [c["seat"] for c in view["controls"] if c["dice"]]
        command = session.rules.map_input(session.state, InputEvent("die", "die", 1))
        expected = [session.names.index(command.player)] if command and command.player else []
        assert with_die == expected, session.prompt()["text"]


@pytest.mark.parametrize("steps", [0, 1, 2, 5, 9, 14, 25])
def test_quest_offers_the_dice_to_the_player_whose_turn_it_is(steps):
    session = tables.quest(steps)
    view = tables.snapshot(session)
    assert view["cooperative"] and any(s.startswith("Wizard") for s in view["stands"])
    asked = session.prompt()["inputs"]
    for controls in view["controls"]:
        dice = [d["die"] for d in controls["dice"]]
        assert dice == (asked if controls["seat"] == session.prompt()["seat"] else [])
    _check_controls(session)


def _counted(rules):
    calls = {"describe": 0, "evolve": 0}

    def describe(*args):
        calls["describe"] += 1
        return rules.describe(*args)

    def evolve(*args):
        calls["evolve"] += 1
        return rules.evolve(*args)

    return replace(rules, describe=describe, evolve=evolve), calls


def _long(n: int):
    rules, calls = _counted(get_rules("witchs_brew"))
    session = Session(rules, dict(logs.SETUP))
    for command in logs.commands(n):
        session.execute(command)
    narrator = Narrator(session)
    narrator.sync()                      # the table's narrator has told the game already
    calls.update(describe=0, evolve=0)
    view = table_view(session, n, narrator)
    return dict(calls), len(json.dumps(view)), session


def test_cost_and_size_do_not_grow_with_the_game():
    short_calls, short_size, _ = _long(100)
    long_calls, long_size, session = _long(10_000)
    assert len(session.done_steps_view()) == 10_000
    assert long_calls["describe"] == 0 and short_calls["describe"] == 0
    assert long_calls["evolve"] <= short_calls["evolve"] + 50
    assert long_size < short_size * 1.3


def test_a_new_step_is_told_once_not_the_whole_log_again():
    rules, calls = _counted(get_rules("witchs_brew"))
    session = Session(rules, dict(tables.WB_SETUP))
    narrator = Narrator(session)
    for command in tables.brew_commands()[:60]:
        session.execute(command)
        calls["describe"] = 0
        table_view(session, 1, narrator)
        assert calls["describe"] == 1


# -- what the Pi shows, and each audience's view -------------------------------------------

def test_the_answer_buttons_say_what_they_mean_and_the_others_wait():
    snap = tables.snapshot(tables.brew_answering())
    anna = snap["controls"][0]
    assert {b["button"]: b["hint"] for b in anna["buttons"]} == {
        "claim": "full action", "so_be_it": "favor", "pass": "no card in hand"}
    statuses = {s["name"]: s["status"] for s in snap["seats"]}
    assert statuses["Dora"] == "Holds the role" and statuses["Anna"] == "Answering"
    assert {statuses["Barb"], statuses["Carl"]} <= {"Waiting", "No cards", "So be it",
                                                    "Passed", "Lost role"}
    (card,) = snap["board"]
    assert card["title"].startswith("The Witch") and card["items"][0]["text"].startswith(
        "Full action: ") and card["items"][1]["text"].startswith("Favor: ")
    assert snap["controls"][1]["waiting"] == "Waiting: Anna's turn"


def test_quest_shows_the_needed_ingredients_and_the_wizard():
    snap = tables.snapshot(tables.quest(9))
    needed, board = snap["board"]
    assert needed["title"] == "Needed ingredients" and len(needed["items"]) == 3
    assert board["items"][0]["text"].startswith("The wizard: space ")


def test_cauldron_shows_the_magik_track_and_each_seats_cards():
    snap = tables.snapshot(tables.cauldron(15))
    (track,) = snap["board"]
    assert track["title"] == "The Magik track"
    marks = [i["text"] for i in track["items"] if "colour" in i]
    assert len(marks) == len(snap["seats"])
    assert any("at 12" in i["text"] for i in track["items"])
    assert any(line.startswith("Potion cards in hand: ") for s in snap["seats"]
               for line in s["lines"])


@pytest.mark.parametrize("session", [tables.brew_answering(), tables.cauldron(12),
                                     tables.quest(9)], ids=["brew", "cauldron", "quest"])
def test_each_audience_sees_the_public_table_and_only_its_own_part(session):
    snap = tables.snapshot(session)
    watcher = audience_view(snap, None)
    assert watcher["you"] is None and not set(PRIVATE) & set(watcher)
    for seat, seat_part in enumerate(snap["controls"]):
        view = audience_view(snap, seat)
        assert view["you"] == dict(seat_part, name=snap["seats"][seat]["name"],
                                   hand=snap["hands"][seat])
        assert {k: v for k, v in view.items() if k != "you"} == {
            k: v for k, v in watcher.items() if k != "you"}     # the rest: the same for all
        others = [c for i, c in enumerate(snap["controls"]) if i != seat]
        assert all(other != view["you"] for other in others if other["buttons"])
    assert audience_view(snap, 99)["you"] is None


def test_the_role_picker_and_no_thanks_are_the_seats_choices_and_each_is_accepted():
    from companion.view.snapshot import seat_choices

    session = tables.brew(0)                              # the starter announces a role
    snap = tables.snapshot(session)
    seat = snap["seat"]
    mine = snap["controls"][seat]
    assert mine["waits"] and len(mine["choices"]) >= 2
    assert mine["choices"][0] == {"choice": "role:wolf_keeper", "label": "The Wolf keeper"}
    assert all(c["choice"].startswith("role:") for c in mine["choices"])
    assert all(not c["choices"] for i, c in enumerate(snap["controls"]) if i != seat)
    for key, _label, command in seat_choices(session, seat):
        assert command.player == session.names[seat]
        _fresh(session).execute(command)                  # the rules take every one offered
    answering = tables.snapshot(tables.brew_answering())
    assert not any(c["choice"].startswith("role:") for ctl in answering["controls"]
                   for c in ctl["choices"])


def test_a_gain_a_seat_may_decline_is_offered_as_no_thanks_to_that_seat_only():
    session = tables.brew(4)                              # Carl may decline what he was given
    snap = tables.snapshot(session)
    offered = {i: [c["label"] for c in ctl["choices"]] for i, ctl in enumerate(snap["controls"])}
    assert "No thanks" in offered[2]
    assert all("No thanks" not in labels for i, labels in offered.items() if i != 2)
    step = _fresh(session).execute(Command("abstain", "Carl"))
    assert step.command.do == "abstain"


@pytest.mark.parametrize("make, steps", [
    (tables.brew, (0, 4, 9, 40)), (tables.cauldron, (15, 20, 30, 45)), (tables.quest, (3, 5, 9, 20))],
    ids=["brew", "cauldron", "quest"])
def test_every_choice_offered_is_the_seats_own_and_the_rules_take_it(make, steps):
    from companion.view.snapshot import seat_choices

    offered = 0
    for n in steps:
        session = make(n)
        turn = session.prompt().get("seat")
        for seat in range(len(session.names)):
            for key, words, command in seat_choices(session, seat):
                offered += 1
                assert words and key
                assert command.player in (session.names[seat], None)
                if command.player is None:
                    assert seat == turn                      # the team's move: its turn only
                _fresh(session).execute(command)             # a RuleViolation fails the test
    assert offered
