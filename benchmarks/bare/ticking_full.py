"""Bare Kivy baseline: a picture the size of the window and one label on it updated once a
second.

The yardstick for a game screen's 1 Hz clock once the screen's own drawing is set aside
(benchmarks/idle_cpu.py): Kivy clears and draws the whole window on every frame it draws (it
has no damage regions), so a tick costs at least one picture of the whole window, whatever
the app keeps in buffers. This script draws exactly that and nothing else.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))   # its sibling, the bare ticking label

from kivy.graphics import Color, Rectangle  # noqa: E402
from kivy.graphics.texture import Texture  # noqa: E402
from ticking import Ticking  # noqa: E402  (sets the same window size and frame cap)


class TickingOverAPicture(Ticking):
    def build(self):
        label = super().build()
        picture = Texture.create(size=(800, 480), colorfmt="rgba")
        picture.blit_buffer(bytes([24, 28, 36, 255]) * (800 * 480), colorfmt="rgba",
                            bufferfmt="ubyte")
        with label.canvas.before:
            Color(1, 1, 1, 1)
            back = Rectangle(texture=picture, size=(800, 480))
        label.bind(size=lambda _l, size: setattr(back, "size", size))
        return label


if __name__ == "__main__":
    TickingOverAPicture().run()
