"""A card that cannot save (full, read-only, failing) while playing: the press is not applied,
the screen says why in players' words, the app goes on, and the same press works once the card
does. Nothing is shown as applied that is not stored."""

from __future__ import annotations

import sqlite3

from companion.core.model import Command
from ui_helpers import frames


class FullCard:
    """The store's connection on a card that has just filled up: every step insert fails."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql, *args):
        if sql.startswith("INSERT INTO steps"):
            problem = sqlite3.OperationalError("database or disk is full")
            problem.sqlite_errorcode = sqlite3.SQLITE_FULL
            raise problem
        return self.conn.execute(sql, *args)

    def executemany(self, sql, *args):
        return self.conn.executemany(sql, *args)


def test_a_full_card_refuses_the_press_in_words_and_the_press_works_later(app):
    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    real = app.store.conn
    app.store.conn = FullCard(real)
    summary, steps = app.session.summary(), list(app.session.steps)
    assert app.send(Command("play_role", "Anna", {"role": "witch"})) is False
    frames()
    assert app.refusal.startswith("Not saved, so not applied: the SD card (disk) is full")
    assert app.session.summary() == summary and app.session.steps == steps
    app.store.conn = real
    app.dismiss_refusal()
    assert app.send(Command("play_role", "Anna", {"role": "witch"})) is True
    assert [s.command.do for s in app.store.steps(app.session.game_id)] == ["play_role"]


def test_a_game_whose_log_does_not_fold_is_shown_damaged_and_the_others_play(app, tmp_path):
    from ui_helpers import find, shot, texts

    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    good = app.session.game_id
    app.session.execute(Command("play_role", "Anna", {"role": "witch"}))
    assert app.start_game({"game": "witchs_brew", "players": ["Dora", "Emil", "Finn"]}) is None
    bad = app.session.game_id
    app.session.execute(Command("play_role", "Dora", {"role": "witch"}))
    app.store.conn.execute("UPDATE events SET data = '[]' WHERE game_id = ?", (bad,))
    app.open_store(tmp_path / "companion.sqlite3")  # the next start: it must not fail
    frames()
    shot("home_damaged_game")
    assert "Witch's Brew  -  damaged: Resume says why" in texts(app.root)
    [card] = find(lambda w: getattr(w, "game_id", None) == bad)
    card.resume_button.dispatch("on_release")
    frames()
    assert app.session is None and app.screens.current == "home"
    assert app.notice.startswith(f"Game #{bad} cannot be read from step 1 on: "
                                 "companion check --repair")
    find(lambda w: getattr(w, "game_id", None) == good)[0].resume_button.dispatch("on_release")
    assert app.session is not None and app.session.game_id == good
