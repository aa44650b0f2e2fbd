"""A card that cannot save (full, read-only, failing) while playing: the press is not applied,
the screen says why in players' words, the app goes on, and the same press works once the card
does. Nothing is shown as applied that is not stored."""

from __future__ import annotations

import json
import sqlite3

from companion.core.model import Command
from tests.support.full_card import disk_full
from ui_helpers import frames, resize


class FullCard:
    """The store's connection on a card that has just filled up: every step insert fails."""

    #: the statement the full card refuses
    FAILS = "INSERT INTO steps"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql, *args):
        if sql.startswith(self.FAILS):
            raise disk_full()
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
    app.session.execute(Command("claim", "Emil"))
    app.store.conn.execute("UPDATE events SET data = '[]' WHERE game_id = ? AND step = 2", (bad,))
    app.open_store(tmp_path / "companion.sqlite3")  # the next start: it must not fail
    frames()
    [card] = find(lambda w: getattr(w, "game_id", None) == bad)
    card.resume_button.dispatch("on_release")   # found when resumed: its card then says so
    frames()
    shot("home_damaged_game")
    resize(1280, 720)
    shot("home_damaged_game")
    resize(800, 480)
    shown = texts(app.root)
    assert "Witch's Brew  -  damaged from step 2" in shown
    assert any(t.startswith("Repair keeps it as it stood: ") and t.endswith("(1 step)")
               for t in shown)
    [card] = find(lambda w: getattr(w, "game_id", None) == bad)
    card.save_button.dispatch("on_release")
    [saved] = (tmp_path / "exports").glob(f"game-{bad}-log-*.jsonl")
    assert app.notice == f"The log of game #{bad}, as stored, is saved in {saved}"
    rows = [json.loads(line) for line in saved.read_text().splitlines()]
    assert [r.get("n") for r in rows] == [None, 1, 2] and rows[2]["events"][0]["data"] == "[]"
    assert saved.stat().st_mode & 0o777 == 0o600
    card.repair_button.dispatch("on_release")
    assert app.store.damage(bad) is not None  # the first tap only asks, elsewhere:
    assert (card.repair_button.title, card.save_button.title) == ("Keep it", "Repair it")
    card.save_button.dispatch("on_release")
    frames()
    assert app.notice == (f"Game #{bad}: 1 step(s) from step 2 on kept but left out; "
                          "it resumes at its last good state")
    [card] = find(lambda w: getattr(w, "game_id", None) == bad)
    card.resume_button.dispatch("on_release")
    assert app.session.game_id == bad and len(app.session.done_steps()) == 1
    app.go_home()
    find(lambda w: getattr(w, "game_id", None) == good)[0].resume_button.dispatch("on_release")
    assert app.session is not None and app.session.game_id == good


def test_a_game_whose_setup_cannot_be_played_offers_its_log_and_no_repair(app, tmp_path):
    from ui_helpers import find, texts

    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    bad = app.session.game_id
    app.store.conn.execute("UPDATE games SET setup = '{\"players\": []}' WHERE id = ?", (bad,))
    app.open_store(tmp_path / "companion.sqlite3")
    frames()
    find(lambda w: getattr(w, "game_id", None) == bad)[0].resume_button.dispatch("on_release")
    frames()
    assert "Witch's Brew  -  its setup cannot be played" in texts(app.root)
    [card] = find(lambda w: getattr(w, "game_id", None) == bad)
    assert not hasattr(card, "repair_button") and not hasattr(card, "resume_button")


def test_a_press_the_card_cannot_save_waits_and_is_applied_once_the_card_works(app):
    from ui_helpers import shot, tall_shot

    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    assert app.send(Command("play_role", "Anna", {"role": "witch"})) is True
    real = app.store.conn
    app.store.conn = FullCard(real)
    app.press("seat2.claim", source="gpio")  # Barb's arcade button
    frames()
    assert app.waiting.startswith("Not saved, so not applied: the SD card (disk) is full")
    assert len(app.session.steps) == 1
    app.dismiss_refusal()
    frames()
    shot("waiting_for_the_card")
    resize(1280, 720)
    shot("waiting_for_the_card")
    resize(720, 1280)
    tall_shot("waiting_for_the_card")
    resize(800, 480)
    assert app.send(Command("pass", "Carl")) is False  # new presses wait behind it
    assert "The first press is still waiting" in app.waiting and len(app.session.steps) == 1
    app.card_wait._retry(0)  # the retry clock, while the card is still full
    assert app.waiting and len(app.session.steps) == 1
    app.store.conn = real
    app.card_wait._retry(0)
    assert app.waiting == "" and app.refusal == "" and not app.card_wait.busy
    stored = [s.command.to_dict() for s in app.store.steps(app.session.game_id)]
    assert stored == [s.command.to_dict() for s in app.session.steps]
    assert stored[1] == {"do": "claim", "player": "Barb"}


def test_a_waiting_press_goes_first_and_can_be_cancelled(app):
    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    real = app.store.conn
    app.store.conn = FullCard(real)
    assert app.send(Command("play_role", "Anna", {"role": "witch"})) is False
    app.store.conn = real
    assert app.send(Command("claim", "Barb")) is True  # the card works: Anna's role first
    assert [s.command.do for s in app.store.steps(app.session.game_id)] == ["play_role", "claim"]
    app.store.conn = FullCard(real)
    assert app.send(Command("pass", "Carl")) is False and app.waiting
    app.root.ids.cancel_waiting.dispatch("on_release")
    app.store.conn = real
    assert app.waiting == "" and not app.card_wait.busy
    assert [s.command.do for s in app.session.steps] == ["play_role", "claim"]


def test_the_same_press_again_while_it_waits_is_applied_once(app):
    assert app.start_game({"game": "witchs_brew", "players": ["Anna", "Barb", "Carl"]}) is None
    assert app.send(Command("play_role", "Anna", {"role": "witch"})) is True
    real = app.store.conn
    app.store.conn = FullCard(real)
    app.press("seat2.pass", source="gpio")
    app.press("seat2.pass", source="gpio")  # still full: the same press, still the one waiting
    assert app.waiting.endswith("new presses wait until then.")
    app.store.conn = real
    app.press("seat2.pass", source="gpio")  # the card works: applied once, not twice
    assert [s.command.to_dict() for s in app.store.steps(app.session.game_id)][1:] == [
        {"do": "pass", "player": "Barb"}]
    assert not app.card_wait.busy and app.refusal == ""


class FullForNewGames(FullCard):
    """A card that fills up just as a new game is stored."""

    FAILS = "INSERT INTO games"


def test_a_new_game_on_a_full_card_is_refused_on_the_setup_screen(app):
    real = app.store.conn
    app.store.conn = FullForNewGames(real)
    app.new_game("witchs_brew")
    frames()
    setup = app.screens.get_screen("setup")
    setup.start()
    assert setup.error == ("Not saved, so the game was not started: the SD card (disk) is full: "
                           "free some space")
    assert app.session is None and app.screens.current == "setup"
    app.store.conn = real
    setup.start()
    assert app.session is not None and app.store.games()[0].id == app.session.game_id
