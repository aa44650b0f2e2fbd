"""Every check decides (schema version 4, companion/club/facts.py): each check the club's rows
pass is fed NULL, missing keys and wrong types, and answers false, never NULL (a CHECK lets
NULL through); the facts of one game cannot contradict each other (one profile in two seats,
winners whatever their places, a profile the club does not hold, seats not named as the record
names them); the rater's figures are finite and within their ranges, and a reader takes none
that is not (``standings --json`` never prints NaN)."""

from __future__ import annotations

import json
import math
import uuid as uuids

import psycopg
import pytest

from companion.club.reading import rating
from tests.club.hostile import REFUSED, counts, login, send

GAME = "8d0f5f1e-3f43-4a0e-9a0c-0d0c7a5c3b11"
GOOD = {"uuid": GAME, "game": "cauldron", "status": "finished",
        "players": [{"seat": 0, "name": "Anna"}, {"seat": 1, "name": "Ben"}]}


def _variants() -> list[tuple[str, object]]:
    """The good record with each key missing, NULL, or of each wrong type, and each player's."""
    out: list[tuple[str, object]] = [("no record", None), ("{}", {}), ("[]", []),
                                     ("a string", "x"), ("a number", 1)]
    for key in GOOD:
        for shown, value in (("missing", ...), ("null", None), ("a number", 7),
                             ("an object", {}), ("a list", [])):
            record = dict(GOOD)
            if value is ...:
                del record[key]
            else:
                record[key] = value
            out.append((f"{key} {shown}", record))
    for key in ("seat", "name"):
        for shown, value in (("missing", ...), ("null", None), ("a string" if key == "seat"
                             else "a number", "0" if key == "seat" else 3), ("a list", [])):
            player = dict(GOOD["players"][0])
            if value is ...:
                del player[key]
            else:
                player[key] = value
            out.append((f"a player's {key} {shown}",
                        dict(GOOD, players=[player, GOOD["players"][1]])))
    out += [("a player not an object", dict(GOOD, players=["Anna", GOOD["players"][1]])),
            ("a player null", dict(GOOD, players=[None])), ("no players", dict(GOOD, players=[]))]
    return out


@pytest.mark.parametrize("shown, record", _variants(), ids=[v[0] for v in _variants()])
def test_the_record_check_refuses_null_missing_keys_and_wrong_types(club, shown, record):
    with psycopg.connect(club) as conn:
        answer = conn.execute("SELECT club.club_record_ok(%s::jsonb, %s, 'cauldron', "
                              "'finished')", (None if record is None else json.dumps(record),
                                              GAME)).fetchone()[0]
    assert answer is False, shown


@pytest.mark.parametrize("argument", range(4))
def test_the_record_check_refuses_each_argument_null(club, argument):
    args = [json.dumps(GOOD), GAME, "cauldron", "finished"]
    assert _record_ok(club, args) is True
    args[argument] = None
    assert _record_ok(club, args) is False


def _record_ok(club, args):
    with psycopg.connect(club) as conn:
        return conn.execute("SELECT club.club_record_ok(%s::jsonb, %s::uuid, %s, %s)",
                            args).fetchone()[0]


@pytest.mark.parametrize("status", [
    None, {"seats": [{}]}, {"seats": [{"name": None}]}, {"seats": [{"name": 3}]},
    {"seats": [None]}, {"seats": ["Anna"]}, {"seats": "Anna"}, {"seats": {}},
    {"seats": [{"name": "Anna", "score": "10"}]}, {"state": "won"}, [], "idle", 1])
def test_the_status_check_refuses_null_missing_keys_and_wrong_types(club, status):
    with psycopg.connect(club) as conn:
        answer = conn.execute("SELECT club.club_status_ok(%s::jsonb)", (
            None if status is None else json.dumps(status),)).fetchone()[0]
    assert answer is False


def test_a_status_of_seats_without_names_is_refused_and_nothing_changes(roles):
    before = counts(roles["admin"])
    with login(roles["table"]) as conn:
        with pytest.raises(REFUSED):
            conn.execute("INSERT INTO club.status (device, game, data) VALUES "
                         "(club.club_device(), NULL, '{\"seats\": [{}]}')")
    assert counts(roles["admin"]) == before


@pytest.mark.parametrize("record", [{}, {"uuid": None}, "players without names"])
def test_a_finished_game_with_a_record_that_decides_nothing_is_refused(roles, record):
    device = roles["devices"]["table"]
    game = str(uuids.uuid4())
    if record == "players without names":
        record = {"uuid": game, "game": "cauldron", "status": "finished",
                  "players": [{"seat": 0}, {"seat": 1}, {"seat": 2}]}
    before = counts(roles["admin"])
    with login(roles["table"]) as conn, pytest.raises(REFUSED):
        send(conn, device, record=json.dumps(record), game_uuid=game)
    assert counts(roles["admin"]) == before


def _profiles(roles, n):
    made = [str(uuids.uuid4()) for _ in range(n)]
    with login(roles["table"]) as conn:
        for i, p in enumerate(made):
            conn.execute("INSERT INTO club.profiles (uuid, name, added_by) VALUES "
                         "(%s, %s, club.club_device())", (p, f"P{i}"))
    return made


@pytest.mark.parametrize("case", ["one profile twice", "every seat a winner",
                                  "a winner at place 2", "a place-1 seat lost beside a winner",
                                  "no seat at place 1", "an unknown profile",
                                  "a seat named otherwise than its record"])
def test_facts_that_contradict_each_other_are_refused(roles, case):
    device = roles["devices"]["table"]
    a, b, c = _profiles(roles, 3)
    given: dict = {"names": ["Anna", "Ben", "Cleo"], "profiles": [a, b, c],
                   "places": [1, 2, 3], "winners": [True, False, False]}
    if case == "one profile twice":
        given["profiles"] = [a, a, c]
    elif case == "every seat a winner":
        given["winners"] = [True, True, True]
    elif case == "a winner at place 2":
        given["winners"] = [False, True, False]
    elif case == "a place-1 seat lost beside a winner":
        given.update(places=[1, 1, 3], winners=[True, False, False])
    elif case == "no seat at place 1":
        given.update(places=[2, 2, 3], winners=[False, False, False])
    elif case == "an unknown profile":
        given["profiles"] = [a, b, str(uuids.uuid4())]
    elif case == "a seat named otherwise than its record":
        game = str(uuids.uuid4())
        given.update(game_uuid=game, record=json.dumps(
            {"uuid": game, "game": "cauldron", "status": "finished",
             "players": [{"seat": i, "name": n} for i, n in enumerate(["Anna", "Ben", "Dora"])]}))
    before = counts(roles["admin"])
    with login(roles["table"]) as conn:
        with pytest.raises(REFUSED):
            send(conn, device, **given)
        send(conn, device, names=["Anna", "Ben", "Cleo"], profiles=[a, b, c])   # the same, true
        # a cooperative loss: everyone at place 1, no one wins; a shared first place wins
        send(conn, device, title="quest", names=["Anna", "Ben"], places=[1, 1],
             winners=[False, False])
        send(conn, device, names=["Anna", "Ben", "Cleo"], places=[1, 1, 3],
             winners=[True, True, False])
    assert counts(roles["admin"]) != before


@pytest.mark.parametrize("mu, sigma", [("NaN", 1.0), (25.0, "NaN"), ("Infinity", 1.0),
                                       (25.0, -1.0), (25.0, 0.0), (None, 1.0), (25.0, None),
                                       (1e9, 1.0), (25.0, 1e9)])
def test_the_rater_stores_no_figure_out_of_range(roles, mu, sigma):
    device = roles["devices"]["table"]
    with psycopg.connect(roles["admin"], autocommit=True) as admin:
        admin.execute("INSERT INTO club.seasons (name, starts, ends) VALUES "
                      "('All', '2000-01-01', '2100-01-01')")
    a, b, c = _profiles(roles, 3)
    with login(roles["table"]) as conn:
        send(conn, device, profiles=[a, b, c])
    before = counts(roles["admin"])
    with login(roles["rater"]) as conn:
        with pytest.raises(REFUSED):
            conn.execute("UPDATE club.standings SET mu = %s::float8, sigma = %s::float8 "
                         "WHERE profile = %s", (mu, sigma, a))
        conn.execute("UPDATE club.standings SET mu = 30, sigma = 7 WHERE profile = %s", (a,))
    assert counts(roles["admin"]) != before


@pytest.mark.parametrize("mu, sigma", [(math.nan, 1.0), (25.0, math.nan), (math.inf, 1.0),
                                       (25.0, -1.0), (25.0, None), ("25", 1.0), (True, 1.0)])
def test_a_reader_takes_no_rating_that_is_not_one(mu, sigma):
    assert rating(mu, sigma) == (None, None)
    assert json.dumps(rating(mu, sigma), allow_nan=False) == "[null, null]"
    assert rating(25.0, 8.3) == (25.0, 8.3)
