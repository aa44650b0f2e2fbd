"""The BG Stats button on the three result screens: it opens a dialog whose QR code, read back
from the drawn window and decoded by zxing-cpp, is exactly the link for the game just finished;
the dialog at 800x480 and 1280x720 (and on the portrait panel); a play too long for one QR code
says so and shows none."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import zxingcpp
from kivy.core.window import Window
from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

from companion.core.model import Command
from companion.history.bgstats import push_link
from companion.history.plays import Play, Seat, read_play
from tests.companion.cauldron_autoplay import brew_the_win
from ui.widgets.qr import INSTRUCTION, PlayQrDialog, QrCode, modules, show_play_qr
from ui_helpers import (
    both_sizes, close_dialogs, dialogs, draw, frames, play_out, resize, shot, tall_shot,
    tap_title, texts,
)

RAVENS = [{"stack": stack, "points": 4, "raven": True}
          for stack in ("copper", "silver", "iron", "gold_shelf", "copper", "silver")]


def window_codes() -> list[str]:
    """Every QR code on the window as drawn now, decoded from its pixels."""
    frames(3)
    Window.canvas.ask_update()
    draw()
    w, h = Window.size
    rgba = glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE)
    red = rgba[0::4]               # one channel is enough: the code is black on white
    # GL's rows run bottom up; a code read that way is mirrored, so turn them top down
    grey = b"".join(red[row * w:(row + 1) * w] for row in reversed(range(h)))
    image = memoryview(grey).cast("B", (h, w))
    return [code.text for code in zxingcpp.read_barcodes(image)
            if code.format == zxingcpp.BarcodeFormat.QRCode]


def data_of(url: str) -> dict:
    (text,) = parse_qs(urlsplit(url).query)["data"]
    return json.loads(text)


def the_dialog() -> PlayQrDialog:
    (dialog,) = [d for d in dialogs() if isinstance(d, PlayQrDialog)]
    return dialog


def finish_witchs_brew(app, names):
    assert app.start_game({"game": "witchs_brew", "players": list(names),
                           "starter": names[1]}) is None
    frames()
    s = app.session
    for name, raven in zip(list(names) * 2, RAVENS[:s.state["ravens_needed"]]):
        s.execute(Command("adjust", name, {"potion": raven}))
    play_out(app)
    frames()
    assert app.screens.current == "result"
    return s


def test_witchs_brew_result_opens_a_code_that_decodes_to_the_finished_play(app):
    names = ["Zoë", "Barb", "Carl"]
    s = finish_witchs_brew(app, names)
    result = app.screens.get_screen("result")
    both_sizes("bgstats_witchs_brew_result")
    tap_title("BG Stats", result)
    dialog = the_dialog()
    play = read_play(app.store.conn, s.game_id)
    assert dialog.url == push_link(play).url
    assert INSTRUCTION in texts(dialog) and "Close" in texts(dialog)
    assert window_codes() == [dialog.url]             # what a phone's camera reads
    data = data_of(dialog.url)
    assert [p["name"] for p in data["players"]] == names
    assert [p["startPlayer"] for p in data["players"]] == [False, True, False]
    assert [p["score"] for p in data["players"]] == [r["score"] for r in
                                                     s.rules.results(s.state)]
    code = dialog.ids.code
    assert code.side == int(min(code.size)) >= 0.8 * Window.height   # as big as it can be
    tap_title("Close", dialog)
    assert not dialogs()
    both_sizes("bgstats_dialog", before=lambda: tap_title("BG Stats", result))
    # at 800x480 the code is read from the drawn window too (the smallest it is drawn)
    resize(800, 480)
    tap_title("BG Stats", result)
    assert window_codes() == [the_dialog().url]
    close_dialogs()


def test_cauldron_result_has_the_button_and_its_code_names_the_characters(app):
    from test_ui_cauldron_screens import FOUR, deal, start, to_turns

    names = [p["name"] for p in FOUR]
    s = start(app)
    deal(s, names)
    to_turns(s, names)
    brew_the_win(s)
    frames()
    assert app.screens.current == "cauldron_result"
    result = app.screens.get_screen("cauldron_result")
    both_sizes("bgstats_cauldron_result")
    tap_title("BG Stats", result)
    url = the_dialog().url
    assert window_codes() == [url]
    data = data_of(url)
    assert [(p["name"], p.get("role")) for p in data["players"]] == [
        ("Anna", "Witch"), ("Barb", "Druid"), ("Carl", "Trickster"), ("Daniel", None)]
    assert [p["rank"] for p in data["players"]] == [1, 2, 2, 4]
    assert data["game"]["sourceGameId"] == "cauldron"
    close_dialogs()


def test_quest_result_code_is_a_team_play_without_points(app):
    assert app.start_game({"game": "quest", "players": ["Mia"],
                           "needed": ["rotten_egg", "newt_eye", "bat_wing"],
                           "path_spaces": 4}) is None
    frames()
    s = app.session
    for path in range(1, 7):
        assert s.execute(Command("action_roll", args={"a": "hat", "b": "spell"})).status == "done"
        assert s.execute(Command("block_path", args={"path": path})).status == "done"
    frames()
    assert app.screens.current == "quest_result"
    result = app.screens.get_screen("quest_result")
    both_sizes("bgstats_quest_result")
    tap_title("BG Stats", result)
    dialog = the_dialog()
    assert window_codes() == [dialog.url]
    data = data_of(dialog.url)
    assert data["players"] == [{"name": "Mia", "winner": False, "startPlayer": True}]
    assert data["game"]["noPoints"] is True
    assert "Cauldron Quest, 1 player, the wizard won" in texts(dialog)
    close_dialogs()


def test_a_play_too_long_for_one_code_says_so_and_shows_none(app):
    seats = tuple(Seat(i, "Ж" * 400 + str(i), 3, i == 0, {"tiebreak": 0}) for i in range(6))
    huge = Play(1, "witchs_brew", "Witch's Brew", "finished", "2026-11-30T19:00:00+00:00",
                "2026-11-30T20:00:00+00:00", 60.0, seats, (), {})
    dialog = show_play_qr(huge)
    frames()
    assert dialog.url == "" and dialog.ids.code.side == 0
    assert dialog.ids.code.width == 0                # the words take the whole dialog
    assert any("too long for one QR code" in t for t in texts(dialog))
    assert window_codes() == []
    shot("bgstats_too_long")
    close_dialogs()


def test_the_dialog_on_the_portrait_panel(app):
    seats = tuple(Seat(i, n, 10 - i, i == 0, {"tiebreak": 0})
                  for i, n in enumerate(["Anna", "Barb", "Carl", "Dora", "Emil", "Fynn"]))
    six = Play(3, "witchs_brew", "Witch's Brew", "finished", "2026-11-30T19:00:00+00:00",
               "2026-11-30T20:00:00+00:00", 60.0, seats, (), {})
    resize(720, 1280)
    try:
        dialog = show_play_qr(six)
        frames()
        code = dialog.ids.code
        assert code.side == int(code.width) > 0.9 * dialog.width
        tall_shot("bgstats_dialog_portrait")
    finally:
        close_dialogs()
        resize(800, 480)


def test_the_widget_draws_nothing_without_data(kivy_app):     # a window holds textures
    empty = QrCode(size=(200, 200))
    assert empty.side == 0
    empty.data = "https://app.bgstatsapp.com/createPlay.html?data=%7B%7D"
    assert empty.side == 200 and len(modules(empty.data)) == 33 + 8   # version 4, quiet zone
    empty.data = ""
    assert empty.side == 0
