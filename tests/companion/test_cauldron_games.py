"""Whole games of Cauldron played by a seeded table: 2, 4 and 5 seats, each variant; replay
from the same setup and commands gives the same state; the state is JSON; dice stay done."""

from __future__ import annotations

import json

import pytest

from companion import script
from companion.core import Command, Event, Session, Step
from companion.games.cauldron import RULES
from companion.games.cauldron import data as d
from tests.companion.cauldron_autoplay import play, setup_for

VARIANTS = [[], ["simple"], ["quick"], ["advanced"], ["less_luck"],
            ["simple", "quick", "advanced", "less_luck"]]
GAMES = [(n, v, seed) for n in (2, 4, 5) for seed, v in enumerate(VARIANTS)]


def _check_finished(session: Session, commands: list[Command]) -> None:
    state = session.state
    winner = state["players"][state["winner"]]
    assert session.over and winner["magik"] >= d.WIN
    assert commands[-1].do == "brew" and commands[-1].player == winner["name"]
    assert all(p["magik"] < d.WIN for i, p in enumerate(state["players"]) if i != state["winner"])
    results = RULES.results(state)
    assert sum(r["winner"] for r in results) == 1
    assert sorted(r["place"] for r in results)[0] == 1
    assert session.summary()["podium"][0]["name"] == winner["name"]


@pytest.mark.parametrize(("n", "variants", "seed"), GAMES)
def test_a_whole_game_ends_with_a_grand_infuser_and_replays_identically(n, variants, seed):
    setup = setup_for(n, variants)
    session, commands = play(setup, seed=seed)
    _check_finished(session, commands)
    state = session.state
    seasons = state["season_number"]
    assert seasons >= 2, "the game went through at least one Market"
    # Replay: a new session from the same setup and commands equals the live state.
    again = Session(RULES, setup)
    for command in commands:
        again.execute(Command.from_dict(json.loads(json.dumps(command.to_dict()))))
    assert again.state == state
    # The log, stored as JSON and folded again (as the store does), gives the same state.
    stored = [Step(s.n, s.command, tuple(Event.from_dict(json.loads(json.dumps(e.to_dict())))
                                         for e in s.events), s.status) for s in session.steps]
    assert Session(RULES, setup, stored).state == state
    # The state is plain JSON.
    assert json.loads(json.dumps(state)) == state
    json.dumps(session.summary())
    # Variant marks in the played game.
    if "simple" in variants:
        assert all(p["spells"] == [] for p in state["players"])
    dice = [s for s in session.steps if any(e.type in ("turn_order_rolled", "stole")
                                            for e in s.events)]
    assert dice and not any(s.undoable for s in dice)


@pytest.mark.parametrize("n", [3, 6])
def test_three_and_six_seats_play_to_the_end(n):
    session, commands = play(setup_for(n), seed=11)
    _check_finished(session, commands)


def test_the_advanced_game_makes_two_purchases_in_one_market_turn():
    session, _ = play(setup_for(4, ["advanced"]), seed=3)
    doubles = 0
    for step in session.steps:
        bought = [e for e in step.events if e.type == "bought"]
        if bought and any(e.type == "market_turn_ended" and e.automatic for e in step.events):
            doubles += 1
    assert doubles > 0


def test_undo_stops_at_a_die():
    session, _ = play(setup_for(2), seed=4)
    while session.can_undo:
        session.undo()
    last = session.done_steps()[-1]
    assert not last.undoable
    assert session.prompt()["phase"] != "over"


def test_a_table_script_replays_to_the_same_summary():
    setup = setup_for(4, ["quick"])
    session, commands = play(setup, seed=5)
    lines = [json.dumps({"game": "cauldron", **setup})]
    lines += [json.dumps(c.to_dict()) for c in commands]
    replayed = script.replay(lines, strict=True)
    assert replayed.rejected == []
    result = replayed.result()
    assert result["winner"] == session.summary()["winner"]
    for key in ("season", "season_number", "ingredients_left", "milestones"):
        assert key in result
    for key in ("magik", "potions", "spells", "cellars", "pool"):
        assert key in result["players"][0]
    # The export holds the commands as the gate cleaned them: the same keys and values.
    exported = [json.loads(line) for line in script.export_lines(replayed.session)[1:]]
    assert exported == [json.loads(line) for line in lines[1:]]


def test_prompt_and_summary_answer_in_every_phase_of_a_game():
    import random

    from tests.companion.cauldron_autoplay import next_command

    session = Session(RULES, setup_for(2, ["quick"]))
    rng = random.Random(8)
    phases = set()
    while not session.over:
        session.execute(next_command(session, rng))
        prompt = session.prompt()
        assert prompt["text"] and isinstance(prompt["inputs"], list)
        json.dumps(session.summary())
        phases.add(prompt["phase"])
    assert {"turn_order", "turns", "closing", "market", "omen", "fill", "over"} <= phases
