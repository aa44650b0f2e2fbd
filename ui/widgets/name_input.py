"""A name typed at the table: capitalised as it is typed, Enter to the next name, and the
touch keyboard's Shift for one letter.

Kivy's on-screen keyboard holds Shift only while a finger is on it (a second finger types the
capital), so one tap of Shift did nothing; a touchscreen's keyboards latch it for the next
letter instead. A name starts with a capital, and so does each word of it ("Anna Maria",
"Jean-Luc"): typed in lower case, it is written as a person writes it. Enter moves to the next
field of the form, as on a phone, and closes the keyboard after the last.
"""

from __future__ import annotations

from kivy.properties import BooleanProperty
from kivy.uix.textinput import TextInput
from kivy.uix.vkeyboard import VKeyboard

#: What starts a new word of a name: its next letter is a capital.
WORD_BREAKS = " -'"


def capitalised(before: str, typed: str) -> str:
    """``typed`` as a name writes it after ``before``: each letter that starts a word in
    capitals, the rest as typed (a capital typed in the middle stays: "McDonald")."""
    out, last = [], before[-1:] if before else ""
    for char in typed:
        starts = last == "" or last in WORD_BREAKS
        out.append(char.upper() if starts and char.isalpha() else char)
        last = char
    return "".join(out)


class NameInput(TextInput):
    """A one-line field for a name (a player's, a card's): see the module's docstring."""

    #: False for a field whose words are not a name (an address, a number)
    capitalise = BooleanProperty(True)

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("multiline", False)
        kwargs.setdefault("write_tab", False)
        kwargs.setdefault("text_validate_unfocus", False)
        super().__init__(**kwargs)

    def insert_text(self, substring: str, from_undo: bool = False):
        if self.capitalise and not from_undo:
            substring = capitalised(self.text[:self.cursor_index()], substring)
        return super().insert_text(substring, from_undo=from_undo)

    def on_text_validate(self) -> None:
        """Enter: the next field of the form has the keyboard, or none after the last."""
        following = self.get_focus_next()
        if isinstance(following, TextInput) and not following.disabled:
            following.focus = True
        else:
            self.focus = False


class LatchingKeyboard(VKeyboard):
    """Kivy's on-screen keyboard with Shift latched by a tap: the next letter is a capital,
    then Shift lets go (tapped again before a letter, it lets go at once)."""

    latched = BooleanProperty(False)

    def process_key_on(self, touch) -> None:
        self._was_latched = self.latched
        super().process_key_on(touch)

    def process_key_up(self, touch) -> None:
        entry = touch.ud.get(self.uid, {}).get("key") if self.uid in touch.ud else None
        super().process_key_up(touch)
        if entry is None:
            return
        _shown, typed, code, _size = entry[0]   # a layout's key: typed is None for Shift & co
        if code == "shift":
            self.latched = not getattr(self, "_was_latched", False)
        elif typed and self.latched:
            self.latched = False                 # the one letter typed
        self.have_shift = self.latched
