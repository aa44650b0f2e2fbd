"""The home screen as a table sees it: empty on a new card, with a game of each kind to resume
and a few finished ones, with a notice, with 500 finished games (a page of lines read, a
screenful of rows built; figures, not timed asserts), and a game whose log does not fold.
Every state is shot at 800x480 and 1280x720 and goes through the layout check; the buttons a
player needs are there and big enough."""

from __future__ import annotations

import time

from companion.core.model import Command
from tests.support.figures import report
from ui.screens.home import PAGE, scores_markup
from ui_helpers import both_sizes, button, frames, play_out, shot, tap, texts

MILESTONES = {"magik_overflow": 12, "rituals_of_power": 18, "the_breaking": 27}


def ravens(session, names) -> None:
    """A raven potion on each stack: the game ends at the end of this round."""
    for name, stack in zip(names, ["copper", "silver", "iron", "gold_shelf"]):
        session.execute(Command("adjust", name, {"potion": {"stack": stack, "points": 3,
                                                            "raven": True}}))


def home(app):
    app.go_home()
    frames()
    return app.screens.get_screen("home")


def test_an_empty_home_offers_each_game_hardware_and_settings(app):
    screen = home(app)
    shown = texts(app.root)
    assert "Unfinished games" not in [t for t in shown if screen.ids.resume_title.opacity]
    assert "No finished games yet." in shown
    for title in ("Witch's Brew", "Cauldron", "Cauldron Quest"):
        assert button(title).height >= 48 * app.u - 1
    for title in ("Hardware", "Settings"):
        b = button(title)
        assert b.height >= 48 * app.u - 1 and b.width >= 48 * app.u - 1
    both_sizes("home_empty")
    tap(button("Settings"))
    assert app.screens.current == "table_settings"
    home(app)
    tap(button("Hardware"))
    assert app.screens.current == "hardware_settings"
    home(app)


def test_home_with_a_game_of_each_kind_to_resume_and_finished_games(app):
    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    ravens(app.session, ["Anna", "Barb", "Carl", "Anna"])
    play_out(app)
    five = ["Dora", "Emil", "Finn", "Greta", "Hanna"]
    assert app.start_game({"game": "witchs_brew", "players": five}) is None
    ravens(app.session, five)
    play_out(app)                                   # five seats on one finished-game row
    assert app.start_game({"game": "witchs_brew", "players": five + ["Ivo"]}) is None
    app.session.execute(Command("play_role", "Dora", {"role": "druid"}))
    assert app.start_game({"game": "cauldron", "milestones": MILESTONES, "players": [
        {"name": "Anna", "character": "witch"}, {"name": "Barb", "character": "druid"},
        {"name": "Carl"}]}) is None
    assert app.start_game({"game": "quest", "players": ["Mia", "Noah"],
                           "needed": ["rotten_egg", "horned_toad", "bat_wing"]}) is None
    screen = home(app)
    assert len(screen.ids.resume.children) == 3
    assert "Finished games" in texts(app.root)
    both_sizes("home_unfinished_and_finished")
    # the first tap on Abandon asks once more, never in the place it landed: there it says
    # "Keep it" (a double tap keeps the game), and Resume's place says "Abandon it" in red.
    # The last card is scrolled into view first: a tap (and the shot) on a card out of sight
    # would show nothing new. A new size rebuilds the cards (the unit changes): each asks again.
    def ask_to_abandon():
        card = screen.ids.resume.children[0]
        abandon = [b for b in card.walk() if getattr(b, "title", "") in ("Abandon", "Keep it")][0]
        shown_whole(abandon)
        if abandon.title != "Keep it":
            tap(abandon)
        assert abandon.title == "Keep it" and card.resume_button.title == "Abandon it"

    ask_to_abandon()
    both_sizes("home_abandon_asks", before=ask_to_abandon, portrait=True)
    assert len(screen.ids.resume.children) == 3      # asked, not abandoned
    ask_to_abandon()
    card = screen.ids.resume.children[0]
    tap([b for b in card.walk() if getattr(b, "title", "") == "Keep it"][0])   # the double tap
    assert len(screen.ids.resume.children) == 3 and card.resume_button.title == "Resume"


def shown_whole(widget) -> None:
    """Scroll ``widget``'s scroll view until it shows the widget whole (asserted)."""
    from kivy.uix.scrollview import ScrollView

    view = widget.parent
    while not isinstance(view, ScrollView):
        view = view.parent
    frames()
    view.scroll_to(widget, padding=0, animate=False)
    frames()
    x, y = widget.to_window(*widget.pos)
    vx, vy = view.to_window(*view.pos)
    assert vx - 1 <= x and x + widget.width <= vx + view.width + 1
    assert vy - 1 <= y and y + widget.height <= vy + view.height + 1, "scrolled out of view"


def test_home_with_a_notice_and_a_hardware_problem(app):
    app.notice = ("The game database could not be read and was moved to "
                  "/home/pi/.local/share/companion/companion.sqlite3.broken-1; a new one is used.")
    app.hardware_problem = "Dice tray: no answer on /dev/ttyUSB0 (check the cable)."
    home(app)
    shown = texts(app.root)
    assert any(app.hardware_problem in t for t in shown)
    both_sizes("home_notice_and_problem")
    app.notice = ""
    app.hardware_problem = ""


# -- many games: the home screen reads a page of lines, never a log -------------------------
def _to_frame(app) -> tuple[float, float]:
    """(ms) the home screen's refresh, and from "back to home" to the next frame drawn."""
    start = time.perf_counter()
    app.screens.get_screen("home").refresh()
    refreshed = time.perf_counter()
    frames(1)
    return (refreshed - start) * 1000, (time.perf_counter() - start) * 1000


def test_home_with_500_finished_games_reads_a_page_and_builds_a_screenful(app):
    from tests.companion.test_store_summary import clone_games, play_stored, statements

    store = app.store
    finished = [play_stored(store, game).game_id for game in ("witchs_brew", "cauldron", "quest")]
    for game in ("cauldron", "quest"):
        play_stored(store, game, seed=5, until=40)
    screen = home(app)
    rv = screen.ids.history
    for total in (3, 50, 500):
        more = total - store.count("finished")
        for i, game_id in enumerate(finished):
            clone_games(store, game_id, more // 3 + (i < more % 3))
        home(app)
        said = statements(store, screen.refresh)
        assert said and not [s for s in said if " steps" in s or "events" in s], said
        times = sorted(_to_frame(app) for _ in range(5))
        report("home with history", f"{total} finished games: refresh {times[2][0]:.1f} ms, "
                                    f"back to home -> next frame {times[2][1]:.1f} ms; "
                                    f"{len(said)} SQL statements")
    assert len(rv.data) == PAGE and len(rv.children[0].children) < PAGE  # a screenful of rows
    quest = [row["scores"] for row in rv.data if "Cauldron Quest" in row["head"]]
    assert quest and all(s.endswith("lost together") or "won together" in s for s in quest)
    assert not [s for s in quest if " 0" in s]       # a co-operative game shows no points
    assert len(screen.ids.resume.children) == 2 and "Cauldron  -  Market Season 1" not in texts()
    both_sizes("home_500_finished_games")
    rv.scroll_y = 0                                   # to the end of the list: the next page
    frames()
    assert len(rv.data) == 2 * PAGE and 0 < rv.scroll_y < 1
    rv.scroll_y = 0
    frames()
    assert len(rv.data) == 3 * PAGE
    shot("home_500_finished_games_scrolled")


def test_a_game_that_does_not_fold_is_shown_damaged_once_resumed(app):
    assert app.start_game({"game": "witchs_brew", "players": ["Dora", "Emil", "Finn"]}) is None
    bad = app.session.game_id
    app.session.execute(Command("play_role", "Dora", {"role": "witch"}))
    app.session.execute(Command("claim", "Emil"))
    app.store.conn.execute("UPDATE events SET data = '[]' WHERE game_id = ? AND step = 2", (bad,))
    screen = home(app)
    [card] = screen.ids.resume.children                 # listed from its line: not folded
    tap(card.resume_button)
    assert app.screens.current == "home" and app.notice.startswith(f"Game #{bad} cannot be read")
    frames()
    assert "Witch's Brew  -  damaged from step 2" in texts(app.root)
    [card] = screen.ids.resume.children
    assert hasattr(card, "repair_button") and not hasattr(card, "resume_button")
    both_sizes("home_damaged_once_resumed")
    app.notice = ""


def test_a_row_names_the_winner_first_even_on_equal_points():
    """A tie broken by the rules: the winner leads the row (Home and History share the
    words), each name kept beside its score; a co-operative game names its team."""
    row = scores_markup("witchs_brew", [("Ann", 5, False, 0), ("Bo", 5, True, 1)])
    assert row.startswith("[b][color=#FFC24B]Bo\u00a05\u00a0(won)[/color][/b]")
    assert row.endswith("Ann\u00a05")
    assert scores_markup("quest", [("Ann", 0, True, 0), ("Bo", 0, True, 1)]).endswith(
        "Ann, Bo: won together[/color][/b]")


def test_a_quest_resume_card_says_one_path_not_one_paths():
    """Not "1 paths blocked" on the resume card."""
    from ui.games import _quest_where

    summary = {"turn_no": 4, "in_cauldron": ["rotten_egg"], "obstacles": [{"path": 2}]}
    assert _quest_where(summary) == "Turn 4, 1 of 3 in the cauldron, 1 path blocked"
    summary["obstacles"].append({"path": 5})
    assert _quest_where(summary).endswith("2 paths blocked")
