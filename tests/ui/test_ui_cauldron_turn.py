"""Cauldron around the turn: the table says in large type who acts and what the rulebook asks
now, the seat's actions are a row of large buttons, an action that is not possible says why on
a tap (and sends nothing), the rules' LSP/HSP never reach the screen, and a potion card's Magik
follows its kind. Screenshots: cauldron_turn_*."""

from __future__ import annotations

from companion.core.model import Command
from companion.games.cauldron import data as d
from test_ui_cauldron_screens import FOUR, deal, start, to_turns
from ui_helpers import both_sizes, button, dialogs, frames, resize, tap, tap_title, texts, walk

from ui.games.cauldron.setup import suggested_supply

NAMES = [p["name"] for p in FOUR]


def table(app):
    return app.screens.get_screen("cauldron")


def test_who_acts_and_what_now_in_large_type(app):
    s = start(app)
    deal(s, NAMES)
    to_turns(s, NAMES)
    frames()
    screen = table(app)
    assert screen.turn_name == "Anna" and screen.ask == "Gather, steal or brew"
    assert screen.ids.ask.font_size >= 24 * app.u and screen.ids.turn_name.font_size >= 24 * app.u
    # the rules' sentence, smaller, without what the headline already says,
    # where its line holds it at the detail size (at 800x480 the Omen's note alone)
    resize(1280, 720)
    frames()
    assert "on the board: 5 Spider Web, 4 Frog Legs, 5 Poisonous Mushroom" in screen.detail
    resize(800, 480)
    frames()
    assert "Gather, steal or brew" not in screen.detail
    actions = [button(t, screen.turn_panel) for t in ("Gather", "Steal", "Brew", "Spell",
                                                      "Cellar", "End turn")]
    assert all(b.font_size >= 24 * app.u and b.height >= 48 * app.u for b in actions)
    assert not hasattr(screen, "timer_text")     # the game bar shows the clocks now
    tap_title("Gather")
    assert screen.turn_panel.choice == "gather" and screen.seats.parent is None
    both_sizes("cauldron_turn_choices_gather")
    tap_title("Back to the seats")
    assert screen.turn_panel.choice == "" and screen.seats.parent is not None


def test_an_action_not_possible_says_why_on_a_tap_and_sends_nothing(app):
    s = start(app)
    deal(s, NAMES)
    to_turns(s, NAMES)
    s.execute(Command("gather", "Anna", {"ingredient": "spider_web"}))
    frames()
    screen, steps = table(app), len(s.done_steps())
    steal = button("Steal", screen.turn_panel)
    assert not steal.disabled                    # grey, yet a tap still answers
    tap(steal)
    choices = screen.turn_panel.choices
    assert choices.heading == "Steal: not possible now"
    reason = texts(choices.ids.content)
    assert len(reason) == 1 and reason[0]        # the rules' own words, nothing else
    assert [w.font_size for w in walk(choices.ids.content) if hasattr(w, "font_size")][0] \
        >= 24 * app.u
    assert len(s.done_steps()) == steps and not app.refusal
    both_sizes("cauldron_turn_not_possible")
    s.execute(Command("end_turn", "Anna"))
    frames()
    assert screen.turn_panel.choice == "" and screen.ask == "Gather, steal or brew"


def test_fewest_and_most_magik_in_words_never_lsp_or_hsp(app):
    s = start(app)
    deal(s, NAMES)
    to_turns(s, NAMES)
    s.execute(Command("rolloff", args={"kind": "lsp"}))
    frames()
    screen = table(app)
    assert screen.ask.startswith("Roll-off for the fewest Magik: ")
    assert screen.dice.heading == "The lowest roll wins"       # what the headline does not say
    shown = " ".join(texts(app.root))
    assert "LSP" not in shown and "HSP" not in shown
    assert "Fewest-Magik roll-off (lowest roll): waiting for" in screen.turn_text
    both_sizes("cauldron_dice_rolloff")
    screen.show_track = True
    frames()
    shown = " ".join(texts(app.root) + screen.track.legend_text)
    assert "LSP" not in shown and "HSP" not in shown and "Most Magik" in shown
    screen.show_track = False


def test_a_potion_cards_magik_follows_its_kind(app):
    s = start(app)
    frames()
    table(app).open_cards()
    (dialog,) = dialogs()
    if dialog.mode == "pick":                    # the cards entered before come first
        tap_title("A new card", dialog)
    assert dialog.mode == "new"
    dialog.set_kind("advanced")
    assert dialog.ids.yield_.value == 7
    dialog.set_kind("easy")
    assert dialog.ids.yield_.value == 3
    dialog.ids.potion_name.text = "Oil of Earthquakes"
    for part in ("Spider Web", "Frog Legs"):
        tap_title(part, dialog)
    tap_title("Enter the card", dialog)
    potion = s.state["players"][0]["potions"][0]
    assert potion["name"] == "Oil of Earthquakes" and potion["yield"] == 3
    dialog.dismiss()


def test_the_field_guess_fits_the_box():
    guess = suggested_supply(44)
    assert sum(guess.values()) == 44 and set(guess) == set(d.INGREDIENTS)
    assert max(guess.values()) - min(guess.values()) <= 1


def test_a_seats_status_says_what_the_steal_did(app):
    """Not "Has stole" after a failed steal. The status in the state's words."""
    app.screens.get_screen("cauldron")                 # its modules loaded
    from ui.games.cauldron.table import CauldronScreen

    prompt = {"seat": 0, "phase": "turns"}
    summary = {"players": [{}, {}, {}], "action": "steal", "steal": {"success": None}}
    said = lambda: CauldronScreen.statuses(summary, prompt)[0]   # noqa: E731
    assert said() == "Stealing"
    summary["steal"]["success"] = False
    assert said() == "Steal failed"
    summary["steal"]["success"] = True
    assert said() == "Has stolen"
    summary.update(action="gather", steal=None)
    assert said() == "Has gathered"
