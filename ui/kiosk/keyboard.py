"""The docked touch keyboard (kiosk): keep the field being typed in above it.

Kivy's own 'below_target' pan moves the keyboard too, so a form lifts itself instead.
"""

from __future__ import annotations

from kivy.app import App
from kivy.core.window import Window
from kivy.uix.vkeyboard import VKeyboard


def keyboard_lift(focused, current_lift: float) -> float:
    """How far to lift a form, now lifted by ``current_lift``, so that ``focused`` (the field
    typed in, or None) stays above Kivy's docked VKeyboard; 0 with no field or no keyboard."""
    keyboard = next((w for w in Window.children if isinstance(w, VKeyboard)), None)
    if focused is None or keyboard is None:
        return 0
    bottom = focused.to_window(focused.x, focused.y)[1] - current_lift
    top = keyboard.y + keyboard.height * keyboard.scale
    return max(0, top + App.get_running_app().u * 8 - bottom)
