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
