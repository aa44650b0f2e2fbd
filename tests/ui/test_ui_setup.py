"""Setup by touch: seat count, who starts, the variant (3-4 players only), and names that stay
visible above a docked touch keyboard."""

from __future__ import annotations

from ui_helpers import button, dialogs, frames, tap, tap_title, wait_for


def test_seats_starter_and_variant(app):
    tap_title("Witch's Brew")
    setup = app.screens.get_screen("setup")
    # empty fields with "Player N" as their hint: a tap and typing gives the typed name alone
    assert setup.count == 4 and [r.ids.name.text for r in setup.rows[:4]] == [""] * 4
    assert [r.ids.name.hint_text for r in setup.rows[:4]] == setup.names() == [
        "Player 1", "Player 2", "Player 3", "Player 4"]
    tap_title("-")
    assert setup.count == 3 and len(setup.ids.seats.children) == 3
    tap_title("Variant: off")
    assert setup.variant
    tap(button("+"))
    tap(button("+"))
    assert setup.count == 5 and not setup.variant
    assert button("Variant: off").disabled
    starts_here = [w for w in setup.ids.seats.children[::-1]]
    tap(button("Start here", starts_here[2]))    # seat 3
    assert setup.starter == 2
    tap_title("Start the game")
    assert app.session.prompt()["turn"] == "Player 3"
    assert app.session.setup.get("variants", []) == []


def test_variant_game_starts_with_the_reveal(app):
    tap_title("Witch's Brew")
    tap_title("-")
    tap_title("Variant: off")
    tap_title("Start the game")
    table = app.screens.get_screen("witchs_brew")
    assert table.mode == "reveal" and table.turn_name == "The whole table"
    tap_title("Choose the spare cards")         # the cards lie on a sheet over the table
    (sheet,) = dialogs()
    tap_title("Witch", sheet)
    tap_title("Druid", sheet)
    tap_title("Turn over", sheet)
    assert not dialogs()
    assert app.summary["excluded"] == ["witch", "druid"] and table.mode == "play"
    app.undo()
    frames()
    tap_title("Draw at random")                  # SystemRandom, in the UI only
    assert len(app.summary["excluded"]) == 2 and table.mode == "play"


def test_a_name_stays_above_the_docked_keyboard(app):
    from kivy.core.window import Window
    from kivy.uix.vkeyboard import VKeyboard

    tap_title("Witch's Brew")
    setup = app.screens.get_screen("setup")
    keyboard = VKeyboard(size_hint=(None, None), size=(Window.width, Window.height * 0.45),
                         pos=(0, 0))
    Window.add_widget(keyboard)
    try:
        name = setup.rows[3].ids.name
        name.focus = True
        assert wait_for(lambda: setup.lift > 0)
        frames()
        assert name.to_window(name.x, name.y)[1] >= keyboard.top
        name.focus = False
        assert wait_for(lambda: setup.lift == 0)
    finally:
        Window.remove_widget(keyboard)


def test_a_first_cauldron_setup_keeps_nothing_and_typing_a_name_is_the_name(app):
    """A first Cauldron game once said "Kept from the last Cauldron game"; a name
    field held the text "Player 1", so a tap and typing gave "PlayerAnna 1"."""
    from kivy.core.window import Window
    from test_ui_cauldron_screens import start

    from ui_helpers import texts

    def kept_said() -> bool:
        setup = app.screens.get_screen("cauldron_setup")
        said = False
        for panel in ("rules", "settings"):
            setup.show_panel(panel)
            frames()
            said |= any("Kept from the last" in t for t in texts(setup))
        setup.show_panel("players")
        frames()
        return said

    app.new_game("cauldron")
    frames()
    assert not kept_said()
    field = app.screens.get_screen("cauldron_setup").rows[0].ids.name
    assert field.text == "" and field.hint_text == "Player 1"
    field.focus = True
    for ch in "Anna":
        Window.dispatch("on_textinput", ch)
    frames()
    field.focus = False
    assert field.text == "Anna"
    start(app)                                   # a Cauldron game set up: now it is kept
    app.go_home()
    frames()
    app.new_game("cauldron")
    frames()
    assert kept_said()
