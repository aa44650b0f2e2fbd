"""Typing is text: while a text field has the keyboard, no key reaches the table's
key map. The "P" of "Love Potion" typed into a Cauldron card's name paused the game, and the
"c" of "Toad Tonic" sent a pass for Carl.

Every printable character is typed, as a keyboard sends it (key down, the text, key up), into
every text field of every screen that has one, and nothing may have been sent, paused or
refused. The census below closes the class: a kv file that declares a new text field fails
here until a state that shows it is typed into."""

from __future__ import annotations

import os
import re
import string
from pathlib import Path

from kivy.core.window import Keyboard, Window
from kivy.uix.textinput import TextInput

from test_ui_cauldron_screens import deal, start as start_cauldron
from ui_helpers import dialogs, find, frames, tap

UI = Path(__file__).resolve().parents[2] / "ui"
#: what a keyboard types: letters, digits, punctuation and the space (not tab or newline)
PRINTABLE = [c for c in string.printable if c == " " or not c.isspace()]
#: a text field as the kv files declare it: Kivy's own or one of ours built on it
FIELD = re.compile(r"^\s*(TextInput|NameInput|SetupField|ProfileField):\s*$", re.M)


def kv_files_with_fields() -> set[str]:
    return {str(p.relative_to(UI)) for p in UI.rglob("*.kv")
            if "web" not in p.parts and FIELD.search(p.read_text())}


def shown_fields() -> list[TextInput]:
    return [w for w in find(lambda w: isinstance(w, TextInput))
            if w.get_root_window() is not None and w.opacity > 0 and not w.disabled
            and w.width > 1 and w.height > 1]


def type_everything(app, field: TextInput) -> None:
    """Every printable character typed into ``field`` as a keyboard sends it."""
    field.focus = True
    frames(1)
    for ch in PRINTABLE:
        shift = ch.isupper() or ch in '~!@#$%^&*()_+{}|:"<>?'
        key = Keyboard.keycodes.get(ch.lower(), ord(ch.lower()))
        Window.dispatch("on_key_down", key, 0, ch, ["shift"] if shift else [])
        Window.dispatch("on_textinput", ch)
        Window.dispatch("on_key_up", key, 0)
    frames(2)


def typed_is_text(app, where: str) -> int:
    """Type into every field shown now; returns how many there were."""
    fields = shown_fields()
    assert fields, f"{where}: no text field shown"
    session = app.session
    steps = len(session.done_steps()) if session is not None else 0
    for field in fields:
        field.text = ""
        type_everything(app, field)
        assert field.text, f"{where}: the typing never reached the field"
        assert len(app.devices.inbox) == 0, f"{where}: a key was put on the inbox"
        if session is not None:
            assert len(session.done_steps()) == steps, f"{where}: a key played a command"
        assert not app.paused, f"{where}: a key paused the game"
        assert not app.refusal, f"{where}: a key raised a refusal: {app.refusal}"
        field.focus = False
    frames(1)
    return len(fields)


def test_every_kv_file_with_a_text_field_is_typed_into_below():
    assert kv_files_with_fields() == set(COVERED), (
        "a text field is declared where no test types into it: add its state below")


COVERED = {
    "games/witchs_brew/setup.kv": "witchs_brew setup",
    "games/quest/setup.kv": "quest setup",
    "games/cauldron/setup.kv": "cauldron setup",
    "widgets/players.kv": "profile editor",
    "screens/hardware_settings.kv": "hardware settings",
    "games/cauldron/potion.kv": "a card's name at the table",
    "games/cauldron/entries.kv": "an Omen's words at the table",
}


def test_typing_in_the_setups_is_text(app):
    for game in ("witchs_brew", "quest", "cauldron"):
        app.new_game(game)
        frames()
        assert typed_is_text(app, f"{game} setup") >= 3


def test_typing_in_a_profile_is_text(app):
    from ui.widgets.players import ProfileEditor

    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    app.go_home()
    frames()
    app.new_game("witchs_brew")
    frames()
    setup = app.screens.get_screen("setup")
    tap(setup.rows[0].ids.who)
    (picker,) = dialogs()
    uuid = picker.ids.list.data[0]["uuid"]
    picker.correct(uuid)
    frames()
    assert any(isinstance(d, ProfileEditor) for d in dialogs())
    assert typed_is_text(app, "profile editor") >= 2


def test_typing_a_url_on_the_hardware_screen_is_text(app):
    app.go_home()
    frames()
    tap(app.screens.get_screen("home").ids.hardware)
    assert app.screens.current == "hardware_settings"
    assert typed_is_text(app, "hardware settings") == 1
    app.go_home()


def test_typing_a_cards_name_at_the_table_plays_nothing(app):
    from ui.games.cauldron.potion import CauldronPotionDialog

    s = start_cauldron(app)
    deal(s, ["Anna"])
    frames()
    assert app.table_showing
    CauldronPotionDialog.open_for("Barb")
    (dialog,) = dialogs()
    dialog.show_mode("new")
    frames()
    assert typed_is_text(app, "a card's name at the table") >= 1
    dialog.dismiss()
    frames()


def test_typing_an_omen_at_the_table_plays_nothing(app):
    from test_ui_cauldron_omens import open_dialog, to_omen

    to_omen(app)
    open_dialog(app)
    assert app.table_showing
    assert typed_is_text(app, "an Omen's words at the table") >= 1


def test_the_table_keys_still_play_with_no_field_focused(app):
    """The rule is the focus, not the screen: with the dialog closed the same keys play."""
    start_cauldron(app)
    Window.dispatch("on_key_down", 112, 0, "p", [])
    frames(2)
    assert app.paused
    Window.dispatch("on_key_down", 112, 0, "p", [])
    frames(2)
    assert not app.paused


def test_a_name_is_typed_on_the_docked_keyboard_where_there_is_none(app):
    """Demo mode on a touch-only screen once had no way to type a name. With Kivy's
    keyboard docked (``companion run --keyboard dock``, or auto with no keyboard plugged in:
    ui/kiosk/command.py keyboard_mode), a field's focus docks the VKeyboard at the bottom,
    the setup lifts the field above it, and its keys type into the field (not into the table's
    key map)."""
    from kivy.uix.vkeyboard import VKeyboard

    from ui.kiosk.command import keyboard_mode
    from ui_helpers import SAVE_SHOTS, SHOTS, draw

    assert keyboard_mode("auto", False, False) in ("systemanddock", "system")
    saved = (Window.use_syskeyboard, Window.allow_vkeyboard, Window.single_vkeyboard,
             Window.docked_vkeyboard)
    # what Kivy's configure_keyboards() sets for "systemanddock" (calling it binds the system
    # keyboard a second time)
    Window.use_syskeyboard, Window.allow_vkeyboard = True, True
    Window.single_vkeyboard, Window.docked_vkeyboard = True, True
    try:
        app.new_game("witchs_brew")
        frames()
        field = shown_fields()[0]
        field.text = ""
        field.focus = True
        frames(4)
        (keyboard,) = [w for w in Window.children if isinstance(w, VKeyboard)]
        assert keyboard.y <= 1                                  # docked at the bottom
        top = keyboard.y + keyboard.height * keyboard.scale
        assert field.to_window(field.x, field.y)[1] >= top - 1, "the field is under the keyboard"
        for key in ("a", "n", "n", "a"):   # as the VKeyboard sends a key under SDL2
            keyboard.dispatch("on_textinput", key)
        frames(2)
        assert field.text == "Anna"                              # a name, as written
        assert len(app.devices.inbox) == 0 and not app.paused
        # drawn to look at, not through the layout check: the keyboard is Kivy's own widget
        frames(3)
        Window.canvas.ask_update()
        draw()
        if SAVE_SHOTS:
            SHOTS.mkdir(exist_ok=True)
            made = Window.screenshot(name=str(SHOTS / ".tmp_typing_docked_keyboard.png"))
            os.replace(made, SHOTS / "typing_docked_keyboard_800x480.png")
        field.focus = False
        frames(3)
        assert not [w for w in Window.children if isinstance(w, VKeyboard)]
    finally:
        (Window.use_syskeyboard, Window.allow_vkeyboard, Window.single_vkeyboard,
         Window.docked_vkeyboard) = saved
