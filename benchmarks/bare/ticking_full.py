"""Bare Kivy baseline: a picture the size of the window and one label on it updated once a
second.

The yardstick for a game screen's 1 Hz clock once the screen's own drawing is set aside
(benchmarks/idle_cpu.py): Kivy clears and draws the whole window on every frame it draws (it
has no damage regions), so a tick costs at least one picture of the whole window, whatever
the app keeps in buffers. This script draws exactly that and nothing else.
"""

from kivy.config import Config

Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("graphics", "maxfps", "30")

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.graphics import Color, Rectangle  # noqa: E402
from kivy.graphics.texture import Texture  # noqa: E402
from kivy.uix.label import Label  # noqa: E402


class TickingOverAPicture(App):
    def build(self):
        self.seconds = 0
        self.label = Label(text="0:00")
        picture = Texture.create(size=(800, 480), colorfmt="rgba")
        picture.blit_buffer(bytes([24, 28, 36, 255]) * (800 * 480), colorfmt="rgba",
                            bufferfmt="ubyte")
        with self.label.canvas.before:
            Color(1, 1, 1, 1)
            self.back = Rectangle(texture=picture, size=(800, 480))
        self.label.bind(size=lambda _l, size: setattr(self.back, "size", size))
        Clock.schedule_interval(self.tick, 1.0)
        return self.label

    def tick(self, _dt):
        self.seconds += 1
        self.label.text = f"{self.seconds // 60}:{self.seconds % 60:02d}"


if __name__ == "__main__":
    TickingOverAPicture().run()
