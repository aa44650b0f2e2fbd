"""The window's one root: the screens, above them the refusal message, so a refused button
press is explained on whatever screen the table is looking at, and below them the game bar
(only under a game's table screen) and the dice strip.

A game's screens, kv rules and widget classes are loaded when one of its screens is first asked
for (:class:`GameScreens`), and stay; so are the two settings screens. The home screen's first
frame waits for none of them."""

from __future__ import annotations

import gc
import importlib
from dataclasses import dataclass
from pathlib import Path

from kivy.app import App
from kivy.core.window import Window
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import ScreenManager

from ui.games import GAMES
from ui.screens import home  # noqa: F401 (kv screens)
from ui.widgets import common, game_bar, still  # noqa: F401 (registers the shared widgets)
from ui.widgets.common import Box
from ui.widgets.name_input import LatchingKeyboard  # also NameInput, for the kv rules
from ui.widgets.second_tap import SecondTap

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Bundle:
    """Screens that load together: their modules (importing them registers their widget
    classes), their kv files (relative to ui/, in order), and screen name -> class."""

    name: str
    modules: tuple[str, ...]
    kv: tuple[str, ...]
    screens: dict[str, str]


BUNDLES = (
    Bundle("hardware_settings", ("ui.screens.hardware_settings", "ui.screens.hw_smart_dice"),
           ("widgets/hw_fields.kv", "screens/hw_smart_dice.kv", "screens/hardware_settings.kv"),
           {"hardware_settings": "HardwareSettingsScreen"}),
    Bundle("table_settings", ("ui.screens.table_settings",), ("screens/table_settings.kv",),
           {"table_settings": "TableSettingsScreen"}),
    Bundle("history", ("ui.screens.history", "ui.screens.game_detail"),
           ("screens/history.kv", "screens/game_detail.kv"),
           {"history": "HistoryScreen", "game_detail": "GameDetailScreen"}),
    Bundle("stats", ("ui.screens.stats",), ("screens/stats.kv",), {"stats": "StatsScreen"}),
    *(Bundle(game.name, tuple(game.module_names()), tuple(game.kv_files()), game.screens)
      for game in GAMES.values()),
)
#: screen name -> the bundle it loads with
BUNDLE_OF_SCREEN = {name: bundle for bundle in BUNDLES for name in bundle.screens}
_LOADED: set[str] = set()


def load(bundle: Bundle) -> None:
    """A bundle's widget classes and kv rules, once per process."""
    if bundle.name in _LOADED:
        return
    for module in bundle.modules:
        importlib.import_module(module)
    for kv in bundle.kv:
        Builder.load_file(str(HERE / kv))
    _LOADED.add(bundle.name)


class GameScreens(ScreenManager):
    """The screen manager. Asked for a screen it does not hold yet (to show it, or by
    ``get_screen``), it loads that screen's bundle and adds all its screens first."""

    def get_screen(self, name):
        bundle = BUNDLE_OF_SCREEN.get(name)
        if bundle is not None and name not in self.screen_names:
            load(bundle)
            for screen, cls in bundle.screens.items():
                if screen not in self.screen_names:
                    self.add_widget(Factory.get(cls)(name=screen))
        return super().get_screen(name)

    def has_screen(self, name):
        return name in BUNDLE_OF_SCREEN or super().has_screen(name)


class Root(FloatLayout):
    #: The games' table screens, and those that have drawn a game in this process
    #: (see :meth:`first_shown`).
    tables: set[str]
    tables_kept: set[str]

    def on_kv_post(self, _base) -> None:
        self.tables_kept = set()
        self.tables = tables = {game.table_screen for game in GAMES.values()}
        self.ids.sm.bind(current=lambda _sm, name: setattr(App.get_running_app(),
                                                           "table_showing", name in tables))
        self.ids.sm.bind(current=lambda _sm, name: self.first_shown(name))
        # a screen drawn in regions of its own buffers itself (ui/widgets/still.py)
        self.ids.sm.bind(current_screen=lambda _sm, screen: setattr(
            self.ids.still, "buffered", not getattr(screen, "in_regions", False)))
        # the touch keyboard's Shift is for the next letter, tapped (Kivy's is held)
        Window.set_vkeyboard_class(LatchingKeyboard)
        # a double tap on a button that changes the view presses nothing on the next one
        self.second_tap = SecondTap(Window, lambda: (self.ids.sm.current, len(Window.children)),
                                    lambda: App.get_running_app().u)

    def first_shown(self, name: str) -> None:
        """A game's table screen lives as long as the app, like what start-up built
        (ui/app.py): once it has first drawn a game, the garbage collector stops walking it.
        The three tables hold about 390,000 objects, and one full collection walked them all,
        0.12-0.19 s here: a frame missed in the middle of play. Once a table screen, so the
        cyclic garbage waiting at that moment, kept from then on, is bounded."""
        if name in self.tables and name not in self.tables_kept:
            self.tables_kept.add(name)
            Window.bind(on_flip=self._freeze)

    def _freeze(self, *_args) -> None:
        Window.unbind(on_flip=self._freeze)
        gc.freeze()


class DiceStrip(Box):
    """A thin line under every screen while a dice tray is configured: whether the reader is
    connected (or reconnecting) and what the dice did last. It takes its own room below the
    screens, so it never covers them; without a tray it has no height at all. Where the line
    holds the state but not both texts whole, what the dice did last is left out (it is also
    in the log): shown less, never cut or smaller."""

    def both_fit(self, status: str, activity: str, font_size: float, room: float) -> bool:
        from kivy.core.text import Label as CoreLabel

        if not activity:
            return True
        wide = sum(CoreLabel(text=t, font_size=font_size).get_extents(t)[0]
                   for t in (status, activity))
        return wide + self.spacing * 3 + 10 * App.get_running_app().u <= room


class Messages(BoxLayout):
    """A sheet over the whole window for what the app says back that must be answered (ui/root.kv):
    while it shows it takes every touch. Its band's own controls (the waiting press's Cancel)
    get theirs; any other tap closes a refusal and reaches nothing beneath."""

    def on_touch_down(self, touch):
        if self.opacity <= 0 or self.width <= 0:
            return False
        if super().on_touch_down(touch):
            return True
        app = App.get_running_app()
        if app.refusal:
            app.dismiss_refusal()
        return True

    def on_touch_move(self, touch):
        return self.opacity > 0 and self.width > 0

    def on_touch_up(self, touch):
        if self.opacity <= 0 or self.width <= 0:
            return False
        super().on_touch_up(touch)
        return True


class Refusal(Box):
    """Red, in the messages' band, for a few seconds; a tap closes it."""

    def on_touch_down(self, touch):
        app = App.get_running_app()
        if app.refusal and self.collide_point(*touch.pos):
            app.dismiss_refusal()
            return True
        return False


class WaitingBanner(Box):
    """The press waiting for the card, in the messages' band, with its Cancel button."""

    def on_touch_down(self, touch):
        if self.opacity > 0 and not self.disabled and self.collide_point(*touch.pos):
            super().on_touch_down(touch)
            return True
        return False


