"""Witch's Brew tiles with Large text show fewer counts larger rather than cramming them, and
keep both lines of counts: every count shown keeps an icon of at least ICON_LEAST of its
digits' size beside it, at 800x480 and 1280x720, normal and Large text, and the score stays
beside a name that leaves it room. Large text at 800x480 drew the second line's icons 2 pixels
wide (the potions counter, hidden, kept the width it had before the tile turned compact), at
1280x720 20 pixels beside 58-pixel digits (four counts at once); later it hid every tile's line
of drops (its counters still counted as shown) and put each score on a line of its own."""

from __future__ import annotations

from ui_helpers import frames, panel, resize

from ui.games.witchs_brew.seat_panel import ICON_LEAST
from ui.widgets.icons import Counter

NAMES = ["Anna", "Barbara", "Carl", "Daniel", "Emma"]


def counters(tile) -> list[Counter]:
    return [w for w in tile.walk(restrict=True) if isinstance(w, Counter)]


def test_every_count_keeps_its_icon_at_both_sizes_and_text_sizes(app, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "settings.json"))
    app.load_table_settings()
    try:
        for text_size in ("normal", "large"):
            assert app.change_table_settings(text_size=text_size) == ""
            assert app.start_game({"game": "witchs_brew", "players": NAMES}) is None
            frames()
            for size in ((800, 480), (1280, 720)):
                resize(*size)
                for name in NAMES:
                    tile = panel(app, name)
                    for c in counters(tile):
                        where = (text_size, size, name, c.name)
                        if c.opacity == 0:     # left out: it takes no room from the others
                            assert c.width == 0, where
                            continue
                        assert c.icon.width >= ICON_LEAST * c.digits.font_size - 1, \
                            (where, c.icon.width, c.digits.font_size)
                    # a count is shown where its line is too (Large text at 800x480 hid the
                    # line of drops on every tile, its counters still "shown")
                    shown = {c.name for c in counters(tile) if c.opacity > 0
                             and c.parent.opacity > 0 and c.parent.height > 0}
                    assert {"red", "white", "green", "gold", "vials", "cards"} <= shown, where
                    if name != "Barbara":   # a name that leaves room for the score beside it
                        assert not tile.compact, where
            app.leave_session()
            resize(800, 480)
    finally:
        monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "none.json"))
        app.load_table_settings()
        resize(800, 480)
