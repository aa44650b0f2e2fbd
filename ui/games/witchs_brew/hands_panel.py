"""Hands on the Pi: at the start of a set the bottom of the table screen shows only who has
chosen a hand ("Hands chosen: Anna, Carl. Not yet: Barb"), never which cards, and after
"Hidden entry:" a button per seat that may still choose, by its name: for a seat without a
phone, the Pi turns into that seat's own screen (the 12 role cards by their titles, at a size
read from a chair; the variant's turned-over cards cannot be picked) and shows the hand only
while that entry is open. A refusal is said inside the entry (its words may quote the cards),
never on the table screen. "Announce now" lets the set begin before every seat chose (those
answer for themselves)."""

from __future__ import annotations

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from companion.core.errors import CompanionError
from companion.core.model import Command
from companion.games.witchs_brew import hands as hd
from companion.games.witchs_brew.state import CARDS_PER_SET, set_started, waiting_for
from ui import theme
from ui.widgets.common import FlatButton, Txt, text_needs


def shows_hands(app, state: dict, skipped: object) -> bool:
    """Whether the table screen's bottom shows the hands panel now: the set waits for a seat
    (phase "choose"), or, with the table setting Hands on phones, a set has just started, some
    seat has not chosen, and the table has not chosen to announce now (``skipped``)."""
    if state.get("excluded") is None or state.get("over"):
        return False
    if waiting_for(state):
        return True
    on = getattr(getattr(app, "table_settings", None), "hands", False)
    everyone = len(state.get("hands", {})) == len(state["players"])
    return bool(on) and set_started(state) and not everyone and skipped != _moment(app, state)


def _needs(text: str, size: float) -> float:
    return text_needs(False, text, size, "Roboto", True, None, "left")[0]


def _gone_if_cut(line, *_args) -> None:
    """A line that would be shortened, or drawn under the table's text size, is left out."""
    line.opacity = 0 if line.is_shortened or line.grow < line.large else 1


def _moment(app, state: dict) -> tuple:
    return (id(app.session), state["set"])


class HandsPanel(BoxLayout):
    """Who has chosen this set, and a Hidden entry per seat that may still choose."""

    def __init__(self, **kwargs):
        super().__init__(orientation="vertical", **kwargs)
        self.skipped: object = None
        self._shown: tuple | None = None
        # its sizes are the window's: drawn again when the window (or the text size) changes
        App.get_running_app().bind(fu=self._again)

    def _again(self, *_args) -> None:
        if self._shown is not None and self.parent is not None:
            self.show(*self._shown)

    def show(self, app, state: dict) -> None:
        """A line of who has chosen (where it fits whole at the table's text size: the tiles
        and the log say it too), and a row a finger's height: a Hidden entry per seat that
        may still choose, by its name, and Announce now."""
        u, fu = app.u, app.fu
        self._shown = (app, state)
        self.clear_widgets()
        self.spacing = u * 6
        names = [p["name"] for p in state["players"]]
        chosen = hd.chosen(state)
        waiting = [n for n in names if n not in chosen]
        said = (f"Hands chosen: {', '.join(chosen) or 'nobody yet'}"
                + (f". Not yet: {', '.join(waiting)}" if waiting else ""))
        line = Txt(text=said, fs=theme.DETAIL_FS, bold=True, size_hint_y=None, height=fu * 34)
        line.bind(is_shortened=_gone_if_cut, grow=_gone_if_cut)
        self.add_widget(line)
        row = BoxLayout(spacing=u * 6, size_hint_y=None, height=u * 60, padding=(0, u * 2))
        label = "Hidden entry:"
        row.add_widget(Txt(text=label, fs=theme.DETAIL_FS, size_hint_x=None,
                           width=_needs(label, fu * theme.DETAIL_FS) + u * 8))
        for seat, name in enumerate(names):
            if hd.cannot_choose(state, seat) is None:
                b = FlatButton(title=name, fs=theme.ACTION_FS, fill=theme.ACTION)
                b.bind(on_release=lambda *_a, s=seat: HiddenEntry(s).open())
                row.add_widget(b)
        if not waiting_for(state):           # nobody is owed a wait: the set may begin
            go = FlatButton(title="Announce now", fs=theme.ACTION_FS, fill=theme.NAVIGATION,
                            size_hint_x=None,
                            width=_needs("Announce now", fu * theme.ACTION_FS) + u * 28)
            go.bind(on_release=lambda *_a: self._announce(app, state))
            row.add_widget(go)
        self.add_widget(row)

    def _announce(self, app, state: dict) -> None:
        self.skipped = _moment(app, state)
        screen = app.screens.get_screen("witchs_brew") if hasattr(app, "screens") else None
        if screen is not None:
            screen.refresh()


class HiddenEntry(ModalView):
    """One seat's own hand entry on the Pi: its 12 cards, pick 5, Choose; Close hides it all."""

    def __init__(self, seat: int, **kwargs):
        super().__init__(size_hint=(0.98, 0.98), auto_dismiss=False,
                         background_color=theme.rgba("#101418"), **kwargs)
        self.app = App.get_running_app()
        self.seat = seat
        self.picked: list[str] = []
        self.buttons: dict[str, FlatButton] = {}
        self._build()

    @property
    def name(self) -> str:
        return self.app.session.names[self.seat]

    def _build(self) -> None:
        u, fu = self.app.u, self.app.fu
        state = self.app.session.state
        hand = hd.seat_hand(state, self.seat)
        body = BoxLayout(orientation="vertical", padding=u * 8, spacing=u * 6)
        self.heading = Txt(text="", fs=theme.DETAIL_FS, bold=True, size_hint_y=None,
                           height=fu * 34, shorten=False)
        body.add_widget(self.heading)
        # the cards by their titles, at a size read from a chair (the seat holds the cards
        # themselves: their words are on them); the grid scrolls where it must
        grid = GridLayout(cols=2 if self.app.portrait else 4, spacing=u * 6, size_hint_y=None,
                          row_default_height=fu * 84, row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        for card in hand["cards"]:
            b = FlatButton(title=card["title"], fs=theme.ACTION_FS, caption_fs=theme.DETAIL_FS,
                           caption="face up" if card["excluded"] else "",
                           fill=theme.GREY_BTN if card["excluded"] else theme.OPTION)
            b.disabled = card["excluded"]
            b.bind(on_release=lambda *_a, k=card["role"]: self.toggle(k))
            self.buttons[card["role"]] = b
            grid.add_widget(b)
        scroll = ScrollView(do_scroll_x=False, bar_width=u * 6)
        scroll.add_widget(grid)
        body.add_widget(scroll)
        self.error = Txt(text="", fs=theme.DETAIL_FS, ink=theme.rgba("#F4A093"),
                         size_hint_y=None, height=0, shorten=False)
        body.add_widget(self.error)
        row = BoxLayout(spacing=u * 8, size_hint_y=None, height=u * 56)
        self.send = FlatButton(title=f"Choose these {CARDS_PER_SET}", fs=theme.ACTION_FS,
                               fill=theme.DONE)
        self.send.bind(on_release=lambda *_a: self.choose())
        close = FlatButton(title="Close (nothing is kept)", fs=theme.ACTION_FS,
                           fill=theme.NAVIGATION)
        close.bind(on_release=lambda *_a: self.dismiss())
        row.add_widget(self.send)
        row.add_widget(close)
        body.add_widget(row)
        self.add_widget(body)
        self._say()

    def _say(self) -> None:
        self.heading.text = (f"Only {self.name} looks: choose {CARDS_PER_SET} cards "
                             f"({len(self.picked)} chosen)")
        self.send.disabled = len(self.picked) != CARDS_PER_SET
        for key, b in self.buttons.items():
            b.selected = key in self.picked

    def toggle(self, key: str) -> None:
        if key in self.picked:
            self.picked.remove(key)
        elif len(self.picked) < CARDS_PER_SET:
            self.picked.append(key)
        self._say()

    def choose(self) -> None:
        """The hand, judged by the rules first so a refusal stays inside this entry."""
        session = self.app.session
        command = Command("choose_hand", self.name, {"roles": list(self.picked)})
        try:
            session.rules.accept(session.state, command)
        except CompanionError as refusal:
            # the reason whole, on as many lines as it takes (the cards scroll above it)
            self.error.text = str(refusal)
            self.error.text_size = (self.error.width, None)
            self.error.texture_update()
            self.error.height = self.error.texture_size[1]
            self.error.text_size = self.error.size
            return
        if self.app.send(command):
            self.dismiss()

    def on_dismiss(self) -> None:
        self.picked = []                       # nothing of the hand stays on the screen
        self.clear_widgets()
