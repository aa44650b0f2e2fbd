"""Omens entered before, offered for one-tap reuse in the Omen dialog.

An Omen card is read aloud every Harvest Season and many come back in later games. What the
table entered is in the stored ``omen`` commands of this and the latest 30 Cauldron games: its text,
what the Fields produce, who starts (the lowest or highest Magik; a seat by name only fits its
own game, so it is left out). The Magik an Omen gives or takes is per seat and is entered anew.
Read when the dialog opens; a tap fills the form, the table checks it and enters it."""

from __future__ import annotations

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
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
        grid = GridLayout(cols=1, spacing=u * 6, size_hint_y=None, row_force_default=True,
                          row_default_height=u * 64, padding=(0, 0, u * 8, 0))
        grid.bind(minimum_height=grid.setter("height"))
        fu = App.get_running_app().fu
        for omen in omens:
            # the Omen's name on its button, what it changes beside it at the detail size
            # (under the name, a caption longer than the name was the size it was read at)
            row = BoxLayout(spacing=u * 10)
            b = FlatButton(title=omen["text"], fs=theme.ACTION_FS, fill=theme.SURFACE_HI,
                           size_hint_x=0.4)
            b.omen = omen
            b.bind(on_release=lambda _b, o=omen: self.pick(dialog, o))
            row.add_widget(b)
            words = Label(text=omen_words(omen), font_size=fu * theme.DETAIL_FS,
                          color=theme.INK, halign="left", valign="middle")
            words.bind(size=lambda w, size: setattr(w, "text_size", size))
            row.add_widget(words)
            grid.add_widget(row)
        scroll.add_widget(grid)
        frame.add_widget(scroll)
        cancel = FlatButton(title="Cancel", fs=theme.ACTION_FS, size_hint_y=None, height=u * 56)
        cancel.bind(on_release=lambda *_: self.dismiss())
        frame.add_widget(cancel)
        self.add_widget(frame)

    def pick(self, dialog, omen: dict) -> None:
        dialog.fill(omen)
        self.dismiss()
