"""The end of a Witch's Brew game: every seat on its own row with its score
broken down, the tie-break said in words, the game's length, "Play again" with the same seats;
and setup problems said at the seat they concern, gone as soon as they are fixed."""

from __future__ import annotations

from datetime import datetime, timedelta

from companion.core.model import Command
from ui_helpers import both_sizes, frames, play_out, tap_title, texts

RAVENS = [{"stack": stack, "points": 4, "raven": True}
          for stack in ("copper", "silver", "iron", "gold_shelf", "copper", "silver")]


def start(app, players, **extra):
    assert app.start_game({"game": "witchs_brew", "players": list(players), **extra}) is None
    frames()
    return app.session


def finish(app, s, names):
    """Enough ravens end the game (four, six with six seats): the seats take them in turn."""
    for name, raven in zip(names * 2, RAVENS[:s.state["ravens_needed"]]):
        s.execute(Command("adjust", name, {"potion": raven}))
    play_out(app)
    frames()
    assert app.screens.current == "result"
    return app.screens.get_screen("result")


def row_of(result, name):
    return next(r for r in result.ids.standings.children if r.seat_name == name)


def test_every_seat_has_its_row_with_the_breakdown_and_the_game_length(app):
    names = ["Anna", "Barb", "Carl", "Daniel", "Emma", "Fiona"]
    s = start(app, names)
    s.execute(Command("adjust", "Emma", {"changes": {"vials": 3},
                                         "potion": {"stack": "ingredient_shelf", "points": 9}}))
    game_id = s.game_id
    result = finish(app, s, names[:3])
    started, finished = app.store.played(game_id)
    assert finished is not None
    began = datetime.fromisoformat(finished) - timedelta(minutes=42, seconds=10)
    with app.store.conn:
        app.store.conn.execute("UPDATE games SET created_at = ? WHERE id = ?",
                               (began.isoformat(timespec="seconds"), game_id))
    result.refresh()
    frames()
    assert result.length == "Played in 42 min"
    # drawn with "42 min" kept on one line (a no-break space)
    assert result.length in [t.replace("\u00a0", " ") for t in texts(app.root)]
    assert len(result.ids.standings.children) == 6          # the sixth seat as large as the first
    emma = texts(row_of(result, "Emma"))
    assert "9 (1)" in emma and "+ 3" in emma and "= 12" in emma   # potion points + vials
    assert "8 (2)" in texts(row_of(result, "Anna"))
    assert "WINNER" in texts(app.root)
    assert result.tie_break == "Most points: no tie-break needed"
    places = sorted(int(row_of(result, n).children[-1].text) for n in names)
    assert places == [1, 2, 3, 3, 5, 5]      # as in sport: a shared place uses up its places
    fiona = row_of(result, "Fiona")
    assert fiona.height == row_of(result, "Emma").height
    both_sizes("witchs_brew_result_six_seats")


def test_the_tie_break_is_said_with_what_decided_it(app):
    s = start(app, ["Anna", "Barb", "Carl", "Daniel"])
    # Anna and Barb end on the same points; Anna keeps more drops + gold.
    s.execute(Command("adjust", "Anna", {"changes": {"gold": 4}}))
    result = finish(app, s, ["Anna", "Barb", "Carl", "Daniel"])
    board = {r["name"]: r for r in s.rules.results(s.state)}
    assert board["Anna"]["score"] == board["Barb"]["score"] == board["Carl"]["score"]
    assert board["Anna"]["winner"] and not board["Barb"]["winner"]
    assert result.tie_break.startswith(f"Tied on {board['Anna']['score']} points: "
                                       "most drops + gold left wins")
    assert f"Anna {board['Anna']['tiebreak']}" in result.tie_break
    assert f"Barb {board['Barb']['tiebreak']}" in result.tie_break
    assert result.tie_break in texts(app.root)
    both_sizes("witchs_brew_result_tie_break")


def test_play_again_fills_the_setup_with_the_same_seats(app):
    s = start(app, ["Carl", "Anna", "Barb"], starter="Anna", variants=["excluded_roles"])
    finish(app, s, ["Carl", "Anna", "Barb"])
    before = len(app.store.games())
    tap_title("Play again")
    frames()
    setup = app.screens.get_screen("setup")
    assert app.screens.current == "setup" and app.session is None
    assert setup.count == 3 and setup.names() == ["Carl", "Anna", "Barb"]
    assert setup.starter == 1 and setup.rows[1].starts
    assert setup.variant
    assert len(app.store.games()) == before               # nothing started until "Start"
    both_sizes("setup_play_again")
    setup.start()
    frames()
    assert app.session.setup["players"] == ["Carl", "Anna", "Barb"]
    assert app.session.setup["starter"] == "Anna"
    assert app.session.setup["variants"] == ["excluded_roles"]


def test_a_seat_problem_is_said_at_its_row_and_goes_when_fixed(app):
    app.show("setup")
    frames()
    setup = app.screens.get_screen("setup")
    for row, name in zip(setup.rows, ["Anna", "Barb", "Carl", "Daniel"]):
        row.ids.name.text = name
    setup.rows[2].ids.name.text = "anna"
    setup.start()
    frames()
    assert app.session is None
    assert [r.error for r in setup.rows[:4]] == ["", "", '"anna" is already at another seat', ""]
    assert setup.error == ""
    assert '"anna" is already at another seat' in texts(app.root)
    both_sizes("setup_seat_error")
    games = len(app.store.games())
    setup.rows[2].ids.name.text = "Carl"                    # fixed: gone at once, nothing started
    frames()
    assert [r.error for r in setup.rows] == [""] * len(setup.rows)
    assert app.session is None and len(app.store.games()) == games
    setup.rows[3].ids.name.text = "  "              # spaces alone: the seat's hint names it
    frames()
    assert setup.rows[3].error == "" and setup.names()[3] == "Player 4"
    setup.rows[3].ids.name.text = "Dora"
    frames()
    assert setup.rows[3].error == ""
    setup.change_count(+1)
    setup.change_count(+1)
    setup.rows[4].ids.name.text, setup.rows[5].ids.name.text = "Emma", "DORA"
    setup.start()
    frames()
    assert setup.count == 6 and setup.rows[5].error == '"DORA" is already at another seat'
    both_sizes("setup_six_seats_error")                   # the last row's words still on screen


def test_the_result_is_read_from_a_chair(app):
    """The result is the table's last screen: every text on it at the type scale's floor, the
    places, names and points at a headline's (the layout check's rule for a table screen,
    applied here by hand: the result is not counted as one), at both sizes."""
    from layout_reading import under_floor
    from ui_helpers import resize

    names = ["Anna", "Barb", "Carl", "Daniel", "Emma", "Fiona"]
    finish(app, start(app, names), names)
    for size in ((800, 480), (1280, 720)):
        resize(*size)
        assert [str(f) for f in under_floor(app.u, large=False)] == [], size
    resize(800, 480)
