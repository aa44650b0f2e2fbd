"""What every Cauldron entry dialog shares: the dialog that sends one command and shows the
rules' refusal in place, and the [-] count [+] it sets a number with. Below the dialogs that use
them (the Omen and seat entries, the hand correction, a die fixed, the setup's Cellars)."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.core.model import Command
from ui.widgets.common import StepWithin


class CauldronCount(StepWithin, BoxLayout):
    """[-] count [+] without a label chip (the row names it); the count turns amber when it
    differs from ``was``, the value the game holds now."""

    value = NumericProperty(0)
    was = NumericProperty(0)
    minimum = NumericProperty(0)
    maximum = NumericProperty(60)
    changed = ObjectProperty(None, allownone=True)
    #: the buttons' width (0: a finger's, 56 units)
    button_w = NumericProperty(0)


class CauldronEntry(ModalView):
    title = StringProperty("")
    subtitle = StringProperty("")
    error = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.app = App.get_running_app()

    def _send(self, command: Command, close: bool = True) -> bool:
        if self.app.send(command):
            self.error = ""
            if close:
                self.dismiss()
            return True
        self.error = self.app.refusal
        self.app.dismiss_refusal()
        return False
