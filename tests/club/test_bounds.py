"""Every column a table writes, at its bounds (accepted) and past them (refused, nothing
changed), against a real PostgreSQL (schema version 3, companion/club/boundary.py): games and
their seats and records, profiles, statuses, conflicts."""

from __future__ import annotations

import json
import uuid as uuids

import pytest

from companion.club.boundary import SCORE
from tests.club.hostile import REFUSED, _record, counts, login, send, tried

def _long(n: int) -> str:
    return ("Annabel Lee the Fourth of Kingsbridge and Westminster " * 3)[:n]


#: (what, the send's keywords, accepted): every column a table writes, at and past its bounds.
GAMES = [
    ("a name of 40", {"names": ["Anna", "Ben", _long(40)]}, True),
    ("a name of 41", {"names": ["Anna", "Ben", _long(41)]}, False),
    ("a name of 10,000", {"names": ["Anna", "Ben", "x" * 10_000]}, False),
    ("a blank name", {"names": ["Anna", "Ben", "   "]}, False),
    ("a name with a newline and a bell", {"names": ["Anna", "Ben", "Cl\neo\a"]}, False),
    ("a name with a tab", {"names": ["Anna", "Ben", "Cl\teo"]}, False),
    ("a name reversing the wall's text", {"names": ["Anna", "Ben", "\u202eoelC"]}, False),
    ("a name in other scripts", {"names": ["Zoë", "Jürgen", "Ōtani 大谷"]}, True),
    ("place 1..seats", {"places": [3, 1, 2]}, True),
    ("place 0", {"places": [0, 1, 2]}, False),
    ("place -7", {"places": [-7, 1, 2]}, False),
    ("a place past the seats", {"places": [4, 1, 2]}, False),
    (f"score {SCORE}", {"scores": [SCORE, -SCORE, None]}, True),
    (f"score {SCORE + 1}", {"scores": [SCORE + 1, 0, 0]}, False),
    ("score 2^63-1", {"scores": [2**63 - 1, 0, 0]}, False),
    ("score -(2^63)", {"scores": [-(2**63), 0, 0]}, False),
    ("the title's fewest seats", {"title": "cauldron", "names": ["A", "B"]}, True),
    ("fewer seats than the title", {"title": "witchs_brew", "names": ["A", "B"]}, False),
    ("the title's most seats", {"title": "cauldron", "names": list("ABCDEF")}, True),
    ("more seats than the title", {"title": "cauldron", "names": list("ABCDEFG")}, False),
    ("an unknown title", {"title": "chess"}, False),
    ("started 9 minutes ahead", {"started": "now() + interval '9 minutes'",
                                 "finished": "now() + interval '9 minutes'"}, True),
    ("started 11 minutes ahead", {"started": "now() + interval '11 minutes'",
                                  "finished": "now() + interval '11 minutes'"}, False),
    ("finished before it started", {"started": "now()",
                                    "finished": "now() - interval '1 minute'"}, False),
    ("finished a year ahead", {"finished": "now() + interval '1 year'"}, False),
    ("started in 1970", {"started": "'1970-01-01'"}, False),
    ("a content that is no digest", {"content": "x" * 64}, False),
    ("a record of another game", {"record": _record(str(uuids.uuid4()), "cauldron",
                                                    ["Anna", "Ben", "Cleo"])}, False),
    ("a record that is a list", {"record": "[1, 2]"}, False),
    ("its own received_at", {"also": ("received_at", "'2000-01-01'")}, False),
]


@pytest.mark.parametrize("what, given, accepted", GAMES, ids=[g[0] for g in GAMES])
def test_every_game_column_at_and_past_its_bounds(roles, what, given, accepted):
    before = counts(roles["admin"])
    with login(roles["table"]) as conn:
        if accepted:
            send(conn, roles["devices"]["table"], **given)
        else:
            with pytest.raises(REFUSED):
                send(conn, roles["devices"]["table"], **given)
    assert (counts(roles["admin"]) == before) is not accepted


def test_a_record_whose_players_are_not_its_seats(roles):
    made = str(uuids.uuid4())
    with login(roles["table"]) as conn, pytest.raises(REFUSED):
        send(conn, roles["devices"]["table"], game_uuid=made,
             record=_record(made, "cauldron", ["Anna", "Ben", "Cleo", "Dora"]))


PROFILES = [
    ("a name of 40", (_long(40), None, None), True),
    ("a name of 41", (_long(41), None, None), False),
    ("a name of 10,000", ("x" * 10_000, None, None), False),
    ("a name with a newline and a bell", ("An\nna\a", None, None), False),
    ("a name with a bell", ("An\ana", None, None), False),
    ("an empty name", ("", None, None), False),
    ("a short name of 6", ("Anna", "Annabe", None), True),
    ("a short name of 7", ("Anna", "Annabel", None), False),
    ("a short name of 500", ("Anna", "A" * 500, None), False),
    ("a palette colour", ("Anna", None, "Sky blue"), True),
    ("another colour", ("Anna", None, "chartreuse"), False),
    ("a colour as CSS", ("Anna", None, "red; background: url(x)"), False),
]


@pytest.mark.parametrize("what, given, accepted", PROFILES, ids=[p[0] for p in PROFILES])
def test_every_profile_column_at_and_past_its_bounds(roles, what, given, accepted):
    tried(roles, "INSERT INTO club.profiles (uuid, name, short_name, colour, added_by) VALUES "
          "(gen_random_uuid(), %s, %s, %s, club.club_device())", given, accepted)


STATUSES = [
    ("as a table writes it", '{"state": "playing", "seats": [{"name": "Anna", "score": 3}]}',
     True),
    ("an unknown state", '{"state": "won"}', False),
    ("nine seats", json.dumps({"seats": [{"name": f"P{i}"} for i in range(9)]}), False),
    ("a seat's name with a newline", '{"seats": [{"name": "A\\nB"}]}', False),
    ("a score of 2^63", '{"seats": [{"name": "A", "score": 9223372036854775807}]}', False),
    ("a score that is text", '{"seats": [{"name": "A", "score": "lots"}]}', False),
    ("20,000 bytes", json.dumps({"asks": "x" * 20_000}), False),
    ("a list", "[]", False),
]


@pytest.mark.parametrize("what, data, accepted", STATUSES, ids=[s[0] for s in STATUSES])
def test_every_status_at_and_past_its_bounds(roles, what, data, accepted):
    tried(roles, "INSERT INTO club.status (device, game, data) VALUES (club.club_device(), "
          "NULL, %s::jsonb)", (data,), accepted)


CONFLICTS = [
    ("as a table records one", ("a" * 64, "x" * 4000, "{}"), True),
    ("what differs in 4,001 characters", ("a" * 64, "x" * 4001, "{}"), False),
    ("a content that is no digest", ("A" * 64, "x", "{}"), False),
    ("a record that is a list", ("a" * 64, "x", "[]"), False),
    ("a record of 2 MB", ("a" * 64, "x", json.dumps({"x": "y" * 2_000_000})), False),
]


@pytest.mark.parametrize("what, given, accepted", CONFLICTS, ids=[c[0] for c in CONFLICTS])
def test_every_conflict_column_at_and_past_its_bounds(roles, what, given, accepted):
    tried(roles, "INSERT INTO club.conflicts (uuid, device, content, differs, record) VALUES "
          "(gen_random_uuid(), club.club_device(), %s, %s, %s::jsonb)", given, accepted)


@pytest.mark.parametrize("title, accepted", [("quest", True), ("chess", False)])
def test_a_status_names_a_known_title(roles, title, accepted):
    tried(roles, "INSERT INTO club.status (device, game, data) VALUES (club.club_device(), %s, "
          "'{}')", (title,), accepted)
