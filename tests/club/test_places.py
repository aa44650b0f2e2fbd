"""The ratings follow the places each game's rules gave, tie-breaks included
(companion/club/league.py ``places``, which the sync sends as each seat's place): a test per
game, from the results each game's own ``results`` writes."""

from __future__ import annotations

from companion.club.league import places


def test_witchs_brew_ranks_a_tied_score_by_its_tie_break():
    """Most points; tied: most drops + gold (companion/games/witchs_brew/state.py winners)."""
    players = [{"seat": 0, "score": 20, "tiebreak": 3, "winner": True},
               {"seat": 1, "score": 20, "tiebreak": 1, "winner": False},
               {"seat": 2, "score": 15, "tiebreak": 9, "winner": False},
               {"seat": 3, "score": 15, "tiebreak": 2, "winner": False},
               {"seat": 4, "score": 15, "tiebreak": 2, "winner": False}]
    assert places(players) == [1, 2, 3, 4, 4]


def test_witchs_brew_shared_victory_shares_first_place():
    players = [{"score": 20, "tiebreak": 3, "winner": True},
               {"score": 20, "tiebreak": 3, "winner": True},
               {"score": 10, "tiebreak": 0, "winner": False}]
    assert places(players) == [1, 1, 3]


def test_cauldron_keeps_its_own_places_the_grand_infuser_first():
    """The Grand Infuser is first whatever the others' Magik (cauldron/state.py podium)."""
    players = [{"score": 12, "place": 2, "winner": False},
               {"score": 9, "place": 1, "winner": True},
               {"score": 12, "place": 2, "winner": False}]
    assert places(players) == [2, 1, 2]


def test_cauldron_quest_is_one_place_for_everyone():
    for won in (True, False):
        players = [{"score": 0, "winner": won} for _ in range(4)]
        assert places(players) == [1, 1, 1, 1]


def test_a_tiebreak_that_is_not_a_number_counts_as_none():
    players = [{"score": 5, "tiebreak": "x", "winner": False},
               {"score": 5, "tiebreak": True, "winner": False}]
    assert places(players) == [1, 1]


def test_rate_counts_games_not_games_times_seasons(roles):
    """A game in two seasons is folded into each, and said once."""
    import uuid as uuids

    import psycopg

    from companion.club.rater import rate_due
    from tests.club.hostile import login, send

    with psycopg.connect(roles["admin"], autocommit=True) as admin:
        admin.execute("INSERT INTO club.seasons (name, starts, ends) VALUES ('Year', "
                      "'2000-01-01', '2100-01-01'), ('Also', '2000-01-01', '2100-01-01')")
    made = [str(uuids.uuid4()) for _ in range(3)]
    with login(roles["table"]) as conn:
        for i, p in enumerate(made):
            conn.execute("INSERT INTO club.profiles (uuid, name, added_by) VALUES "
                         "(%s, %s, club.club_device())", (p, f"P{i}"))
        send(conn, roles["devices"]["table"], profiles=made)
    with login(roles["rater"]) as conn:
        assert rate_due(conn) == 1
        assert conn.execute("SELECT count(*) FROM club.standings WHERE mu IS NOT NULL"
                            ).fetchone() == (6,)
