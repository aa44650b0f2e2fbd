"""A stored game's score series (companion/history/series.py) over autoplayed games of all
three titles: each game is played again from its stored commands through the engine (decide,
not the stored events) and its summary read after every step, the way the screens read it;
the series must be those summaries sampled per round (Witch's Brew), per step (Cauldron) and
per turn (Cauldron Quest), and end on the results table's scores. Undone steps are not part
of the game; a title without a measure is refused by name."""

from __future__ import annotations

import random

import pytest

from companion.core.engine import Session
from companion.games import get_rules
from companion.history.series import of_game, series, story
from companion.store import Store
from tests.support.history import build_history
from tests.support import autoplay

COUNTS = {"witchs_brew": 6, "quest": 6, "cauldron": 3}


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    path = tmp_path_factory.mktemp("series") / "c.sqlite3"
    store = Store(path)
    store.conn.execute("PRAGMA synchronous = OFF")
    played = build_history(store, COUNTS, seed=5)
    yield store, played
    store.close()


def measured(game: str, summary: dict) -> tuple[object, list[int]]:
    """(the sample mark, the values) as a screen reads them from the rules' summary."""
    if game == "witchs_brew":
        return summary["round"], [p["score"] for p in summary["players"]]
    if game == "cauldron":
        return None, [p["magik"] for p in summary["players"]]
    inside = summary["in_cauldron"]
    return summary["turn_no"], [sum(1 for i in summary["needed"] if i in inside),
                                len(summary["obstacles"])]


def replayed(store: Store, game_id: int) -> list[list[int]]:
    """The samples, from the stored commands played again and each summary read."""
    setup = store.setup_of(game_id)
    session = Session(get_rules(setup["game"]), setup)
    mark, values = measured(setup["game"], session.summary())
    samples, pending = [values], False
    for step in store.steps(game_id):
        if step.status != "done":
            continue
        session.execute(step.command)
        now, values = measured(setup["game"], session.summary())
        if now is None or now != mark:
            samples.append(values)
            mark, pending = now, False
        else:
            pending = True
    if pending:
        samples.append(values)
    return samples


@pytest.mark.parametrize("game", list(COUNTS))
def test_each_series_is_the_game_played_again_and_ends_on_its_results(history, game):
    store, played = history
    for p in [p for p in played if p.game == game]:
        got = of_game(store, p.id)
        assert got.game == game
        assert [list(v) for v in zip(*(line.values for line in got.lines))] == \
            replayed(store, p.id), f"game {p.id}"
        if game == "quest":
            assert [line.name for line in got.lines] == ["Needed in the cauldron",
                                                         "Paths blocked"]
            needed_in = got.lines[0].values[-1]
            assert (needed_in == 3) == any(r["winner"] for r in p.results)
        else:
            assert [line.name for line in got.lines] == p.names
            assert [line.values[-1] for line in got.lines] == [r["score"] for r in p.results]
            rows = store.conn.execute("SELECT score FROM results WHERE game_id = ? ORDER BY "
                                      "seat", (p.id,)).fetchall()
            assert [line.values[-1] for line in got.lines] == [r[0] for r in rows]
        assert got.samples > 2
        assert got.x_title == {"witchs_brew": "set", "cauldron": "season", "quest": "turn"}[game]
        if game != "quest":    # the x axis marked at each set's or season's first sample
            assert [words for _, words in got.marks] == [
                str(n) for n in range(1, len(got.marks) + 1)]
            assert got.marks[0][0] == 0 and all(0 < x < got.samples for x, _ in got.marks[1:])
            assert all(0 <= line < len(p.names) for _, line, _ in got.flags)
        if game == "quest":
            assert [line.most for line in got.lines] == [3, 6]


def test_undone_steps_are_not_part_of_the_series(tmp_path):
    with Store(tmp_path / "u.sqlite3") as store:
        session = store.new_game(get_rules("witchs_brew"), {"players": ["Anna", "Barb", "Carl"]})
        rng = random.Random(3)
        for _ in range(40):
            session.execute(autoplay.next_command(session, rng))
        before = of_game(store, session.game_id)
        for _ in range(12):
            session.execute(autoplay.next_command(session, rng))
        moved = of_game(store, session.game_id)
        for _ in range(12):
            session.undo()
        assert [s.status for s in store.steps(session.game_id)].count("undone") == 12
        assert of_game(store, session.game_id) == before != moved


def test_a_title_without_a_measure_is_refused_by_name():
    rules = get_rules("quest")
    fake = type("Rules", (), {"name": "chess", "start": rules.start, "fold": rules.fold})()
    with pytest.raises(ValueError, match="game: no score series for 'chess'"):
        series(fake, {"game": "quest", "players": ["A"]}, [])


@pytest.mark.parametrize("game", list(COUNTS))
def test_the_story_tells_the_log_as_the_session_does(history, game):
    store, played = history
    p = next(p for p in played if p.game == game)
    got, names, steps = story(store, p.id)
    assert got == of_game(store, p.id)
    session = store.open_session(p.id)
    words = [line for _, lines in steps for line in lines]
    assert words == [line for _, lines in session.log() for line in lines]
    assert [step.n for step, _ in steps] == [step.n for step, _ in session.log()]
    assert names == session.names
    assert len(words) >= len(session.done_steps())
