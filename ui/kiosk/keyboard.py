"""The keyboard, on screen or real: keep the field being typed in above the docked touch
keyboard, and know when a key is a letter typed rather than a seat's button.

Kivy's own 'below_target' pan moves the keyboard too, so a form lifts itself instead.
"""

from __future__ import annotations

from kivy.app import App
from kivy.core.window import Window
from kivy.uix.behaviors.focus import FocusBehavior
from kivy.uix.vkeyboard import VKeyboard


def typing_into():
    """The field (any focusable entry on the window) that has the keyboard now, or None.

    While one has it, every key is text for that field and nothing else: the table's key map
    (demo keys standing in for seat buttons, P for Pause) stands aside, so the "P" of "Love
    Potion" typed into a card's name never pauses the game. The window's tree is
    walked, not Kivy's private list of keyboards, so a field left focused on a screen that is
    no longer shown does not swallow the table's keys."""
    stack = list(Window.children)
    while stack:
        widget = stack.pop()
        if isinstance(widget, FocusBehavior) and widget.focus:
            return widget
        stack.extend(widget.children)
    return None


def keyboard_lift(focused, current_lift: float) -> float:
    """How far to lift a form, now lifted by ``current_lift``, so that ``focused`` (the field
    typed in, or None) stays above Kivy's docked VKeyboard; 0 with no field or no keyboard."""
    keyboard = next((w for w in Window.children if isinstance(w, VKeyboard)), None)
    if focused is None or keyboard is None:
        return 0
    bottom = focused.to_window(focused.x, focused.y)[1] - current_lift
    top = keyboard.y + keyboard.height * keyboard.scale
    return max(0, top + App.get_running_app().u * 8 - bottom)
