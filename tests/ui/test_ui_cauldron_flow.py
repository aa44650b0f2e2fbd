"""Cauldron by touch, as the table plays it: setup (seats, characters, milestones), potion
cards, the Omen, filling the board, turn order dice, a gather and the end of the turn; the
Witch's two picks and a steal with its die; a refused tap that explains itself and changes
nothing; the Market: a purchase, a Field, and a refused one whose rule is on its card; a roll-off
for the fewest Magik by dice; and resuming an unfinished game."""

from __future__ import annotations

from companion.core.model import Command
from kivy.uix.behaviors import ButtonBehavior
from test_ui_cauldron_screens import to_the_market
from ui_helpers import button, dialogs, find, frames, tap, tap_title, texts, walk


def table(app):
    return app.screens.get_screen("cauldron")


def home_button(game: str):
    (found,) = [w for w in walk() if getattr(w, "game", None) == game
                and isinstance(w, ButtonBehavior) and w.get_root_window() is not None]
    return found


def to_the_first_turn(app, kinds=("easy",)):
    """The three seats' potion cards of ``kinds`` (two Frog Legs each), a calm Omen, the board
    filled and the turn order rolled: Anna's first Harvest turn."""
    s = app.session
    for who in ("Anna", "Barb", "Carl"):
        for kind in kinds:
            s.execute(Command("add_potion", who, {"potion": {
                "name": f"{kind} {who}", "kind": kind, "yield": 3,
                "ingredients": ["frog_legs", "frog_legs"]}}))
    for command in (Command("begin"), Command("omen", args={"text": "calm"}),
                    Command("fill_board"), Command("roll", args={"value": 6}),
                    Command("roll", args={"value": 2}), Command("roll", args={"value": 1})):
        s.execute(command)
    frames()
    return s


def new_table(app, names=("Anna", "Barb", "Carl")):
    """Home -> Cauldron -> seats -> variants and milestones -> start, all by taps."""
    tap(home_button("cauldron"))
    assert app.screens.current == "cauldron_setup"
    setup = app.screens.get_screen("cauldron_setup")
    tap_title("-")
    assert setup.count == 3
    for row, name in zip(setup.rows, names):
        row.ids.name.text = name
    tap(setup.rows[0].ids.character)             # Anna plays the Witch
    (picker,) = dialogs()
    tap_title("Witch", picker)
    assert setup.rows[0].character == "witch"
    assert setup.rows[0].ids.ability.text.startswith("Little Helpers")
    tap_title("Next")
    assert setup.panel == "rules"
    rituals = setup.steppers["rituals_of_power"]
    before = rituals.value
    tap(button("+", rituals))
    assert rituals.value == before + 1
    tap_title("Start the game")
    assert app.screens.current == "cauldron"
    assert app.session.setup["milestones"]["rituals_of_power"] == before + 1
    return setup


def enter_card(app, who: str, name: str, parts: list[str]) -> None:
    tap_title(who)                               # the setup panel's seat button
    (dialog,) = dialogs()
    dialog.ids.potion_name.text = name
    for part in parts:
        tap_title(part, dialog)
    tap_title("Enter the card", dialog)


def test_setup_fill_dice_gather_end_turn_by_taps(app):
    new_table(app)
    assert app.prompt["phase"] == "setup" and table(app).mode == "phase"
    enter_card(app, "Anna", "Oil of Earthquakes", ["Spider Web", "Spider Web", "Spider Web"])
    (dialog,) = dialogs()                        # Anna still has a Basic Potion to enter
    assert [p["name"] for p in app.summary["players"][0]["potions"]] == ["Oil of Earthquakes"]
    assert app.summary["players"][0]["owed"] == ["basic"]
    tap_title("Close", dialog)
    tap_title("Barb")
    (dialog,) = dialogs()
    tap_title("Oil of Earthquakes", dialog)      # one tap reuses a card entered before
    assert app.summary["players"][1]["potions"][0]["ingredients"] == ["spider_web"] * 3
    tap_title("Close", dialog)
    tap_title("Begin anyway")                    # a card not entered: its words say so
    assert app.prompt["phase"] == "omen"
    tap_title("Nothing to enter")
    assert app.prompt["text"] == "Fill the board: 4 Spider Web, 4 Frog Legs, 4 Poisonous Mushroom"
    # the counts are on the panel's chips, said once: not again under the headline
    shown = texts(table(app))
    assert all(c in shown for c in ("4 Spider Web", "4 Frog Legs", "4 Poisonous Mushroom"))
    assert "Spider Web" not in table(app).detail, table(app).detail
    tap_title("Board filled")
    assert app.prompt["phase"] == "turn_order" and table(app).mode == "dice"
    tap_title("6")                               # Anna's die
    assert table(app).dice.chosen == "Barb"
    tap_title("3")
    tap_title("2")                               # Carl
    assert app.prompt["turn"] == "Anna" and table(app).mode == "turn"
    assert app.summary["turn_order"] == ["Anna", "Barb", "Carl"]
    tap_title("Gather")                          # the Action's choices over the seats
    tap_title("Spider Web")                      # one Ingredient: the Witch may take two
    assert app.summary["players"][0]["pool"] == {"spider_web": 1}
    assert app.summary["action"] == "gather"
    assert "Anna gathered" in app.prompt["text"]
    tap_title("End turn")
    assert app.prompt["turn"] == "Barb"
    assert app.summary["ingredients_left"]["spider_web"] == 3


def test_witch_takes_two_a_steal_rolls_and_a_refused_tap_changes_nothing(app):
    new_table(app)
    s = to_the_first_turn(app, ("easy", "basic"))
    tap_title("Gather")
    tap_title("Take two")                        # Little Helpers
    tap_title("Frog Legs")
    tap_title("Mushroom")                        # too long for its button: the short word
    assert app.summary["players"][0]["pool"] == {"frog_legs": 1, "poisonous_mushroom": 1}
    tap_title("End turn")
    # Barb has not acted: ending the turn is refused, explained, and changes nothing.
    before, steps = app.summary, len(s.done_steps())
    tap_title("End turn")
    assert "must take one Action" in app.refusal
    assert app.summary == before and len(s.done_steps()) == steps
    app.dismiss_refusal()
    tap_title("Steal")
    tap_title("Anna")
    tap_title("Frog Legs")                       # Anna's Frog Legs; now the die
    assert table(app).mode == "dice"
    assert "Barb tries to steal Frog Legs from Anna" in table(app).dice.heading
    tap_title("5")
    assert app.summary["players"][1]["pool"] == {"frog_legs": 1}
    assert app.summary["steal"]["success"] and table(app).mode == "turn"
    assert not app.can_undo                      # a die cannot be undone


def to_market(app):
    s = app.session
    for who in ("Anna", "Barb", "Carl"):
        for kind in ("easy", "basic"):
            s.execute(Command("add_potion", who, {"potion": {
                "name": f"{kind} {who}", "kind": kind, "yield": 3,
                "ingredients": ["frog_legs"] * 2}}))
    for command in (Command("begin"), Command("omen", args={"text": "calm"}),
                    Command("fill_board"), Command("roll", args={"value": 6}),
                    Command("roll", args={"value": 2}), Command("roll", args={"value": 1}),
                    Command("adjust_magik", "Barb", {"delta": 5})):
        s.execute(command)
    to_the_market(app, s, "frog_legs")


def test_market_purchase_and_a_refused_one_with_its_rule(app):
    new_table(app)
    to_market(app)
    market = table(app).market
    cards = {c.item: c for c in find(lambda w: hasattr(w, "item") and hasattr(w, "reason"), market)}
    rule = "Advanced Potions can be bought only after Rituals of Power"
    assert cards["advanced_potion"].reason == rule   # the card its name and price, the tap why
    assert "After Rituals of Power" not in texts(market) and not cards["advanced_potion"].ok
    before, steps = app.summary, len(app.session.done_steps())
    tap_title("Advanced Potion", market)
    assert app.refusal == rule
    assert app.summary == before and len(app.session.done_steps()) == steps
    app.dismiss_refusal()
    tap_title("Field", market)                   # which Field? its Ingredient comes with it
    tap_title("Mandrake Root", market)
    barb = app.summary["players"][1]
    assert barb["magik"] == 7 - 3 and barb["pool"] == {"mandrake_root": 1}
    assert app.summary["fields"]["mandrake_root"] == 1
    assert app.prompt["turn"] == "Carl"          # one purchase each: the Market moves on
    # Anna and Carl share the fewest Magik: a card asks for the LSP, so they roll off.
    assert app.summary["lsp"] is None
    tap_title("Track")
    tap_title("Fewest Magik")                    # its caption: "tied: roll off"
    assert table(app).mode == "dice"
    assert "Roll-off for the fewest Magik" in table(app).ask     # said once: the headline
    assert table(app).dice.heading == "The lowest roll wins"
    tap_title("1")                               # Anna
    tap_title("4")                               # Carl
    assert app.summary["lsp"] == "Anna" and table(app).mode == "market"
    tap_title("Basic Potion", table(app).market)  # Carl owns 2 Basic Potions: costs 2 = his 2
    assert app.summary["players"][2]["magik"] == 0
    (dialog,) = dialogs()                        # the card drawn is entered at once
    assert "Enter a potion card for Carl" == dialog.title
    dialog.dismiss()
    frames()
    assert app.summary["players"][2]["owed"] == ["basic"]
    assert "Cards (1)" in [w.title for w in find(lambda w: hasattr(w, "title"), table(app))]


def test_an_unfinished_game_resumes_where_it_stood(app):
    new_table(app)
    app.session.execute(Command("begin"))
    app.go_home()
    frames()
    assert "Cauldron  -  Harvest Season 1" in texts(app.root)
    (card,) = [w for w in walk() if hasattr(w, "resume_button") and w.get_root_window()]
    tap(card.resume_button)
    assert app.screens.current == "cauldron" and app.prompt["phase"] == "omen"
    assert table(app).mode == "phase" and button("Enter the Omen", table(app))
