"""Witch's Brew at the table: a seat declines what the companion applied for it (No
thanks on its tile), a role announced again goes face down, and a gain the supply cut short is
said on screen. Screenshots at 800x480 and 1280x720 (screenshots/)."""

from __future__ import annotations

from companion.core.model import Command
from test_ui_screens import FIVE, announce, role_card, start, table
from ui_helpers import both_sizes, button, frames, panel, panel_texts, tap, tap_title, texts
from wb_counts import shows


def said_on_the_bar(app, words: str) -> None:
    """The log's last line says ``words``, and the game bar shows that line: whole, or its
    first words with an ellipsis where the bar is too narrow (a tap opens the whole log): at
    the size of a button's words, three words or so at 800x480."""
    last = app.log_tail.splitlines()[-1]
    assert words in last
    shown = app.root.ids.game_bar.shown.splitlines()[-1]
    assert shown == last or (shown.endswith("\u2026") and last.startswith(shown[:-1])
                             and len(shown) > 12)


def no_thanks(app, name):
    return panel(app, name).ids.no_thanks


def test_no_thanks_on_a_seat_tile_declines_the_favor_applied_for_it(app):
    """"If he is unable or unwilling to execute this action, he merely says so and does not do
    it": Barb's drop is applied at once; her tile offers No thanks until the next role."""
    start(app)
    announce("Wolf keeper")
    tap_title("So be it!")                        # Barb: +1 red, applied by itself
    assert shows(app, "Barb", red=2)
    assert no_thanks(app, "Barb").opacity == 1 and not no_thanks(app, "Barb").disabled
    assert no_thanks(app, "Carl").opacity == 0 and no_thanks(app, "Carl").disabled
    assert panel(app, "Barb").declinable == "1 red drop"
    both_sizes("witchs_brew_no_thanks_favor")
    tap(no_thanks(app, "Barb"))
    assert not app.refusal
    assert shows(app, "Barb", red=1)
    assert no_thanks(app, "Barb").opacity == 0
    said_on_the_bar(app, "Barb declined the favor of the Wolf keeper: 1 red drop back to the supply")
    assert table(app).turn_name == "Carl"        # the round goes on
    # undo by touch gives the drop back to Barb, and the button with it
    tap(table(app).ids.undo)
    assert no_thanks(app, "Barb").opacity == 1
    # what undo did is said in the game bar's place: the tiles keep their room and counts
    frames()
    assert app.root.ids.game_bar.news
    assert shows(app, "Barb", red=2) and no_thanks(app, "Barb").opacity == 1


def test_the_holder_declines_the_full_action_and_still_begins(app):
    """"The player, who "won" the right to the full action ... must begin the new round, even
    if he chose not to execute the action"."""
    start(app)
    announce("Herb collector")
    for _ in range(4):
        tap_title("Pass")
    assert shows(app, "Anna", green=4)
    assert table(app).mode == "play"
    both_sizes("witchs_brew_no_thanks_action")
    tap(no_thanks(app, "Anna"))
    assert shows(app, "Anna", green=1)
    assert table(app).turn_name == "Anna" and table(app).mode == "play"
    announce("Witch")                           # the next role: nothing left to decline
    assert all(no_thanks(app, n).opacity == 0 for n in FIVE)


def test_a_role_played_earlier_this_set_is_laid_face_down_from_the_picker(app):
    """"If a player plays a role card that was played previously in this set ... he must
    immediately place it face down ... and play another": the card is on the picker, and a tap
    lays it face down and waits for another."""
    s = start(app, players=FIVE[:3])
    s.execute(Command("play_role", "Anna", {"role": "warlock"}))
    s.execute(Command("pass", "Barb"))
    s.execute(Command("pass", "Carl"))
    s.execute(Command("abstain", "Anna"))
    s.execute(Command("play_role", "Anna", {"role": "witch"}))
    s.execute(Command("pass", "Barb"))
    s.execute(Command("claim", "Carl"))
    s.execute(Command("abstain", "Carl"))
    frames()
    assert table(app).turn_name == "Carl"
    warlock = role_card("Warlock")
    assert not warlock.disabled and warlock.caption == "forgotten"   # it goes face down
    tap(warlock)
    assert not app.refusal
    assert app.summary["players"][2]["cards_left"] == 3
    assert table(app).turn_name == "Carl" and table(app).mode == "play"
    said_on_the_bar(app, "Carl laid the Warlock face down: a forgotten card, played earlier this set")
    assert role_card("Warlock").disabled         # Carl has it face down now
    both_sizes("witchs_brew_forgotten_card")     # the sheet of cards, over the table


def test_a_gain_the_supply_cuts_short_is_said_on_screen(app):
    """With the box's counts (20 drops of each colour), Anna's Wolf keeper finds 1 red drop
    left: the table sees it, never silently."""
    s = start(app, supply={"drops": 20, "gold": 24})
    s.execute(Command("adjust", "Barb", {"changes": {"red": 14}}))
    s.execute(Command("play_role", "Anna", {"role": "wolf_keeper"}))
    for name in FIVE[1:]:
        s.execute(Command("pass", name))
    frames()
    said = "Supply short: Anna got 1 of 3 red drops"
    assert table(app).supply_note == said
    assert said in texts(table(app))
    both_sizes("witchs_brew_supply_short")
    s.execute(Command("play_role", "Anna", {"role": "witch"}))
    frames()
    assert table(app).supply_note == ""


def test_the_setup_turns_the_box_counts_on(app):
    """Drops and gold "are not meant to run out" (RULES-NOTES.md): unlimited unless the table
    taps the setup's supply button, which plays with the box's 20 of each drop and 24 gold."""
    tap_title("Witch's Brew")
    setup = app.screens.get_screen("setup")
    assert "supply" not in setup.setup()
    tap_title("Drops, gold: unlimited")
    assert setup.setup()["supply"] == {"drops": 20, "gold": 24}
    both_sizes("witchs_brew_setup_box_supply")
    tap_title("Start the game")
    assert app.session.state["supply"] == {"red": 20, "white": 20, "green": 20, "gold": 24,
                                           "vials": 45}


def test_the_words_follow_the_round_and_the_favors_declined(app):
    """Words against the state: while the holder carries out round 1's full action
    the header says Round 1 (the rules already count round 2), and a seat that declined its
    favor (Barb abstains from paying for it) is not tagged "Favor"; those who took it are."""
    s = start(app)
    s.execute(Command("play_role", "Anna", {"role": "fortune_teller"}))
    assert table(app).where == "Set 1  -  Round 1"
    s.execute(Command("so_be_it", "Barb"))
    s.execute(Command("abstain", "Barb"))           # her favor waited: she abstains
    s.execute(Command("so_be_it", "Carl"))
    s.execute(Command("resolve", "Carl"))           # pays 1 gold for a vial
    s.execute(Command("so_be_it", "Daniel"))
    s.execute(Command("resolve", "Daniel"))
    s.execute(Command("pass", "Emma"))
    frames()
    summary, prompt = s.summary(), s.prompt()
    assert prompt["phase"] == "resolve" and summary["pending"][0]["player"] == "Anna"
    assert summary["round"] == 2 and summary["last_round"]["round"] == 1
    assert table(app).where == "Set 1  -  Round 1"
    tags = {name: panel_texts(app, name) for name in FIVE}
    assert "Declined" in tags["Barb"] and "Favor" not in tags["Barb"], tags["Barb"]
    assert "Favor" in tags["Carl"] and "Favor" in tags["Daniel"]
    assert "Passed" not in tags["Emma"]
    both_sizes("witchs_brew_favor_declined_round_1_action")
    s.execute(Command("resolve", "Anna"))           # the action done: round 2 is played
    frames()
    assert s.prompt()["phase"] == "play"
    assert table(app).where == "Set 1  -  Round 2"
    assert "Declined" in panel_texts(app, "Barb") and "Favor" in panel_texts(app, "Daniel")
