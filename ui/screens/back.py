"""Back, for a screen reached from more than one place (a game's detail, the statistics): it
returns to the screen it came from, and to home as home is entered (the session left, the list
refreshed) rather than only shown."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty


class BackTo:
    """A screen's Back button returns to ``back_to`` (a screen's name; "home" by default)."""

    #: the screen the Back button returns to ("history", "stats" or "home")
    back_to = StringProperty("home")

    def go_back(self) -> None:
        app = App.get_running_app()
        if self.back_to == "home":
            app.go_home()
        else:
            app.show(self.back_to)
