"""Cauldron Quest played by taps, as a child's finger would: the action dice entered face by
face, a bottle moved by tapping it and a gold-ringed space, a refused tap explained with
nothing changed, and the magic dice with keep toggles, touch entry and a virtual roll."""

from __future__ import annotations

from kivy.tests.common import UnitTestTouch

from ui_helpers import button, dialogs, find, frames, tap, tap_title, texts, wait_for

PLAYERS = ["Mia", "Leo"]
NEEDED = ["rotten_egg", "newt_eye", "bat_wing"]


def start(app):
    app.new_game("quest")
    frames()
    setup = app.screens.get_screen("quest_setup")
    setup.change_count(-1)
    for row, name in zip(setup.rows, PLAYERS):
        row.ids.name.text = name
    for name in NEEDED:
        tap(setup.tiles[name])
    assert setup.chosen == NEEDED
    tap(setup.ids.start)
    assert app.screens.current == "quest", setup.error
    return app.session


def table(app):
    return app.screens.get_screen("quest")


def face(die: str, value, app):
    """The touch-entry button for one face of an action die (on the roll panel)."""
    panel = table(app).panels["roll"]
    row = panel.ids.row_a if die == "a" else panel.ids.row_b
    return next(b for b in row.children if b.value == value)


def tap_space(app, space: str) -> None:
    board = table(app).ids.board
    x, y = board.to_window(*board.xy(space))
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    frames(2)


def test_quest_setup_by_taps_and_draw_for_us(app):
    app.new_game("quest")
    frames()
    setup = app.screens.get_screen("quest_setup")
    assert setup.ids.start.disabled                          # no ingredients drawn yet
    tap(setup.ids.draw)
    assert len(set(setup.chosen)) == 3 and not setup.ids.start.disabled
    tap(setup.tiles[setup.chosen[0]])                        # a tap takes one back
    assert len(setup.chosen) == 2 and setup.ids.start.disabled
    setup.rows[1].ids.name.text = "player 1"
    setup.chosen = NEEDED
    assert setup.rows[1].problem == ("Player 1 is already called Player 1: add a letter, "
                                     "like player 1 B")        # said as it is typed
    tap(setup.ids.start)
    assert app.session is None and app.screens.current == "quest_setup"
    setup.open_facts()
    frames()
    from ui_helpers import stepper

    dialog = dialogs()[0]
    tap(find(lambda w: getattr(w, "title", None) == "-", stepper("Path spaces"))[0])
    tap(find(lambda w: getattr(w, "index", None) == 0)[0])      # die B's first face: 2 -> 3
    assert setup.facts["path_spaces"] == 4 and setup.facts["die_b"][0] == 3
    tap_title("Done", dialog)
    assert wait_for(lambda: not dialogs())                      # its fade-out takes touches
    setup.rows[1].ids.name.text = "Leo"
    assert setup.rows[1].problem == ""                          # gone once fixed
    tap(setup.ids.start)
    assert app.screens.current == "quest", (setup.error, setup.facts)
    assert app.session.setup["path_spaces"] == 4 and app.session.setup["die_b"][0] == 3
    assert "circle_spaces" not in app.session.setup           # defaults are left to the rules


def test_a_whole_turn_by_taps(app):
    s = start(app)
    assert app.prompt["turn"] == "Mia" and "Roll the dice!" in texts(app.root)
    tap(face("a", "bottle", app))
    assert app.summary["reading"] == {"action_a": "bottle"} and face("a", "bottle", app).selected
    tap(face("b", 3, app))
    assert app.summary["action"] == {"a": "bottle", "b": 3}
    assert table(app).ids.big_words.text == "Move a bottle 3 spaces!"
    tap_space(app, "c0")                                     # bottle 1 picked
    board = table(app).ids.board
    assert board.selected == [1] and "p1.3" in board.targets
    tap_space(app, "p1.3")
    assert s.summary()["bottles"]["1"] == "p1.3"
    assert app.prompt["turn"] == "Leo" and app.prompt["phase"] == "roll"
    assert "Bottle 1 moved." in texts(app.root)               # what just happened
    assert not button("Undo").disabled
    tap_title("Undo")
    assert s.summary()["bottles"]["1"] == "c0" and app.prompt["phase"] == "move"
    app.go_home()
    frames()
    assert "Cauldron Quest  -  Turn 1, 0 of 3 in the cauldron, 0 paths blocked" in texts(app.root)
    tap(app.screens.get_screen("home").ids.resume.children[0].resume_button)
    assert app.screens.current == "quest" and app.prompt["phase"] == "move"


def test_a_refused_tap_shows_why_and_changes_nothing(app):
    s = start(app)
    tap(face("a", "bottle", app))
    tap(face("b", 2, app))
    tap_space(app, "c0")
    steps, before = len(s.steps), s.summary()
    tap_space(app, "c5")                                     # not 2 spaces away
    assert app.refusal.startswith("Bottle 1 cannot reach the wizard's circle, 1 space past "
                                  "path 2's entrance in exactly 2 spaces; it can reach")
    assert any(app.refusal in t for t in texts(app.root))
    assert len(s.steps) == steps and s.summary() == before
    tap_space(app, "cauldron")                 # the first tap closes the refusal, no more
    assert app.refusal == "" and len(s.steps) == steps and s.summary() == before
    tap_space(app, "cauldron")
    assert "ingredient has not yet been revealed" in app.refusal
    assert len(s.steps) == steps and s.summary() == before


def test_the_magic_spell_with_keep_toggles(app):
    s = start(app)
    tap(face("a", "bottle", app))
    tap(face("b", "spell", app))
    assert app.prompt["phase"] == "announce"
    panel = table(app).panels["announce"]
    assert [b.percent for b in panel.buttons.values()] == ["67%", "67%", "89%"]
    tap(panel.buttons["omniscience"])
    magic = table(app).panels["magic"]
    assert magic.advice == "Roll all three: 67% chance"
    faces = {b.value: b for b in magic.ids.faces.children}
    for value in (2, 5, 4):                                  # die 1, 2, 3 as rolled
        tap(faces[value])
    assert app.summary["spell"]["dice"] == [2, 5, 4]
    assert magic.advice == "Keep the 2 and 4: 75% chance"
    assert magic.kept == []                                  # the advice binds nothing
    one, two, three = magic.dice_buttons
    # the tip in the title where the choice differs from the best (the colour says kept)
    assert one.title == three.title == "tip: keep" and two.title == "roll again"
    tap(two)                                                 # keep the 5: 9/32
    assert magic.kept == ["magic2"] and two.selected
    assert magic.advice == "Kept the 5: 28%, best 75%"
    assert two.title == "tip: roll" and one.title == "tip: keep"
    tap(three)                                               # keep 4 and 5
    assert magic.kept == ["magic2", "magic3"]
    tap(one)                                                 # all three kept: not a roll
    assert "keeping all three is not a roll" in app.refusal
    assert magic.kept == ["magic2", "magic3"]
    app.dismiss_refusal()
    tap(two)
    tap(one)                                                 # the advice: nothing beside it
    assert magic.kept == ["magic1", "magic3"] and one.caption == ""
    assert magic.advice == "Kept the 2 and 4: 75% chance"
    assert magic.entry == "magic2"
    tap(faces[6])                                            # the last die shows 6: all even
    assert app.prompt["phase"] == "cast" and table(app).mode == "reveal"
    tap_space(app, "c4")                                     # turn bottle 2 over
    ingredient = table(app).panels["ingredient"]
    tap(next(b for b in ingredient.ids.grid.children if b.value == "newt_eye"))
    assert s.summary()["revealed"] == {"2": "newt_eye"} and app.prompt["turn"] == "Leo"


def test_roll_for_us_and_fixing_a_misread_roll(app):
    s = start(app)
    tap(table(app).panels["roll"].ids.roll)
    assert app.summary["action"] is not None or app.prompt["turn"] == "Leo"
    assert s.summary()["correctable"] == "action"
    from ui.games.quest.dialogs import FixDiceDialog

    table(app).open_fix()
    frames()
    dialog = next(w for w in find(lambda w: isinstance(w, FixDiceDialog)))
    key_a, buttons_a = dialog.rows[0]
    key_b, buttons_b = dialog.rows[1]
    tap(next(b for b in buttons_a if b.value == "bottle"))
    tap(next(b for b in buttons_b if b.value == 4))
    tap_title("Save", dialog)
    assert s.summary()["action"] == {"a": "bottle", "b": 4} and s.summary()["turn"] == "Mia"
