"""The home screen as a table sees it: empty on a new card, with a game of each kind to resume
and a few finished ones, with a notice. Every state is shot at 800x480 and 1280x720 and goes
through the layout check; the buttons a player needs are there and big enough."""

from __future__ import annotations

from companion.core.model import Command
from ui_helpers import both_sizes, button, frames, play_out, tap, texts

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
    # the first tap on Abandon asks once more, in the same place
    abandon = [b for b in screen.ids.resume.children[0].walk() if getattr(b, "title", "") ==
               "Abandon"][0]
    abandon.dispatch("on_release")
    frames()
    assert abandon.title == "Sure?"
    both_sizes("home_abandon_asks")


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
