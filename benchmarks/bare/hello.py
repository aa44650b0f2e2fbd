"""Bare Kivy baseline: a hello-world that starts, draws its first frame and exits.

The yardstick for the companion's cold start and peak memory (benchmarks/cold_start.py): the
same Kivy 2.3, window size and frame cap as ``companion run`` (ui/kiosk/command.py), and
nothing else.
"""

from kivy.config import Config

Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("graphics", "maxfps", "30")

from kivy.app import App  # noqa: E402 (Kivy reads its Config when these are imported)
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.uix.label import Label  # noqa: E402


class Hello(App):
    def build(self):
        return Label(text="Hello")

    def on_start(self):
        # Bound on the first tick, so the next flip is the first frame of the running app.
        Clock.schedule_once(lambda _dt: Window.bind(on_flip=lambda *_: self.stop()))


if __name__ == "__main__":
    Hello().run()
