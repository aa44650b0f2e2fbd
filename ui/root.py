"""The window's one root: the screens, above them the refusal message, so a refused button
press is explained on whatever screen the table is looking at, and below them the game bar
(only under a game's table screen) and the dice strip."""

from __future__ import annotations

import importlib

from kivy.app import App
from kivy.factory import Factory
from kivy.uix.floatlayout import FloatLayout

from ui.games import GAMES
from ui.screens import hardware_settings, home, table_settings  # noqa: F401 (kv screens)
from ui.widgets import common, game_bar, still  # noqa: F401 (registers the shared widgets)
from ui.widgets.common import Box

# Importing a game's modules registers its screen and widget classes for the kv files.
for _game in GAMES.values():
    for _module in _game.module_names():
        importlib.import_module(_module)


class Root(FloatLayout):
    def on_kv_post(self, _base) -> None:
        """Each game's screens come from the registry, so adding a game touches no kv here."""
        sm = self.ids.sm
        for game in GAMES.values():
            for name, cls in game.screens.items():
                if not sm.has_screen(name):
                    sm.add_widget(Factory.get(cls)(name=name))
        tables = {game.table_screen for game in GAMES.values()}
        sm.bind(current=lambda _sm, name: setattr(App.get_running_app(), "table_showing",
                                                  name in tables))


class DiceStrip(Box):
    """A thin line under every screen while a dice tray is configured: whether the reader is
    connected (or reconnecting) and what the dice did last. It takes its own room below the
    screens, so it never covers them; without a tray it has no height at all."""


class Refusal(Box):
    """Large, red, for a few seconds; a tap closes it. Invisible and untouchable otherwise."""

    def on_touch_down(self, touch):
        app = App.get_running_app()
        if app.refusal and self.collide_point(*touch.pos):
            app.dismiss_refusal()
            return True
        return False
