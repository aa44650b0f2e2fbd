"""A game's table screen, once it has drawn a game, is no longer walked by the garbage
collector (ui/root.py ``Root.first_shown``): it lives as long as the app, and a full collection
over every table's widgets took 0.12-0.19 s here, a frame missed in the middle of play."""

from __future__ import annotations

import gc
import time

from ui_helpers import draw, frames

SETUPS = {
    "witchs_brew": {"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]},
    "cauldron": {"game": "cauldron", "players": [{"name": "Anna"}, {"name": "Barb"}]},
    "quest": {"game": "quest", "players": ["Anna", "Barb"],
              "needed": ["rotten_egg", "horned_toad", "bat_wing"]},
}
#: Objects a full collection may still walk at a table: the game's own state and what a
#: few frames made (about 10 here); the tables themselves are some 100,000 each.
WALKED_AT_MOST = 20_000


def full_collection() -> float:
    start = time.perf_counter()
    gc.collect()
    return time.perf_counter() - start


def play_a_table(app, setup: dict, at_table=lambda: None) -> None:
    """Start a game, draw its table's first frame, call ``at_table``, go home."""
    assert app.start_game(setup) is None
    frames(4)
    draw()              # the table's first frame
    frames(2)
    at_table()
    app.leave_session()
    app.go_home()
    frames(2)


def test_each_table_first_drawn_leaves_the_collectors_walk(app):
    from ui.games import GAMES

    def walked_little(game: str) -> None:
        assert app.screens.current == GAMES[game].table_screen
        walked = len(gc.get_objects())
        assert walked < WALKED_AT_MOST, (
            f"{game}: a full collection walks {walked} objects at the table "
            f"({full_collection() * 1000:.0f} ms)")

    gc.unfreeze()               # as if no table had been drawn in this process yet
    app.root.tables_kept.clear()
    try:
        for game, setup in SETUPS.items():
            play_a_table(app, setup, lambda: walked_little(game))
        assert app.root.tables_kept == {g.table_screen for g in GAMES.values()}
    finally:
        gc.freeze()             # what the test unfroze is long-lived again


def test_a_table_is_kept_once_not_at_every_game(app, monkeypatch):
    """Frozen garbage is never collected, so the freeze happens once a table, not a game: a
    second game at a table already kept freezes nothing more."""
    calls = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(1))
    for _ in range(2):
        play_a_table(app, SETUPS["quest"])
    assert len(calls) <= 1
