"""Player profiles, game uuids and the device id (schema 4, companion/store/profiles.py): a new game
links each seat to the profile of that name (made on the spot), a profile is renamed or
coloured only with a clean value, and a file written before profiles (schema 3, 2 or 1) opens
with one profile per seat name, every seat linked and every game given a uuid, every row kept.
"""

from __future__ import annotations

import re
import sqlite3
import uuid
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.core import palette
from companion.core.errors import SetupError, StoreError
from companion.games import get_rules
from companion.history.plays import read_plays
from companion.store.profiles import Profile
from companion.store import Store
from companion.store.schema import SCHEMA_VERSION
from tests.companion.test_store_summary import V2_COLUMNS, as_older_schema, as_schema_2

QUEST = {"needed": ["rotten_egg", "newt_eye", "bat_wing"]}


def brew(store: Store, names: list[str], colours: list[str] | None = None) -> int:
    setup = {"players": names, **({"colours": colours} if colours else {})}
    return store.new_game(get_rules("witchs_brew"), setup).game_id


def quest(store: Store, names: list[str]) -> int:
    return store.new_game(get_rules("quest"), {"players": names, **QUEST}).game_id


def linked(store: Store) -> list[tuple[int, int, str, str]]:
    """(game, seat, seat name, profile name) of every players row."""
    return store.conn.execute(
        "SELECT p.game_id, p.seat, p.name, pr.name FROM players p LEFT JOIN profiles pr "
        "ON pr.id = p.profile_id ORDER BY 1, 2").fetchall()


def test_a_new_game_links_each_seat_to_the_profile_of_its_name_made_on_the_spot():
    with Store() as store:
        assert store.profiles() == []
        brew(store, ["Anna", "Barb", "Carl"], ["Blue", "orange", "#D55E00"])
        quest(store, [" anna", "Dora"])   # the same Anna: trimmed, case aside
        names = {p.name: p for p in store.profiles()}
        assert sorted(names) == ["Anna", "Barb", "Carl", "Dora"]
        assert names["Anna"].games == 2 and names["Barb"].games == 1
        assert (names["Anna"].colour, names["Barb"].colour, names["Carl"].colour,
                names["Dora"].colour) == ("Blue", "Orange", "Vermilion", None)
        assert len({p.uuid for p in names.values()}) == 4
        assert all(uuid.UUID(p.uuid).version == 4 for p in names.values())
        assert [row[3] for row in linked(store)] == ["Anna", "Barb", "Carl", "Anna", "Dora"]
        brew(store, ["Emil", "Anna", "Fynn"], ["Black", "White", "Yellow"])
        assert {p.name: p.colour for p in store.profiles()}["Anna"] == "White"  # the latest


def test_profiles_come_most_recently_played_first_then_by_name_in_one_query():
    with Store() as store:
        brew(store, ["Carl", "barb", "Anna"])
        first = {p.name for p in store.profiles()}
        later = (datetime.now(timezone.utc) + timedelta(hours=1)).isoformat(timespec="seconds")
        store.conn.execute("UPDATE profiles SET last_played_at = ? WHERE name = 'Carl'",
                           (later,))
        seen: list[str] = []
        store.conn.set_trace_callback(seen.append)
        listed = store.profiles()
        store.conn.set_trace_callback(None)
        assert len(seen) == 1 and "steps" not in seen[0] and "events" not in seen[0]
        assert first == {"Anna", "barb", "Carl"}
        assert [p.name for p in listed] == ["Carl", "Anna", "barb"]
        assert [p.name for p in store.profiles(limit=2)] == ["Carl", "Anna"]


def test_each_game_has_its_own_uuid_and_the_database_one_device_id_for_good(tmp_path):
    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        device = store.device_id
        ids = [brew(store, ["Anna", "Barb", "Carl"]), quest(store, ["Dora"])]
        infos = {g.id: g for g in store.games()}
        assert len({infos[i].uuid for i in ids}) == 2
    with Store(db) as store:
        assert store.device_id == device and uuid.UUID(device).version == 4
        assert {g.id: g.uuid for g in store.games()} == {i: infos[i].uuid for i in ids}
        plays = read_plays(store.conn, unfinished=True)
        assert {p.device for p in plays} == {device}
        dora = next(p.uuid for p in store.profiles() if p.name == "Dora")
        assert [s.profile for s in plays[1].seats] == [dora]
    with Store(tmp_path / "other.sqlite3") as other:
        assert other.device_id != device


def test_of_two_profiles_of_one_name_the_one_picked_is_linked():
    with Store() as store:
        brew(store, ["Anna", "Barb", "Carl"])
        other = str(uuid.uuid4())   # another table's Anna, as an import keeps her apart
        store.conn.execute("INSERT INTO profiles (uuid, name, name_key, created_at) VALUES "
                           "(?, 'Anna', 'anna', '2026-01-01T00:00:00+00:00')", (other,))
        game = store.new_game(get_rules("quest"), {"players": ["anna", "Dora"], **QUEST},
                              picked=[other, None]).game_id
        seats = [s.profile for s in read_plays(store.conn, unfinished=True)[-1].seats]
        assert seats[0] == other and seats[1] == next(p.uuid for p in store.profiles()
                                                      if p.name == "Dora")
        count = store.count()
        for picked, words in (([str(uuid.uuid4())], "profiles[0]: there is no player profile"),
                              ([None, other], "profiles[1]: the profile picked is 'Anna', not "
                                              "the seat's player 'Dora'")):
            with pytest.raises(SetupError, match=re.escape(words)):
                store.new_game(get_rules("quest"), {"players": ["Anna", "Dora"], **QUEST},
                               picked=picked)
        assert store.count() == count and game == max(g.id for g in store.games())


@pytest.mark.parametrize("change, field", [
    ({"name": "  "}, "name: a profile needs a name"),
    ({"name": "BARB"}, "name: another player profile is already called 'Barb'"),
    ({"name": "x" * 41}, "name: "),
    ({"short_name": "Annabel"}, "short_name: 'Annabel' has 7 letters"),
    ({"colour": "mauve"}, "colour: 'mauve' is not a palette colour"),
    ({"name": "An\ud800na"}, "name holds a broken character"),
])
def test_a_profile_change_the_rules_refuse_names_its_field_and_changes_nothing(change, field):
    with Store() as store:
        brew(store, ["Anna", "Barb", "Carl"])
        before = store.profiles()
        anna = next(p for p in before if p.name == "Anna")
        with pytest.raises(SetupError, match=field.replace("(", r"\(")) as refused:
            store.update_profile(anna.uuid, **{**change, "short_name": change.get(
                "short_name", "An")})
        assert isinstance(refused.value, ValueError)
        assert store.profiles() == before


def test_a_profile_is_renamed_shortened_coloured_and_cleared():
    with Store() as store:
        brew(store, ["Anna", "Barb", "Carl"])
        anna = next(p for p in store.profiles() if p.name == "Anna")
        changed = store.update_profile(anna.uuid, name=" Annie ", short_name="An",
                                       colour="purple")
        assert changed == Profile(anna.uuid, "Annie", "An", "Reddish purple", 1,
                                  anna.last_played)
        assert store.update_profile(anna.uuid, name="annie", short_name="",
                                    colour="") == Profile(anna.uuid, "annie", None, None, 1,
                                                          anna.last_played)
        assert [row[2] for row in linked(store)] == ["Anna", "Barb", "Carl"]  # seats as played
        with pytest.raises(StoreError, match="no player profile"):
            store.update_profile(str(uuid.uuid4()), name="Zed")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.one_of(st.none(), st.text(max_size=45)),
       short=st.one_of(st.none(), st.text(max_size=9)),
       colour=st.one_of(st.none(), st.sampled_from(["", "Blue", "blue", "#000000", "teal"]),
                        st.text(max_size=8)))
def test_any_profile_change_is_applied_whole_or_refused_whole(name, short, colour):
    with Store() as store:
        brew(store, ["Anna", "Barb", "Carl"])
        before = store.profiles()
        anna = next(p for p in before if p.name == "Anna")
        try:
            after = store.update_profile(anna.uuid, name=name, short_name=short, colour=colour)
        except SetupError:
            assert store.profiles() == before
            return
        if name is not None:
            assert after.name == name.strip() and after.name
        if short is not None:
            assert after.short_name == (short.strip() or None)
            assert len(after.short_name or "") <= 6
        if colour is not None:
            assert after.colour == (palette.find(colour).name if colour else None)
        assert {p.uuid: p for p in store.profiles()} == {
            p.uuid: after if p.uuid == anna.uuid else p for p in before}


# -- files from before profiles ---------------------------------------------------------------
#: The tables as schema 3 made them (companion/store/schema.py before version 4).
SCHEMA_3 = """
CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, setup TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'abandoned')),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, finished_at TEXT, summary TEXT,
    done_steps INTEGER NOT NULL DEFAULT 0, damaged TEXT);
CREATE INDEX games_by_status ON games (status, id);
CREATE TABLE players (game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
    name TEXT NOT NULL, PRIMARY KEY (game_id, seat));
CREATE TABLE steps (game_id INTEGER NOT NULL REFERENCES games(id), n INTEGER NOT NULL,
    command TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('done', 'undone', 'dropped')),
    created_at TEXT NOT NULL, source TEXT, PRIMARY KEY (game_id, n)) WITHOUT ROWID;
CREATE TABLE events (game_id INTEGER NOT NULL, step INTEGER NOT NULL, seq INTEGER NOT NULL,
    type TEXT NOT NULL, data TEXT NOT NULL, automatic INTEGER NOT NULL,
    undoable INTEGER NOT NULL, PRIMARY KEY (game_id, step, seq),
    FOREIGN KEY (game_id, step) REFERENCES steps(game_id, n)) WITHOUT ROWID;
CREATE TABLE results (game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
    name TEXT NOT NULL, score INTEGER NOT NULL, winner INTEGER NOT NULL, detail TEXT NOT NULL,
    PRIMARY KEY (game_id, seat));
CREATE TABLE clocks (game_id INTEGER PRIMARY KEY REFERENCES games(id), data TEXT NOT NULL,
    updated_at TEXT NOT NULL);
CREATE TABLE checkpoints (game_id INTEGER NOT NULL REFERENCES games(id), n INTEGER NOT NULL,
    state TEXT NOT NULL, version TEXT NOT NULL, PRIMARY KEY (game_id, n)) WITHOUT ROWID;
"""
V3_COLUMNS = {"games": "id, game, setup, status, created_at, updated_at, finished_at, summary, "
                       "done_steps, damaged",
              "players": "game_id, seat, name", "steps": "*", "events": "*", "results": "*",
              "clocks": "*", "checkpoints": "*"}


def as_schema_3(source, target) -> dict[str, list[tuple]]:
    """The games of ``source`` in a new file made with schema 3's tables; every row it holds."""
    return as_older_schema(source, target, SCHEMA_3, 3, V3_COLUMNS)


def older_history(path) -> None:
    """Games whose seat names repeat in other spellings, a day apart, with and without
    colours: Anna's latest game spells her "ANNA" and gives her White; Barb's colour comes from
    her latest game that chose one."""
    day = datetime(2026, 3, 1, 19, 0, tzinfo=timezone.utc)
    with Store(path) as store:
        games = [brew(store, ["anna", "Barb", "Carl"], ["Blue", "Orange", "Black"]),
                 quest(store, ["Dora", "barb "]),
                 brew(store, ["ANNA", "Emil", "Dora"], ["White", "Yellow", "Sky blue"]),
                 quest(store, ["Carl"])]
        for i, game_id in enumerate(games):
            store.conn.execute("UPDATE games SET created_at = ? WHERE id = ?",
                               ((day + timedelta(days=i)).isoformat(timespec="seconds"), game_id))


def expect_migrated(store: Store, count: int) -> None:
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
    profiles = {p.name: p for p in store.profiles()}
    assert sorted(profiles) == ["ANNA", "Carl", "Dora", "Emil", "barb"]  # latest spellings
    assert {n: (p.colour, p.games) for n, p in profiles.items()} == {
        "ANNA": ("White", 2), "barb": ("Orange", 2), "Carl": ("Black", 2),
        "Dora": ("Sky blue", 2), "Emil": ("Yellow", 1)}
    assert profiles["Carl"].last_played == "2026-03-04T19:00:00+00:00"
    assert [p.name for p in store.profiles()][:2] == ["Carl", "ANNA"]
    assert all(row[3] is not None for row in linked(store))
    uuids = [g.uuid for g in store.games()]
    assert len(set(uuids)) == count and None not in uuids
    assert uuid.UUID(store.device_id).version == 4
    assert {p.device for p in read_plays(store.conn, unfinished=True)} == {store.device_id}


@pytest.mark.parametrize("schema", [3, 2])
def test_a_file_from_before_profiles_opens_with_one_profile_per_seat_name(tmp_path, schema):
    built = tmp_path / "new.sqlite3"
    older_history(built)
    old = tmp_path / "old.sqlite3"
    rows, columns = ((as_schema_3(built, old), V3_COLUMNS) if schema == 3
                     else (as_schema_2(built, old), V2_COLUMNS))
    with Store(old, readonly=True) as reader:   # a reader changes nothing and still reads
        assert reader.profiles() == [] and reader.device_id == ""
        assert [g.uuid for g in reader.games()] == [None] * 4
        assert all(s.profile is None for p in read_plays(reader.conn, unfinished=True)
                   for s in p.seats)
    with Store(old) as store:
        assert store.notice is None
        expect_migrated(store, 4)
        for table, listed in columns.items():   # every row kept as it was
            assert store.conn.execute(f"SELECT {listed} FROM {table} ORDER BY 1, 2"
                                      ).fetchall() == rows[table]
        device, uuids = store.device_id, [g.uuid for g in store.games()]
        quest(store, ["anna"])   # links to ANNA: no second Anna
        assert len(store.profiles()) == 5 and store.profiles()[0].name == "ANNA"
    with Store(old) as store:   # migrated once: the same ids next time
        assert store.device_id == device and [g.uuid for g in store.games()][1:] == uuids


def test_a_migration_that_fails_leaves_the_file_at_its_version(tmp_path, monkeypatch):
    built, old = tmp_path / "new.sqlite3", tmp_path / "old.sqlite3"
    older_history(built)
    rows = as_schema_3(built, old)
    import companion.store.profiles as profiles

    def broken(conn):
        conn.execute("INSERT INTO profiles (uuid, name, name_key, created_at) "
                     "VALUES ('x', 'x', 'x', 'now')")
        raise RuntimeError("the card went away")
    monkeypatch.setattr(profiles, "fill_profiles", broken)
    with pytest.raises(RuntimeError):
        Store(old).close()
    raw = sqlite3.connect(old)
    try:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 3
        assert not raw.execute("SELECT 1 FROM sqlite_master WHERE name = 'profiles'").fetchall()
        assert raw.execute("SELECT game_id, seat, name FROM players ORDER BY 1, 2"
                           ).fetchall() == rows["players"]
    finally:
        raw.close()
