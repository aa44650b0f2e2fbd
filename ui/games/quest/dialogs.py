"""Two Cauldron Quest dialogs: fixing a misread roll (the latest one, before the team acts on
it; from the Fix dice button or the roll's entry in the log) and using the spell-breaking token. They only collect the choice; the rules judge the
command, and a refusal is shown inside the dialog, which stays open."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.core.model import Command
from ui import theme
from ui.widgets.common import FlatButton
from ui.games.quest.icons import PictureButton
from ui.games.quest.panels import face_word, unique


class QuestDialog(ModalView):
    """A framed dialog: title, an error line, a body and a row of buttons."""

    title = StringProperty("")
    subtitle = StringProperty("")
    error = StringProperty("")
    #: the headline's and the line's sizes: the type scale's over the table
    title_fs = NumericProperty(theme.HEADLINE_FS)
    subtitle_fs = NumericProperty(theme.DETAIL_FS)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.app = App.get_running_app()

    def send(self, command: Command) -> bool:
        if self.app.send(command):
            self.dismiss()
            return True
        self.error = self.app.refusal
        self.app.dismiss_refusal()
        return False

    def add_buttons(self, *buttons: FlatButton) -> None:
        for b in buttons:
            self.ids.buttons.add_widget(b)


class FixDiceDialog(QuestDialog):
    """Correct the latest roll: the dice as they really show, preset to what was entered."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        state = self.app.session.state
        last = state["correctable"]
        self.kind = last["kind"]
        self.rows: list[tuple[str, list[PictureButton]]] = []
        u = self.app.u
        if self.kind == "action":
            self.title = "Fix the action dice"
            settings = state["settings"]
            dice = [("a", "Die A", unique(settings["die_a"]), last["roll"]["a"]),
                    ("b", "Die B", unique(settings["die_b"]), last["roll"]["b"])]
        else:
            self.title = "Fix the magic dice"
            dice = [(str(i), f"Die {i + 1}", list(range(1, 7)), v)
                    for i, v in enumerate(last["roll"]["dice"])]
        self.subtitle = "Tap what the dice really show: Save replays the turn"
        for key, word, faces, current in dice:
            row = BoxLayout(spacing=u * 6)
            row.add_widget(Label(text=word, font_size=self.app.fu * theme.DETAIL_FS, bold=True,
                                 color=theme.INK, size_hint_x=None, width=self.app.fu * 76))
            buttons = []
            for face in faces:
                b = PictureButton(kind="die", face=face, value=face, picture=0.6, terse=True,
                                  orientation="vertical", fill=theme.SURFACE_HI, pad=2,
                                  title=face_word(face) if self.kind == "action" else "")
                b.picture = 0.66 if self.kind == "action" else 1
                b.selected = face == current
                b.bind(on_release=lambda btn, bs=buttons: self._pick(bs, btn))
                buttons.append(b)
                row.add_widget(b)
            self.rows.append((key, buttons))
            self.ids.body.add_widget(row)
        cancel = FlatButton(title="Cancel", fs=theme.ACTION_FS)
        cancel.bind(on_release=lambda *_: self.dismiss())
        save = FlatButton(title="Save", fs=theme.ACTION_FS, fill=theme.GOOD, ink=theme.DARK_INK)
        save.bind(on_release=lambda *_: self.save())
        self.add_buttons(cancel, save)

    @staticmethod
    def _pick(buttons: list[PictureButton], chosen: PictureButton) -> None:
        for b in buttons:
            b.selected = b is chosen

    def chosen(self) -> dict[str, Any]:
        faces = {key: next(b.value for b in buttons if b.selected) for key, buttons in self.rows}
        if self.kind == "action":
            return {"a": faces["a"], "b": faces["b"]}
        return {"dice": [faces[str(i)] for i in range(3)]}

    def save(self) -> None:
        self.send(Command("correct_roll", args=self.chosen()))


def open_fix(events: Any) -> None:
    """From a roll's entry in the log (the rules said it is the latest roll, still fixable):
    the same dialog as the Fix dice button."""
    FixDiceDialog().open()


class TokenDialog(QuestDialog):
    """The spell-breaking token: remove one obstacle, once per game."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        u = self.app.u
        blocked = list(self.app.summary.get("obstacles", []))
        self.title = "Spell-breaking token"
        self.subtitle = ("Once per game: remove one obstacle, and its path is free again"
                         if blocked else "No path is blocked yet: keep the token for later.")
        row = BoxLayout(spacing=u * 8, size_hint_y=None, height=self.app.fu * 140)
        row.add_widget(Label())
        for path in blocked:
            b = PictureButton(kind="obstacle", title=f"Path {path}", caption="free it",
                              picture=0.52, orientation="vertical", fill=theme.rgba("#3A2F52"),
                              size_hint_x=None, width=u * 140)
            b.path = path
            b.bind(on_release=lambda btn: self.send(
                Command("break_obstacle", args={"path": btn.path})))
            row.add_widget(b)
        row.add_widget(Label())
        self.ids.body.add_widget(row)
        self.ids.body.add_widget(Label())
        cancel = FlatButton(title="Keep the token", fs=theme.ACTION_FS)
        cancel.bind(on_release=lambda *_: self.dismiss())
        self.add_buttons(cancel)
