"""The history screen's queries over ~200 autoplayed games of all three titles: every page,
filter and count checked against a direct computation over the games as the test played them
(not as read back), the players a filter offers, and a filter the file cannot answer refused
with the field named."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest

from companion.core.errors import CompanionError
from companion.history import browse
from companion.history.browse import Filter
from companion.history.plays import read_play
from companion.store import Store
from tests.support.figures import median_ms, report
from tests.support.history import COUNTS, build_history


@pytest.fixture(scope="module")
def history(history):
    """The history the statistics tests share (conftest), open: (a connection, the games)."""
    path, played = history
    conn = sqlite3.connect(path)
    yield conn, played
    conn.close()


def expected(played, game=None, name=None):
    """Finished games kept by the filter, newest first (they were started in id order)."""
    kept = [p for p in played if p.status == "finished" and game in (None, p.game)
            and (name is None or name in p.names)]
    return sorted(kept, key=lambda p: (p.created, p.id), reverse=True)


def test_every_page_newest_first_with_its_results(history):
    conn, played = history
    want = expected(played)
    assert browse.count(conn) == len(want) == sum(COUNTS.values())
    got = []
    for offset in range(0, len(want) + 20, 20):
        got += browse.page(conn, Filter(), 20, offset)
    assert [p.id for p in got] == [p.id for p in want]
    statements = []
    conn.set_trace_callback(statements.append)
    browse.count(conn, Filter("witchs_brew", "Anna"))
    browse.page(conn, Filter("witchs_brew", "Anna"), 20, 20)
    conn.set_trace_callback(None)
    assert not any("steps" in q or "events" in q for q in statements)   # never a log
    chosen = Filter("witchs_brew", "Anna")
    page_ms = median_ms(lambda: (browse.count(conn, chosen), browse.page(conn, chosen, 20, 20)))
    report("history screen", f"{len(want)} finished games: a filtered count and page "
           f"{page_ms:.1f} ms, {len(statements)} SQL statements; the players seen "
           f"{median_ms(lambda: browse.players(conn)):.1f} ms")
    by_id = {p.id: p for p in want}
    for play in got:
        mine = by_id[play.id]
        assert [(s.name, s.score, s.winner) for s in play.seats] == [
            (r["name"], r["score"], r["winner"]) for r in mine.results]
        assert play.minutes == mine.minutes
        assert list(play.variants) == mine.variants
        assert play.status == "finished"


@pytest.mark.parametrize("game", ["witchs_brew", "quest", "cauldron"])
def test_a_title_filter_keeps_that_title_only(history, game):
    conn, played = history
    want = expected(played, game=game)
    assert browse.count(conn, Filter(game)) == len(want) == COUNTS[game]
    assert [p.id for p in browse.page(conn, Filter(game), 500)] == [p.id for p in want]


def test_a_player_filter_alone_and_with_a_title(history):
    conn, played = history
    for name in ("Anna", "Fynn"):
        want = expected(played, name=name)
        assert browse.count(conn, Filter(name=name)) == len(want) > 0
        assert [p.id for p in browse.page(conn, Filter(name=name), 30, 10)] == \
            [p.id for p in want[10:40]]
    # Fynn never plays Cauldron (the generator's rule): the filter says none
    assert browse.count(conn, Filter("cauldron", "Fynn")) == 0
    assert browse.page(conn, Filter("cauldron", "Fynn")) == []
    want = expected(played, "quest", "Barb")
    assert [p.id for p in browse.page(conn, Filter("quest", "Barb"), 500)] == [p.id for p in want]


def test_the_players_offered_are_those_seen_who_played_last_first(history):
    conn, played = history
    finished = [p for p in played if p.status == "finished"]
    last = {}
    for p in finished:
        for name in p.names:
            last[name] = max(last.get(name, p.created), p.created)
    offered = browse.players(conn)
    assert [p.label for p in offered] == sorted(last, key=lambda n: (-last[n].timestamp(), n))
    assert {p.label for p in browse.players(conn, "cauldron")} == \
        {n for p in finished if p.game == "cauldron" for n in p.names}
    assert browse.has_profiles(conn)            # a new file links each seat to a profile
    for player in offered:                      # one profile per name here: the same games
        assert player.name is None and player.profile
        by_profile = Filter(profile=player.profile)
        assert browse.count(conn, by_profile) == len(expected(played, name=player.label))
        assert [p.id for p in browse.page(conn, by_profile, 500)] == \
            [p.id for p in expected(played, name=player.label)]


def test_a_file_from_before_profiles_offers_names(history, tmp_path):
    """A version 3 file (no profiles): its players are their seat names, filtered by name."""
    conn, played = history
    old = sqlite3.connect(tmp_path / "old.sqlite3")
    conn.backup(old)
    old.execute("DROP INDEX IF EXISTS players_by_profile")
    old.execute("ALTER TABLE players DROP COLUMN profile_id")
    old.execute("DROP TABLE profiles")
    assert not browse.has_profiles(old)
    offered = browse.players(old)
    assert {p.label for p in offered} == {n for p in played if p.status == "finished"
                                          for n in p.names}
    assert all(p.name == p.label and p.profile is None for p in offered)
    assert browse.count(old, Filter(**offered[0].filter_keys)) == \
        len(expected(played, name=offered[0].label))
    with pytest.raises(CompanionError, match="profile: this database keeps no player profiles"):
        browse.count(old, Filter(profile=browse.players(conn)[0].profile))
    assert browse.page(old, Filter("quest"), 3) == [   # the same plays, without profiles
        replace(p, seats=tuple(replace(s, profile=None) for s in p.seats))
        for p in browse.page(conn, Filter("quest"), 3)]
    old.close()


def test_one_game_as_a_play_and_a_missing_one(history):
    conn, played = history
    for p in played[::9]:                 # the same play the exports and BG Stats read
        assert browse.play(conn, p.id) == read_play(conn, p.id)
    running = next(p for p in played if p.status == "running")
    play = browse.play(conn, running.id)
    assert play.status == "running" and [s.name for s in play.seats] == running.names
    assert all(s.score is None for s in play.seats)
    assert browse.play(conn, 10 ** 6) is None


def test_a_filter_the_file_cannot_answer_is_refused_by_name(history):
    conn, _ = history
    with pytest.raises(CompanionError, match="not both"):
        browse.count(conn, Filter(name="Anna", profile="x"))
    with pytest.raises(CompanionError, match="page"):
        browse.page(conn, Filter(), -1)
    assert browse.count(conn, Filter(profile="no such uuid")) == 0


def test_results_details_that_only_parse_together_are_not_read_as_others(tmp_path):
    """A game's results details are parsed in one call when SQLite vouches for each; three
    damaged ones that happen to join into a valid array ("1,2", "[3", "4]") are read one by
    one and refused, never taken as three other values."""
    with Store(tmp_path / "c.sqlite3") as store:
        (game,) = build_history(store, {"witchs_brew": 1}, seed=3)
        rows = store.conn.execute("SELECT seat FROM results WHERE game_id = ? ORDER BY seat",
                                  (game.id,)).fetchall()
        assert len(rows) >= 3
        for (seat,), text in zip(rows, ("1,2", "[3", "4]")):
            store.conn.execute("UPDATE results SET detail = ? WHERE game_id = ? AND seat = ?",
                               (text, game.id, seat))
        with pytest.raises(ValueError):
            read_play(store.conn, game.id)
