"""Omens entered before, offered for one-tap reuse in the Omen dialog.

An Omen card is read aloud every Harvest Season and many come back in later games. What the
table entered is in the stored ``omen`` commands of this and the latest 30 Cauldron games: its text,
what the Fields produce, who starts (the lowest or highest Magik; a seat by name only fits its
own game, so it is left out). The Magik an Omen gives or takes is per seat and is entered anew.
Read when the dialog opens; a tap fills the form, the table checks it and enters it."""

from __future__ import annotations

from kivy.app import App
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from companion.core.model import Command
from companion.history.entered import RECENT_GAMES, entered, newest_once
from ui import theme
from ui.games.cauldron.common import ingredient_name
from ui.widgets.common import FlatButton


def _omen(command: Command) -> dict | None:
    """The Omen an accepted ``omen`` command entered, or None (no text: nothing to offer)."""
    args = command.args
    text = str(args.get("text") or "").strip()
    if command.do != "omen" or not text:
        return None
    try:
        produce = {str(k): int(v) for k, v in (args.get("produce") or {}).items()}
    except (AttributeError, TypeError, ValueError):
        return None
    omen: dict = {"text": text, "produce": produce}
    if args.get("first") in ("lsp", "hsp"):
        omen["first"] = args["first"]
    return omen


def omen_catalogue(app) -> list[dict]:
    """Every Omen entered in this and the latest Cauldron games of this database, newest first,
    once each (by its text): one statement over their stored commands
    (companion.history.entered), whatever the size of the history."""
    if app.store is None:
        return []
    return newest_once(entered(app.store.conn, "cauldron", ("omen",),
                               games=RECENT_GAMES + 1),   # the game in play and 30 more
                       _omen, lambda omen: omen["text"].casefold())


def omen_words(omen: dict) -> str:
    """'Frost: one fewer Frog Legs' with what it changes: 'Fields: Frog Legs -1; fewest Magik starts'."""
    parts = [f"{ingredient_name(k)} {v:+d}" for k, v in omen["produce"].items() if v]
    said = ("Fields: " + ", ".join(parts)) if parts else ""
    if omen.get("first"):
        said += ("; " if said else "") + ("fewest" if omen["first"] == "lsp" else "most") + \
            " Magik starts"
    return said


class CauldronOmenPicker(ModalView):
    """The Omens entered before as large buttons; a tap fills the Omen dialog."""

    def __init__(self, dialog, omens: list[dict], **kwargs):
        super().__init__(size_hint=(0.94, 0.94), auto_dismiss=False, background="",
                         background_color=(0, 0, 0, 0), overlay_color=(0, 0, 0, 0.75), **kwargs)
        from kivy.factory import Factory

        u = App.get_running_app().u
        frame = Factory.CauldronEntryFrame()
        head = Factory.CauldronEntryHeader(title="Omens entered before",
                                           subtitle="A tap fills in its text and what it changes")
        frame.add_widget(head)
        scroll = ScrollView(do_scroll_x=False, bar_width=u * 6)
        grid = GridLayout(cols=2, spacing=u * 6, size_hint_y=None, row_force_default=True,
                          row_default_height=u * 72, padding=(0, 0, u * 8, 0))
        grid.bind(minimum_height=grid.setter("height"))
        for omen in omens:
            b = FlatButton(title=omen["text"], caption=omen_words(omen), fs=20,
                           fill=theme.SURFACE_HI)
            b.omen = omen
            b.bind(on_release=lambda _b, o=omen: self.pick(dialog, o))
            grid.add_widget(b)
        scroll.add_widget(grid)
        frame.add_widget(scroll)
        cancel = FlatButton(title="Cancel", size_hint_y=None, height=u * 56)
        cancel.bind(on_release=lambda *_: self.dismiss())
        frame.add_widget(cancel)
        self.add_widget(frame)

    def pick(self, dialog, omen: dict) -> None:
        dialog.fill(omen)
        self.dismiss()
