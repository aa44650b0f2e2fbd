"""The Phones dialog on the Pi: the codes a phone scans to watch the table or to become a seat's
buttons, their links in text, who is connected, and Stop sharing.

One code at a time, as large as the dialog allows (a phone reads it from its owner's chair):
Watch first, and one button per seat ("Join as Anna" shows that seat's code). A code holds the
address itself (``http://ADDRESS:PORT/t/TOKEN``), one link per local address a phone can reach
in the text (loopback only on a machine with no other). The seats' buttons are in the seats'
colours. The counts come from the
app's properties, which the server's on-change trigger keeps (ui/table/phones.py): nothing
polls. Stop sharing ends every phone's connection and every link at once.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import ColorProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.modalview import ModalView

from ui.theme import ink_on, rgba
from ui.widgets.common import FlatButton, load_rules_once
from ui.widgets.qr import QrCode  # noqa: F401 (the code in kv)

#: the choice of the watch code (a seat's is its number)
WATCH = -1


def link_words(urls: list[str]) -> str:
    """The links in text, each broken after its port so it wraps where a reader expects."""
    return "\n".join(url.replace("/t/", "\n/t/", 1) for url in urls)


def counts_words(watching: int, seats: list[int], names: list[str]) -> str:
    """'2 phones watch. Anna and Ben press on their phones.', or 'No phone yet.'"""
    said = []
    if watching:
        said.append(f"{watching} phone{'s' if watching != 1 else ''} watch"
                    f"{'es' if watching == 1 else ''}.")
    who = [names[s] if s < len(names) else f"Seat {s + 1}" for s in seats]
    if who:
        joined = who[0] if len(who) == 1 else ", ".join(who[:-1]) + " and " + who[-1]
        said.append(f"{joined} press{'es' if len(who) == 1 else ''} on "
                    f"{'a phone' if len(who) == 1 else 'their phones'}.")
    return " ".join(said) or "No phone yet."


class PhoneChoice(FlatButton):
    """Watch, or a seat's name in the seat's own colour: which code the dialog shows; the shown
    one is ringed (a seat's) or filled (Watch)."""

    chosen = NumericProperty(0)
    key = NumericProperty(WATCH)
    seat_fill = ColorProperty((0, 0, 0, 0))       # the seat's colour (Watch: none)
    seat_ink = ColorProperty((1, 1, 1, 1))


class PhonesDialog(ModalView):
    """What kv shows: ``url`` (the code), ``caption``, ``links`` (in text), ``counts``; the
    choice buttons call ``choose``, Stop sharing ``stop``."""

    url = StringProperty("")
    caption = StringProperty("")
    links = StringProperty("")
    counts = StringProperty("")
    chosen = NumericProperty(WATCH)
    names = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        load_rules_once(__file__)
        super().__init__(**kwargs)
        app = App.get_running_app()
        app.bind(phones_watching=self._count, phones_seats=self._count)
        self.bind(chosen=self._show)
        self._show()
        self._count()

    def on_dismiss(self) -> None:
        App.get_running_app().unbind(phones_watching=self._count, phones_seats=self._count)

    def choose(self, key: int) -> None:
        self.chosen = key

    def stop(self) -> None:
        """Stop sharing: the phones' connections and links end, the dialog closes."""
        App.get_running_app().stop_sharing()
        self.dismiss(animation=False)

    def _show(self, *_args) -> None:
        links = App.get_running_app().phone_links()
        seats = links["seats"]
        self.names = [seat["name"] for seat in seats]
        urls = next((s["urls"] for s in seats if s["seat"] == self.chosen), None)
        if urls is None:
            self.chosen, urls = WATCH, links["watch"]
        self.url = urls[0] if urls else ""
        self.caption = ("Scan to watch the table" if self.chosen == WATCH
                        else f"Join as {self.names[self.chosen]}")
        self.links = link_words(urls)
        holder = self.ids.choices
        holder.clear_widgets()
        colours = {seat["seat"]: seat.get("colour") for seat in seats}
        for key, words in [(WATCH, "Watch"), *enumerate(self.names)]:
            button = PhoneChoice(title=words, key=key, chosen=int(key == self.chosen))
            if colours.get(key):
                button.seat_fill = rgba(colours[key])
                button.seat_ink = ink_on(colours[key])
            button.bind(on_release=lambda b: self.choose(b.key))
            holder.add_widget(button)

    def _count(self, *_args) -> None:
        app = App.get_running_app()
        self.counts = counts_words(app.phones_watching, list(app.phones_seats), self.names)
