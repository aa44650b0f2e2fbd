"""A QR code a phone reads from arm's length, and the dialog that shows a finished game as one
for BG Stats.

``QrCode`` draws the code's modules into one texture, one pixel a module with a quiet zone of
4 modules, scaled up with nearest-neighbour sampling (sharp edges, never a grey blur), black
on white whatever the theme: a phone's scanner wants dark modules on a light ground. It is
square and as big as its box allows: a module one pixel wider than its neighbour does not
trouble a scanner, a code a quarter smaller (whole pixels per module) does at arm's length.

``show_play_qr(play)`` opens the dialog for a stored play (``companion.history.bgstats``): the
code as large as the window allows, one line that says what to do, and Close. A play whose link
had to leave fields out says which; one too long for any QR code says so and shows none.
"""

from __future__ import annotations

import segno
from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.history.bgstats import PushLink, push_link
from companion.history.plays import Play
from ui.widgets.common import load_rules_once

#: modules of white around the code, as the QR standard asks
QUIET = 4
#: what the dialog asks the table to do
INSTRUCTION = "Scan with your phone's camera to add this play to BG Stats"


def modules(data: str) -> list[list[bool]]:
    """The code for ``data`` at error correction M (never a Micro QR), dark modules True, rows
    top first, with the quiet zone."""
    code = segno.make(data, error="m", boost_error=False, micro=False)
    return [[bool(dark) for dark in row] for row in code.matrix_iter(scale=1, border=QUIET)]


class QrCode(Widget):
    """``data`` as a QR code, square, centred, as large as the box allows. ``side`` is the
    drawn code's size in pixels (0 without data)."""

    data = StringProperty("")
    side = NumericProperty(0)

    def __init__(self, **kwargs) -> None:
        self._texture: Texture | None = None
        self._count = 0
        super().__init__(**kwargs)
        with self.canvas:
            self._ink = Color(1, 1, 1, 1)
            self._rect = Rectangle()
        self.bind(data=self._make, pos=self._place, size=self._place)
        self._make()

    def _make(self, *_args) -> None:
        if not self.data:
            self._texture, self._count = None, 0
            self._place()
            return
        rows = modules(self.data)
        self._count = len(rows)
        # RGBA, rows bottom first as Kivy's textures are; 4 bytes a pixel keep every row
        # aligned whatever the module count
        pixels = bytearray()
        for row in reversed(rows):
            for dark in row:
                pixels += b"\x00\x00\x00\xff" if dark else b"\xff\xff\xff\xff"
        texture = Texture.create(size=(self._count, self._count), colorfmt="rgba")
        texture.mag_filter = texture.min_filter = "nearest"
        texture.blit_buffer(bytes(pixels), colorfmt="rgba", bufferfmt="ubyte")
        self._texture = texture
        self._place()

    def _place(self, *_args) -> None:
        room = min(self.width, self.height)
        if self._texture is None or room <= 0:
            self._rect.texture, self._rect.size, self.side = None, (0, 0), 0
            self._ink.a = 0
            return
        side = int(room)     # as large as the box allows, in whole pixels
        self._ink.a = 1
        self._rect.texture = self._texture
        self._rect.size = (side, side)
        # from x and width themselves: center_x may not have caught up while the layout moves
        self._rect.pos = (int(self.x + (self.width - side) / 2),
                          int(self.y + (self.height - side) / 2))
        self.side = side


class PlayQrDialog(ModalView):
    """A finished game as a QR code for BG Stats: the code, what it is, what to do, Close."""

    url = StringProperty("")
    what = StringProperty("")
    note = StringProperty("")
    instruction = StringProperty(INSTRUCTION)

    def __init__(self, play: Play, link: PushLink, **kwargs) -> None:
        load_rules_once(__file__)
        super().__init__(**kwargs)
        self.url = link.url or ""
        self.what = describe(play)
        if link.problem:
            self.note = link.problem
            self.instruction = "Add this play to BG Stats by hand."
        elif link.dropped:
            self.note = "Left out to fit one code: " + ", ".join(link.dropped) + "."


#: characters of winners' names the dialog's line shows before it stops with "..."
NAMES_SHOWN = 40


def describe(play: Play) -> str:
    """'Witch's Brew, 4 players, won by Anna': the play the code holds."""
    count = len(play.seats)
    who = f"{count} player{'s' if count != 1 else ''}"
    winners = play.winners
    if play.game == "quest":
        result = "the team won" if winners else "the wizard won"
    elif winners:
        names = " and ".join(winners)
        result = "won by " + (names if len(names) <= NAMES_SHOWN
                              else names[:NAMES_SHOWN].rstrip() + "...")
    else:
        result = "no winner"
    return f"{play.title}, {who}, {result}"


def show_stored_play(store, game_id: int | None) -> PlayQrDialog | None:
    """``show_play_qr`` for a game in the store (a result screen's game just finished); None,
    and nothing opened, without a store or such a game."""
    from companion.history.plays import read_play

    if store is None or game_id is None:
        return None
    play = read_play(store.conn, game_id)
    return show_play_qr(play) if play is not None else None


def show_play_qr(play: Play) -> PlayQrDialog:
    """Open the BG Stats dialog for ``play`` (a finished game: a running one has no result to
    send, and says so in the dialog's note). The dialog is returned, open."""
    try:
        link = push_link(play)
    except ValueError as refusal:
        link = PushLink(None, {}, (), str(refusal))
    dialog = PlayQrDialog(play, link)
    dialog.open()
    return dialog
