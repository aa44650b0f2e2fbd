"""Bare Kivy baseline: an idle window with one label updated once a second.

The yardstick for a game screen with its running 1 Hz turn clock (benchmarks/idle_cpu.py):
what the least a ticking clock can cost on this Kivy, window size and frame cap.
"""

from kivy.config import Config

Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("graphics", "maxfps", "30")

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.uix.label import Label  # noqa: E402


class Ticking(App):
    def build(self):
        self.seconds = 0
        self.label = Label(text="0:00")
        Clock.schedule_interval(self.tick, 1.0)
        return self.label

    def tick(self, _dt):
        self.seconds += 1
        self.label.text = f"{self.seconds // 60}:{self.seconds % 60:02d}"


if __name__ == "__main__":
    Ticking().run()
