"""The club at the table: with club settings the app runs its sync thread, and
the Settings screen says whether the club is connected, how many games wait and the last error
in words, never a password. The club here is unreachable (a port nothing listens on): play goes
on, the finished game waits, and the screen says so; the sync's report reaches the screen
through the inbox. The "Who?" picker marks a club player who never sat at this table."""

from __future__ import annotations

import socket

import pytest
from ui_helpers import both_sizes, frames, texts, wait_for

from companion.club import access
from companion.club.sync import Backoff
from companion.store.journal import Tx
from ui.widgets.players import KnownPlayers

PASSWORD = "s3cret-Pa55word"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def club(app, tmp_path):
    """Club settings pointing at a port nothing listens on; the thread started; stopped after."""
    path = tmp_path / "club.json"
    access.save(access.Settings("Brettspiel", "Table 1", "club_table_table_1",
                                f"host=127.0.0.1 port={free_port()} dbname=club "
                                f"user=club_table_table_1 password={PASSWORD} "
                                "sslmode=disable connect_timeout=2"), path)
    app.club_backoff = Backoff(0.05, 0.2)
    app.start_club(path=path)
    yield path
    app.stop_club()
    app._club_path, app.club_backoff = None, None


def test_an_unreachable_club_is_said_and_play_goes_on(app, club):
    from test_ui_bgstats import finish_witchs_brew

    assert app.club_on and app._club_thread.is_alive()
    assert wait_for(lambda: "not connected" in app.club_said, 10), app.club_said
    finish_witchs_brew(app, ["Anna", "Ben", "Cleo"])
    assert app.session.over
    assert wait_for(lambda: app.club_waiting == 1, 10), app.club_said
    app.open_table_settings()
    frames()
    said = texts(app.screens.get_screen("table_settings"))
    line = next(t for t in said if t.startswith("Club Brettspiel"))
    assert "not connected, 1 game waiting" in line and "Last error:" in line
    assert "refused" in line.lower()
    assert not any(PASSWORD in t for t in said)
    both_sizes("table_settings_club_unreachable", portrait=True)
    # the game is kept and waits: the store's outbox
    assert app.store.conn.execute("SELECT state FROM outbox").fetchall() == [("waiting",)]


def test_the_settings_without_a_club_say_nothing_of_it(app):
    assert not app.club_on and app.club_sync is None
    app.open_table_settings()
    frames()
    assert not any(t.startswith("Club") for t in texts(app.screens.get_screen("table_settings")))


def test_the_picker_marks_a_club_player_new_here(app):
    with Tx(app.store.conn):    # as the sync brings one down (companion/club/profiles.py)
        app.store.conn.execute(
            "INSERT INTO profiles (uuid, name, name_key, created_at, last_played_at) VALUES "
            "('00000000-0000-4000-8000-0000000000aa', 'Zoe', 'zoe', "
            "'2026-11-01T10:00:00+00:00', '2026-11-30T10:00:00+00:00')")
    app.new_game("witchs_brew")
    frames()
    setup = app.screens.get_screen("setup")
    picker = KnownPlayers(setup.rows[:3], setup.rows[0], app.store, lambda note: None)
    row = next(d for d in picker.ids.list.data if d["name"] == "Zoe")
    assert row["caption"] == "a club player, no games here yet"


def test_a_refusal_is_not_promised_a_later_send(app):
    """A game the club refused stays refused at every sync: the Settings' line says it is kept
    and names no retry; a refusal of the table itself asks for the club's admin instead of
    saying the games are sent when the club is back."""
    from companion.club.sync import Report
    from ui.table.club import club_words

    app._show_club(Report(waiting=1, refused=["Witch's Brew of 2026-11-30: a name past 40"]))
    assert "1 game refused by the club" in app.club_said
    assert "nothing is lost" in app.club_said
    refused = club_words("Brettspiel", False, 2, "permission denied for table games",
                         permanent=True)
    assert "sent when the club is back" not in refused
    assert "ask the club's admin" in refused
    away = club_words("Brettspiel", False, 2, "connection refused")
    assert "sent when the club is back" in away
