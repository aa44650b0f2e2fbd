"""The window's one root: the screens, above them the refusal message, so a refused button
press is explained on whatever screen the table is looking at, and below them the game bar
(only under a game's table screen) and the dice strip.

A game's screens, kv rules and widget classes are loaded when one of its screens is first asked
for (:class:`GameScreens`), and stay: the home screen's first frame waits for none of them."""

from __future__ import annotations

import importlib
from pathlib import Path

from kivy.app import App
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import ScreenManager

from ui.games import GAMES, GameUI
from ui.screens import hardware_settings, home, table_settings  # noqa: F401 (kv screens)
from ui.widgets import common, game_bar, still  # noqa: F401 (registers the shared widgets)
from ui.widgets.common import Box

HERE = Path(__file__).parent
#: screen name -> the game it belongs to
GAME_OF_SCREEN = {name: game for game in GAMES.values() for name in game.screens}


def load_game(game: GameUI) -> None:
    """A game's widget classes (importing its modules registers them) and kv rules, once."""
    if game.name in _LOADED:
        return
    for module in game.module_names():
        importlib.import_module(module)
    for kv in game.kv_files():
        Builder.load_file(str(HERE / kv))
    _LOADED.add(game.name)


_LOADED: set[str] = set()


class GameScreens(ScreenManager):
    """The screen manager. Asked for a game's screen it does not hold yet (to show it, or by
    ``get_screen``), it loads that game and adds all its screens first."""

    def get_screen(self, name):
        game = GAME_OF_SCREEN.get(name)
        if game is not None and name not in self.screen_names:
            load_game(game)
            for screen, cls in game.screens.items():
                if screen not in self.screen_names:
                    self.add_widget(Factory.get(cls)(name=screen))
        return super().get_screen(name)

    def has_screen(self, name):
        return name in GAME_OF_SCREEN or super().has_screen(name)


class Root(FloatLayout):
    def on_kv_post(self, _base) -> None:
        tables = {game.table_screen for game in GAMES.values()}
        self.ids.sm.bind(current=lambda _sm, name: setattr(App.get_running_app(),
                                                           "table_showing", name in tables))


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
