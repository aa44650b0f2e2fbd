"""A game's time is the same on every screen that names it (Home once said 14:50 and
History 14:43 for the same game: Home showed the last step's time, History the start). Both,
and the game's detail, say when it began, through one helper (ui/text/played.py game_when)."""

from __future__ import annotations

from companion.history.plays import read_play
from ui.screens.history import head_words
from ui.text.played import local_clock
from ui_helpers import frames

STARTED, LAST = "2026-05-02T12:43:00+00:00", "2026-05-02T12:50:00+00:00"


def test_home_history_and_the_detail_say_the_same_time_for_a_game(app):
    from tests.companion.test_store_summary import play_stored

    store = app.store
    game_id = play_stored(store, "witchs_brew").game_id
    store.conn.execute("UPDATE games SET created_at = ?, updated_at = ?, finished_at = ? "
                       "WHERE id = ?", (STARTED, LAST, LAST, game_id))
    store.conn.commit()
    app.go_home()
    frames()
    home = app.screens.get_screen("home")
    home.refresh()
    frames()
    (row,) = [r for r in home.ids.history.data if r["game_id"] == game_id]
    play = read_play(app.store.conn, game_id)
    started = local_clock(STARTED)
    assert started != local_clock(LAST)
    assert started in head_words(play)                       # History: when it began
    assert started in row["head"] and local_clock(LAST) not in row["head"], row["head"]
    from ui.text.played import game_when                     # the one helper both use

    assert head_words(play).startswith(game_when(play))
    assert row["head"].startswith(game_when(play))
