"""Physical inputs reach the screen by the one path: a device thread puts an InputEvent on the
Inbox, a Clock trigger drains it on the Kivy main thread, the session plays it, panels update."""

from __future__ import annotations

import threading

from companion.core.model import Command
from hardware.config import DEMO_CONFIG
from ui_helpers import frames, panel_texts, wait_for
from wb_counts import shows


def start(app):
    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl", "Daniel"]}) is None
    app.session.execute(Command("play_role", "Anna", {"role": "warlock"}))


def test_a_mock_gpio_press_reaches_the_screen_on_the_main_thread(app, monkeypatch):
    start(app)
    main = threading.current_thread()
    woken_from, handled_on = [], []
    wake, handle = app.devices.inbox.wake, app.handle
    monkeypatch.setattr(app.devices.inbox, "wake",
                        lambda: (woken_from.append(threading.current_thread()), wake()))
    monkeypatch.setattr(app, "handle",
                        lambda e: (handled_on.append(threading.current_thread()), handle(e)))
    pin = app.devices.pin_factory.pin(DEMO_CONFIG.buttons["seat2.so_be_it"])

    def press():
        pin.drive_low()
        pin.drive_high()

    worker = threading.Thread(target=press, name="gpio-test")
    worker.start()
    worker.join(2)
    assert wait_for(lambda: "So be it" in panel_texts(app, "Barb"))
    assert [t.name for t in woken_from] == ["gpio-test"]   # put on the device thread
    assert handled_on == [main]                              # played on the main thread
    assert len(app.devices.inbox) == 0
    assert app.summary["answers"][-1] == {"player": "Barb", "answer": "so_be_it"}
    assert shows(app, "Barb", gold=3)


def test_demo_keys_press_seat_buttons_and_undo_shows_its_key(app):
    from kivy.core.window import Keyboard, Window

    start(app)
    frames()
    table = app.screens.get_screen("witchs_brew")
    # Barb is seat 2: claim W, so be it S, pass X; the answer buttons say only their words
    # (one line each, read from a chair), the keys are the demo keyboard's
    assert [b.title for b in (table.answer_bar.ids.claim, table.answer_bar.ids.so_be_it,
                              table.answer_bar.ids.pass_)] == ["I am the Warlock!", "So be it!",
                                                              "Pass"]
    Window.dispatch("on_key_down", Keyboard.keycodes["w"], 0, "w", [])
    assert wait_for(lambda: table.role_note == "Held by Barb")
    assert "Claimed" in panel_texts(app, "Barb")
    Window.dispatch("on_key_down", Keyboard.keycodes["u"], 0, "u", [])   # undo
    assert wait_for(lambda: table.role_note == "Held by Anna")
    assert table.ids.undo.title == "Undo (U)"


def test_keys_do_nothing_outside_the_table(app):
    from kivy.core.window import Keyboard, Window

    app.show("setup")
    handled = Window.dispatch("on_key_down", Keyboard.keycodes["q"], 0, "q", [])
    assert not handled and len(app.devices.inbox) == 0
