"""The 12 role cards as big buttons: the starter announces one, or (variant) the table picks
the spare cards turned over this set. Which cards are blocked is told by the screen, from the
summary; the picker only shows it and reports the tap."""

from __future__ import annotations

from typing import Callable

from kivy.properties import ColorProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.gridlayout import GridLayout

from companion.games.witchs_brew.roles import ROLES
from ui import theme
from ui.widgets.common import FlatButton


class RoleCard(FlatButton):
    key = StringProperty("")
    stripe = ColorProperty(theme.INK)


class RolePicker(GridLayout):
    selected = ListProperty([])
    picked = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.cards: dict[str, RoleCard] = {}
        for key, role in ROLES.items():
            card = RoleCard(key=key, title=role.title,
                            stripe=theme.rgba(theme.CARD_COLOURS[role.colour]))
            card.bind(on_release=self._tapped)
            self.cards[key] = card
            self.add_widget(card)

    def show(self, blocked: dict[str, str], selected: list[str] | None = None,
             picked: Callable[[str], None] | None = None,
             captions: dict[str, str] | None = None) -> None:
        """``blocked`` maps role key -> why it cannot be chosen ("face up"); ``captions`` what
        choosing one of the others means ("played: goes face down")."""
        self.selected = list(selected or [])
        self.picked = picked
        captions = captions or {}
        for key, card in self.cards.items():
            card.disabled = key in blocked
            card.caption = blocked.get(key, captions.get(key, ""))
            card.selected = key in self.selected

    def _tapped(self, card: RoleCard) -> None:
        if self.picked is not None:
            self.picked(card.key)
