"""The table rules at setup, by taps: who opens the Market (the full rules say left, the quick
reference right), Quick Game milestones, the Field tiles in the box, and per seat an ability
once per season and the most Cellars; a setup the rules refuse says why; everything is
remembered for the next Cauldron game. And the potion catalogue: every card entered in any
earlier Cauldron game is offered again, once, read from the stored commands once per screen.
Screenshots: cauldron_setup_settings_*."""

from __future__ import annotations

from companion.core.model import Command
from companion.games import get_rules
from kivy.uix.behaviors import ButtonBehavior
from ui_helpers import both_sizes, button, dialogs, frames, tap, tap_title, walk


def home_button(game: str):
    (found,) = [w for w in walk() if getattr(w, "game", None) == game
                and isinstance(w, ButtonBehavior) and w.get_root_window() is not None]
    return found


def open_setup(app):
    app.go_home()
    frames()
    tap(home_button("cauldron"))
    assert app.screens.current == "cauldron_setup"
    return app.screens.get_screen("cauldron_setup")


def seat_line(setup, seat: int):
    return list(reversed(setup.ids.seat_rules.children))[seat]


def test_table_rules_by_taps_refused_then_started_and_remembered(app):
    setup = open_setup(app)
    tap_title("-")                               # three seats
    for row, name in zip(setup.rows, ("Anna", "Barb", "Carl")):
        row.ids.name.text = name
    tap_title("Next")
    tap_title("Table rules")
    assert setup.panel == "settings"
    assert setup.market_start == "left" and setup.quick_passes and not setup.supply
    tap_title("Right")
    tap_title("They trigger")
    tap_title("Counted")
    both_sizes("cauldron_setup_settings_fields", before=setup.count_fields)
    tap_title("Counted")
    (picker,) = dialogs()
    web = [s for s in walk(picker) if getattr(s, "label", None) == "Web"][0]
    tap(button("+", web))
    tap(button("-", [s for s in walk(picker) if getattr(s, "label", None) == "Egg"][0]))
    tap_title("Use these counts", picker)
    # the guess shares the box's 44 Fields out: 7 Web, 7 Frog, 6 of each other type
    assert setup.supply["spider_web"] == 8 and setup.supply["dragon_egg"] == 5
    tap(button("Any time", seat_line(setup, 0)))   # Anna's ability: once per season
    assert setup.rows[0].once
    tap(button("+", seat_line(setup, 0)))          # her card allows a third Cellar
    assert setup.rows[0].max_cellars == 3
    both_sizes("cauldron_setup_settings", before=lambda: _settings_again(app))
    # A setup the rules refuse: the reason shows on this panel, nothing starts.
    setup.toggle_variant("simple")
    setup.set_character(setup.rows[2], "wizard")
    tap_title("Start the game")
    assert app.screens.current == "cauldron_setup"
    assert "Simple Game does not use the Wizard" in setup.error
    both_sizes("cauldron_setup_settings_refused")
    setup.set_character(setup.rows[2], "")
    tap_title("Start the game")
    assert app.screens.current == "cauldron"
    config = app.session.setup
    assert config["settings"]["market_start"] == "right"
    assert config["settings"]["quick_passes_milestones"] is False
    assert config["settings"]["field_supply"]["spider_web"] == 8
    state = app.session.state
    assert state["settings"]["market_start"] == "right"
    assert state["players"][0]["once_per_season"] and state["players"][0]["max_cellars"] == 3
    assert not state["players"][1]["once_per_season"]
    assert state["players"][1]["max_cellars"] == 2
    # The next Cauldron game starts from these table rules.
    setup = open_setup(app)
    assert setup.market_start == "right" and not setup.quick_passes
    assert setup.supply["dragon_egg"] == 5
    assert setup.rows[0].once and setup.rows[0].max_cellars == 3
    setup.show_panel("settings")
    frames()
    assert button("Once a season", seat_line(setup, 0))


def _settings_again(app):
    setup = app.screens.get_screen("cauldron_setup")
    setup.show_panel("settings")
    frames()


def earlier_game(app, cards, undone=()):
    """A stored Cauldron game in which Anna entered ``cards`` (``undone`` ones taken back)."""
    s = app.store.new_game(get_rules("cauldron"), {"game": "cauldron",
                                                   "players": ["Anna", "Barb"]})
    for card in cards:
        s.execute(Command("add_potion", "Anna", {"potion": card, "source": "omen"}))
        if card["name"] in undone:
            s.execute(Command("undo"))
    return s


def card(name, ingredients, kind="basic"):
    return {"name": name, "kind": kind, "yield": 4, "ingredients": ingredients,
            "quick": False, "spell": False}


def test_every_earlier_card_is_offered_once_and_read_once(app, monkeypatch):
    for i in range(5):                           # more games than the last three
        earlier_game(app, [card(f"Tonic {i}", ["frog_legs"] * 2),
                           card("Oil of Earthquakes", ["spider_web"] * 3)])
    earlier_game(app, [card("Oil of Earthquakes", ["spider_web", "dragon_egg"]),
                       card("Mistake", ["snake_skin"])], undone=("Mistake",))
    from ui.games.cauldron import potion as cauldron_potion

    reads = []
    read = cauldron_potion.entered
    monkeypatch.setattr(cauldron_potion, "entered",
                        lambda *a, **k: reads.append(a) or read(*a, **k))
    setup = open_setup(app)
    assert len(reads) == 1                       # the earlier games read in one statement
    setup.start()
    assert app.screens.current == "cauldron"
    assert len(reads) == 2                       # the table opens: read again, once
    tap_title("Anna")                            # the setup panel's seat button
    (dialog,) = dialogs()
    titles = [b.title for b in dialog.ids.catalogue.children]
    assert sorted(titles) == sorted([f"Tonic {i}" for i in range(5)]
                                    + ["Oil of Earthquakes", "Oil of Earthquakes"])
    assert "Mistake" not in titles               # taken back in its game: not a card
    (tonic,) = [b for b in dialog.ids.catalogue.children if b.title == "Tonic 4"]
    dialog.ids.catalogue.parent.scroll_to(tonic, animate=False)
    frames()
    tap(tonic)
    assert app.summary["players"][0]["potions"][0]["name"] == "Tonic 4"
    dialog.dismiss()
    frames()
    tap_title("Barb")
    (dialog,) = dialogs()
    assert len(dialog.ids.catalogue.children) == 7   # Tonic 4 from this game, not twice
    assert len(reads) == 2                       # the dialogs read the kept list


def test_a_card_bought_with_its_entry_is_in_the_catalogue(app):
    from test_ui_cauldron_fixes import to_market
    from ui.games.cauldron.potion import read_cards

    s = to_market(app)
    s.execute(Command("buy", "Barb", {"item": "basic_potion",
                                      "potion": card("Philtre", ["dragon_egg", "any"])}))
    names = [c["name"] for c in read_cards(app.store, s.game_id)]
    assert names[-1] == "Philtre" and "Draught 0" in names
