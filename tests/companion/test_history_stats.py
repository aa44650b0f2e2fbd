"""``companion stats`` over a history of hundreds of games of all three titles, played to their
ends by the rule-abiding autoplay tables into a real store (tests/support/history.py): every
figure is checked against a direct count over the sessions' own results (as the rules gave them
at the end, in memory, not as read back from the file). The timing of ``stats`` over 1,000
games is printed beside a plain SQL query of the same rows (a figure, not an assertion)."""

from __future__ import annotations

import json
import sqlite3
from itertools import groupby
from typing import Any

import pytest

from companion.cli.main import main
from companion.history.backup import backup
from companion.history.export_all import render
from companion.history.plays import read_plays
from companion.history.stats import compute
from companion.store import Store
from tests.support.figures import median_ms, report
from tests.support.history import COUNTS, TITLES, Played, cli


# -- the figures, counted directly -----------------------------------------------------------
def streak(won: list[bool]) -> int:
    return max((len(list(run)) for w, run in groupby(won) if w), default=0)


def mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None


def expected_figures(games: list[Played], name: str | None, scored: bool) -> dict[str, Any]:
    """A player's (``name``) or a title's (None: every seat) figures, in the order games ended."""
    games = sorted(games, key=lambda p: (p.finished, p.id))
    if name is None:
        won = [any(r["winner"] for r in p.results) for p in games]
        scores = [r["score"] for p in games for r in p.results]
    else:
        mine = [next(r for r in p.results if r["name"] == name) for p in games]
        won, scores = [r["winner"] for r in mine], [r["score"] for r in mine]
    return {"games": len(games), "wins": sum(won),
            "win_rate": round(sum(won) / len(games), 3) if games else None,
            "average_score": mean(scores) if scored else None,
            "best_score": max(scores) if scored and scores else None,
            "average_minutes": mean([p.minutes for p in games]),
            "longest_streak": streak(won)}


def profiles(path: Any) -> dict[str, str]:
    """Each name's profile uuid, as the store linked them at setup (one profile per name)."""
    with sqlite3.connect(path) as conn:
        return dict(conn.execute("SELECT name, uuid FROM profiles"))


def without_log(stats: dict[str, Any]) -> dict[str, Any]:
    """The figures from the results only (what the logs tell is test_history_tally's)."""
    return {**stats, "titles": [{k: v for k, v in t.items() if k != "from_log"}
                                for t in stats["titles"]]}


def expected_stats(played: list[Played], player: str | None = None,
                   game: str | None = None, linked: dict[str, str] | None = None
                   ) -> dict[str, Any]:
    games = [p for p in played if p.status == "finished" and game in (None, p.game)
             and (player is None or player in p.names)]
    people = sorted({n for p in games for n in p.names} if player is None else {player})
    players = []
    for name in people:
        mine = [p for p in games if name in p.names]
        players.append({"name": name, "profile": (linked or {}).get(name),
                        "overall": expected_figures(mine, name, False),
                        "titles": {t: expected_figures([p for p in mine if p.game == t], name,
                                                       t != "quest")
                                   for t in sorted({p.game for p in mine})}})
    players.sort(key=lambda p: (-p["overall"]["games"], p["name"]))
    titles = []
    for t in sorted({p.game for p in games}):
        of = [p for p in games if p.game == t]
        titles.append({"game": t, "title": TITLES[t], **expected_figures(of, None, t != "quest"),
                       "extra": expected_extra(t, of)})
    return {"games": len(games), "players": players, "titles": titles}


def expected_extra(game: str, games: list[Played]) -> dict[str, Any]:
    seats = [r for p in games for r in p.results]
    if game == "cauldron":
        characters = sorted({r["character"] for r in seats})
        counted = {c: ([r for r in seats if r["character"] == c]) for c in characters}
        return {"average_winning_magik": mean([r["score"] for r in seats if r["winner"]]),
                "average_brews": mean([r["brews"] for r in seats]),
                "characters": {c: {"seats": len(rs), "wins": sum(r["winner"] for r in rs),
                                   "win_rate": round(sum(r["winner"] for r in rs) / len(rs), 3)}
                               for c, rs in counted.items()}}
    if game == "witchs_brew":
        tied = 0
        for p in games:
            top = max(r["score"] for r in p.results)
            at_top = [r for r in p.results if r["score"] == top]
            tied += len(at_top) > 1 and sum(r["winner"] for r in at_top) < len(at_top)
        return {"average_winning_score": mean([r["score"] for r in seats if r["winner"]]),
                "shared_wins": sum(sum(r["winner"] for r in p.results) > 1 for p in games),
                "decided_by_tiebreak": tied}
    won = sum(all(r["winner"] for r in p.results) for p in games)
    return {"team_wins": won, "team_win_rate": round(won / len(games), 3),
            "average_players": mean([len(p.results) for p in games])}


# -- stats -----------------------------------------------------------------------------------
def test_the_history_holds_every_title_and_real_ties(history):
    _, played = history
    finished = [p for p in played if p.status == "finished"]
    assert {g: sum(p.game == g for p in finished) for g in COUNTS} == COUNTS
    assert {p.status for p in played} == {"finished", "running", "abandoned"}
    quest = [p for p in finished if p.game == "quest"]
    assert 0 < sum(p.results[0]["winner"] for p in quest) < len(quest)  # won and lost games
    assert any(p.variants for p in finished) and any(p.clock for p in finished)


def test_stats_match_a_direct_count_of_the_sessions_results(history):
    path, played = history
    with Store(path, readonly=True) as store:
        stats = compute(read_plays(store.conn)).as_dict()
    assert without_log(stats) == expected_stats(played, linked=profiles(path))
    assert stats["games"] == sum(COUNTS.values())
    assert any(p["overall"]["longest_streak"] >= 3 for p in stats["players"])


@pytest.mark.parametrize("player, game, name, title", [
    ("Anna", None, "Anna", None), (None, "cauldron", None, "cauldron"),
    ("dora", "Cauldron Quest", "Dora", "quest"), ("Emil", "Witch's Brew", "Emil", "witchs_brew"),
])
def test_stats_filtered_by_player_and_title_from_the_command_line(history, player, game, name,
                                                                    title):
    path, played = history
    args = ["stats", "--db", str(path), "--json"]
    args += ["--player", player] if player else []
    args += ["--game", game] if game else []
    code, out = cli(*args)
    assert code == 0
    assert without_log(json.loads(out)) == expected_stats(played, name, title, profiles(path))


def test_stats_in_words_name_every_player_and_title(history):
    path, played = history
    code, out = cli("stats", "--db", str(path))
    assert code == 0 and out.startswith(f"{sum(COUNTS.values())} finished games")
    for name in {n for p in played for n in p.names}:
        assert f"\n  {name}: " in out
    for title in TITLES.values():
        assert f"\n  {title}: " in out
    assert "wins by character: " in out and "team win rate: " in out


@pytest.mark.parametrize("args, words", [
    (["--player", "Zed"], "--player: nobody named 'Zed' played these games; the players are"),
    (["--game", "chess"], "--game: there is no game 'chess'; the games are Witch's Brew"),
])
def test_stats_names_an_unknown_player_or_title(history, capsys, args, words):
    path, _ = history
    assert main(["stats", "--db", str(path), *args]) == 2
    assert words in capsys.readouterr().err


def test_stats_say_when_no_game_matches(history, tmp_path, monkeypatch):
    path, played = history
    never = "Fynn"
    assert any(never in p.names for p in played)
    assert not any(never in p.names for p in played if p.game == "cauldron")
    assert cli("stats", "--db", str(path), "--game", "cauldron", "--player", never) == (
        0, f"No finished games of Cauldron with {never}.\n")
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "none.sqlite3"))
    assert cli("stats") == (0, "No finished games yet.\n")
    assert json.loads(cli("stats", "--json")[1]) == {"games": 0, "players": [], "titles": []}


def test_a_streak_follows_the_moments_games_ended_across_a_clock_change():
    """On the night clocks go back, 02:10+01:00 comes after 02:30+02:00: as text it would not,
    and Anna's won-lost-won would read as two wins in a row."""
    from companion.history.plays import Play, Seat

    def play(n: int, ended: str, won: bool) -> Play:
        return Play(n, "witchs_brew", "Witch's Brew", "finished", ended, ended, 30.0,
                    (Seat(0, "Anna", 5, won, {}), Seat(1, "Barb", 4, not won, {})), (), {})

    plays = [play(1, "2026-10-25T02:30:00+02:00", True),
             play(2, "2026-10-25T02:10:00+01:00", False),
             play(3, "2026-10-25T03:00:00+01:00", True)]
    anna = compute(plays, player="Anna").players[0]
    assert (anna.overall.wins, anna.overall.longest_streak) == (2, 1)


# -- 1,000 games -----------------------------------------------------------------------------
def clone_finished(conn: sqlite3.Connection, total: int) -> None:
    """Copies of the finished games (their list rows: game, players, results, clock) until
    ``total`` are finished, in one transaction: a thousand games for the timing."""
    ids = [r[0] for r in conn.execute("SELECT id FROM games WHERE status = 'finished'")]
    more = total - len(ids)
    conn.execute("BEGIN IMMEDIATE")
    for i in range(more):
        source = ids[i % len(ids)]
        new = conn.execute(
            "INSERT INTO games (game, setup, status, created_at, updated_at, finished_at, "
            "done_steps) SELECT game, setup, status, created_at, updated_at, finished_at, "
            "done_steps FROM games WHERE id = ?", (source,)).lastrowid
        for table, columns in (("players", "seat, name"),
                               ("results", "seat, name, score, winner, detail"),
                               ("clocks", "data, updated_at")):
            conn.execute(f"INSERT INTO {table} (game_id, {columns}) SELECT ?, {columns} "
                         f"FROM {table} WHERE game_id = ?", (new, source))
    conn.execute("COMMIT")



def test_stats_over_a_thousand_games_beside_a_plain_query(history, tmp_path):
    path, _ = history
    copy = tmp_path / "thousand.sqlite3"
    backup(str(path), str(copy))
    with Store(copy) as store:
        clone_finished(store.conn, 1000)
    with Store(copy, readonly=True) as store:
        conn = store.conn
        stats = compute(read_plays(conn))
        assert stats.games == 1000
        assert sum(t.figures.games for t in stats.titles) == 1000

        def plain() -> None:
            conn.execute("SELECT id, game, setup, created_at, finished_at FROM games "
                         "WHERE status = 'finished'").fetchall()
            conn.execute("SELECT r.game_id, r.seat, r.name, r.score, r.winner, r.detail FROM "
                         "results r JOIN games g ON g.id = r.game_id "
                         "WHERE g.status = 'finished'").fetchall()
            conn.execute("SELECT game_id, data FROM clocks").fetchall()

        sql = median_ms(plain, 5)
        read = median_ms(lambda: read_plays(conn), 5)
        whole = median_ms(lambda: compute(read_plays(conn)), 5)
        text = median_ms(lambda: render(read_plays(conn), "csv"), 5)
    command = median_ms(lambda: cli("stats", "--db", str(copy), "--json"), 3)
    report("history", f"stats over 1,000 finished games: {whole:.1f} ms (reading the plays "
                      f"{read:.1f} ms of it); a plain SQL query of the same rows {sql:.1f} ms; "
                      f"companion stats --json in-process {command:.1f} ms; export --all csv "
                      f"{text:.1f} ms")
