"""The 12 role cards as big buttons on a sheet over the table: the starter announces one, or
(variant) the table picks the spare cards turned over this set. Which cards are blocked is
told by the panel that opens the sheet, from the summary; the picker only shows it and reports
the tap.

Twelve cards at a size read from a chair (their words at 30 units, 37.5 with Large text) do
not fit in a row under the seats at 800x480: they lie on a sheet of their own, one tap away,
four to a row (two in portrait), and the seats' tiles keep their room on the table."""

from __future__ import annotations

from typing import Callable

from kivy.app import App
from kivy.properties import (
    BooleanProperty, ColorProperty, ListProperty, ObjectProperty, StringProperty,
)
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView

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
        choosing one of the others means ("forgotten": it goes face down). The reason is a
        line of the card at its title's size where the sheet has the room for it: with Large
        text a blocked card is the disabled one alone (its caption would take a fourth line)."""
        self.selected = list(selected or [])
        self.picked = picked
        captions = captions or {}
        app = App.get_running_app()
        said = app is None or app.font_factor <= 1
        for key, card in self.cards.items():
            card.disabled = key in blocked
            card.caption = blocked.get(key, captions.get(key, "")) if said else ""
            card.selected = key in self.selected

    def _tapped(self, card: RoleCard) -> None:
        if self.picked is not None:
            self.picked(card.key)


class RoleSheet(ModalView):
    """The role cards over the whole window, a heading saying what to tap, Cancel (and, for
    the spare cards, the button that turns the chosen over: ``done``)."""

    heading = StringProperty("")
    done = StringProperty("")
    done_ready = BooleanProperty(False)

    def __init__(self, heading: str, done: str = "",
                 on_done: Callable[[], None] | None = None, **kwargs):
        self._on_done = on_done
        super().__init__(heading=heading, done=done, **kwargs)

    @property
    def picker(self) -> RolePicker:
        return self.ids.picker

    def finish(self) -> None:
        if self._on_done is not None:
            self._on_done()
