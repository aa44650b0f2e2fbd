"""What the games' logs tell (companion/history/tally.py), over a history of hundreds of games of
the three titles played by the rule-abiding autoplay tables with undos, redos and corrections
by hand among their steps: every figure is checked against a count made independently, by
folding each stored game event by event and reading the states (the seats' Magik when a Market
closes, the milestones as the state keeps them, the role of each resolved round, the potions
held at the end, the spell in play after each event), the buy commands' Magik, and the
sessions' own results. Profiles: a renamed profile shows its new name, two spellings of one
player count as one, a file from before profiles counts names as typed.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from typing import Any

import pytest

from companion.core.errors import CompanionError
from companion.games import get_rules
from companion.games.quest.odds import announce_odds
from companion.history.backup import backup
from companion.history.plays import read_plays
from companion.history.stats import find_player, gather, players, profile_names
from companion.history.tally import lines, tally
from companion.store import Store
from tests.support.history import cli

COUNTS = {"witchs_brew": 90, "quest": 100, "cauldron": 30}


@pytest.fixture(scope="module")
def history(histories):
    """220 finished games, one step in 25 an undo or a correction."""
    return histories.get(COUNTS, seed=12, mess=0.04)


def rate(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None


def ranked(counts: dict[str, int]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


# -- the independent count: each game folded event by event -----------------------------------
def replay(store: Store, game_id: int):
    """(command, events with the state after each, state before the step) per done step."""
    game, setup = store.conn.execute("SELECT game, setup FROM games WHERE id = ?",
                                     (game_id,)).fetchone()
    rules = get_rules(game)
    _, state = rules.start(json.loads(setup))
    for step in store.steps(game_id):
        if step.status != "done":
            continue
        before, after = state, []
        for event in step.events:
            state = rules.evolve(state, event)
            after.append((event, state))
        yield step.command, after, before


def cauldron_count(store: Store, ids: list[int], who) -> dict[str, Any]:
    from companion.games.cauldron import data as d

    seasons: dict[int, list[int]] = defaultdict(list)
    reached: dict[int, int] = defaultdict(int)
    taken = {m: [] for m in d.MILESTONES}
    by = {m: defaultdict(int) for m in d.MILESTONES}
    bought = {item: [] for item in d.ITEMS}
    for gid in ids:
        state = None
        ends = []
        for command, after, before in replay(store, gid):
            for event, state in after:
                if event.type == "market_closed":
                    ends.append([p["magik"] for p in state["players"]])
            if command.do == "buy":
                seat = [p["name"] for p in before["players"]].index(command.player)
                bought[command.args["item"]].append(before["players"][seat]["magik"]
                                                    - state["players"][seat]["magik"])
        assert state["over"]
        ends.append([p["magik"] for p in state["players"]])
        for n, magik in enumerate(ends, 1):
            seasons[n] += magik
            reached[n] += 1
        for m, mark in state["milestones"].items():
            if mark["reached"] and mark["by"] is not None:
                taken[m].append(mark["season"])
                by[m][who(gid, mark["by"])] += 1
    return {
        "magik_by_season": [{"season": n, "games": reached[n], "seats": len(v),
                             "average": mean(v)} for n, v in sorted(seasons.items())],
        "milestones": {m: {"taken": len(taken[m]), "games": len(ids),
                           "share": rate(len(taken[m]), len(ids)),
                           "average_season": mean(taken[m]), "by": ranked(by[m])}
                       for m in d.MILESTONES},
        "purchases": {item: {"count": len(c), "magik": sum(c),
                             "per_game": round(len(c) / len(ids), 2)}
                      for item, c in bought.items()},
    }


def witchs_brew_count(store: Store, ids: list[int], who) -> dict[str, Any]:
    from companion.games.witchs_brew.roles import ROLES

    roles = {key: [0, 0] for key in ROLES}
    ravens: dict[str, int] = defaultdict(int)
    for gid in ids:
        state = None
        for _, after, _ in replay(store, gid):
            for event, state in after:
                if event.type == "round_resolved":
                    last = state["last_round"]
                    roles[last["role"]][0] += 1
                    roles[last["role"]][1] += len(last["favors"])
        for seat, player in enumerate(state["players"]):
            held = sum(1 for p in player["potions"] if p["raven"])
            if held:
                ravens[who(gid, seat)] += held
    total = sum(ravens.values())
    return {"roles": {k: {"actions": a, "favours": f, "action_share": rate(a, a + f)}
                      for k, (a, f) in roles.items()},
            "ravens": {"taken": total, "per_game": round(total / len(ids), 2),
                       "by": ranked(ravens)}}


def quest_count(store: Store, ids: list[int], won: set[int]) -> dict[str, Any]:
    tried: dict[str, list[bool]] = defaultdict(list)
    open_paths: dict[int, int] = {}
    for gid in ids:
        state = None
        for _, after, _ in replay(store, gid):
            for event, state in after:
                if event.type == "spell_announced":
                    tried[state["spell"]["name"]].append(False)
                elif state["spell"] is not None and state["spell"]["rolls"]:
                    tried[state["spell"]["name"]][-1] = state["spell"]["success"] is True
        open_paths[gid] = 6 - len(state["obstacles"])
    odds = announce_odds()
    games: dict[str, int] = defaultdict(int)
    for n in open_paths.values():
        games[str(n)] += 1
    return {
        "paths_open": {"average": mean(list(open_paths.values())),
                       "average_when_won": mean([open_paths[g] for g in ids if g in won]),
                       "games": dict(sorted(games.items(), key=lambda kv: int(kv[0])))},
        "spells": {s: {"cast": len(tried[s]), "worked": sum(tried[s]),
                       "rate": rate(sum(tried[s]), len(tried[s])),
                       "chance": round(float(odds[s]), 3),
                       "exact": f"{odds[s].numerator}/{odds[s].denominator}"} for s in odds},
    }


def counted(store: Store, plays, who) -> dict[str, dict[str, Any]]:
    ids = defaultdict(list)
    for p in plays:
        ids[p.game].append(p.id)
    out = {}
    if ids["cauldron"]:
        out["cauldron"] = cauldron_count(store, ids["cauldron"], who)
    if ids["quest"]:
        out["quest"] = quest_count(store, ids["quest"], {p.id for p in plays if p.winners})
    if ids["witchs_brew"]:
        out["witchs_brew"] = witchs_brew_count(store, ids["witchs_brew"], who)
    return out


def by_name(plays):
    names = {(p.id, s.seat): s.name for p in plays for s in p.seats}
    return lambda gid, seat: names[gid, seat]


# -- the tests -------------------------------------------------------------------------------
def test_the_history_holds_undos_corrections_and_every_figure(history):
    path, played = history
    with Store(path, readonly=True) as store:
        statuses = dict(store.conn.execute("SELECT status, count(*) FROM steps GROUP BY status"))
        types = {t for (t,) in store.conn.execute("SELECT DISTINCT type FROM events")}
    assert statuses["dropped"] and statuses["done"]  # undone, then played on
    assert {"magik_adjusted", "adjusted", "obstacle_removed", "roll_corrected",
            "milestone_reached", "bought", "spell_judged", "path_blocked"} <= types
    quest = [p for p in played if p.game == "quest"]
    assert 0 < sum(p.results[0]["winner"] for p in quest) < len(quest)


def test_every_figure_matches_the_games_folded_event_by_event(history):
    path, played = history
    with Store(path, readonly=True) as store:
        plays = read_plays(store.conn)
        told = tally(store.conn, plays)
        assert told == counted(store, plays, by_name(plays))
    assert set(told) == set(COUNTS)
    # the last season's Magik is the results' score, seat by seat
    ends = [r["score"] for p in played if p.game == "cauldron" for r in p.results]
    assert told["cauldron"]["magik_by_season"][0]["seats"] == len(ends)
    spells = told["quest"]["spells"]
    assert all(s["cast"] for s in spells.values()) and any(s["worked"] for s in spells.values())
    assert told["witchs_brew"]["ravens"]["taken"] >= 4 * COUNTS["witchs_brew"] - 10


def test_a_players_games_and_one_title_are_tallied_alone(history):
    path, played = history
    with Store(path, readonly=True) as store:
        conn = store.conn
        plays = read_plays(conn)
        names = profile_names(conn)
        anna = find_player(plays, "anna", names)
        stats = gather(conn, player=anna)
        mine = [p for p in plays if any(s.profile == anna for s in p.seats)]
        assert {t.game: t.from_log for t in stats.titles} == counted(store, mine, by_name(mine))
        quest = gather(conn, game="quest", plays=plays)
        assert [t.game for t in quest.titles] == ["quest"]
        assert quest.titles[0].from_log == tally(conn, plays)["quest"]


def test_stats_print_the_logs_figures_in_words_and_json(history):
    path, _ = history
    code, out = cli("stats", "--db", str(path), "--game", "cauldron", "--json")
    assert code == 0
    told = json.loads(out)["titles"][0]["from_log"]
    assert told["magik_by_season"][0]["season"] == 1
    code, text = cli("stats", "--db", str(path))
    assert code == 0
    for line in ("Magik at each season's end, average per seat: 1: ", "Rituals of Power: taken in",
                 "Purchases: Field ", "Witch: ", "Ravens taken: ",
                 "Spell of Omniscience: cast ", "Paths left open: "):
        assert f"\n    {line}" in text, line


def test_in_words_each_title_says_what_its_log_tells():
    told = {"paths_open": {"average": 0.5, "average_when_won": 4.0, "games": {"0": 3, "4": 1}},
            "spells": {"exchange": {"cast": 4, "worked": 1, "rate": 0.25, "chance": 0.67,
                                    "exact": "343/512"}}}
    assert lines("quest", told) == [
        "Paths left open: 0.5 on average, 4 in the games won",
        "Charm of Exchange: cast 4 times, worked 1 (25%; exact chance 67%, 343/512)"]
    assert lines("quest", {}) == []


# -- profiles --------------------------------------------------------------------------------
@pytest.fixture
def copy(history, tmp_path):
    path, _ = history
    target = tmp_path / "copy.sqlite3"
    backup(str(path), str(target))
    return target


def test_a_renamed_profile_is_shown_by_its_new_name_and_found_by_either(copy):
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE profiles SET name = 'Annabel' WHERE name = 'Anna'")
        plays = read_plays(conn)
        names = profile_names(conn)
        anna = find_player(plays, "Anna", names)  # as typed at its games
        assert find_player(plays, "annabel", names) == anna
        assert players(plays, names)[anna] == "Annabel"
        stats = gather(conn, player=anna)
    assert [p.name for p in stats.players] == ["Annabel"] and stats.players[0].profile == anna
    code, out = cli("stats", "--db", str(copy), "--player", "Annabel")
    assert code == 0 and "\n  Annabel: " in out
    assert "Annabel " in out.split("Ravens taken:")[1].splitlines()[0]


def test_two_profiles_of_one_name_ask_for_the_uuid(copy, capsys):
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE profiles SET name = 'Anna' WHERE name = 'Barb'")
        uuids = sorted(u for (u,) in conn.execute("SELECT uuid FROM profiles WHERE name = 'Anna'"))
        plays = read_plays(conn)
        with pytest.raises(CompanionError, match="2 players are named 'Anna'; give the profile"):
            find_player(plays, "Anna", profile_names(conn))
        assert find_player(plays, uuids[0], profile_names(conn)) == uuids[0]
        stats = gather(conn)
    assert [p.name for p in stats.players].count("Anna") == 2


def test_a_file_from_before_profiles_counts_names_as_typed(copy):
    """Schema 3 had no profiles: the same figures, players by name, no profile."""
    with sqlite3.connect(copy) as conn:
        before = gather(conn).as_dict()
        for statement in ("DROP INDEX players_by_profile", "ALTER TABLE players DROP COLUMN "
                          "profile_id", "DROP TABLE profiles", "DROP INDEX games_by_uuid",
                          "ALTER TABLE games DROP COLUMN uuid",
                          "ALTER TABLE games DROP COLUMN device", "DROP TABLE meta",
                          "DROP TABLE outbox", "PRAGMA user_version = 3"):
            conn.execute(statement)
        conn.commit()
        after = gather(conn).as_dict()
    assert all(p["profile"] for p in before["players"])
    assert all(p["profile"] is None for p in after["players"])
    for p in before["players"]:
        p["profile"] = None
    assert after == before
    code, out = cli("stats", "--db", str(copy), "--player", "dora", "--json")
    assert code == 0 and json.loads(out)["players"][0]["name"] == "Dora"
