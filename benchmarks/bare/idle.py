"""Bare Kivy baseline: an idle window that draws nothing after its first frames.

The yardstick for the companion's idle CPU on the home screen (benchmarks/idle_cpu.py): the
same Kivy 2.3, window size and frame cap as ``companion run`` (ui/kiosk/command.py).
"""

from kivy.config import Config

Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("graphics", "maxfps", "30")

from kivy.app import App  # noqa: E402
from kivy.uix.label import Label  # noqa: E402


class Idle(App):
    def build(self):
        return Label(text="Idle")


if __name__ == "__main__":
    Idle().run()
