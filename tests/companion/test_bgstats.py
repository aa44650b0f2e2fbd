"""A finished play as BG Stats' push-play link: every field checked against the names and types
of the documented format (the schema below is written from BG Stats' page "Push plays to BG
Stats from other apps or websites", its example object), for all three titles, ties, a solo
Cauldron Quest, names with non-ASCII letters, and a play too long for one QR code."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import datetime, timezone
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.history.bgstats import (
    CREATE_PLAY, QR_BYTES_M, SOURCE_NAME, compact, payload, play_date, push_link,
)
from companion.history.plays import Play, Seat, read_play, read_plays
from companion.store import Store
from tests.support.history import build_history

#: The documented fields and their JSON types (bool is checked before int: in Python a bool
#: is an int, in JSON it is not).
TOP = {"sourceName": str, "sourcePlayId": str, "playDate": str, "durationMin": int,
       "game": dict, "players": list, "board": str, "comments": str, "location": str}
GAME = {"name": str, "sourceGameId": str, "bggId": int, "highestWins": bool, "noPoints": bool}
PLAYER = {"name": str, "score": (int, float), "winner": bool, "startPlayer": bool, "rank": int,
          "role": str, "sourcePlayerId": str}
PLAY_DATE = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}")


def conforms(data: dict, shape: dict, where: str) -> None:
    for key, value in data.items():
        assert key in shape, f"{where}.{key} is not a documented field"
        wanted = shape[key]
        if wanted is not bool:
            assert not isinstance(value, bool), f"{where}.{key}: a boolean where {wanted} is"
        assert isinstance(value, wanted), f"{where}.{key}: {value!r} is not {wanted}"


def check_documented(data: dict) -> None:
    conforms(data, TOP, "play")
    conforms(data["game"], GAME, "game")
    for n, p in enumerate(data["players"]):
        conforms(p, PLAYER, f"players[{n}]")
        assert p["name"]
    assert data["sourceName"] == SOURCE_NAME and data["sourcePlayId"] and data["game"]["name"]
    assert PLAY_DATE.fullmatch(data["playDate"]), data["playDate"]


def decoded(url: str) -> dict:
    """The JSON a phone's BG Stats reads back from the link."""
    assert url.startswith(CREATE_PLAY)
    assert url.isascii() and " " not in url
    (text,) = parse_qs(urlsplit(url).query, strict_parsing=True)["data"]
    return json.loads(text)


def play(game="witchs_brew", title="Witch's Brew", seats=(), setup=None, minutes=42.4,
         status="finished", **extra) -> Play:
    return Play(7, game, title, status, "2026-11-30T19:02:00+01:00",
                "2026-11-30T19:44:30+01:00" if status == "finished" else None, minutes,
                tuple(seats), (), setup or {}, **extra)


def brew_seat(seat, name, score, tiebreak, winner=False):
    return Seat(seat, name, score, winner, {"seat": seat, "name": name, "score": score,
                                            "tiebreak": tiebreak, "winner": winner})


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """One autoplayed game of each title in a real store, with the sessions' own results."""
    store = Store(tmp_path_factory.mktemp("bgstats") / "plays.sqlite3")
    played = build_history(store, {"witchs_brew": 1, "cauldron": 1, "quest": 1}, seed=12)
    yield store, played
    store.close()


@pytest.mark.parametrize("game", ["witchs_brew", "cauldron", "quest"])
def test_each_title_from_the_store_is_the_documented_play(history, game):
    store, played = history
    known = next(p for p in played if p.game == game)
    stored = read_play(store.conn, known.id)
    assert stored == next(p for p in read_plays(store.conn) if p.id == known.id)
    link = push_link(stored)
    assert link.url and not link.dropped and not link.problem
    data = decoded(link.url)
    assert data == link.payload
    check_documented(data)
    assert data["sourcePlayId"] == stored.uuid and len(stored.uuid) == 36   # the game's uuid
    assert data["game"]["sourceGameId"] == game
    assert data["playDate"] == known.finished.astimezone(timezone.utc).strftime(
        "%Y-%m-%d %H:%M:%S")
    assert data["durationMin"] == round(known.minutes)
    assert [p["name"] for p in data["players"]] == [r["name"] for r in known.results]
    assert [p["winner"] for p in data["players"]] == [r["winner"] for r in known.results]
    if game == "quest":    # a team game without points: no score, no rank
        assert data["game"]["noPoints"] is True and "highestWins" not in data["game"]
        assert all("score" not in p and "rank" not in p for p in data["players"])
        assert [p["startPlayer"] for p in data["players"]][0] is True
    else:
        assert data["game"] == {**data["game"], "noPoints": False, "highestWins": True}
        assert [p["score"] for p in data["players"]] == [r["score"] for r in known.results]
        best = min(p["rank"] for p in data["players"])
        assert best == 1 and all(p["rank"] == 1 for p in data["players"] if p["winner"])
    if game == "cauldron":  # turn order is rolled each Harvest: no start player
        assert all("startPlayer" not in p for p in data["players"])
        assert [p["rank"] for p in data["players"]] == [r["place"] for r in known.results]
        assert all(p["role"] for p in data["players"])
    if game == "witchs_brew":
        assert sum(p["startPlayer"] for p in data["players"]) == 1


def test_no_such_game_reads_as_none(history):
    store, _ = history
    assert read_play(store.conn, 9999) is None


def test_a_shared_victory_and_tied_places_share_their_rank():
    seats = [brew_seat(0, "Anna", 20, 5, True), brew_seat(1, "Barb", 20, 5, True),
             brew_seat(2, "Carl", 14, 2), brew_seat(3, "Dora", 14, 2), brew_seat(4, "Emil", 9, 8)]
    data = payload(play(seats=seats, setup={"starter": "Carl"}))
    check_documented(data)
    assert [(p["name"], p["rank"], p["winner"]) for p in data["players"]] == [
        ("Anna", 1, True), ("Barb", 1, True), ("Carl", 3, False), ("Dora", 3, False),
        ("Emil", 5, False)]
    assert [p["startPlayer"] for p in data["players"]] == [False, False, True, False, False]


def test_a_tie_on_points_decided_by_drops_and_gold_ranks_by_it():
    seats = [brew_seat(0, "Anna", 18, 3), brew_seat(1, "Barb", 18, 6, True),
             brew_seat(2, "Carl", 18, 3)]
    data = payload(play(seats=seats))
    assert [p["rank"] for p in data["players"]] == [2, 1, 2]
    assert [p["startPlayer"] for p in data["players"]] == [True, False, False]  # no starter set


def test_solo_quest_lost_has_one_player_who_did_not_win():
    solo = play("quest", "Cauldron Quest", [Seat(0, "Mia", 0, False, {})], minutes=None)
    data = decoded(push_link(solo).url)
    check_documented(data)
    assert data["players"] == [{"name": "Mia", "winner": False, "startPlayer": True}]
    assert data["game"] == {"name": "Cauldron Quest", "sourceGameId": "quest", "noPoints": True}
    assert "durationMin" not in data


def test_non_ascii_names_travel_as_utf8_and_come_back_the_same():
    names = ["Zoë", "Łukasz", "Søren", "Ἀθηνᾶ", "美咲"]
    seats = [brew_seat(i, n, 10 - i, 0, i == 0) for i, n in enumerate(names)]
    link = push_link(play(seats=seats))
    data = decoded(link.url)
    check_documented(data)
    assert [p["name"] for p in data["players"]] == names
    assert "%C3%AB" in link.url        # ë as UTF-8, percent-encoded, not a \\u escape
    assert ", " not in compact(data) and '": ' not in compact(data)      # compact


def test_the_source_id_is_the_game_uuid_else_its_number():
    base = play(seats=[brew_seat(0, "Anna", 3, 0, True)])
    with_uuid = replace(base, uuid="5f0c8f7e-8d3e-4b8e-9d8c-5b0b2f6f7a10")
    assert payload(with_uuid)["sourcePlayId"] == "5f0c8f7e-8d3e-4b8e-9d8c-5b0b2f6f7a10"
    assert payload(base)["sourcePlayId"] == "7"       # a file from before game uuids


def test_the_play_date_is_when_it_ended_in_utc():
    assert play_date(play(seats=[brew_seat(0, "A", 1, 0, True)])) == "2026-11-30 18:44:30"
    unfinished_date = replace(play(seats=[brew_seat(0, "A", 1, 0, True)]), finished=None)
    assert play_date(unfinished_date) == "2026-11-30 18:02:00"
    assert datetime.strptime(play_date(unfinished_date), "%Y-%m-%d %H:%M:%S")


def test_a_game_not_finished_is_refused_naming_its_status():
    with pytest.raises(ValueError, match="status"):
        payload(play(seats=[Seat(0, "Anna", None, False, {})], status="running"))
    with pytest.raises(ValueError, match="players"):
        payload(play(seats=[]))


def test_a_link_too_long_drops_optional_fields_first_then_says_it_cannot():
    names = [f"Player with a long name {i}" for i in range(6)]
    seats = [Seat(i, n, 30 - i, i == 0, {"place": i + 1, "character": "witch"})
             for i, n in enumerate(names)]
    cauldron = play("cauldron", "Cauldron", seats)
    full = push_link(cauldron)
    assert full.url and not full.dropped
    roles_out = push_link(cauldron, limit=len(full.url) - 1)
    assert roles_out.dropped == ("players' roles",) and roles_out.url
    assert all("role" not in p for p in decoded(roles_out.url)["players"])
    assert decoded(roles_out.url)["players"][0]["rank"] == 1
    bare = push_link(cauldron, limit=300)
    assert bare.url is None and "too long for one QR code" in bare.problem
    assert bare.dropped == ("players' roles", "places", "length")
    huge = play(seats=[brew_seat(i, "Ж" * 400, 1, 0, i == 0) for i in range(6)])
    refused = push_link(huge)
    assert refused.url is None and f"{QR_BYTES_M} fit" in refused.problem
