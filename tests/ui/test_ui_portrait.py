"""Portrait and flipped: every screen at 720x1280, the newer official Pi display
(Touch Display 2) standing up, and the three tables turned by 180 degrees for the far side.

At 720x1280 the app measures its unit against the panel turned (480x800: 1.5 pixels a unit, as
on a landscape 1280x720) and the screens arrange themselves for a tall window
(``app.portrait``): seats in more rows, the answer buttons under them, the game bar on two
lines. Each state is shot once (``tall_shot``: the layout check runs as in ``shot()``, and
must find nothing); the screenshots are screenshots/*_720x1280.png. One app, states reached by
commands, as in test_ui_screens.py: the landscape sizes are not shot again here.
"""

from __future__ import annotations

import pytest
from kivy.core.window import Window

from companion.core.model import Command
from tests.companion.cauldron_autoplay import brew_the_win
from ui_helpers import close_dialogs, frames, play_out, resize, shot, tall_shot

from ui import theme

FIVE = ["Anna", "Barb", "Carl", "Daniel", "Emma"]
RAVENS = [{"stack": stack, "points": 4, "raven": True}
          for stack in ("copper", "silver", "iron", "gold_shelf")]
CAULDRON = [{"name": "Anna", "character": "witch"}, {"name": "Barb", "character": "druid"},
            {"name": "Carl", "character": "trickster"}, {"name": "Daniel"}]
MILESTONES = {"magik_overflow": 12, "rituals_of_power": 18, "the_breaking": 27}
QUEST = {"game": "quest", "players": ["Mia", "Leo", "Dad"],
         "needed": ["rotten_egg", "newt_eye", "bat_wing"]}


@pytest.fixture
def tall(app):
    """The shared app in a 720x1280 window; 800x480 again afterwards."""
    close_dialogs()
    resize(720, 1280)
    yield app
    close_dialogs()
    resize(800, 480)


def start(app, setup: dict):
    assert app.start_game(setup) is None
    frames()
    return app.session


def do(session, what: str, who: str | None = None, **args):
    session.execute(Command(what, who, args))
    frames()


def dialog(name: str, opener) -> None:
    """A dialog opened at this size, shot, closed."""
    close_dialogs()
    opener()
    frames()
    tall_shot(name)
    close_dialogs()


def test_the_unit_and_the_portrait_flag_follow_the_window(tall):
    assert tall.portrait and tall.u == pytest.approx(1.5)
    assert theme.unit(720, 1280) == pytest.approx(1.5)      # not 0.9: designed, not squeezed
    assert theme.unit(800, 480) == 1.0
    # the 7" panel on its side: the Touch Display 2's layout in units, 32 units to spare
    assert theme.unit(480, 800) == pytest.approx(800 / 853)
    assert 480 / theme.unit(480, 800) >= 480 and 800 / theme.unit(480, 800) >= 853 - 0.5
    assert theme.unit(1280, 720) == pytest.approx(1.5 ** 0.5) and not theme.is_portrait(1280, 720)
    # a larger landscape panel: larger texts than on the 7-inch one, and more room in units
    for w, h in [(1024, 600), (1280, 720), (1920, 1080)]:
        assert 1 < theme.unit(w, h) < min(w / 800, h / 480)
        assert w / theme.unit(w, h) > 800 and h / theme.unit(w, h) > 480
    resize(800, 480)
    assert not tall.portrait and tall.u == 1.0
    resize(720, 1280)
    tall.go_home()
    frames()
    hardware = tall.screens.get_screen("home").ids.hardware
    assert hardware.width > 140 * tall.u     # portrait: a third of the width, not 124 units
    resize(1280, 720)       # the same unit, turned: what is sized in units is laid again
    assert not tall.portrait and hardware.width == pytest.approx(124 * tall.u)
    resize(720, 1280)


def test_home_and_the_settings_screens(tall):
    app = tall
    tall_shot("portrait_home_empty")
    brew = start(app, {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]})
    for name, raven in zip(("Anna", "Barb", "Carl", "Anna"), RAVENS):
        brew.execute(Command("adjust", name, {"potion": raven}))
    play_out(app)
    start(app, {"game": "witchs_brew", "players": FIVE}).execute(
        Command("play_role", "Anna", {"role": "druid"}))
    start(app, {"game": "cauldron", "players": CAULDRON, "milestones": MILESTONES})
    start(app, QUEST)
    app.go_home()
    frames()
    tall_shot("portrait_home")
    app.open_table_settings()
    frames()
    tall_shot("portrait_table_settings")
    app.open_hardware()
    frames()
    tall_shot("portrait_hardware_settings")
    app.screens.get_screen("hardware_settings").ids.scroll.scroll_y = 0   # the timing, the tray
    frames()
    tall_shot("portrait_hardware_settings_end")
    app.go_home()


def test_witchs_brew_setup_table_dialogs_and_result(tall):
    app = tall
    app.new_game("witchs_brew")
    frames()
    tall_shot("portrait_witchs_brew_setup")
    s = start(app, {"game": "witchs_brew", "players": FIVE})
    table = app.screens.get_screen("witchs_brew")
    tall_shot("portrait_witchs_brew_role_picker")
    s.execute(Command("play_role", "Anna", {"role": "warlock"}))
    s.execute(Command("so_be_it", "Barb"))
    do(s, "claim", "Carl")
    assert table.mode == "answer"
    tall_shot("portrait_witchs_brew_answer")
    dialog("portrait_witchs_brew_card_text", table.show_card_text)
    do(s, "pass", "Daniel")
    do(s, "pass", "Emma")
    assert table.mode == "resolve"
    tall_shot("portrait_witchs_brew_resolve")
    s.execute(Command("abstain", "Carl"))
    s.execute(Command("play_role", "Carl", {"role": "witch"}))
    for name in ("Daniel", "Emma", "Anna", "Barb"):
        s.execute(Command("pass", name))
    frames()
    dialog("portrait_witchs_brew_dialog_brew", table.resolve_panel.open_entry)
    dialog("portrait_witchs_brew_adjust", lambda: table.open_adjust(0))
    s.execute(Command("abstain", "Carl"))
    s.execute(Command("play_role", "Carl", {"role": "alchemist"}))
    for name in ("Daniel", "Emma", "Anna", "Barb"):
        s.execute(Command("pass", name))
    frames()
    tall_shot("portrait_witchs_brew_resolve_alchemist")
    dialog("portrait_game_log", app.root.ids.game_bar.open_log)
    app.undo()
    frames()
    tall_shot("portrait_witchs_brew_undone")
    app.undo_words = ""          # the undo above is no longer news
    app.go_home()
    start(app, {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"],
                "variants": ["excluded_roles"]})
    assert table.mode == "reveal"
    tall_shot("portrait_witchs_brew_variant_reveal")
    app.go_home()
    s = start(app, {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Daniel"]})
    for name, raven in zip(("Anna", "Barb", "Carl", "Daniel"), RAVENS):
        s.execute(Command("adjust", name, {"potion": raven}))
    play_out(app)
    frames()
    assert app.screens.current == "result"
    tall_shot("portrait_witchs_brew_result")


def test_cauldron_setup_table_dialogs_and_result(tall):
    app = tall
    app.new_game("cauldron")
    frames()
    tall_shot("portrait_cauldron_setup")
    app.screens.get_screen("cauldron_setup").show_panel("rules")
    frames()
    tall_shot("portrait_cauldron_setup_rules")
    names = [p["name"] for p in CAULDRON]
    s = start(app, {"game": "cauldron", "players": CAULDRON, "milestones": MILESTONES})
    table = app.screens.get_screen("cauldron")
    tall_shot("portrait_cauldron_setup_phase")
    dialog("portrait_cauldron_potion_entry", table.open_cards)
    for i, who in enumerate(names):
        s.execute(Command("add_potion", who, {"potion": {
            "name": f"Draught {i}", "kind": "easy", "yield": 3, "quick": False, "spell": False,
            "ingredients": ["spider_web", "frog_legs"]}}))
        s.execute(Command("add_potion", who, {"potion": {
            "name": f"Elixir {i}", "kind": "basic", "yield": 4, "quick": i == 0, "spell": False,
            "ingredients": ["spider_web", "spider_web", "any"]}}))
    do(s, "begin")
    dialog("portrait_cauldron_omen_entry", table.phase_panel.open_omen)
    do(s, "omen", text="Frost", produce={"frog_legs": -1})
    tall_shot("portrait_cauldron_fill")
    s.execute(Command("fill_board"))
    do(s, "turn_order_roll", "Anna", value=5)
    do(s, "turn_order_roll", "Barb", value=5)
    assert table.mode == "dice"
    tall_shot("portrait_cauldron_dice")
    from ui.games.cauldron.adjust import CauldronAdjustDialog
    from ui.games.cauldron.dice import CauldronFixDieDialog

    dialog("portrait_cauldron_fix_die", lambda: CauldronFixDieDialog().open())
    dialog("portrait_cauldron_adjust", lambda: CauldronAdjustDialog(1).open())
    for who, value in (("Carl", 2), ("Daniel", 1), ("Anna", 6), ("Barb", 3)):
        s.execute(Command("turn_order_roll", who, {"value": value}))
    frames()
    assert table.mode == "turn"
    tall_shot("portrait_cauldron_turn")
    left = s.state["ingredients_left"]          # two Spider Web left: the market after Anna
    s.execute(Command("adjust", args={"board": {k: (2 if k == "spider_web" else 0) - v
                                                for k, v in left.items() if v}}))
    do(s, "gather", "Anna", ingredients=["spider_web", "spider_web"])
    table.turn_panel.choose("brew")
    frames()
    tall_shot("portrait_cauldron_turn_brew")
    dialog("portrait_cauldron_seat", lambda: table.open_seat(0))
    table.show_track = True
    frames()
    tall_shot("portrait_cauldron_track")
    table.show_track = False
    table.turn_panel.choose("steal")
    frames()
    tall_shot("portrait_cauldron_turn_steal")
    table.turn_panel.choose("")
    frames()
    do(s, "end_turn", "Anna")
    assert app.prompt["phase"] == "market" and table.mode == "market"
    tall_shot("portrait_cauldron_market")
    app.go_home()
    s = start(app, {"game": "cauldron", "players": CAULDRON, "milestones": MILESTONES})
    for i, who in enumerate(names):
        s.execute(Command("add_potion", who, {"potion": {
            "name": f"Elixir {i}", "kind": "basic", "yield": 4, "quick": False, "spell": False,
            "ingredients": ["spider_web", "spider_web", "any"]}}))
    s.execute(Command("begin"))
    s.execute(Command("omen", args={"text": ""}))
    s.execute(Command("fill_board"))
    for who, value in zip(names, (6, 2, 3, 4)):
        s.execute(Command("turn_order_roll", who, {"value": value}))
    brew_the_win(s, others=("Barb",))
    frames()
    assert app.screens.current == "cauldron_result"
    tall_shot("portrait_cauldron_result")


def test_quest_setup_table_dialogs_and_result(tall):
    app = tall
    app.new_game("quest")
    frames()
    tall_shot("portrait_quest_setup")
    dialog("portrait_quest_board_facts", app.screens.get_screen("quest_setup").open_facts)
    s = start(app, QUEST)
    quest = app.screens.get_screen("quest")
    tall_shot("portrait_quest_roll")
    do(s, "action_roll", a="bottle", b=3)
    quest.pick("c0")
    frames()
    tall_shot("portrait_quest_move")
    do(s, "move_bottle", bottle=1, to="p1.3")
    do(s, "action_roll", a="bottle", b="spell")
    tall_shot("portrait_quest_announce")
    do(s, "announce_spell", spell="omniscience")
    do(s, "magic_roll", dice=[2, 5, 4])
    tall_shot("portrait_quest_magic")
    dialog("portrait_quest_fix_dice", quest.open_fix)
    dialog("portrait_quest_token", quest.open_token)
    do(s, "magic_roll", dice=[2, 6, 4])
    quest.pick("c4")
    frames()
    tall_shot("portrait_quest_reveal_ingredient")
    do(s, "reveal", bottle=2, ingredient="newt_eye")
    do(s, "action_roll", a="hat", b="spell")
    tall_shot("portrait_quest_block")
    app.go_home()
    s = start(app, QUEST)
    for path in range(1, 7):
        s.execute(Command("action_roll", args={"a": "hat", "b": "spell"}))
        s.execute(Command("block_path", args={"path": path}))
    frames()
    assert app.screens.current == "quest_result"
    tall_shot("portrait_quest_result")


@pytest.fixture
def flipped(app, tmp_path, monkeypatch):
    """The app turned for the far side at 800x480, on its own settings file; upright again
    afterwards."""
    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "settings.json"))
    app.load_table_settings()
    assert app.flip() == "" and Window.rotation == 180
    yield app
    app.flip()
    assert Window.rotation == 0


def test_the_three_tables_turned_for_the_far_side(flipped):
    app = flipped
    s = start(app, {"game": "witchs_brew", "players": FIVE})
    s.execute(Command("play_role", "Anna", {"role": "warlock"}))
    do(s, "so_be_it", "Barb")
    shot("flipped_witchs_brew_answer")
    start(app, {"game": "cauldron", "players": CAULDRON, "milestones": MILESTONES})
    shot("flipped_cauldron_setup_phase")
    s = start(app, QUEST)
    do(s, "action_roll", a="bottle", b="spell")
    shot("flipped_quest_announce")
    app.go_home()


def test_a_long_bluetooth_reason_takes_the_lines_it_needs(app, tall):
    """No adapter: the smart dice' note says why in three lines in portrait, none cut (it was
    held to two by its box, and the layout check found it clipped after a scan)."""
    app.open_hardware()
    frames()
    screen = app.screens.get_screen("hardware_settings")
    screen.ids.smart_dice.note = ("Bluetooth not available: no Bluetooth adapter was found "
                                  "(is it off, or is bluez missing?). Dice can still be "
                                  "entered by touch.")
    screen.ids.scroll.scroll_y = 0
    frames()
    note = screen.ids.smart_dice.ids.note
    assert note.texture_size[1] > app.u * 54                 # more lines than the box had
    assert note.parent.height >= note.texture_size[1]
    tall_shot("portrait_hardware_bluetooth_absent")
    app.go_home()
