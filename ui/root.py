"""The window's one root: the screens, and above them the refusal message, so a refused
button press is explained on whatever screen the table is looking at."""

from __future__ import annotations

from kivy.app import App
from kivy.uix.floatlayout import FloatLayout

# Importing the screens and widgets registers their classes for the kv files.
from ui.screens import home, result, setup, witchs_brew  # noqa: F401
from ui.widgets import action_panels, common, effect_dialog, role_picker, seat_panel  # noqa: F401
from ui.widgets.common import Box


class Root(FloatLayout):
    pass


class Refusal(Box):
    """Large, red, for a few seconds; a tap closes it. Invisible and untouchable otherwise."""

    def on_touch_down(self, touch):
        app = App.get_running_app()
        if app.refusal and self.collide_point(*touch.pos):
            app.dismiss_refusal()
            return True
        return False
