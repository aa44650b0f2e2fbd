"""With the table setting Hands on phones, no Pi screen names a seat's unplayed cards (the rule
as a class): every Cauldron screen and dialog that shows a seat (its card, its dialog, the hand
correction, the card entry, the brew) and the Witch's Brew table with hands chosen is walked,
and no potion card or role held in a hand appears in any text of the window, except behind that
seat's own Hidden entry while it is open. Screenshots: hands_hidden_*."""

from __future__ import annotations

from dataclasses import replace

import pytest
from companion.core.model import Command
from test_ui_cauldron_screens import FOUR, card, start, to_turns
from ui_helpers import both_sizes, close_dialogs, dialogs, frames, tap_title, walk

from ui.games.cauldron.potion import CauldronPotionDialog

NAMES = [p["name"] for p in FOUR]
#: Two cards per seat, with names no other word on the screens contains.
CARDS = {who: [f"Moonwort {who}", f"Nightshade {who}"] for who in NAMES}


def words_on_screen() -> list[str]:
    """Every text of the window, the dialogs included: labels, button titles and captions."""
    out = []
    for w in walk():
        for attr in ("text", "title", "caption", "subtitle", "heading"):
            value = getattr(w, attr, None)
            if isinstance(value, str) and value:
                out.append(value)
    return out


def named(cards) -> list[str]:
    said = "\n".join(words_on_screen())
    return [c for c in cards if c in said]


def everyone(but: str | None = None) -> list[str]:
    return [c for who, cs in CARDS.items() if who != but for c in cs]


@pytest.fixture
def hands_on(app):
    app.table_settings = replace(app.table_settings, hands=True)
    yield app
    close_dialogs()
    app.table_settings = replace(app.table_settings, hands=False)


def cauldron(app):
    s = start(app)
    for who, names in CARDS.items():
        s.execute(Command("add_potion", who, {"potion": card(names[0], ["spider_web",
                                                                       "frog_legs"],
                                                             kind="easy", gain=3)}))
        s.execute(Command("add_potion", who, {"potion": card(names[1], ["spider_web"] * 2)}))
    to_turns(s, NAMES)
    frames()
    return s, app.screens.get_screen("cauldron")


def test_no_cauldron_screen_names_a_seats_cards_but_its_own_open_hidden_entry(hands_on):
    app = hands_on
    _s, table = cauldron(app)
    assert named(everyone()) == []                             # the table screen
    for seat, who in enumerate(NAMES):
        table.open_seat(seat)                                  # the seat's correction dialog
        frames()
        assert named(everyone()) == [], who
        if seat == 1:
            both_sizes("hands_hidden_seat", before=lambda: (table.open_seat(1), frames()))
            both_sizes("hands_hidden_seat_open", before=lambda: (
                table.open_seat(1), frames(), dialogs()[0].reveal(True), frames()))
            table.open_seat(1)
            frames()
        tap_title(f"Hidden entry: {who}'s cards")              # the seat's own entry, open
        assert named(everyone(but=who)) == [] and named(CARDS[who]) == CARDS[who]
        tap_title("Hide the cards")
        assert named(everyone()) == []
        (dialog,) = dialogs()
        dialog.correct()                                       # the hand correction
        frames()
        assert named(everyone()) == [], who
        close_dialogs()
        CauldronPotionDialog.open_for(who)                     # entering a card: this game's
        frames()                                               # cards are in hands
        assert named(everyone()) == [], who
        close_dialogs()
    table.turn_panel.choose("brew")                            # the brew: a count, then the
    frames()                                                   # seat's own Hidden entry
    assert named(everyone()) == []
    both_sizes("hands_hidden_brew")
    tap_title("Hidden entry: Anna's cards")
    assert named(everyone(but="Anna")) == [] and named(CARDS["Anna"]) == CARDS["Anna"]
    table.turn_panel.choose("")
    frames()
    table.turn_panel.choose("brew")                            # closed again on reopening
    frames()
    assert named(everyone()) == []


def test_without_the_setting_the_seat_dialog_and_the_brew_name_the_cards(app):
    """The Pi-only table keeps its lists (the walk above is not blind)."""
    _s, table = cauldron(app)
    table.open_seat(0)
    frames()
    assert named(CARDS["Anna"]) == CARDS["Anna"]
    close_dialogs()
    table.turn_panel.choose("brew")
    frames()
    assert named(CARDS["Anna"]) == CARDS["Anna"]
    table.turn_panel.choose("")
    frames()


def test_witchs_brew_screens_are_the_same_whatever_the_hands_hold(hands_on):
    """The role cards show all twelve roles whatever the hands: so the rule is checked by
    swapping the hands (each seat a different five) and finding the window's words unchanged,
    when the hands are chosen and after a role is announced and answered."""
    import re

    from test_ui_screens import start as brew_start, table as brew_table

    app = hands_on
    hands = [{"Anna": ["witch", "druid", "wizard", "warlock", "alchemist"],
              "Barb": ["witch", "wolf_keeper", "snake_hunter", "herb_collector", "assistant"],
              "Carl": ["druid", "cutpurse", "begging_monk", "fortune_teller", "assistant"]},
             {"Anna": ["witch", "druid", "cutpurse", "warlock", "herb_collector"],
              "Barb": ["witch", "wizard", "alchemist", "begging_monk", "fortune_teller"],
              "Carl": ["druid", "wolf_keeper", "snake_hunter", "assistant", "wizard"]}]
    seen = []
    for held in hands:
        s = brew_start(app, ["Anna", "Barb", "Carl"])
        for who, roles in held.items():
            s.execute(Command("choose_hand", who, {"roles": roles}))
        brew_table(app).refresh()
        frames()
        chosen = words_on_screen()
        s.execute(Command("play_role", "Anna", {"role": "witch"}))   # Barb holds it too
        brew_table(app).refresh()
        frames()
        clock = re.compile(r"\d+:\d\d")
        seen.append([w for w in chosen + words_on_screen() if not clock.search(w)])
    assert any("Barb:  Claim it, agree or pass" in w for w in seen[0])   # the holder is asked
    assert seen[0] == seen[1]


def test_cauldron_setup_and_an_undone_card_say_no_name(hands_on):
    """The setup's seat buttons say how many cards are left to enter; undoing and redoing a
    card entered says so without its name."""
    app = hands_on
    s = start(app)
    for who, names in CARDS.items():
        s.execute(Command("add_potion", who, {"potion": card(names[0], ["spider_web"] * 2,
                                                             kind="easy", gain=3)}))
    frames()
    assert named(everyone()) == []
    app.undo()
    frames()
    assert s.state["players"][3]["potions"] == [] and named(everyone()) == []
    app.redo()
    frames()
    assert s.state["players"][3]["potions"] and named(everyone()) == []
