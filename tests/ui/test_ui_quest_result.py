"""The end of a Cauldron Quest game, read from a chair: how close it was (the paths still open,
the ingredients that made it), how long it took, and "Play again", which brings the same
players, ingredients and board facts back into the setup screen, ready to start."""

from __future__ import annotations

from companion.core.model import Command
from ui.games.quest.result import cauldron_words, length_words, paths_words
from ui_helpers import both_sizes, frames, tap, texts

PLAYERS = ["Mia", "Leo", "Dad"]
NEEDED = ["rotten_egg", "newt_eye", "bat_wing"]


def start(app, **extra):
    setup = {"game": "quest", "players": list(PLAYERS), "needed": list(NEEDED), **extra}
    assert app.start_game(setup) is None
    frames()
    return app.session


def do(s, what, **args):
    assert s.execute(Command(what, args=args)).status == "done", what


def into_cauldron(s, bottle: int, name: str) -> None:
    do(s, "action_roll", a="bottle", b="spell")
    do(s, "announce_spell", spell="omniscience")
    do(s, "magic_roll", dice=[2, 4, 6])
    do(s, "reveal", bottle=bottle, ingredient=name)
    do(s, "action_roll", a="bottle", b="spell")
    do(s, "announce_spell", spell="great_sorcery")
    do(s, "magic_roll", dice=[6, 6, 6])
    do(s, "move_bottle", bottle=bottle, to="cauldron")


def test_the_words_for_how_close_and_how_long():
    assert paths_words(0) == "All 6 paths were still open."
    assert paths_words(4) == "2 of the 6 paths were still open."
    assert paths_words(5) == "Only 1 of the 6 paths was still open!"
    assert paths_words(6) == "All 6 paths are blocked."
    assert cauldron_words([]) == "No ingredient reached the cauldron."
    assert cauldron_words(["newt_eye"]) == "The newt eye made it into the cauldron: 1 of 3."
    assert (cauldron_words(["newt_eye", "bat_wing"])
            == "The newt eye and the bat wing made it into the cauldron: 2 of 3.")
    assert length_words("2026-11-30T10:00:00+00:00", "2026-11-30T10:34:20+00:00", 12) \
        == "12 turns in 34 minutes."
    assert length_words("2026-11-30T10:00:00Z", "2026-11-30T11:05:00Z", 1) \
        == "1 turn in 1 h 05 min."
    assert length_words("2026-11-30T10:00:00", "2026-11-30T10:00:20", 3) \
        == "3 turns in less than a minute."
    assert length_words("2026-11-30T10:00:00", None, 3) == "3 turns."


def test_a_loss_says_what_made_it_and_play_again_sets_up_the_same_table(app):
    s = start(app, path_spaces=4)
    into_cauldron(s, 1, "rotten_egg")
    for path in range(1, 7):
        do(s, "action_roll", a="hat", b="spell")
        do(s, "block_path", path=path)
    frames()
    assert app.screens.current == "quest_result"
    result = app.screens.get_screen("quest_result")
    shown = texts(app.root)
    assert "All 6 paths are blocked." in shown
    assert "The rotten egg made it into the cauldron: 1 of 3." in shown
    turns = s.summary()["turn_no"]
    assert result.length.startswith(f"{turns} turns in ")
    both_sizes("quest_result_lost_one_in")
    game_id = s.game_id
    tap(result.ids.play_again)
    frames()
    assert app.screens.current == "quest_setup" and app.session is None
    setup = app.screens.get_screen("quest_setup")
    assert setup.names() == PLAYERS and setup.count == 3
    assert setup.chosen == NEEDED and not setup.ids.start.disabled
    assert setup.facts["path_spaces"] == 4
    both_sizes("quest_setup_play_again")
    tap(setup.ids.start)
    assert app.screens.current == "quest" and app.session.game_id != game_id
    assert app.session.setup["players"] == PLAYERS
    assert app.session.setup["needed"] == NEEDED and app.session.setup["path_spaces"] == 4


def test_a_win_says_how_many_paths_were_open(app):
    s = start(app)
    do(s, "action_roll", a="hat", b="spell")
    do(s, "block_path", path=2)
    for bottle, name in ((1, "rotten_egg"), (2, "newt_eye"), (3, "bat_wing")):
        into_cauldron(s, bottle, name)
    frames()
    assert app.screens.current == "quest_result"
    assert "5 of the 6 paths were still open." in texts(app.root)
    both_sizes("quest_result_won_one_blocked")


def test_setup_problems_sit_on_their_row_and_go_when_fixed(app):
    app.new_game("quest")
    frames()
    setup = app.screens.get_screen("quest_setup")
    rows = setup.rows
    rows[0].ids.name.text = "Mia"
    rows[2].ids.name.text = " mia "
    frames()
    assert rows[2].problem == "Player 1 is already called Mia: add a letter, like mia B"
    assert rows[0].problem == rows[1].problem == ""
    rows[1].ids.name.text = ""                                 # emptied: its hint names it
    frames()
    assert rows[1].problem == "" and setup.names()[1] == "Player 2"
    setup.chosen = NEEDED
    tap(setup.ids.start)
    assert app.session is None                                 # nothing sent to the rules
    both_sizes("quest_setup_two_problems")
    rows[2].ids.name.text = "Mia B"
    assert rows[2].problem == ""
    rows[1].ids.name.text = "Leo"
    assert rows[1].problem == ""
    setup.change_count(+1)                                      # a new row: its default name
    assert rows[3].problem == ""
    tap(setup.ids.start)
    assert app.screens.current == "quest"


def test_a_problem_on_a_row_scrolled_away_is_brought_into_view(app):
    app.new_game("quest")
    frames()
    setup = app.screens.get_screen("quest_setup")
    setup.change_count(+3)                                      # six rows: more than fit
    setup.chosen = NEEDED
    setup.rows[0].ids.name.text = "M" * 41                      # too long: its problem on top
    for row in setup.rows[1:]:
        row.ids.name.text = "Mia"                               # four more problems below
    frames()
    listing = setup.ids.player_list
    frames(6)
    assert listing.viewport_size[1] > listing.height            # more rows than fit
    listing.scroll_y = 0                                        # the list seen from its end
    frames()
    tap(setup.ids.start)
    frames(6)
    assert app.session is None and setup.rows[0].problem.startswith("A shorter name")
    assert listing.scroll_y > 0.9                               # back up to row 1
